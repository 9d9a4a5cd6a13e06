import { asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_VAT_PERCENTAGE } from '../../../contract/enums';
import type { Plan, PlanFeatureItem, RecurrenceTypeId } from '../../../contract/schemas/plan';
import {
  naturaRule,
  planInputSchema,
  recurrenceTypeIds,
  recurrenceTypeNames,
} from '../../../contract/schemas/plan';
import { isNatura, naturaIds } from '../../../contract/invoice/fatturapa';
import type { Database } from '../../db/client';
import { planFeatures, plans, tenants } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { serverMessages } from '../../../contract/messages';
import { billingValidationMessages } from '../../../contract/validation/italian';
import { fromDecimalString, toDecimalString } from '../../lib/money';
import { PLAN_KIND } from '../../db/tenancy/public-home';
import type { EntityDefinition } from '../../crud/entity';
import { entityRoles } from '../../../contract/access';
import { planList } from '../../../contract/lists/plan';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

export const planFeatureItem: z.ZodType<PlanFeatureItem> = z.object({
  id: z.number(),
  featureName: z.string(),
  description: z.string().nullable(),
});

const planItem: z.ZodType<Plan> = z.object({
  id: z.number(),
  name: z.string(),
  recurringCostBeforeVAT: z.number(),
  vatPercentage: z.number(),
  recurrenceType: z.literal(recurrenceTypeIds),
  recurrenceTypeName: z.string(),
  natura: z.enum(naturaIds as [string, ...string[]]).nullable() as z.ZodType<Plan['natura']>,
  paypalPlanId: z.string().nullable(),
  stripePlanId: z.string().nullable(),
  isActive: z.boolean(),
  trialDays: z.number().nullable(),
  planFeatures: z.array(planFeatureItem),
});

/** The contract's input, except that an absent VAT means the default 22 (an emptied field is still a 400). */
export const planInput = planInputSchema
  .extend({
    vatPercentage: z.preprocess(
      (v) => (v === undefined ? DEFAULT_VAT_PERCENTAGE : v),
      planInputSchema.shape.vatPercentage,
    ),
  })
  .superRefine(naturaRule);

/** A plan's features in the order they were given (associateFeatures inserts them in order). */
export async function featuresOfPlans(
  db: Database,
  planIds: readonly number[],
): Promise<Map<number, PlanFeatureItem[]>> {
  const byPlan = new Map<number, PlanFeatureItem[]>(planIds.map((id) => [id, []]));
  if (planIds.length === 0) return byPlan;
  const rows = await db
    .select({
      id: planFeatures.id,
      planId: planFeatures.planId,
      featureName: planFeatures.featureName,
      description: planFeatures.description,
    })
    .from(planFeatures)
    .where(inArray(planFeatures.planId, [...planIds]))
    .orderBy(asc(planFeatures.planId), asc(planFeatures.id));
  for (const { planId, ...feature } of rows) byPlan.get(planId)?.push(feature);
  return byPlan;
}

/** Subscription plans of the tenant, each with its features (lists too: one more query per page). */
export const planEntity: EntityDefinition<typeof plans, Plan, typeof planInput> = {
  name: 'plan',
  table: plans,
  id: plans.id,
  // Read in the tenant's database; written in a unit over both, as the widget names a plan by its
  // id alone: a plan of a tenant's own database takes a control id and is listed in public_ids.
  home: 'both',
  publicId: PLAN_KIND,
  scope: { kind: 'tenant', column: plans.tenantId },
  searchColumns: [plans.name, plans.paypalPlanId, plans.stripePlanId],
  filters: bindFilters(planList, {
    name: plans.name,
    isActive: plans.isActive,
    recurrenceType: plans.recurrenceType,
  }),
  naturalOrder: textSort(plans.name), // the list's byName order: exports seek on it
  sortable: bindSorts(planList, {
    name: textSort(plans.name),
    recurringCostBeforeVAT: { column: plans.recurringCostBeforeVat },
    vatPercentage: { column: plans.vatPercentage },
    recurrenceType: { column: plans.recurrenceType },
    isActive: { column: plans.isActive },
  }),
  item: planItem,
  input: planInput,
  label: (p) => p.name,
  list: async (db, window) => {
    const rows = await windowed(
      db
        .select({
          id: plans.id,
          name: plans.name,
          cost: plans.recurringCostBeforeVat,
          vat: plans.vatPercentage,
          recurrenceType: plans.recurrenceType,
          natura: plans.natura,
          paypalPlanId: plans.paypalPlanId,
          stripePlanId: plans.stripePlanId,
          isActive: plans.isActive,
          trialDays: plans.trialDays,
        })
        .from(plans)
        .orderBy(...byName(plans.name, plans.id))
        .$dynamic(),
      window,
    );
    const features = await featuresOfPlans(
      db,
      rows.map((r) => r.id),
    );
    return rows.map(({ cost, vat, natura, ...row }) => {
      const recurrenceType = row.recurrenceType as RecurrenceTypeId;
      return {
        ...row,
        recurringCostBeforeVAT: fromDecimalString(cost),
        vatPercentage: fromDecimalString(vat),
        recurrenceType,
        recurrenceTypeName: recurrenceTypeNames[recurrenceType],
        natura: isNatura(natura) ? natura : null,
        planFeatures: features.get(row.id) ?? [],
      };
    });
  },
  // A forfettario sells without VAT (art. 1 c. 54-89 L. 190/2014): its plans say 0 % N2.2, so the
  // price a customer sees is the price invoiced.
  afterWrite: async (w, _id, input) => {
    if (w.tenantId === null || input.vatPercentage === 0) return;
    const [tenant] = await w.tx
      .select({ taxRegime: tenants.taxRegime })
      .from(tenants)
      .where(eq(tenants.id, w.tenantId));
    if (tenant?.taxRegime === 'RF19')
      throw new HttpError(400, serverMessages.validation, {
        errors: [`vatPercentage: ${billingValidationMessages.forfettarioPlanVat}`],
      });
  },
  toRow: (input, now) => ({
    name: input.name,
    recurringCostBeforeVat: toDecimalString(input.recurringCostBeforeVAT),
    vatPercentage: toDecimalString(input.vatPercentage),
    recurrenceType: input.recurrenceType,
    natura: input.natura ?? null,
    paypalPlanId: input.paypalPlanId ?? null,
    stripePlanId: input.stripePlanId ?? null,
    isActive: input.isActive,
    // Absent on Update: unchanged (a form that does not know the field clears nothing).
    trialDays: input.trialDays,
    updatedAt: now,
  }),
  export: bindExport(planList),
  roles: entityRoles('plan'),
};
