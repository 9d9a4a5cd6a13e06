/**
 * What any payment provider (PayPal, Stripe) does to Rinnova's subscriptions, whatever told it (the
 * payment page, a webhook, the sync): a token's payment recorded, a charge or renewal recorded, a
 * refund handed to invoicing, a provider status applied through the state machine, a cancel at
 * the provider before Rinnova's. Every provider call happens before and outside the unit of work,
 * so a provider failure changes nothing.
 */
import { redemptionForNextPayment } from '../../db/coupons';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { periodEndAfter, romeDay } from '../../../contract/billing-dates';
import { messages } from '../../../contract/messages';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import {
  SubscriptionStatus,
  transition,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import type { PublicHome } from '../../db/tenancy/public-home';
import { paymentTokens, payments, plans, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { ProviderError, type ProviderKind } from '../../providers/payment-provider';
import type { ProviderRegistry } from '../../providers/registry';
import { machineActorOf, type UnitOfWork, type UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { findSubscription, firstPayment } from './billing.repository';
import { changeStatus, formatEur, recordHistory } from './subscription.service';
import { applyDuePlanChanges } from './plan-change.service';
import { attachNextCharges } from './one-off-charge.service';
import { setOffCredit } from './subscription-credit';
import { overduePaymentOfPeriod } from './collection.service';
import { causaleOf } from '../../../contract/schemas/payment';
import { isUsable, paymentMessages, type TokenRow } from './payment-token.service';

export interface ProviderDeps {
  uow: UnitOfWorkRunner;
  providers: ProviderRegistry;
  connectionFor: (tenantId: number) => Database;
  /** Where a public call's token or plan is found before its tenant is known (db/tenancy/public-home.ts). */
  home: PublicHome;
}

export const tokenInvalid = () => new HttpError(400, messages.payment.tokenInvalid);

export const providerLabel = (kind: ProviderKind) => (kind === 'stripe' ? 'Stripe' : 'PayPal');

/** The payment link's row, locked for the unit (its status, expiry and provider id); 400 when gone. */
async function lockedToken(w: UnitOfWork, id: number) {
  const [locked] = await w.tx
    .select({
      status: paymentTokens.status,
      expiresAt: paymentTokens.expiresAt,
      providerSubscriptionId: paymentTokens.providerSubscriptionId,
    })
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, id)))
    .for('update');
  if (!locked) throw tokenInvalid();
  return locked;
}

/**
 * The payment of a token, inside `w` (the token's tenant), once the provider confirmed it: token
 * Used, payment paid with the provider's subscription id, subscription Active, the next billing
 * date moved for a renewal's payment, the invoice issued. The same token with the same id again
 * answers 'replayed' and changes nothing. Every refusal is thrown before the first write.
 * `lateOk`: a token whose hour ran out while the customer was at the provider's checkout (started
 * in time) is still honoured: the customer has paid.
 */
export async function recordTokenPayment(
  w: UnitOfWork,
  row: Pick<TokenRow, 'id' | 'paymentId' | 'subscriptionId'>,
  providerSubscriptionId: string,
  kind: ProviderKind,
  options: { lateOk?: boolean; checkoutSessionId?: string } = {},
): Promise<'paid' | 'replayed'> {
  const label = providerLabel(kind);
  const locked = await lockedToken(w, row.id);
  // Two deliveries of the same approval at once: the second finds the token Used.
  if (locked.status === PaymentTokenStatus.Used && locked.providerSubscriptionId === providerSubscriptionId)
    return 'replayed';
  const usable = options.lateOk
    ? locked.status === PaymentTokenStatus.Active
    : isUsable({ status: locked.status as 0 | 1 | 2, expiresAt: locked.expiresAt }, w.now);
  if (!usable) throw tokenInvalid();
  // Paid another way meanwhile (a transfer recorded, another link or session): not recorded twice.
  const [due] = await w.tx
    .select({ paidAt: payments.paidAt })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, row.paymentId)))
    .for('update');
  if (due?.paidAt) throw new HttpError(409, paymentMessages.alreadyPaid);
  const [taken] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.providerSubscriptionId, providerSubscriptionId),
        ne(payments.subscriptionId, row.subscriptionId),
      ),
    )
    .limit(1);
  if (taken) throw new HttpError(409, kind === 'stripe' ? stripeIdTaken : paymentMessages.paypalIdTaken);
  const sub = await findSubscription(w, row.subscriptionId, { lock: true });
  if (!sub) throw tokenInvalid();
  await changeStatus(w, sub, 'pay', `${label} ${providerSubscriptionId}`);
  const [paid] = await w.tx
    .update(payments)
    .set({ providerSubscriptionId, paidAt: w.now, method: kind })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, row.paymentId)))
    .returning({ periodEnd: payments.periodEnd });
  // A renewal's payment (a reminder's link) covers the next period: the subscription's next
  // billing date moves to its end; the first payment's end is the next billing date already.
  if (paid && paid.periodEnd.getTime() > sub.nextBillingDate.getTime()) {
    await w.tx
      .update(subscriptions)
      .set({ nextBillingDate: paid.periodEnd, updatedAt: w.now })
      .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  }
  // Its invoice (in this unit), its webhook, …: whoever consumes the event.
  await w.publish('payment.paid', {
    paymentId: row.paymentId,
    subscriptionId: row.subscriptionId,
    ...(options.checkoutSessionId ? { checkoutSessionId: options.checkoutSessionId } : {}),
  });
  await w.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Used, usedAt: w.now, providerSubscriptionId })
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, row.id)));
  return 'paid';
}

const stripeIdTaken = 'Questa sottoscrizione Stripe è già collegata a un altro pagamento.';

export const extraPaymentMessages = {
  amountDiffers: (paid: number | null, due: number) =>
    `Stripe ha incassato ${paid ?? '?'} centesimi invece di ${due}: il pagamento non è registrato.`,
  paidMeanwhile: 'Questo pagamento risultava già pagato: il pagamento con carta va rimborsato su Stripe.',
} as const;

/**
 * The payment of an extra payment's token (issue 30: a one-off charge or a plan change's proration
 * of a live subscription) paid by card in a payment-mode Stripe Checkout, inside `w`: the payment
 * paid (method 'stripe', `provider_payment_id` the PaymentIntent, so one charge is one payment), the
 * token Used (its `provider_subscription_id` keeps the session id, so the return page and the
 * webhook of the same session answer 'replayed'), `payment.paid` (the charge 'paid', its one
 * invoice). No status move and no date moves: the period and the next billing date are untouched.
 * Refusals (the amount Stripe took is not the one asked, the payment already paid another way) are
 * thrown before the first write.
 */
export async function recordExtraTokenPayment(
  w: UnitOfWork,
  row: Pick<TokenRow, 'id' | 'paymentId' | 'subscriptionId'>,
  charge: { sessionId: string; paymentIntentId: string | null; amountPaid: number | null; lateOk?: boolean },
): Promise<'paid' | 'replayed'> {
  const locked = await lockedToken(w, row.id);
  if (locked.status === PaymentTokenStatus.Used && locked.providerSubscriptionId === charge.sessionId)
    return 'replayed';
  const usable = charge.lateOk
    ? locked.status === PaymentTokenStatus.Active
    : isUsable({ status: locked.status as 0 | 1 | 2, expiresAt: locked.expiresAt }, w.now);
  if (!usable) throw tokenInvalid();
  const [payment] = await w.tx
    .select({
      amountDueCents: payments.amountDueCents,
      paidAt: payments.paidAt,
      oneOffChargeId: payments.oneOffChargeId,
      planChangeId: payments.planChangeId,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, row.paymentId)))
    .for('update');
  if (!payment || (payment.oneOffChargeId === null && payment.planChangeId === null)) throw tokenInvalid();
  if (payment.paidAt) throw new HttpError(409, extraPaymentMessages.paidMeanwhile);
  if (charge.amountPaid !== payment.amountDueCents)
    throw new HttpError(400, extraPaymentMessages.amountDiffers(charge.amountPaid, payment.amountDueCents));
  await w.tx
    .update(payments)
    .set({
      paidAt: w.now,
      method: 'stripe',
      providerSubscriptionId: null,
      providerPaymentId: (charge.paymentIntentId ?? charge.sessionId).slice(0, 200),
    })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, row.paymentId)));
  await w.publish('payment.paid', {
    paymentId: row.paymentId,
    subscriptionId: row.subscriptionId,
    checkoutSessionId: charge.sessionId,
  });
  await w.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Used, usedAt: w.now, providerSubscriptionId: charge.sessionId })
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, row.id)));
  return 'paid';
}

/**
 * `DELETE cancel/{id}`, provider step: an Active subscription whose first payment has a provider
 * subscription id is cancelled at its provider (PayPal or Stripe, by the payment's method) first,
 * outside any transaction. Anything else is left to the unit of work's own 404/409. The provider
 * answering that it is already cancelled counts as done.
 */
export async function cancelAtProvider(
  deps: ProviderDeps,
  tenantId: number,
  subscriptionId: number,
): Promise<void> {
  const scope = { tenantId, tx: deps.connectionFor(tenantId) };
  const sub = await findSubscription(scope, subscriptionId);
  if (!sub || sub.status !== SubscriptionStatus.Active) return;
  const payment = await firstPayment(scope, sub.id);
  const providerId = payment?.providerSubscriptionId;
  if (!providerId) return;
  const adapter = await deps.providers.adapterOf(tenantId, payment.method === 'stripe' ? 'stripe' : 'paypal');
  try {
    await adapter.cancelSubscription(providerId, 'Cancellata dal venditore in Rinnova');
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unprocessable') {
      const remote = await adapter.getSubscription(providerId);
      if (remote.status === 'CANCELLED' || remote.status === 'EXPIRED') return;
    }
    throw error;
  }
}

/** Where a provider status leads, and by which event of the state machine. */
const PROVIDER_STATUS: Record<string, { to: SubscriptionStatusId; event: SubscriptionEvent }> = {
  ACTIVE: { to: SubscriptionStatus.Active, event: 'providerActivated' },
  SUSPENDED: { to: SubscriptionStatus.NotActive, event: 'providerSuspended' },
  CANCELLED: { to: SubscriptionStatus.Canceled, event: 'providerCanceled' },
  EXPIRED: { to: SubscriptionStatus.Canceled, event: 'providerCanceled' },
};

/**
 * Applies a provider status to a subscription inside `w`: 'applied' when it moved, 'unchanged'
 * when it was already there, 'ignored' when the state machine has no such move for this actor.
 */
export async function applyProviderStatus(
  w: UnitOfWork,
  subscriptionId: number,
  providerStatus: string,
  reason: string,
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const target = PROVIDER_STATUS[providerStatus];
  if (!target) return 'ignored';
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) return 'ignored';
  if (sub.status === target.to) return 'unchanged';
  // Issue 30: a pause of collection suspends a PayPal subscription; that is no suspension of the
  // subscription (it keeps its status until the pause ends and PayPal is re-activated).
  if (providerStatus === 'SUSPENDED' && (await isPaused(w, subscriptionId))) return 'ignored';
  const actor = machineActorOf(w.actor);
  if (!actor || transition(sub.status, target.event, actor) !== target.to) return 'ignored';
  await changeStatus(w, sub, target.event, reason);
  return 'applied';
}

export type WebhookOutcome =
  'applied' | 'unchanged' | 'ignored' | 'unknownSubscription' | 'unsupported' | 'duplicate';

/** The subscription whose first provider payment carries `providerId`, in the unit's tenant. */
export async function subscriptionOfProviderId(w: UnitOfWork, providerId: string): Promise<number | null> {
  const [row] = await w.tx
    .select({ subscriptionId: payments.subscriptionId })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.providerSubscriptionId, providerId)))
    .orderBy(asc(payments.id))
    .limit(1);
  return row?.subscriptionId ?? null;
}

/**
 * A refunded or reversed charge, told to whoever consumes it (invoicing: the credit note); the
 * provider event records what was done, or why nothing was.
 */
export async function refundReported(
  w: UnitOfWork,
  refund: { saleId: string; refundedCents: number | null; what: string },
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const [report] = await w.publish('payment.refunded', refund);
  return report
    ? { outcome: report.outcome, detail: report.detail }
    : { outcome: 'ignored', detail: 'nessuna fatturazione attiva' };
}

/**
 * A provider charged a period (PayPal's PAYMENT.SALE.COMPLETED, Stripe's invoice.paid). The first
 * charge pays the payment the customer approved on the payment page (it gets the charge id); each
 * later one is a renewal: a new paid payment for the period from the next billing date, which
 * moves on by the plan's recurrence. One charge id, one payment (unique in the tenant).
 */
export async function recordCharge(
  w: UnitOfWork,
  subscriptionId: number,
  providerId: string,
  charge: {
    kind: ProviderKind;
    chargeId: string | null;
    paidAt: Date | null;
    note: string;
    /** What the provider took (Stripe's `amount_paid`), when told. */
    amountPaid?: number | null;
  },
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const saleId = charge.chargeId;
  if (!saleId) return { outcome: 'ignored', detail: 'vendita senza ID' };
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) return { outcome: 'ignored', detail: null };
  const [already] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.providerPaymentId, saleId)));
  if (already)
    return { outcome: 'unchanged', detail: `vendita ${saleId} già registrata (pagamento ${already.id})` };
  const paidAt = charge.paidAt ?? w.now;

  // The period a failed charge left overdue (issue 29): this charge (the provider's retry) pays
  // that payment, which the payment.paid consumers recover and invoice (once).
  const overdue = await overduePaymentOfPeriod(w, sub.id, sub.nextBillingDate);
  if (overdue) {
    // Stripe's retried invoice carried the credit balance too (issue 30): set off what it did not charge.
    if (charge.kind === 'stripe')
      await setOffCredit(w, sub.id, overdue.id, { charged: charge.amountPaid ?? null });
    // PayPal's retry took another amount than the payment asks (issue 30, as for a renewal below).
    const retryDiffers = paypalTookOther(charge, overdue.amountDueCents);
    const [paid] = await w.tx
      .update(payments)
      .set({
        paidAt,
        providerPaymentId: saleId,
        method: charge.kind,
        providerSubscriptionId: providerId,
        ...(retryDiffers !== null ? { amountDueCents: retryDiffers } : {}),
      })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, overdue.id)))
      .returning({ periodEnd: payments.periodEnd, periodStart: payments.periodStart });
    const told = await tellTakenDiffers(w, sub, retryDiffers, overdue.amountDueCents, paid!.periodStart);
    await w.tx
      .update(subscriptions)
      .set({ nextBillingDate: paid!.periodEnd, updatedAt: w.now })
      .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
    await w.publish('payment.paid', { paymentId: overdue.id, subscriptionId: sub.id });
    return {
      outcome: 'applied',
      detail: `pagamento in ritardo ${overdue.id} incassato${charge.note}${told ? `; ${told}` : ''}`,
    };
  }
  const list = await w.tx
    .select({
      id: payments.id,
      paidAt: payments.paidAt,
      saleId: payments.providerPaymentId,
      providerSubscriptionId: payments.providerSubscriptionId,
      amountDueCents: payments.amountDueCents,
      extra: sql<boolean>`(${payments.planChangeId} is not null or ${payments.oneOffChargeId} is not null)`,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.subscriptionId, sub.id)))
    .orderBy(asc(payments.id));
  // The first charge of this provider subscription: the period payment made on the payment page
  // for it has no sale yet. A renewal link paid by card makes a new Stripe subscription on a
  // subscription with earlier sales: its Checkout's invoice is that payment's, not a renewal.
  const ofThis = list.filter((p) => p.providerSubscriptionId === providerId && !p.extra);
  const firstCharge =
    ofThis.find((p) => p.paidAt !== null && p.saleId === null && ofThis.every((q) => q.saleId === null)) ??
    (list.every((p) => p.saleId === null)
      ? list.find((p) => p.paidAt !== null && p.saleId === null)
      : undefined);
  if (firstCharge) {
    await w.tx
      .update(payments)
      .set({ providerPaymentId: saleId })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, firstCharge.id)));
    // What the provider took is what the payment asks (a coupon, a credit: Stripe's first invoice
    // is the price less its coupon less the customer's balance); a difference is told, not hidden.
    const differs =
      charge.amountPaid != null && charge.amountPaid !== firstCharge.amountDueCents
        ? ` (importo addebitato ${charge.amountPaid} centesimi, il pagamento ne chiede ${firstCharge.amountDueCents})`
        : '';
    return {
      outcome: 'applied',
      detail: `primo addebito ${saleId} sul pagamento ${firstCharge.id}${differs}`,
    };
  }
  if (sub.status !== SubscriptionStatus.Active) {
    return { outcome: 'ignored', detail: `sottoscrizione ${sub.id} non attiva: rinnovo non registrato` };
  }
  // A plan change scheduled by this renewal (issue 30) takes effect first: the period is the new
  // plan's, at its price (the provider was told when the change was made).
  if ((await applyDuePlanChanges(w, sub.id)) > 0) {
    const changed = await findSubscription(w, sub.id);
    if (changed) Object.assign(sub, changed);
  }
  const [plan] = await w.tx
    .select({ recurrence: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  if (!plan) return { outcome: 'ignored', detail: null };
  // Periods count from the start date (not from the previous end), so 31 Jan stays the 31st/last day.
  const periodStart = sub.nextBillingDate;
  const periodEnd = periodEndAfter(sub.startDate, plan.recurrence, periodStart);
  const id = await nextPaymentId(w);
  // PayPal took another amount than Rinnova asks (issue 30: a plan change whose revise the customer
  // has not approved at PayPal, which still bills the old plan): the payment records the money
  // taken, so its invoice is blocked by the amount check (the agreed price differs) instead of
  // stating an ImportoPagamento PayPal did not take; the history and the event's detail say it.
  const takenDiffers = paypalTookOther(charge, sub.amountDueCents);
  await w.tx.insert(payments).values({
    id,
    tenantId: w.tenantId,
    subscriptionId: sub.id,
    amountDueCents: takenDiffers ?? sub.amountDueCents,
    // The period still discounted by a coupon carries its redemption (its invoice applies it).
    couponRedemptionId: await redemptionForNextPayment(w, sub.id),
    causale: causaleOf(w.tenantId, id),
    periodStart,
    periodEnd,
    method: charge.kind,
    providerSubscriptionId: providerId,
    providerPaymentId: saleId,
    paidAt,
    createdAt: w.now,
  });
  // One-off charges 'Con il prossimo pagamento' (issue 30): Stripe's renewal invoice carried
  // their items; the period's payment and its invoice carry their lines.
  await attachNextCharges(w, sub.id, id);
  // A plan change's residual credit (issue 30): Stripe's invoice balance took it off this invoice;
  // what Stripe did not charge (never more than the balance) is set off on the ledger, so the
  // payment is exactly what Stripe took and its invoice shows the set-off. PayPal charged in full.
  const setOff =
    charge.kind === 'stripe' ? await setOffCredit(w, sub.id, id, { charged: charge.amountPaid ?? null }) : 0;
  await w.tx
    .update(subscriptions)
    .set({ nextBillingDate: periodEnd, updatedAt: w.now })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  const differs = await tellTakenDiffers(w, sub, takenDiffers, sub.amountDueCents, periodStart);
  // The renewal's invoice (missing data blocks only the invoice), its webhook, …
  await w.publish('payment.paid', { paymentId: id, subscriptionId: sub.id });
  return {
    outcome: 'applied',
    detail: `rinnovo: pagamento ${id}${charge.note}${setOff > 0 ? ` (credito residuo compensato: ${setOff} centesimi)` : ''}${differs ? `; ${differs}` : ''}`,
  };
}

/** PayPal took another amount than Rinnova asks (issue 30): the cents it took, else null. */
function paypalTookOther(
  charge: { kind: ProviderKind; amountPaid?: number | null },
  askedCents: number,
): number | null {
  return charge.kind === 'paypal' && charge.amountPaid != null && charge.amountPaid !== askedCents
    ? charge.amountPaid
    : null;
}

/** A history row 'providerAmountDiffers' when PayPal took another amount; its sentence ('' if not). */
async function tellTakenDiffers(
  w: UnitOfWork,
  sub: Parameters<typeof recordHistory>[1],
  takenCents: number | null,
  askedCents: number,
  periodStart: Date,
): Promise<string> {
  if (takenCents === null) return '';
  const told = paymentMessages.takenDiffers(
    formatEur(takenCents),
    formatEur(askedCents),
    romeDay(periodStart).split('-').reverse().join('/'),
  );
  await recordHistory(w, sub, 'providerAmountDiffers', told);
  return told;
}

export function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

async function nextPaymentId(w: UnitOfWork): Promise<number> {
  const result = await w.tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('payments', 'id')) as id`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  return Number(rows[0]?.id);
}

/** A pause of collection is recorded on the subscription (issue 30). */
async function isPaused(w: UnitOfWork, subscriptionId: number): Promise<boolean> {
  const [row] = await w.tx
    .select({ until: subscriptions.pausedUntil })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, subscriptionId)));
  return row?.until != null;
}
