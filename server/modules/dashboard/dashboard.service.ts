/**
 * The dashboard's numbers (contract/schemas/dashboard.ts has the definitions), from the tenant's
 * own rows: a handful of aggregate queries, each on an index:
 * - live subscriptions now (status index), by plan, and their MRR;
 * - moves into / out of a live status per Rome month since the window's start (the partial index
 *   `subscription_events_tenant_live_moves_idx`); the active count at each month's end is the
 *   count now walked back month by month through those moves, so no query reads older history;
 * - payments paid per Rome month (payments_tenant_paid_at_idx);
 * - customers whose first move into a live status is this month.
 */
import { TZDate } from '@date-fns/tz';
import { addMonths, startOfMonth } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import { BILLING_TIME_ZONE } from '../../../contract/billing-dates';
import type { DashboardMonth, DashboardSummary } from '../../../contract/schemas/dashboard';
import type { Database, Transaction } from '../../db/client';

export interface DashboardScope {
  tenantId: number;
  tx: Database | Transaction;
}

const LIVE = sql.raw('(1, 3)');
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
  const tz = BILLING_TIME_ZONE;

  const [byPlan, moves, revenue, newCustomers, presence] = await Promise.all([
    // Live subscriptions per plan with their prices' sum (an index-only scan of the partial
    // index subscriptions_tenant_live_plan_idx), and the plan's recurrence for the MRR.
    rows<{ plan_id: number; name: string; value: number; mrr: string }>(
      scope,
      sql`select p.id as plan_id, p.name, c.value, (c.cost::numeric / p.recurrence_type)::text as mrr
          from (select plan_id, count(*)::int as value, sum(cost_before_vat_cents) as cost
                from subscriptions
                where tenant_id = ${t} and status in ${LIVE} group by plan_id) c
          join plans p on p.id = c.plan_id and p.tenant_id = ${t}
          order by p.id`,
    ),
    rows<{ month: string; entered: number; left: number }>(
      scope,
      sql`select to_char(timezone(${tz}, at), 'YYYY-MM') as month,
                 count(*) filter (where to_status in ${LIVE})::int as entered,
                 count(*) filter (where coalesce(from_status, 0) in ${LIVE})::int as left
          from subscription_events
          where tenant_id = ${t} and at >= ${windowStart}
            and (to_status in ${LIVE}) <> (coalesce(from_status, 0) in ${LIVE})
          group by 1`,
    ),
    rows<{ month: string; cents: string }>(
      scope,
      sql`select to_char(timezone(${tz}, pay.paid_at), 'YYYY-MM') as month,
                 sum((pay.amount_due_cents * 20000 + 10000 + s.vat_hundredths)
                     / (2 * (10000 + s.vat_hundredths)))::text as cents
          from payments pay
          join subscriptions s on s.id = pay.subscription_id and s.tenant_id = pay.tenant_id
          where pay.tenant_id = ${t} and pay.paid_at >= ${windowStart} and pay.paid_at < ${end}
          group by 1`,
    ),
    rows<{ n: number }>(
      scope,
      sql`select count(distinct s.user_id)::int as n
          from subscription_events e
          join subscriptions s on s.id = e.subscription_id and s.tenant_id = e.tenant_id
          where e.tenant_id = ${t} and e.at >= ${currentStart} ${pastStart ? sql`and e.at < ${end}` : sql``}
            and e.to_status in ${LIVE} and coalesce(e.from_status, 0) not in ${LIVE}
            and not exists (
              select 1 from subscriptions s2
              join subscription_events e2 on e2.subscription_id = s2.id and e2.tenant_id = s2.tenant_id
              where s2.tenant_id = ${t} and s2.user_id = s.user_id
                and e2.at < ${currentStart}
                and e2.to_status in ${LIVE} and coalesce(e2.from_status, 0) not in ${LIVE})`,
    ),
    rows<{ has_plans: boolean; has_subscriptions: boolean }>(
      scope,
      sql`select exists(select 1 from plans where tenant_id = ${t}) as has_plans,
                 exists(select 1 from subscriptions where tenant_id = ${t}) as has_subscriptions`,
    ),
  ]);

  const keys = starts.map(monthKey);
  const lastKey = keys[11] as string;
  const movesByMonth = new Map<string, { entered: number; left: number }>();
  // A past month's window: the moves after it are walked back first, from the count now.
  const after = { entered: 0, left: 0 };
  for (const m of moves) {
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
  const revenueByMonth = new Map(revenue.map((r) => [r.month, Number(r.cents)]));

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
  };
}
