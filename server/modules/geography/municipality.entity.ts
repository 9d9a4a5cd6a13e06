import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Municipality } from '../../../contract/schemas/geography';
import { municipalityInputSchema } from '../../../contract/schemas/geography';
import { municipalities, provinces } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { byName, windowed } from '../../crud/window';
import { entityRoles } from '../../../contract/access';
import { municipalityList } from '../../../contract/lists/municipality';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { textSort } from '../../crud/sort';

const municipalityItem: z.ZodType<Municipality> = z.object({
  id: z.number(),
  name: z.string(),
  zip: z.string(),
  provinceId: z.number(),
  province: z.object({ id: z.number(), name: z.string(), abbreviation: z.string() }).nullable(),
});

export const municipalityEntity: EntityDefinition<
  typeof municipalities,
  Municipality,
  typeof municipalityInputSchema
> = {
  name: 'municipality',
  table: municipalities,
  id: municipalities.id,
  scope: { kind: 'global' },
  searchColumns: [municipalities.name, municipalities.zip],
  filters: bindFilters(municipalityList, {
    name: municipalities.name,
    zip: municipalities.zip,
    provinceId: municipalities.provinceId,
  }),
  naturalOrder: textSort(municipalities.name), // the list's byName order: exports seek on it
  sortable: bindSorts(municipalityList, {
    name: textSort(municipalities.name),
    zip: textSort(municipalities.zip),
    province: textSort(provinces.name),
  }),
  item: municipalityItem,
  input: municipalityInputSchema,
  label: (m) => m.name,
  list: (db, window) =>
    windowed(
      db
        .select({
          id: municipalities.id,
          name: municipalities.name,
          zip: municipalities.zip,
          provinceId: municipalities.provinceId,
          province: { id: provinces.id, name: provinces.name, abbreviation: provinces.abbreviation },
        })
        .from(municipalities)
        .leftJoin(provinces, eq(provinces.id, municipalities.provinceId))
        .orderBy(...byName(municipalities.name, municipalities.id))
        .$dynamic(),
      window,
    ),
  toRow: (input) => ({ name: input.name, zip: input.zip, provinceId: input.provinceId }),
  export: bindExport(municipalityList),
  roles: entityRoles('municipality'),
};
