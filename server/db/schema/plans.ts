import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantSearchIndexes, updatedAt } from './columns';
import { tenantColumn } from './tenants';

/**
 * Subscription plans of a tenant. Money and percentages are numeric (exact decimal, never
 * float): read and written as strings by drizzle, converted at the edge (server/lib/money.ts).
 */
export const plans = pgTable(
  'plans',
  {
    id: id(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    recurringCostBeforeVat: numeric('recurring_cost_before_vat', { precision: 12, scale: 2 }).notNull(),
    vatPercentage: numeric('vat_percentage', { precision: 5, scale: 2 }).notNull().default('22'),
    /** Months: 1, 2, 3, 4, 6 or 12. */
    recurrenceType: smallint('recurrence_type').notNull(),
    /** FatturaPA Natura (N1–N7 with sub-codes) of a 0 % plan; null when VAT applies. */
    natura: text('natura'),
    paypalPlanId: text('paypal_plan_id'),
    /** The PayPal product the plan was synced under ('Sincronizza con PayPal'), reused by later syncs. */
    paypalProductId: text('paypal_product_id'),
    /** What the PayPal plan charges per period (cents, VAT included), recorded at sync. */
    paypalPriceCents: bigint('paypal_price_cents', { mode: 'number' }),
    stripePlanId: text('stripe_plan_id'),
    isActive: boolean('is_active').notNull().default(true),
    /** Issue 30: days of free trial a new subscription starts with; null (or 0) = none. */
    trialDays: smallint('trial_days'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Target of the (plan_id, tenant_id) references: a child row stays in its plan's tenant.
    unique('plans_id_tenant_id_unique').on(t.id, t.tenantId),
    ...tenantSearchIndexes('plans', 'name', t.tenantId, t.name, t.id),
    // One plan per name in a tenant, whatever the case: a duplicate is a 409 on the name field.
    uniqueIndex('plans_tenant_name_unique_idx').on(t.tenantId, sql`lower(${t.name})`),
    check('plans_recurrence_type_check', sql`${t.recurrenceType} in (1, 2, 3, 4, 6, 12)`),
    check('plans_cost_check', sql`${t.recurringCostBeforeVat} >= 0`),
    check('plans_vat_check', sql`${t.vatPercentage} between 0 and 100`),
    check('plans_trial_days_check', sql`${t.trialDays} is null or ${t.trialDays} between 0 and 365`),
  ],
);

/** The tenant's feature catalogue (`api/feature`). */
export const features = pgTable(
  'features',
  {
    id: id(),
    tenantId: tenantColumn(),
    featureName: text('feature_name').notNull(),
    /** Stable machine key (`advanced_reports`) the entitlement API answers with; unique in the tenant. */
    key: text('key').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [
    ...tenantSearchIndexes('features', 'feature_name', t.tenantId, t.featureName, t.id),
    uniqueIndex('features_tenant_key_unique_idx').on(t.tenantId, t.key),
  ],
);

/**
 * A plan's features, each holding its own name and description (`api/planfeature`, and the
 * list `associateFeatures` replaces). They go with their plan when it is deleted.
 */
export const planFeatures = pgTable(
  'plan_features',
  {
    id: id(),
    tenantId: tenantColumn(),
    planId: integer('plan_id').notNull(),
    featureName: text('feature_name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: 'plan_features_plan_fk',
      columns: [t.planId, t.tenantId],
      foreignColumns: [plans.id, plans.tenantId],
    }).onDelete('cascade'),
    index('plan_features_plan_id_idx').on(t.planId, t.id),
    ...tenantSearchIndexes('plan_features', 'feature_name', t.tenantId, t.featureName, t.id),
  ],
);
