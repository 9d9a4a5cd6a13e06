/**
 * Collection of payments (issue 29; contract/schemas/collection.ts): a payment's due date and
 * collection state (due → overdue → recovered | exhausted), its history (collection_events) and
 * the tenant's ladder. The subscription's five statuses stay; only the ladder's end moves one.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { addDays, daysBetween, romeDay } from '../../../contract/billing-dates';
import {
  DEFAULT_LADDER,
  type CollectionEventKind,
  type CollectionStatus,
  type Ladder,
} from '../../../contract/schemas/collection';
import { causaleOf } from '../../../contract/schemas/payment';
import { periodEndAfter } from '../../../contract/billing-dates';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { collectionEvents, collectionSettings, payments, plans } from '../../db/schema';
import type { EventBus } from '../../unit-of-work/events';
import type { Actor, TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import type { ProviderKind } from '../../providers/payment-provider';

export { addDays, daysBetween, romeDay };

/** The tenant's ladder: its row, else DEFAULT_LADDER. */
export async function ladderOf(scope: TenantScope): Promise<Ladder> {
  const [row] = await scope.tx
    .select({
      steps: collectionSettings.steps,
      graceDays: collectionSettings.graceDays,
      finalDay: collectionSettings.finalDay,
    })
    .from(collectionSettings)
    .where(eq(collectionSettings.tenantId, scope.tenantId));
  return row
    ? { steps: [...row.steps], graceDays: row.graceDays, finalDay: row.finalDay }
    : {
        steps: [...DEFAULT_LADDER.steps],
        graceDays: DEFAULT_LADDER.graceDays,
        finalDay: DEFAULT_LADDER.finalDay,
      };
}

export async function saveLadder(w: UnitOfWork, ladder: Ladder): Promise<void> {
  await w.tx
    .insert(collectionSettings)
    .values({ tenantId: w.tenantId, ...ladder, updatedAt: w.now })
    .onConflictDoUpdate({
      target: collectionSettings.tenantId,
      set: { steps: ladder.steps, graceDays: ladder.graceDays, finalDay: ladder.finalDay, updatedAt: w.now },
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
): Promise<{ id: number } | undefined> {
  const [row] = await w.tx
    .select({ id: payments.id })
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
