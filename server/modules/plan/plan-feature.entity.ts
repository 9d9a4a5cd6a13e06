import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { PlanFeature } from '../../../contract/schemas/plan';
import { planFeatureInputSchema } from '../../../contract/schemas/plan';
import { planFeatures, plans } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { entityRoles } from '../../../contract/access';
import { planFeatureList } from '../../../contract/lists/plan-feature';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

const planFeatureItem: z.ZodType<PlanFeature> = z.object({
  id: z.number(),
  planId: z.number(),
  plan: z.object({ id: z.number(), name: z.string() }).nullable(),
  featureName: z.string(),
  description: z.string().nullable(),
});

/**
 * One feature row of a plan. `planId` must be a plan of the same tenant: the (plan_id,
 * tenant_id) reference refuses another tenant's plan like a missing one (400).
 */
export const planFeatureEntity: EntityDefinition<
  typeof planFeatures,
  PlanFeature,
  typeof planFeatureInputSchema
> = {
  name: 'planfeature',
  table: planFeatures,
  id: planFeatures.id,
  scope: { kind: 'tenant', column: planFeatures.tenantId },
  searchColumns: [planFeatures.featureName, planFeatures.description],
  filters: bindFilters(planFeatureList, {
    featureName: planFeatures.featureName,
    description: planFeatures.description,
    planId: planFeatures.planId,
  }),
  naturalOrder: textSort(planFeatures.featureName), // the list's byName order: exports seek on it
  sortable: bindSorts(planFeatureList, {
    featureName: textSort(planFeatures.featureName),
    plan: textSort(plans.name),
  }),
  item: planFeatureItem,
  input: planFeatureInputSchema,
  label: (f) => f.featureName,
  list: (db, window) =>
    windowed(
      db
        .select({
          id: planFeatures.id,
          planId: planFeatures.planId,
          plan: { id: plans.id, name: plans.name },
          featureName: planFeatures.featureName,
          description: planFeatures.description,
        })
        .from(planFeatures)
        .leftJoin(plans, and(eq(plans.id, planFeatures.planId), eq(plans.tenantId, planFeatures.tenantId)))
        .orderBy(...byName(planFeatures.featureName, planFeatures.id))
        .$dynamic(),
      window,
    ),
  toRow: (input) => ({
    planId: input.planId,
    featureName: input.featureName,
    description: input.description ?? null,
  }),
  export: bindExport(planFeatureList),
  roles: entityRoles('planfeature'),
};
