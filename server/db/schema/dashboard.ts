import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cents } from './columns';
import { tenantColumn } from './tenants';

/**
 * The dashboard's running totals, kept by database triggers (migration 0011) in the same
 * transaction as the rows they summarise, so `GET api/dashboard/summary` reads a dozen rows instead
 * of aggregating a tenant's whole history (p95 was ~400 ms at 100,000 subscriptions on
 * PostgreSQL). Never written by the application; tests compare them with a recomputation from the
 * raw rows after a varied history.
 */

/** Per tenant and Rome month ('YYYY-MM'): revenue before VAT of the payments paid in the month, and the moves into and out of the live statuses (Active, ActiveNoRenewal). */
export const dashboardMonths = pgTable(
  'dashboard_months',
  {
    tenantId: tenantColumn(),
    month: text('month').notNull(),
    revenueCents: cents('revenue_cents').notNull().default(0),
    entered: integer('entered').notNull().default(0),
    exited: integer('exited').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.month] })],
);

/** Per tenant and plan: the live subscriptions now and the sum of their prices before VAT (MRR). */
export const dashboardLivePlans = pgTable(
  'dashboard_live_plans',
  {
    tenantId: tenantColumn(),
    /** No foreign key: a plan without live subscriptions may be deleted; the summary joins plans. */
    planId: integer('plan_id').notNull(),
    subscriptions: integer('subscriptions').notNull().default(0),
    costCents: cents('cost_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.planId] })],
);
