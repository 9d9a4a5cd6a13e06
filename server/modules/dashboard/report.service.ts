/**
 * The monthly report's data (issue 14): the dashboard summary for the 12 months ending with the
 * report's month, and the month's new, churned and pending-bank-transfer subscriptions. Reads
 * only the tenant's own rows.
 */
import { TZDate } from '@date-fns/tz';
import { isLiveSql } from '../../db/status-sql';
import { sql } from 'drizzle-orm';
import { BILLING_TIME_ZONE } from '../../../contract/billing-dates';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { SubscriptionStatus, type SubscriptionStatusId } from '../../../contract/subscription-status';
import { tenantNameOf } from '../../crud/tenant-name';
import { dashboardSummary, type DashboardScope } from './dashboard.service';
import type { Database } from '../../db/client';
import { executeRows } from '../../db/rows';

/** 'YYYY-MM': a calendar month on Rome's calendar. */
export const REPORT_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** Rows per table in the PDF; more are summarised as "… e altre N". */
export const REPORT_TABLE_LIMIT = 200;

export interface ReportRow {
  subscriptionId: number;
  customer: string;
  email: string;
  plan: string;
  amountDueCents: number;
  at: Date;
  status: SubscriptionStatusId;
}

export interface ReportTable {
  rows: ReportRow[];
  /** Rows beyond REPORT_TABLE_LIMIT (not listed). */
  more: number;
}

export interface MonthlyReport {
  tenantName: string;
  month: string;
  /** True when the month is before the generation time's month (MRR and plans are "now"). */
  past: boolean;
  generatedAt: Date;
  summary: DashboardSummary;
  newSubscriptions: ReportTable;
  churned: ReportTable;
  pendingBankTransfers: ReportTable;
}

/** The first instant of the Rome month and of the next one. */
export function monthRange(month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return {
    start: new Date(new TZDate(y, m - 1, 1, BILLING_TIME_ZONE).getTime()),
    end: new Date(new TZDate(y, m, 1, BILLING_TIME_ZONE).getTime()),
  };
}

export function currentMonth(now: Date): string {
  const t = new TZDate(now.getTime(), BILLING_TIME_ZONE);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}`;
}

interface RawRow {
  subscription_id: number;
  customer: string;
  email: string;
  plan: string;
  amount_due_cents: number | string;
  at: Date | string;
  status: number;
  entered?: boolean;
}

const toRow = (r: RawRow): ReportRow => ({
  subscriptionId: Number(r.subscription_id),
  customer: r.customer,
  email: r.email,
  plan: r.plan,
  amountDueCents: Number(r.amount_due_cents),
  at: new Date(r.at),
  status: Number(r.status) as SubscriptionStatusId,
});

const table = (list: RawRow[]): ReportTable => ({
  rows: list.slice(0, REPORT_TABLE_LIMIT).map(toRow),
  more: Math.max(0, list.length - REPORT_TABLE_LIMIT),
});

const people = (t: number) => sql`
  join user_tenants ut on ut.user_id = s.user_id and ut.tenant_id = s.tenant_id
  join users u on u.id = s.user_id
  join plans p on p.id = s.plan_id and p.tenant_id = s.tenant_id
  where s.tenant_id = ${t}`;

export async function monthlyReport(
  db: Database,
  tenantId: number,
  month: string,
  now: Date,
): Promise<MonthlyReport> {
  const scope: DashboardScope = { tenantId, tx: db };
  const { start, end } = monthRange(month);
  const cap = REPORT_TABLE_LIMIT * 50;
  const [tenantName, summary, moves, pending] = await Promise.all([
    tenantNameOf(db, tenantId),
    dashboardSummary(scope, now, month),
    // Moves into or out of a live status (Active, ActiveNoRenewal) in the month: the KPIs' own rule.
    executeRows<RawRow>(
      db,
      sql`select s.id as subscription_id, coalesce(ut.name, u.email) as customer, u.email, p.name as plan,
                 s.amount_due_cents, e.at, e.to_status as status, ${isLiveSql(sql`e.to_status`)} as entered
          from subscription_events e
          join subscriptions s on s.id = e.subscription_id and s.tenant_id = e.tenant_id
          ${people(tenantId)}
            and e.tenant_id = ${tenantId} and e.at >= ${start} and e.at < ${end}
            and ${isLiveSql(sql`e.to_status`)} <> ${isLiveSql(sql`coalesce(e.from_status, 0)`)}
          order by e.at, e.id
          limit ${cap}`,
    ),
    executeRows<RawRow>(
      db,
      sql`select s.id as subscription_id, coalesce(ut.name, u.email) as customer, u.email, p.name as plan,
                 s.amount_due_cents, s.created_at as at, s.status
          from subscriptions s
          ${people(tenantId)}
            and s.status = ${SubscriptionStatus.BankTransferPending}
          order by s.created_at, s.id
          limit ${cap}`,
    ),
  ]);
  return {
    tenantName: tenantName ?? `Tenant ${tenantId}`,
    month,
    past: month < currentMonth(now),
    generatedAt: now,
    summary,
    newSubscriptions: table(moves.filter((m) => m.entered)),
    churned: table(moves.filter((m) => !m.entered)),
    pendingBankTransfers: table(pending),
  };
}
