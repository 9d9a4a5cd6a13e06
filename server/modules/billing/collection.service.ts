/**
 * Collection of payments (issue 29; contract/schemas/collection.ts): a payment's due date and
 * collection state (due → overdue → recovered | exhausted), its history (collection_events) and
 * the tenant's ladder. The subscription's five statuses stay; only the ladder's end moves one.
 */
import { redemptionForNextPayment } from '../../db/coupons';
import { and, asc, eq, gte, ilike, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  daysBetween,
  romeCalendarDay as romeCalendarDayOf,
  romeDay,
} from '../../../contract/billing-dates';
import { fromCents } from '../../../contract/money';
import { billingMessages, serverMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import {
  ageBuckets,
  DEFAULT_LADDER,
  type AgeBucketKey,
  type CollectionEvent,
  type CollectionFigures,
  type OverdueList,
  type OverduePayment,
  type CollectionEventKind,
  type CollectionStatus,
  type Ladder,
  type CollectionEmail,
  type CollectionEmails,
  type CollectionSettings,
  type CollectionSettingsInput,
} from '../../../contract/schemas/collection';
import { causaleOf } from '../../../contract/schemas/payment';
import { periodEndAfter } from '../../../contract/billing-dates';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  bankTransfers,
  collectionEvents,
  collectionSettings,
  payments,
  plans,
  subscriptions,
  users,
  userTenants,
} from '../../db/schema';
import type { EventBus } from '../../unit-of-work/events';
import type { Actor, TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import { formatEur } from './subscription.service';
import type { ProviderKind } from '../../providers/payment-provider';

export { addDays, daysBetween, romeDay };

/** The tenant's ladder: its row, else DEFAULT_LADDER. */
export async function ladderOf(scope: TenantScope): Promise<Ladder> {
  const { emails: _emails, ...ladder } = await collectionSettingsOf(scope);
  return ladder;
}

/** The stored e-mails lined up with `steps` steps (missing ones: null, the default). */
function emailsFor(stored: CollectionEmails | null | undefined, steps: number): CollectionEmails {
  return {
    steps: Array.from({ length: steps }, (_, i) => stored?.steps[i] ?? null),
    final: stored?.final ?? null,
  };
}

/** The tenant's ladder and its e-mails ('Solleciti'): its row, else DEFAULT_LADDER and the defaults. */
export async function collectionSettingsOf(scope: TenantScope): Promise<CollectionSettings> {
  const [row] = await scope.tx
    .select({
      steps: collectionSettings.steps,
      graceDays: collectionSettings.graceDays,
      finalDay: collectionSettings.finalDay,
      emails: collectionSettings.emails,
    })
    .from(collectionSettings)
    .where(eq(collectionSettings.tenantId, scope.tenantId));
  const ladder: Ladder = row
    ? { steps: [...row.steps], graceDays: row.graceDays, finalDay: row.finalDay }
    : {
        steps: [...DEFAULT_LADDER.steps],
        graceDays: DEFAULT_LADDER.graceDays,
        finalDay: DEFAULT_LADDER.finalDay,
      };
  return { ...ladder, emails: emailsFor(row?.emails, ladder.steps.length) };
}

/** An e-mail as stored: trimmed; both texts empty is the default (null). */
const storedEmail = (e: CollectionEmail | null | undefined): CollectionEmail | null => {
  if (!e) return null;
  const subject = e.subject.trim();
  const body = e.body.replace(/\r\n?/g, '\n').trim();
  return subject === '' && body === '' ? null : { subject, body };
};

/**
 * Saves the ladder and, when given, its e-mails; without them the texts stay, by position, cut
 * to the new number of steps (a step added later gets the default).
 */
export async function saveLadder(w: UnitOfWork, input: CollectionSettingsInput): Promise<void> {
  const { emails: given, ...ladder } = input;
  const current = given ? null : (await collectionSettingsOf(w)).emails;
  const source = given ?? current!;
  const emails = {
    steps: emailsFor(source, ladder.steps.length).steps.map(storedEmail),
    final: storedEmail(source.final),
  };
  const stored = emails.final === null && emails.steps.every((e) => e === null) ? null : emails;
  await w.tx
    .insert(collectionSettings)
    .values({ tenantId: w.tenantId, ...ladder, emails: stored, updatedAt: w.now })
    .onConflictDoUpdate({
      target: collectionSettings.tenantId,
      set: {
        steps: ladder.steps,
        graceDays: ladder.graceDays,
        finalDay: ladder.finalDay,
        emails: stored,
        updatedAt: w.now,
      },
    });
}

/** How a unit's actor is written in a collection event ('system', 'provider', 'user'). */
export function collectionActorOf(actor: Actor): {
  kind: 'system' | 'provider' | 'user';
  name: string | null;
} {
  switch (actor.kind) {
    case 'user':
      return { kind: 'user', name: actor.email ?? null };
    case 'provider':
      return {
        kind: 'provider',
        name:
          actor.provider === 'stripe' ? 'Stripe' : actor.provider === 'paypal' ? 'PayPal' : actor.provider,
      };
    case 'system':
      return { kind: 'system', name: actor.job };
    case 'paymentToken':
      // The customer paid through a payment link: recorded as the system's (the payment page).
      return { kind: 'system', name: 'Cliente (link di pagamento)' };
    case 'apiKey':
      return { kind: 'system', name: 'Chiave API' };
  }
}

export async function recordCollectionEvent(
  w: UnitOfWork,
  paymentId: number,
  kind: CollectionEventKind,
  detail: { step?: number | null; note?: string | null } = {},
): Promise<{ id: number } | undefined> {
  const actor = collectionActorOf(w.actor);
  const [row] = await w.tx
    .insert(collectionEvents)
    .values({
      tenantId: w.tenantId,
      paymentId,
      kind,
      step: detail.step ?? null,
      actorKind: actor.kind,
      actorName: actor.name,
      note: detail.note ?? null,
      at: w.now,
    })
    .onConflictDoNothing()
    .returning({ id: collectionEvents.id });
  return row;
}

/**
 * A provider could not charge a period (Stripe invoice.payment_failed, PayPal
 * BILLING.SUBSCRIPTION.PAYMENT.FAILED) of an Active subscription: the payment of the period from
 * the next billing date (made now, unpaid, when it does not exist yet) is overdue — event 'failed'
 * the first time, 'retry' for each later failure. The subscription stays Active (the ladder's
 * grace); nothing else moves.
 */
export async function providerChargeFailed(
  w: UnitOfWork,
  subscriptionId: number,
  providerId: string,
  failure: { kind: ProviderKind; note: string },
): Promise<{ outcome: 'applied' | 'ignored'; detail: string }> {
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) return { outcome: 'ignored', detail: `sottoscrizione ${subscriptionId} assente` };
  if (sub.status !== SubscriptionStatus.Active)
    return {
      outcome: 'ignored',
      detail: `sottoscrizione ${sub.id} non attiva: addebito non riuscito ignorato`,
    };
  const [existing] = await w.tx
    .select({ id: payments.id, paidAt: payments.paidAt, collectionStatus: payments.collectionStatus })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, sub.id),
        eq(payments.periodStart, sub.nextBillingDate),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1)
    .for('update');
  let paymentId: number;
  let kind: CollectionEventKind = 'failed';
  if (existing) {
    if (existing.paidAt !== null)
      return { outcome: 'ignored', detail: `pagamento ${existing.id} già incassato` };
    paymentId = existing.id;
    if (existing.collectionStatus === 'overdue' || existing.collectionStatus === 'exhausted') kind = 'retry';
    await w.tx
      .update(payments)
      .set({
        collectionStatus: existing.collectionStatus === 'exhausted' ? 'exhausted' : 'overdue',
        method: failure.kind,
        providerSubscriptionId: providerId,
      })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, existing.id)));
  } else {
    const [plan] = await w.tx
      .select({ recurrence: plans.recurrenceType })
      .from(plans)
      .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
    if (!plan) return { outcome: 'ignored', detail: 'piano assente' };
    paymentId = await nextPaymentId(w);
    await w.tx.insert(payments).values({
      id: paymentId,
      tenantId: w.tenantId,
      subscriptionId: sub.id,
      amountDueCents: sub.amountDueCents,
      couponRedemptionId: await redemptionForNextPayment(w, sub.id),
      causale: causaleOf(w.tenantId, paymentId),
      periodStart: sub.nextBillingDate,
      periodEnd: periodEndAfter(sub.startDate, plan.recurrence, sub.nextBillingDate),
      method: failure.kind,
      providerSubscriptionId: providerId,
      dueDate: romeDay(sub.nextBillingDate),
      collectionStatus: 'overdue',
      createdAt: w.now,
    });
  }
  await recordCollectionEvent(w, paymentId, kind, { note: failure.note });
  await w.publish('payment.failed', { paymentId, subscriptionId: sub.id, reason: failure.note });
  return {
    outcome: 'applied',
    detail: `sottoscrizione ${sub.id}: addebito non riuscito, pagamento ${paymentId} in ritardo`,
  };
}

/**
 * The unpaid payment a provider's successful charge pays: the overdue (or exhausted) one of the
 * period from the subscription's next billing date, if any.
 */
export async function overduePaymentOfPeriod(
  w: UnitOfWork,
  subscriptionId: number,
  periodStart: Date,
): Promise<{ id: number; amountDueCents: number } | undefined> {
  const [row] = await w.tx
    .select({ id: payments.id, amountDueCents: payments.amountDueCents })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.periodStart, periodStart),
        sql`${payments.paidAt} is null`,
        inArray(payments.collectionStatus, ['overdue', 'exhausted']),
      ),
    )
    .limit(1)
    .for('update');
  return row;
}

/**
 * A payment was paid (any path: provider charge, payment link, approved transfers): if it was
 * overdue or exhausted it is recovered (event 'recovered'); else it keeps 'due'. In the paying unit.
 */
export async function recoverIfOverdue(w: UnitOfWork, paymentId: number): Promise<boolean> {
  const [moved] = await w.tx
    .update(payments)
    .set({ collectionStatus: 'recovered' satisfies CollectionStatus })
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.id, paymentId),
        inArray(payments.collectionStatus, ['overdue', 'exhausted']),
      ),
    )
    .returning({ id: payments.id });
  if (!moved) return false;
  await recordCollectionEvent(w, paymentId, 'recovered');
  return true;
}

/** Collection listens to billing's own event: a paid payment that was overdue is recovered. */
export function subscribeCollection(events: EventBus): void {
  events.subscribe('payment.paid', {
    name: 'collection.recover',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      await recoverIfOverdue(w, paymentId);
    },
  });
}

export async function nextPaymentId(w: UnitOfWork): Promise<number> {
  const result = await w.tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('payments', 'id')) as id`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  return Number(rows[0]?.id);
}

// ---- The Admin's calls (collection.routes.ts)

/** A payment of the scope's tenant with its collection history; undefined when not the tenant's. */
export async function collectionOfPayment(scope: TenantScope, paymentId: number) {
  const [p] = await scope.tx
    .select({ dueDate: payments.dueDate, collectionStatus: payments.collectionStatus })
    .from(payments)
    .where(and(eq(payments.tenantId, scope.tenantId), eq(payments.id, paymentId)));
  if (!p) return undefined;
  const events = await scope.tx
    .select({
      id: collectionEvents.id,
      kind: collectionEvents.kind,
      step: collectionEvents.step,
      actorKind: collectionEvents.actorKind,
      actorName: collectionEvents.actorName,
      note: collectionEvents.note,
      at: collectionEvents.at,
    })
    .from(collectionEvents)
    .where(and(eq(collectionEvents.tenantId, scope.tenantId), eq(collectionEvents.paymentId, paymentId)))
    .orderBy(asc(collectionEvents.id));
  return {
    dueDate: p.dueDate,
    collectionStatus: p.collectionStatus as CollectionStatus,
    events: events.map((e): CollectionEvent => ({
      id: e.id,
      kind: e.kind as CollectionEventKind,
      step: e.step,
      actor: { kind: e.actorKind as CollectionEvent['actor']['kind'], name: e.actorName },
      note: e.note,
      at: e.at.toISOString(),
    })),
  };
}

export function bucketOf(daysOverdue: number): AgeBucketKey {
  const b = ageBuckets.find((x) => daysOverdue >= x.from && (x.to === null || daysOverdue <= x.to));
  return (b ?? ageBuckets[0]).key;
}

/**
 * 'Incassi in sospeso': the tenant's overdue payments, oldest due date first, paged; `bucket`
 * narrows to an age bucket, `searchTerm` to the subscription's customer or plan. The totals per
 * bucket count every overdue payment of the tenant.
 */
export async function overdueList(
  scope: TenantScope,
  query: {
    page: number;
    pageSize: number;
    bucket?: AgeBucketKey | undefined;
    searchTerm?: string | undefined;
  },
  now: Date,
): Promise<OverdueList> {
  const today = romeDay(now);
  const ladder = await ladderOf(scope);
  const base = and(
    eq(payments.tenantId, scope.tenantId),
    isNull(payments.paidAt),
    eq(payments.collectionStatus, 'overdue'),
  );
  const conditions: (SQL | undefined)[] = [base];
  if (query.bucket) {
    const b = ageBuckets.find((x) => x.key === query.bucket)!;
    // daysOverdue in [from, to] ⇔ due date in [today − to, today − from].
    conditions.push(lte(payments.dueDate, addDays(today, -b.from)));
    if (b.to !== null) conditions.push(gte(payments.dueDate, addDays(today, -b.to)));
  }
  if (query.searchTerm)
    conditions.push(
      ilike(
        subscriptions.searchText,
        `%${query.searchTerm.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      ),
    );
  const where = and(...conditions);
  // The join to subscriptions only where the search needs it: without a term the count and the
  // page's ids come from the partial index `payments_overdue_idx` alone.
  const bySubscription = and(
    eq(subscriptions.id, payments.subscriptionId),
    eq(subscriptions.tenantId, payments.tenantId),
  );
  const [count] = query.searchTerm
    ? await scope.tx
        .select({ n: sql<number>`count(*)::int` })
        .from(payments)
        .innerJoin(subscriptions, bySubscription)
        .where(where)
    : await scope.tx
        .select({ n: sql<number>`count(*)::int` })
        .from(payments)
        .where(where);
  // The page's ids first (oldest due date first), then only those rows' details and reminders:
  // the customer, plan and reminder look-ups never run for the rows an offset skips.
  const offset = (query.page - 1) * query.pageSize;
  const pageIds = (
    query.searchTerm
      ? await scope.tx
          .select({ id: payments.id })
          .from(payments)
          .innerJoin(subscriptions, bySubscription)
          .where(where)
          .orderBy(asc(payments.dueDate), asc(payments.id))
          .limit(query.pageSize)
          .offset(offset)
      : await scope.tx
          .select({ id: payments.id })
          .from(payments)
          .where(where)
          .orderBy(asc(payments.dueDate), asc(payments.id))
          .limit(query.pageSize)
          .offset(offset)
  ).map((r) => r.id);
  const detailRows =
    pageIds.length === 0
      ? []
      : await scope.tx
          .select({
            paymentId: payments.id,
            subscriptionId: payments.subscriptionId,
            amountDueCents: payments.amountDueCents,
            method: payments.method,
            dueDate: payments.dueDate,
            userId: subscriptions.userId,
            email: users.email,
            name: userTenants.name,
            planId: plans.id,
            planName: plans.name,
          })
          .from(payments)
          .innerJoin(subscriptions, bySubscription)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .innerJoin(
            userTenants,
            and(
              eq(userTenants.userId, subscriptions.userId),
              eq(userTenants.tenantId, subscriptions.tenantId),
            ),
          )
          .innerJoin(
            plans,
            and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)),
          )
          .where(and(eq(payments.tenantId, scope.tenantId), inArray(payments.id, pageIds)));
  const reminders =
    pageIds.length === 0
      ? []
      : await scope.tx
          .select({
            paymentId: collectionEvents.paymentId,
            step: sql<number | null>`max(${collectionEvents.step})`,
            lastReminderAt: sql<string | null>`max(${collectionEvents.at})`,
          })
          .from(collectionEvents)
          .where(
            and(
              eq(collectionEvents.tenantId, scope.tenantId),
              inArray(collectionEvents.paymentId, pageIds),
              eq(collectionEvents.kind, 'reminder'),
            ),
          )
          .groupBy(collectionEvents.paymentId);
  const detailOf = new Map(detailRows.map((r) => [r.paymentId, r]));
  const reminderOf = new Map(reminders.map((r) => [r.paymentId, r]));
  const rows = pageIds.flatMap((id) => {
    const r = detailOf.get(id);
    if (!r) return [];
    const reminder = reminderOf.get(id);
    return [{ ...r, step: reminder?.step ?? null, lastReminderAt: reminder?.lastReminderAt ?? null }];
  });
  // The totals per bucket, counted and summed by the database (not every overdue row read into
  // the server): the same bounds as `bucketOf`, a due date not yet passed in the first bucket.
  const inBucket = ageBuckets.map((b, i) => {
    const bounds: SQL[] = [];
    if (i > 0) bounds.push(sql`${payments.dueDate} <= ${addDays(today, -b.from)}`);
    if (b.to !== null) bounds.push(sql`${payments.dueDate} >= ${addDays(today, -b.to)}`);
    return sql.join(bounds, sql` and `);
  });
  const [totals] = await scope.tx
    .select({
      counts: sql<string>`array[${sql.join(
        inBucket.map((w) => sql`count(*) filter (where ${w})`),
        sql`, `,
      )}]::text`,
      // Summed as text: int8 arrives as a string from pg and exactly within 2^53 cents.
      cents: sql<string>`array[${sql.join(
        inBucket.map((w) => sql`coalesce(sum(${payments.amountDueCents}) filter (where ${w}), 0)`),
        sql`, `,
      )}]::text`,
    })
    .from(payments)
    .where(base);
  const numbers = (text: string | undefined) =>
    (text ?? '{}').replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  const counts = numbers(totals?.counts);
  const sums = numbers(totals?.cents);
  const buckets = ageBuckets.map((b, i) => ({ key: b.key, count: counts[i] ?? 0, cents: sums[i] ?? 0 }));
  return {
    items: rows.map((r): OverduePayment => {
      const daysOverdue = Math.max(0, daysBetween(r.dueDate, today));
      return {
        paymentId: r.paymentId,
        subscriptionId: r.subscriptionId,
        customer: { id: r.userId, name: r.name, email: r.email },
        plan: { id: r.planId, name: r.planName },
        amountDue: fromCents(r.amountDueCents),
        method: (r.method as OverduePayment['method']) ?? null,
        dueDate: r.dueDate,
        daysOverdue,
        bucket: bucketOf(daysOverdue),
        step: r.step === null ? null : Number(r.step),
        lastReminderAt: r.lastReminderAt === null ? null : new Date(r.lastReminderAt).toISOString(),
        graceEndsOn: addDays(r.dueDate, ladder.graceDays),
      };
    }),
    totalCount: count?.n ?? 0,
    buckets: buckets.map((b) => ({ key: b.key, count: b.count, amount: fromCents(b.cents) })),
    total: {
      count: buckets.reduce((n, b) => n + b.count, 0),
      amount: fromCents(buckets.reduce((sum, b) => sum + b.cents, 0)),
    },
  };
}

/** The dashboard's collection figures (Europe/Rome month). */
export async function collectionFigures(scope: TenantScope, now: Date): Promise<CollectionFigures> {
  const [overdue] = await scope.tx
    .select({
      n: sql<number>`count(*)::int`,
      cents: sql<string>`coalesce(sum(${payments.amountDueCents}), 0)`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        isNull(payments.paidAt),
        eq(payments.collectionStatus, 'overdue'),
      ),
    );
  const { year, month } = romeCalendarDayOf(now);
  const monthStart = `${year}-${String(month).padStart(2, '0')}-01`;
  const [recovered] = await scope.tx
    .select({
      n: sql<number>`count(*)::int`,
      cents: sql<string>`coalesce(sum(${payments.amountDueCents}), 0)`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.collectionStatus, 'recovered'),
        sql`exists (select 1 from collection_events ce where ce.payment_id = ${payments.id} and ce.tenant_id = ${payments.tenantId} and ce.kind = 'recovered' and (ce.at at time zone 'Europe/Rome')::date >= ${monthStart}::date)`,
      ),
    );
  const recoveredCount = recovered?.n ?? 0;
  const overdueCount = overdue?.n ?? 0;
  const base = recoveredCount + overdueCount;
  return {
    overdue: { count: overdueCount, amount: fromCents(Number(overdue?.cents ?? 0)) },
    recoveredThisMonth: {
      count: recoveredCount,
      amount: fromCents(Number(recovered?.cents ?? 0)),
      // Recovered this month ÷ (recovered this month + still overdue), percent with one decimal.
      rate: base === 0 ? null : Math.round((recoveredCount / base) * 1000) / 10,
    },
  };
}

/**
 * 'Segna come pagato': the transfer recorded (approved on `approvalDate`) and the payment paid,
 * as the transfer screen would: a BankTransferPending subscription is confirmed
 * (confirmBankTransfer); any other keeps its status and its payment is paid, its period's end
 * becoming the next billing date when later. payment.paid then recovers it and issues its
 * invoice (once). 404 for another tenant's payment, 409 when paid already.
 */
export async function markPaid(
  w: UnitOfWork,
  paymentId: number,
  input: { amountCents: number; approvalDate: Date; note?: string | undefined },
  confirm: (w: UnitOfWork, subscriptionId: number) => Promise<void>,
): Promise<void> {
  const [p] = await w.tx
    .select({
      id: payments.id,
      subscriptionId: payments.subscriptionId,
      paidAt: payments.paidAt,
      amountDueCents: payments.amountDueCents,
      periodEnd: payments.periodEnd,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)))
    .for('update');
  if (!p) throw new HttpError(404, serverMessages.notFound);
  if (p.paidAt !== null) throw new HttpError(409, collectionMessages.alreadyPaid);
  if (input.approvalDate.getTime() > w.now.getTime())
    throw new HttpError(400, serverMessages.validation, {
      errors: [`approvalDate: ${billingMessages.approvalInFuture}`],
    });
  if (input.amountCents < p.amountDueCents)
    throw new HttpError(400, serverMessages.validation, {
      errors: [`amount: ${collectionMessages.amountShort(formatEur(p.amountDueCents))}`],
    });
  const sub = await findSubscription(w, p.subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const [transfer] = await w.tx
    .insert(bankTransfers)
    .values({
      tenantId: w.tenantId,
      paymentId: p.id,
      amountCents: p.amountDueCents,
      approvalDate: input.approvalDate,
      createdAt: w.now,
      updatedAt: w.now,
    })
    .returning({ id: bankTransfers.id });
  await recordCollectionEvent(w, p.id, 'markedPaid', { note: input.note ?? null });
  await w.publish('bankTransfer.approved', { bankTransferId: transfer!.id, paymentId: p.id });
  if (sub.status === SubscriptionStatus.BankTransferPending) {
    await confirm(w, sub.id);
    return;
  }
  await w.tx
    .update(payments)
    .set({ paidAt: input.approvalDate, method: 'bankTransfer' })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, p.id)));
  if (p.periodEnd.getTime() > sub.nextBillingDate.getTime())
    await w.tx
      .update(subscriptions)
      .set({ nextBillingDate: p.periodEnd, updatedAt: w.now })
      .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  await w.publish('payment.paid', { paymentId: p.id, subscriptionId: sub.id });
}

export const collectionMessages = {
  alreadyPaid: 'Questo pagamento risulta già incassato.',
  notCollectable: 'Questo pagamento non è da sollecitare: è già incassato o i solleciti sono esauriti.',
  amountShort: (due: string) => `L’importo deve coprire quanto dovuto (${due}).`,
  ladderSaved: 'Solleciti salvati.',
  reminded: 'Sollecito inviato.',
  markedPaid: 'Pagamento registrato: incasso recuperato.',
} as const;
