/**
 * The dashboard's numbers (contract/schemas/dashboard.ts has the definitions), read from running
 * totals that database triggers keep in the same transaction as the rows they summarise
 * (server/db/schema/dashboard.ts, migration 0011), so the cost does not grow with the history:
 * - live subscriptions now per plan with their prices' sum (dashboard_live_plans): counts and MRR;
 * - per Rome month, revenue before VAT of the payments paid and the moves into / out of a live
 *   status (dashboard_months); the active count at each month's end is the count now walked back
 *   month by month through those moves;
 * - customers whose first move into a live status is this month (user_tenants.first_live_at).
 * tests/server/dashboard/dashboard-rollup.test.ts checks the totals against a recomputation from
 * the raw rows after a varied history.
 */
import { TZDate } from '@date-fns/tz';
import { addMonths, startOfMonth } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import { BILLING_TIME_ZONE, romeCalendarDay } from '../../../contract/billing-dates';
import type { CollectionFigures } from '../../../contract/schemas/collection';
import { fromCents } from '../../../contract/money';
import type { DashboardMonth, DashboardSummary } from '../../../contract/schemas/dashboard';
import type { Database, Transaction } from '../../db/client';

export interface DashboardScope {
  tenantId: number;
  tx: Database | Transaction;
}

const monthLabel = new Intl.DateTimeFormat('it-IT', {
  month: 'short',
  year: '2-digit',
  timeZone: BILLING_TIME_ZONE,
});

async function rows<T>(scope: DashboardScope, query: SQL): Promise<T[]> {
  const result = (await scope.tx.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}

/** The first instant of each of the 12 Rome months ending with `now`'s, and of the next one. */
export function monthWindow(now: Date): { starts: Date[]; end: Date } {
  const current = startOfMonth(new TZDate(now.getTime(), BILLING_TIME_ZONE));
  const starts = Array.from({ length: 12 }, (_, i) => new Date(addMonths(current, i - 11).getTime()));
  return { starts, end: new Date(addMonths(current, 1).getTime()) };
}

const monthKey = (d: Date) => {
  const t = new TZDate(d.getTime(), BILLING_TIME_ZONE);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}`;
};

/** Half-up to an integer, robust to binary noise (…4999999 from summing thirds). */
function roundHalfUp(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

/** numerator ÷ denominator × 100, rounded half away from zero to `decimals`; null for ÷ 0. */
export function percent(numerator: number, denominator: number, decimals: 1 | 2): number | null {
  if (denominator === 0) return null;
  const scale = 100 * 10 ** decimals;
  const sign = Math.sign(numerator) * Math.sign(denominator);
  const n = Math.abs(numerator) * scale;
  const d = Math.abs(denominator);
  const rounded = Math.floor((2 * n + d) / (2 * d));
  return (sign * rounded) / 10 ** decimals || 0;
}

/** The first instant of a Rome month 'YYYY-MM', when it is before `now`'s month (else null). */
function pastMonthStart(month: string | undefined, now: Date): Date | null {
  if (!month) return null;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = new Date(new TZDate(y, m - 1, 1, BILLING_TIME_ZONE).getTime());
  return monthKey(start) < monthKey(now) ? start : null;
}

/**
 * `month` ('YYYY-MM', optional; the PDF report's period): the 12 months end with that month
 * instead of the current one. For a past month the monthly figures and the month's churn rate are
 * that month's; MRR, `activeSubscriptions` and `plans` stay the live values at `now`.
 */
export async function dashboardSummary(
  scope: DashboardScope,
  now: Date,
  month?: string,
): Promise<DashboardSummary> {
  const pastStart = pastMonthStart(month, now);
  const { starts, end } = monthWindow(pastStart ?? now);
  const windowStart = starts[0] as Date;
  const currentStart = starts[11] as Date;
  const t = scope.tenantId;

  const [byPlan, monthRows, newCustomers, presence] = await Promise.all([
    rows<{ plan_id: number; name: string; value: number; mrr: string }>(
      scope,
      sql`select p.id as plan_id, p.name, l.subscriptions as value,
                 (l.cost_cents::numeric / p.recurrence_type)::text as mrr
          from dashboard_live_plans l
          join plans p on p.id = l.plan_id and p.tenant_id = ${t}
          where l.tenant_id = ${t} and l.subscriptions > 0
          order by p.id`,
    ),
    rows<{ month: string; entered: number; left: number; cents: string }>(
      scope,
      sql`select month, entered, exited as left, revenue_cents::text as cents
          from dashboard_months
          where tenant_id = ${t} and month >= ${monthKey(windowStart)}`,
    ),
    rows<{ n: number }>(
      scope,
      sql`select count(*)::int as n from user_tenants
          where tenant_id = ${t} and first_live_at >= ${currentStart}
            ${pastStart ? sql`and first_live_at < ${end}` : sql``}`,
    ),
    rows<{ has_plans: boolean; has_subscriptions: boolean }>(
      scope,
      sql`select exists(select 1 from plans where tenant_id = ${t}) as has_plans,
                 exists(select 1 from subscriptions where tenant_id = ${t}) as has_subscriptions`,
    ),
  ]);
  const collection = await collectionFiguresOf(scope, now);
  const trials = await trialFiguresOf(scope, windowStart);
  const keys = starts.map(monthKey);
  const lastKey = keys[11] as string;
  const movesByMonth = new Map<string, { entered: number; left: number }>();
  // A past month's window: the moves after it are walked back first, from the count now.
  const after = { entered: 0, left: 0 };
  for (const m of monthRows) {
    if (pastStart && m.month > lastKey) {
      after.entered += m.entered;
      after.left += m.left;
      continue;
    }
    // A move stamped after the current month (a clock set back) counts in the current month, so
    // walking back from the count now stays consistent.
    const key = m.month > lastKey ? lastKey : m.month;
    const prev = movesByMonth.get(key) ?? { entered: 0, left: 0 };
    movesByMonth.set(key, { entered: prev.entered + m.entered, left: prev.left + m.left });
  }
  // Payments stamped after the current month (a clock set back) are not this window's revenue.
  const revenueByMonth = new Map(monthRows.map((r) => [r.month, Number(r.cents)]));

  const activeNow = byPlan.reduce((sum, p) => sum + p.value, 0);
  // Σ (cost ÷ months) exactly (numeric strings as integer ratios would be overkill: a per-plan
  // sum divided by 1–12 months has at most a few decimals), rounded half-up to the cent once.
  const mrrCents = roundHalfUp(byPlan.reduce((sum, p) => sum + Number(p.mrr), 0));
  const months: DashboardMonth[] = new Array(12);
  let active = activeNow - after.entered + after.left;
  for (let i = 11; i >= 0; i--) {
    const key = keys[i] as string;
    const m = movesByMonth.get(key) ?? { entered: 0, left: 0 };
    months[i] = {
      month: key,
      label: monthLabel.format(starts[i] as Date),
      revenueCents: revenueByMonth.get(key) ?? 0,
      newSubscriptions: m.entered,
      churned: m.left,
      active,
    };
    active = active - m.entered + m.left;
  }
  const current = months[11] as DashboardMonth;
  const previous = months[10] as DashboardMonth;

  return {
    currency: 'EUR',
    timeZone: 'Europe/Rome',
    generatedAt: now.toISOString(),
    mrrCents,
    activeSubscriptions: activeNow,
    churnRate: percent(current.churned, current.active + current.churned, 1),
    newCustomersThisMonth: newCustomers[0]?.n ?? 0,
    momChange: percent(current.active - previous.active, previous.active, 2),
    months,
    plans: byPlan.map((p) => ({ planId: p.plan_id, name: p.name, value: p.value })),
    hasPlans: presence[0]?.has_plans ?? false,
    hasSubscriptions: presence[0]?.has_subscriptions ?? false,
    collection,
    trials,
  };
}

/**
 * Issue 30, the dashboard's trials: running now, and those of the window decided (converted by
 * their first payment, or ended unpaid) with the conversion rate. Served by subscriptions_trial_idx.
 */
async function trialFiguresOf(scope: DashboardScope, windowStart: Date) {
  const t = scope.tenantId;
  const [f] = await rows<{ running: number; converted: number; expired: number }>(
    scope,
    sql`select
          count(*) filter (where trial_state = 'running')::int as running,
          count(*) filter (where trial_state = 'converted' and trial_ends_at >= ${windowStart})::int as converted,
          count(*) filter (where trial_state = 'expired' and trial_ends_at >= ${windowStart})::int as expired
        from subscriptions
        where tenant_id = ${t} and trial_ends_at is not null`,
  );
  const converted = f?.converted ?? 0;
  const expired = f?.expired ?? 0;
  return {
    running: f?.running ?? 0,
    converted,
    expired,
    conversionRate: percent(converted, converted + expired, 1),
  };
}

/**
 * Issue 29, the dashboard's collection figures: overdue payments now (count, amount due), and the
 * payments recovered (paid after being overdue) this Rome month with the rate recovered ÷
 * (recovered + still overdue), percent with one decimal. Served by payments_collection_idx and
 * collection_events_tenant_kind_at_idx.
 */
async function collectionFiguresOf(scope: DashboardScope, now: Date): Promise<CollectionFigures> {
  const t = scope.tenantId;
  const { year, month } = romeCalendarDay(now);
  const monthStart = new Date(new TZDate(year, month - 1, 1, BILLING_TIME_ZONE).getTime());
  const [figures] = await rows<{
    overdue: number;
    overdue_cents: string;
    recovered: number;
    recovered_cents: string;
  }>(
    scope,
    sql`select
          (select count(*)::int from payments where tenant_id = ${t} and paid_at is null and collection_status = 'overdue') as overdue,
          (select coalesce(sum(amount_due_cents), 0)::text from payments where tenant_id = ${t} and paid_at is null and collection_status = 'overdue') as overdue_cents,
          (select count(*)::int from payments p where p.tenant_id = ${t} and p.collection_status = 'recovered'
             and exists (select 1 from collection_events ce where ce.tenant_id = ${t} and ce.kind = 'recovered' and ce.payment_id = p.id and ce.at >= ${monthStart})) as recovered,
          (select coalesce(sum(p.amount_due_cents), 0)::text from payments p where p.tenant_id = ${t} and p.collection_status = 'recovered'
             and exists (select 1 from collection_events ce where ce.tenant_id = ${t} and ce.kind = 'recovered' and ce.payment_id = p.id and ce.at >= ${monthStart})) as recovered_cents`,
  );
  const overdue = figures?.overdue ?? 0;
  const recovered = figures?.recovered ?? 0;
  return {
    overdue: { count: overdue, amount: fromCents(Number(figures?.overdue_cents ?? 0)) },
    recoveredThisMonth: {
      count: recovered,
      amount: fromCents(Number(figures?.recovered_cents ?? 0)),
      rate: percent(recovered, recovered + overdue, 1),
    },
  };
}
