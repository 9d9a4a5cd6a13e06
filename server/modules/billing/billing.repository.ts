import type { PauseEntitlements } from '../../../contract/schemas/pause';
/**
 * Tenant-scoped queries of billing. Every function takes a `TenantScope` (a unit of work is one)
 * and filters by its tenant: there is no way to call them without one. Routes never import
 * db/schema; they go through the services, which go through here.
 */
import type { CollectionStatus } from '../../../contract/schemas/collection';
import { and, asc, desc, eq, isNotNull, isNull, like, lt, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isRoleId, roleNameById } from '../../../contract/enums';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import type {
  Payment,
  PaymentMethod,
  Subscription,
  TrialState,
  SubscriptionHistoryEntry,
} from '../../../contract/schemas/subscription';
import type { SubscriptionStatusId } from '../../../contract/subscription-status';
import { subscriptionStatusNames } from '../../../contract/subscription-status';
import { fromCents, fromPercentHundredths } from '../../../contract/money';
import { preparedOnce } from '../../db/prepared';
import {
  bankTransfers,
  payments,
  planChanges,
  plans,
  subscriptionEvents,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { fromDecimalString } from '../../lib/money';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import { containsPattern } from '../../crud/list-query';

/** `column = any($name::int[])`: one placeholder for a list of ids (IN would need one per id). */
const anyOf = (column: AnyPgColumn, name: string) => sql`${column} = any(${sql.placeholder(name)}::int[])`;

/** A subscription's customer: their membership of the subscription's tenant. */
const membershipOfSubscription = and(
  eq(userTenants.userId, subscriptions.userId),
  eq(userTenants.tenantId, subscriptions.tenantId),
);
/** A subscription's plan, of the same tenant. */
const planOfSubscription = and(
  eq(plans.id, subscriptions.planId),
  eq(plans.tenantId, subscriptions.tenantId),
);

export interface SubscriptionListFilter {
  status?: SubscriptionStatusId;
  planId?: number;
  userId?: number;
  /** Issue 29: true → only those with an overdue payment; false → only those without. */
  overdue?: boolean;
  searchTerm?: string;
  /** Keyset paging (exports): only ids below this one. */
  beforeId?: number;
}

/** An overdue payment of the subscription (issue 29; payments_collection_idx). */
const overduePayment = sql`select 1 from payments op where op.tenant_id = ${subscriptions.tenantId} and op.subscription_id = ${subscriptions.id} and op.paid_at is null and op.collection_status = 'overdue'`;

/** The letter of each filter in a statement's name (the tenant is always there). */
const shapeLetters: Record<string, string> = {
  status: 's',
  planId: 'p',
  userId: 'u',
  overdue: 'o',
  notOverdue: 'n',
  beforeId: 'b',
  pattern: 't',
};

/**
 * The WHERE of the subscription list: the tenant, the filters, and the free-text search on the
 * subscription's own search column (trigram index), never an OR over columns of joined tables.
 * Written with placeholders, for statements prepared once per shape: `shape` says which filters
 * are set (a statement's name carries it), `values` fills the placeholders.
 */
function listWhere(
  scope: TenantScope,
  f: SubscriptionListFilter,
): {
  where: () => SQL;
  shape: string;
  values: Record<string, unknown>;
  statementName: (name: string) => string;
} {
  const values: Record<string, unknown> = { tenantId: scope.tenantId };
  if (f.status !== undefined) values.status = f.status;
  if (f.planId !== undefined) values.planId = f.planId;
  if (f.userId !== undefined) values.userId = f.userId;
  // A constant of the statement (no placeholder): its shape letter tells the two apart.
  if (f.overdue === true) values.overdue = true;
  if (f.overdue === false) values.notOverdue = true;
  if (f.beforeId !== undefined) values.beforeId = f.beforeId;
  // One trigram-indexed column kept by triggers (customer name, e-mail, plan name, lower-cased).
  if (f.searchTerm) values.pattern = containsPattern(f.searchTerm.toLowerCase());
  const set = (key: string) => key in values;
  const where = () =>
    and(
      eq(subscriptions.tenantId, sql.placeholder('tenantId')),
      set('status') ? eq(subscriptions.status, sql.placeholder('status')) : undefined,
      set('planId') ? eq(subscriptions.planId, sql.placeholder('planId')) : undefined,
      set('userId') ? eq(subscriptions.userId, sql.placeholder('userId')) : undefined,
      set('overdue') ? sql`exists (${overduePayment})` : undefined,
      set('notOverdue') ? sql`not exists (${overduePayment})` : undefined,
      set('beforeId') ? lt(subscriptions.id, sql.placeholder('beforeId')) : undefined,
      set('pattern') ? like(subscriptions.searchText, sql.placeholder('pattern')) : undefined,
    ) as SQL;
  // Which filters are set, in a fixed order: 's', 'sp', 'spubt'… ('all' for none).
  const shape = Object.keys(values)
    .map((key) => shapeLetters[key] ?? '')
    .join('');
  // A search's statement stays unnamed (built once all the same): PostgreSQL plans an unnamed
  // statement with the pattern it is given, while a named one moves to a generic plan after five
  // runs, which cannot see whether the pattern is frequent (walk the newest rows) or rare (read
  // the trigram index). Measured at 100,000 rows: status + "rossi" p50 3 ms -> 24 ms once generic.
  const statementName = (name: string) => ('pattern' in values ? '' : name);
  return { where, shape: shape || 'all', values, statementName };
}

/** Counts the list's rows up to `limit` (a capped count: the database stops there). */
export async function countSubscriptions(
  scope: TenantScope,
  filter: SubscriptionListFilter,
  limit: number,
): Promise<number> {
  const { where, shape, values, statementName } = listWhere(scope, filter);
  // In the list's own order, so the count walks the index the page walks (never the whole table).
  const query = preparedOnce(scope.tx, `subscription_count_${shape}`, (name) => {
    const capped = scope.tx
      .select({ one: sql`1` })
      .from(subscriptions)
      .where(where())
      .orderBy(desc(subscriptions.id))
      .limit(sql.placeholder('limit'))
      .as('capped');
    return scope.tx
      .select({ n: sql<number>`count(*)::int` })
      .from(capped)
      .prepare(statementName(name));
  });
  const [row] = await query.execute({ ...values, limit });
  return row?.n ?? 0;
}

/** Ids of one page, newest first (served by the (tenant, …, id desc) indexes). */
export async function pageOfSubscriptionIds(
  scope: TenantScope,
  filter: SubscriptionListFilter,
  limit: number,
  offset: number,
): Promise<number[]> {
  const { where, shape, values, statementName } = listWhere(scope, filter);
  const query = preparedOnce(scope.tx, `subscription_page_${shape}`, (name) =>
    scope.tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(where())
      .orderBy(desc(subscriptions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(statementName(name)),
  );
  const rows = await query.execute({ ...values, limit, offset });
  return rows.map((r) => r.id);
}

/** One row of the subscription export: what the list screen shows, nothing more. */
export interface SubscriptionExportRow {
  id: number;
  customerName: string | null;
  customerEmail: string;
  planName: string;
  amountDueCents: number;
  /** The Rome calendar day, 'YYYY-MM-DD' (computed by the database: no Date per cell). */
  startDate: string;
  nextBillingDate: string;
  status: SubscriptionStatusId;
  /** The reason the customer gave when they turned the renewal off (and have not turned it on since). */
  renewalStopReason: string | null;
  /** That day, 'YYYY-MM-DD' in Rome. */
  renewalStoppedAt: string | null;
}

/**
 * The subscription's last renewal move of its customer ('Disattiva il rinnovo' / 'Riattiva'), when
 * it is a stop: `column` of it, else null (one index probe on subscription_events per exported row).
 */
const lastRenewalStop = (column: SQL) =>
  sql<string | null>`(select case when e.event = 'stopRenewal' then ${column} end
      from subscription_events e
      where e.tenant_id = ${subscriptions.tenantId} and e.subscription_id = ${subscriptions.id}
        and e.event in ('stopRenewal', 'resumeRenewal')
      order by e.id desc limit 1)`;

/** An instant's Rome calendar day as 'YYYY-MM-DD', in SQL (the billing dates' time zone). */
const romeDay = (column: typeof subscriptions.startDate) =>
  sql<string>`to_char(${column} at time zone 'Europe/Rome', 'YYYY-MM-DD')`;

/**
 * A keyset batch of the list's rows for exports, newest first: one query selecting exactly the
 * exported columns with their joins, under the list's WHERE and `id < beforeId`, walking the
 * list's (tenant, …, id desc) indexes; its LIMIT keeps the joins to the batch's rows (nested
 * loops on primary keys, checked with EXPLAIN on PostgreSQL 15 at 100,000 rows).
 */
export async function subscriptionExportBatch(
  scope: TenantScope,
  filter: SubscriptionListFilter,
  limit: number,
): Promise<SubscriptionExportRow[]> {
  const { where, shape, values, statementName } = listWhere(scope, filter);
  const query = preparedOnce(scope.tx, `subscription_export_${shape}`, (name) =>
    scope.tx
      .select({
        id: subscriptions.id,
        customerName: userTenants.name,
        customerEmail: users.email,
        planName: plans.name,
        amountDueCents: subscriptions.amountDueCents,
        startDate: romeDay(subscriptions.startDate),
        nextBillingDate: romeDay(subscriptions.nextBillingDate),
        status: subscriptions.status,
        renewalStopReason: lastRenewalStop(sql`e.reason`),
        renewalStoppedAt: lastRenewalStop(sql`to_char(e.at at time zone 'Europe/Rome', 'YYYY-MM-DD')`),
      })
      .from(subscriptions)
      .innerJoin(userTenants, membershipOfSubscription)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(plans, planOfSubscription)
      .where(where())
      .orderBy(desc(subscriptions.id))
      .limit(sql.placeholder('limit'))
      .prepare(statementName(name)),
  );
  return (await query.execute({ ...values, limit })) as SubscriptionExportRow[];
}

export interface SubscriptionRow {
  id: number;
  userId: number;
  planId: number;
  status: SubscriptionStatusId;
  startDate: Date;
  nextBillingDate: Date;
  costBeforeVatCents: number;
  vatHundredths: number;
  amountDueCents: number;
  createdAt: Date;
}

/** The columns of a subscription row (SubscriptionRow). */
const subscriptionColumns = {
  id: subscriptions.id,
  userId: subscriptions.userId,
  planId: subscriptions.planId,
  status: subscriptions.status,
  startDate: subscriptions.startDate,
  nextBillingDate: subscriptions.nextBillingDate,
  costBeforeVatCents: subscriptions.costBeforeVatCents,
  vatHundredths: subscriptions.vatHundredths,
  amountDueCents: subscriptions.amountDueCents,
  createdAt: subscriptions.createdAt,
};

/** The subscription row itself, locked for update inside a unit of work when `lock` is set. */
export async function findSubscription(
  scope: TenantScope,
  id: number,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  const q = scope.tx
    .select(subscriptionColumns)
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, id)));
  const [row] = options.lock ? await q.for('update') : await q;
  return row as SubscriptionRow | undefined;
}

/** Subscriptions with customer, plan and payments, in the order of `ids`. Two queries, whatever the page size. */
export async function loadSubscriptions(
  scope: TenantScope,
  ids: readonly number[],
): Promise<Omit<Subscription, 'allowedActions'>[]> {
  if (ids.length === 0) return [];
  // The rows and their payments side by side (two connections of the pool; one for PGlite).
  const query = preparedOnce(scope.tx, 'subscription_rows', (name) =>
    scope.tx
      .select({
        ...subscriptionColumns,
        userName: userTenants.name,
        userEmail: users.email,
        trialEndsAt: subscriptions.trialEndsAt,
        trialState: subscriptions.trialState,
        planName: plans.name,
        planRecurrence: plans.recurrenceType,
        planCost: plans.recurringCostBeforeVat,
        planVat: plans.vatPercentage,
        pauseFrom: subscriptions.pauseFrom,
        pausedUntil: subscriptions.pausedUntil,
        pausePeriods: subscriptions.pausePeriods,
        pauseEntitlements: subscriptions.pauseEntitlements,
      })
      .from(subscriptions)
      .innerJoin(userTenants, membershipOfSubscription)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(plans, planOfSubscription)
      .where(and(eq(subscriptions.tenantId, sql.placeholder('tenantId')), anyOf(subscriptions.id, 'ids')))
      .prepare(name),
  );
  const [rows, paymentsBySub] = await Promise.all([
    query.execute({ tenantId: scope.tenantId, ids }),
    paymentsOf(scope, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const status = r.status as SubscriptionStatusId;
    const recurrence = r.planRecurrence as RecurrenceTypeId;
    return [
      {
        id: r.id,
        userID: r.userId,
        planID: r.planId,
        user: { id: r.userId, name: r.userName, email: r.userEmail },
        plan: {
          id: r.planId,
          name: r.planName,
          recurrenceType: recurrence,
          recurrenceTypeName: recurrenceTypeNames[recurrence],
          recurringCostBeforeVAT: fromDecimalString(r.planCost),
          vatPercentage: fromDecimalString(r.planVat),
        },
        startDate: r.startDate.toISOString(),
        nextBillingDate: r.nextBillingDate.toISOString(),
        subscriptionStatus: status,
        subscriptionStatusName: subscriptionStatusNames[status],
        trialEndsAt: r.trialEndsAt?.toISOString() ?? null,
        trialState: (r.trialState as TrialState | null) ?? null,
        costBeforeVAT: fromCents(r.costBeforeVatCents),
        vatPercentage: fromPercentHundredths(r.vatHundredths),
        amountDue: fromCents(r.amountDueCents),
        currency: 'EUR' as const,
        payments: paymentsBySub.get(r.id) ?? [],
        createdAt: r.createdAt.toISOString(),
        pause:
          r.pauseFrom && r.pausedUntil && r.pausePeriods && r.pauseEntitlements
            ? {
                from: r.pauseFrom.toISOString(),
                until: r.pausedUntil.toISOString(),
                periods: r.pausePeriods,
                entitlements: r.pauseEntitlements as PauseEntitlements,
              }
            : null,
      },
    ];
  });
}

/** Payments of the given subscriptions, oldest first, with their transfer sums (one query for the page). */
async function paymentsOf(
  scope: TenantScope,
  subscriptionIds: readonly number[],
): Promise<Map<number, Payment[]>> {
  const query = preparedOnce(scope.tx, 'subscription_payments', (name) =>
    scope.tx
      .select({
        id: payments.id,
        subscriptionId: payments.subscriptionId,
        amountDueCents: payments.amountDueCents,
        providerSubscriptionId: payments.providerSubscriptionId,
        method: payments.method,
        causale: payments.causale,
        periodStart: payments.periodStart,
        periodEnd: payments.periodEnd,
        paidAt: payments.paidAt,
        dueDate: payments.dueDate,
        collectionStatus: payments.collectionStatus,
        oneOffChargeId: payments.oneOffChargeId,
        planChangeId: payments.planChangeId,
        // Per payment of the page only (index bank_transfers_payment_idx), never the whole tenant.
        // Written qualified: drizzle renders a column of the selected table unqualified here.
        approved: sql<string>`(select coalesce(sum(bt.amount_cents), 0) from bank_transfers bt where bt.payment_id = "payments"."id" and bt.tenant_id = "payments"."tenant_id" and bt.approval_date is not null)`,
        transferred: sql<string>`(select coalesce(sum(bt.amount_cents), 0) from bank_transfers bt where bt.payment_id = "payments"."id" and bt.tenant_id = "payments"."tenant_id")`,
      })
      .from(payments)
      .where(and(eq(payments.tenantId, sql.placeholder('tenantId')), anyOf(payments.subscriptionId, 'ids')))
      .orderBy(asc(payments.subscriptionId), asc(payments.id))
      .prepare(name),
  );
  const rows = await query.execute({ tenantId: scope.tenantId, ids: subscriptionIds });
  const out = new Map<number, Payment[]>();
  for (const r of rows) {
    const list = out.get(r.subscriptionId) ?? [];
    list.push({
      id: r.id,
      amountDue: fromCents(r.amountDueCents),
      currency: 'EUR',
      approvedAmount: fromCents(Number(r.approved ?? 0)),
      transferredAmount: fromCents(Number(r.transferred ?? 0)),
      providerSubscriptionId: r.providerSubscriptionId,
      method: (r.method as PaymentMethod | null) ?? null,
      causale: r.causale,
      periodStart: r.periodStart.toISOString(),
      periodEnd: r.periodEnd.toISOString(),
      paidAt: r.paidAt?.toISOString() ?? null,
      dueDate: r.dueDate,
      collectionStatus: r.collectionStatus as CollectionStatus,
      extra: r.oneOffChargeId !== null ? 'oneOff' : r.planChangeId !== null ? 'proration' : null,
    });
    out.set(r.subscriptionId, list);
  }
  return out;
}

/**
 * A subscription's history. Read by its customer (`customerId`), the staff who acted are named by
 * their role ('Admin', 'SuperAdmin'), never by e-mail or id: a customer learns nothing of the
 * seller's people (issue 23). The customer's own actions keep their name.
 */
export async function historyOf(
  scope: TenantScope,
  subscriptionId: number,
  customerId?: number,
): Promise<SubscriptionHistoryEntry[]> {
  const rows = await scope.tx
    .select({ event: subscriptionEvents, actorRoleId: users.roleId })
    .from(subscriptionEvents)
    .leftJoin(
      users,
      and(eq(subscriptionEvents.actorKind, 'user'), sql`${users.id}::text = ${subscriptionEvents.actorId}`),
    )
    .where(
      and(
        eq(subscriptionEvents.tenantId, scope.tenantId),
        eq(subscriptionEvents.subscriptionId, subscriptionId),
      ),
    )
    .orderBy(asc(subscriptionEvents.id));
  return rows.map(({ event: r, actorRoleId }) => {
    const staffSeenByCustomer =
      customerId !== undefined && r.actorKind === 'user' && r.actorId !== String(customerId);
    return {
      id: r.id,
      event: r.event as SubscriptionHistoryEntry['event'],
      fromStatus: (r.fromStatus as SubscriptionStatusId | null) ?? null,
      toStatus: r.toStatus as SubscriptionStatusId,
      actor: staffSeenByCustomer
        ? { kind: 'user', id: null, name: isRoleId(actorRoleId) ? roleNameById[actorRoleId] : null }
        : {
            kind: r.actorKind as SubscriptionHistoryEntry['actor']['kind'],
            id: r.actorId,
            name: r.actorName,
          },
      reason: r.reason,
      at: r.at.toISOString(),
    };
  });
}

/** The first payment of a subscription (made with it). */
export async function firstPayment(
  scope: TenantScope,
  subscriptionId: number,
  options: { lock?: boolean } = {},
) {
  const q = scope.tx
    .select()
    .from(payments)
    .where(and(eq(payments.tenantId, scope.tenantId), eq(payments.subscriptionId, subscriptionId)))
    .orderBy(asc(payments.id))
    .limit(1);
  const [row] = options.lock ? await q.for('update') : await q;
  return row;
}

/**
 * The payment of a subscription's current period: its paid payment of the latest period (issue 29:
 * one paid by bank transfer makes the subscription renew by bank transfer).
 */
export async function latestPaidPayment(scope: TenantScope, subscriptionId: number) {
  const [row] = await scope.tx
    .select({ id: payments.id, method: payments.method, periodStart: payments.periodStart })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.paidAt),
        // A one-off charge's payment (issue 30) is no period: it says nothing of how periods renew.
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(desc(payments.periodStart), desc(payments.id))
    .limit(1);
  return row;
}

/**
 * The payment a subscription waits for: its oldest unpaid one (the first payment, or a later
 * period's: a renewal by bank transfer), else the first payment. What the bank-transfer calls
 * (instructions, transfers, confirmation) and the customer's 'Paga ora' act on.
 */
export async function paymentToSettle(
  scope: TenantScope,
  subscriptionId: number,
  options: { lock?: boolean } = {},
) {
  const q = scope.tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNull(payments.paidAt),
        // A one-off charge's payment (issue 30) is settled on its own ('Segna come pagato', Stripe).
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1);
  const [unpaid] = options.lock ? await q.for('update') : await q;
  return unpaid ?? firstPayment(scope, subscriptionId, options);
}

/** The payment of the subscription's period starting at `periodStart`, if there is one. */
export async function paymentOfPeriod(scope: TenantScope, subscriptionId: number, periodStart: Date) {
  const [row] = await scope.tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.periodStart, periodStart),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1);
  return row;
}

export async function findPayment(scope: TenantScope, paymentId: number, options: { lock?: boolean } = {}) {
  const q = scope.tx
    .select()
    .from(payments)
    .where(and(eq(payments.tenantId, scope.tenantId), eq(payments.id, paymentId)));
  const [row] = options.lock ? await q.for('update') : await q;
  return row;
}

/** Sum of a payment's transfers: all, and approved only (cents). */
export async function transferTotals(
  scope: TenantScope,
  paymentId: number,
): Promise<{ all: number; approved: number }> {
  const [row] = await scope.tx
    .select({
      all: sql<string>`coalesce(sum(${bankTransfers.amountCents}), 0)`,
      approved: sql<string>`coalesce(sum(${bankTransfers.amountCents}) filter (where ${bankTransfers.approvalDate} is not null), 0)`,
    })
    .from(bankTransfers)
    .where(and(eq(bankTransfers.tenantId, scope.tenantId), eq(bankTransfers.paymentId, paymentId)));
  return { all: Number(row?.all ?? 0), approved: Number(row?.approved ?? 0) };
}

export async function latestApprovalDate(scope: TenantScope, paymentId: number): Promise<Date | null> {
  const [row] = await scope.tx
    .select({ at: bankTransfers.approvalDate })
    .from(bankTransfers)
    .where(
      and(
        eq(bankTransfers.tenantId, scope.tenantId),
        eq(bankTransfers.paymentId, paymentId),
        isNotNull(bankTransfers.approvalDate),
      ),
    )
    .orderBy(desc(bankTransfers.approvalDate))
    .limit(1);
  return row?.at ?? null;
}

/**
 * Issue 29: a subscription renews by bank transfer when its customer chose the transfer for the
 * period from `periodStart` ('Passa al bonifico': that payment is recorded unpaid with method
 * 'bankTransfer'), or when its current period was paid by bank transfer and the tenant has an IBAN
 * to give (without one, the payment link as before). The choice outlives that payment: a plan
 * change withdraws it (issue 30), and the subscription's last status move, the customer's
 * `switchToBankTransfer`, still says it (until a move undoes it: renewal back on, expiry…).
 */
export async function renewsByTransfer(
  w: TenantScope,
  subscriptionId: number,
  periodStart: Date,
): Promise<boolean> {
  const next = await paymentOfPeriod(w, subscriptionId, periodStart);
  if (next && next.paidAt === null && next.method === 'bankTransfer') return true;
  if (next && next.paidAt !== null) return false;
  const current = await latestPaidPayment(w, subscriptionId);
  if (current?.method !== 'bankTransfer' && !(await choseTransfer(w, subscriptionId))) return false;
  const [tenant] = await w.tx.select({ iban: tenants.iban }).from(tenants).where(eq(tenants.id, w.tenantId));
  return Boolean(tenant?.iban);
}

/** The subscription's last status move is its customer's 'Passa al bonifico' (history rows that move no status skipped). */
async function choseTransfer(w: TenantScope, subscriptionId: number): Promise<boolean> {
  const [last] = await w.tx
    .select({ event: subscriptionEvents.event })
    .from(subscriptionEvents)
    .where(
      and(
        eq(subscriptionEvents.tenantId, w.tenantId),
        eq(subscriptionEvents.subscriptionId, subscriptionId),
        sql`${subscriptionEvents.fromStatus} is distinct from ${subscriptionEvents.toStatus}`,
      ),
    )
    .orderBy(desc(subscriptionEvents.id))
    .limit(1);
  return last?.event === 'switchToBankTransfer';
}

/**
 * The amount of a renewal payment for the period starting at `periodStart`: a change scheduled to
 * take effect by then sets it (the new plan's price from that period on).
 */
export async function scheduledAmountFor(
  w: TenantScope,
  subscriptionId: number,
  periodStart: Date,
): Promise<number | null> {
  const [row] = await w.tx
    .select({ amountDueCents: planChanges.amountDueCents })
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.subscriptionId, subscriptionId),
        eq(planChanges.status, 'scheduled'),
        lte(planChanges.effectiveAt, periodStart),
      ),
    );
  return row?.amountDueCents ?? null;
}

/**
 * The recurrence (months) of the plan a change scheduled by `periodStart` switches to, or null: a
 * renewal payment made before the billing date asks the new plan's period (issue 30, a change
 * between recurrences at the billing date: its periods count from that date).
 */
export async function scheduledRecurrenceFor(
  w: TenantScope,
  subscriptionId: number,
  periodStart: Date,
): Promise<number | null> {
  const [row] = await w.tx
    .select({ recurrence: plans.recurrenceType })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.subscriptionId, subscriptionId),
        eq(planChanges.status, 'scheduled'),
        lte(planChanges.effectiveAt, periodStart),
      ),
    );
  return row?.recurrence ?? null;
}
