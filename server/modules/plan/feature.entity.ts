import { z } from 'zod';
import type { Feature } from '../../../contract/schemas/plan';
import { featureInputSchema } from '../../../contract/schemas/plan';
import { featureKeyOf } from '../../../contract/integrations';
import { features } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { entityRoles } from '../../../contract/access';
import { featureList } from '../../../contract/lists/feature';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

const featureItem: z.ZodType<Feature> = z.object({
  id: z.number(),
  featureName: z.string(),
  key: z.string(),
  description: z.string().nullable(),
});

/** The tenant's feature catalogue. */
export const featureEntity: EntityDefinition<typeof features, Feature, typeof featureInputSchema> = {
  name: 'feature',
  table: features,
  id: features.id,
  scope: { kind: 'tenant', column: features.tenantId },
  searchColumns: [features.featureName, features.description],
  filters: bindFilters(featureList, {
    featureName: features.featureName,
    description: features.description,
  }),
  naturalOrder: textSort(features.featureName), // the list's byName order: exports seek on it
  sortable: bindSorts(featureList, { featureName: textSort(features.featureName) }),
  item: featureItem,
  input: featureInputSchema,
  label: (f) => f.featureName,
  list: (db, window) =>
    windowed(
      db
        .select({
          id: features.id,
          featureName: features.featureName,
          key: features.key,
          description: features.description,
        })
        .from(features)
        .orderBy(...byName(features.featureName, features.id))
        .$dynamic(),
      window,
    ),
  // The key is stable: Create takes the one sent or the name's slug; Update without one keeps it.
  toRow: (input) => ({
    featureName: input.featureName,
    key: (input.key ?? (input.id ? undefined : featureKeyOf(input.featureName))) as string,
    description: input.description ?? null,
  }),
  export: bindExport(featureList),
  roles: entityRoles('feature'),
};
