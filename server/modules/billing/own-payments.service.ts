/**
 * The customer area's payment calls (issue 28): 'Paga ora' on the payment one of the caller's own
 * subscriptions waits for, and 'Metodo di pagamento' (the provider's own page, or the switch to
 * bank transfer from the next period). Every call first finds the subscription in the unit's
 * tenant AND of the caller: another customer's or tenant's id is the same 404 as a missing one.
 * What an Admin's call already does is reused, never restated: the payment link
 * (`createPaymentLink`), the transfer instructions (`instructionsOfPayment`), the state machine
 * (`changeStatus`), the renewal payment (`ensureRenewalPayment`).
 */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { customerAreaMessages as m, serverMessages } from '../../../contract/messages';
import { fromCents } from '../../../contract/money';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import type { OwnOneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { PayNow } from '../../../contract/schemas/subscription';
import { isLive, SubscriptionStatus } from '../../../contract/subscription-status';
import { invoices, paymentProviders, paymentTokens, payments, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { ProviderError } from '../../providers/payment-provider';
import type { ProviderRegistry } from '../../providers/registry';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findPayment, findSubscription, paymentToSettle, type SubscriptionRow } from './billing.repository';
import { listOneOffCharges } from './one-off-charge.service';
import { createPaymentLink, isExtraPayment, type CreatedLink } from './payment-token.service';
import {
  changeStatus,
  ensureRenewalPayment,
  instructionsOfPayment,
  tenantBankDetails,
} from './subscription.service';
import { creditUsedBy } from './subscription-credit';

/** The caller's own subscription in the scope's tenant (locked in a unit when `lock`), else 404. */
export async function ownSubscription(
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow> {
  const sub = await findSubscription(scope, subscriptionId, options);
  if (!sub || sub.userId !== userId) throw new HttpError(404, serverMessages.notFound);
  return sub;
}

/** The statuses in which a payment can be due now (the area's 'Da pagare ora'). */
const payable: readonly number[] = [SubscriptionStatus.NotActive, SubscriptionStatus.BankTransferPending];

/**
 * Issue 29: an ActiveNoRenewal that renews by bank transfer waits, once its next billing date has
 * come, for the transfer of the period starting there while it is in collection (the grace).
 */
function awaitedTransfer(
  sub: Pick<SubscriptionRow, 'status' | 'nextBillingDate'>,
  payment: { method: string | null; periodStart: Date; collectionStatus: string },
  now: Date,
): boolean {
  return (
    sub.status === SubscriptionStatus.ActiveNoRenewal &&
    payment.method === 'bankTransfer' &&
    payment.periodStart.getTime() === sub.nextBillingDate.getTime() &&
    (payment.collectionStatus === 'due' || payment.collectionStatus === 'overdue') &&
    sub.nextBillingDate.getTime() <= now.getTime()
  );
}

/**
 * Issue 30: the proration of a plan change, unpaid, on a live subscription is due now: by card
 * through its own payment-mode link when the tenant has Stripe, else by bank transfer (`dueOf`);
 * a Stripe subscription's is charged by Stripe.
 */
function prorationDue(
  sub: Pick<SubscriptionRow, 'status'>,
  payment: { planChangeId: number | null; method: string | null },
): boolean {
  return payment.planChangeId !== null && isLive(sub.status) && payment.method !== 'stripe';
}

/** Issue 30: whether the tenant has an active Stripe (the card link of an extra payment). */
export async function tenantHasStripe(scope: TenantScope): Promise<boolean> {
  const [row] = await scope.tx
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.tenantId, scope.tenantId),
        eq(paymentProviders.isActive, true),
        eq(paymentProviders.kind, 'stripe'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Issue 30: whether the subscription's free trial is running (its first payment due at its end). */
async function trialRunning(
  scope: TenantScope,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
): Promise<boolean> {
  if (sub.status !== SubscriptionStatus.ActiveNoRenewal) return false;
  const [row] = await scope.tx
    .select({ trialState: subscriptions.trialState })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, sub.id)));
  return row?.trialState === 'running';
}

/**
 * The payment due now of the caller's subscription, and how it is paid: by bank transfer while
 * BankTransferPending or when the payment is recorded as a transfer, else by a payment link.
 * A renewal by bank transfer past its next billing date is due too (issue 29), and a running
 * trial's first payment (issue 30). An extra payment (a one-off charge's, a proration's: issue 30)
 * of a live subscription, unpaid and not charged by Stripe on the subscription's card, is paid by
 * card through its own link when the tenant has Stripe, else by bank transfer. `paymentId` names
 * the payment (the area's card of that payment); without it, the period payment due (or a
 * proration). 409 `nothingDue` when it waits for nothing; a payment of another subscription 404.
 */
export async function dueOf(
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
  now: Date,
  paymentId?: number,
) {
  const sub = await ownSubscription(scope, subscriptionId, userId);
  if (paymentId !== undefined) {
    const chosen = await findPayment(scope, paymentId);
    if (!chosen || chosen.subscriptionId !== sub.id) throw new HttpError(404, serverMessages.notFound);
    if (isExtraPayment(chosen)) {
      if (chosen.paidAt !== null || !isLive(sub.status) || chosen.method === 'stripe')
        throw new HttpError(409, m.nothingDue);
      return { sub, payment: chosen, byTransfer: !(await tenantHasStripe(scope)) };
    }
  }
  const payment = await paymentToSettle(scope, sub.id);
  if (!payment || payment.paidAt !== null) throw new HttpError(409, m.nothingDue);
  if (paymentId !== undefined && payment.id !== paymentId) throw new HttpError(409, m.nothingDue);
  const proration = prorationDue(sub, payment);
  if (
    !payable.includes(sub.status) &&
    !awaitedTransfer(sub, payment, now) &&
    !proration &&
    !(await trialRunning(scope, sub))
  )
    throw new HttpError(409, m.nothingDue);
  const byTransfer = proration
    ? !(await tenantHasStripe(scope))
    : sub.status === SubscriptionStatus.BankTransferPending || payment.method === 'bankTransfer';
  return { sub, payment, byTransfer };
}

/** 'Paga ora' by bank transfer: the instructions the Admin's `bankTransferInstructions` gives, for this payment. */
export async function transferOf(
  scope: TenantScope,
  payment: { id: number; amountDueCents: number; causale: string },
): Promise<Extract<PayNow, { method: 'bankTransfer' }>> {
  const i = await instructionsOfPayment(scope, payment);
  return {
    method: 'bankTransfer',
    paymentId: payment.id,
    beneficiary: i.beneficiary,
    iban: i.iban,
    netToPay: fromCents(payment.amountDueCents),
    currency: 'EUR',
    causale: i.causale,
  };
}

/**
 * 'Paga ora' by link, in the caller's unit: a fresh link of the payment due (older links of the
 * same payment are retired; no payment is ever created here). The subscription is checked again
 * under lock. A plan that cannot be paid online answers the customer's words, not the Admin's.
 */
export async function freshLink(
  w: UnitOfWork,
  subscriptionId: number,
  userId: number,
  /** The coupon's own PayPal plan made (outside the unit) for `paymentId` (issue 30), if any. */
  paypalCouponPlan?: { paymentId: number; planId: string; amountCents: number } | null,
  /** The payment the customer chose (issue 30: an extra payment), else the one due. */
  paymentId?: number,
): Promise<{ paymentId: number; link: CreatedLink }> {
  const { payment, byTransfer } = await dueOf(w, subscriptionId, userId, w.now, paymentId);
  if (byTransfer) throw new HttpError(409, serverMessages.conflict);
  try {
    const couponPlan = paypalCouponPlan?.paymentId === payment.id ? paypalCouponPlan : null;
    return {
      paymentId: payment.id,
      link: await createPaymentLink(w, payment.id, { paypalCouponPlan: couponPlan }),
    };
  } catch (error) {
    // The plan is not on PayPal/Stripe at this amount: the Admin's message names screens the
    // customer does not have.
    if (error instanceof HttpError && error.statusCode === 409)
      throw new HttpError(409, payOnlineUnavailable);
    throw error;
  }
}

export const payOnlineUnavailable =
  'Il pagamento online non è disponibile per questo abbonamento: contatta il fornitore per pagare con bonifico.';

/** The provider subscription the caller's subscription is billed through now: its latest payment with one. */
export async function providerBilling(
  scope: TenantScope,
  subscriptionId: number,
): Promise<{ kind: 'paypal' | 'stripe'; providerSubscriptionId: string } | null> {
  const [row] = await scope.tx
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.providerSubscriptionId),
        inArray(payments.method, ['paypal', 'stripe']),
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  if (!row?.providerSubscriptionId) return null;
  return {
    kind: row.method === 'stripe' ? 'stripe' : 'paypal',
    providerSubscriptionId: row.providerSubscriptionId,
  };
}

/** Where a PayPal subscriber manages their automatic payments (sandbox or live site). */
export function paypalManageUrl(mode: 'sandbox' | 'live'): string {
  return mode === 'live'
    ? 'https://www.paypal.com/myaccount/autopay/'
    : 'https://www.sandbox.paypal.com/myaccount/autopay/';
}

/**
 * 'Metodo di pagamento' → the provider's page: for Stripe a billing portal session for the
 * subscription's Stripe customer (returning to the area), for PayPal the automatic payments page
 * of the provider row's site. 409 when the subscription is not billed through a provider.
 */
export async function providerPage(
  deps: { providers: ProviderRegistry; returnUrl: string },
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
): Promise<{ provider: 'stripe' | 'paypal'; url: string }> {
  const sub = await ownSubscription(scope, subscriptionId, userId);
  const billing = sub.status === SubscriptionStatus.Canceled ? null : await providerBilling(scope, sub.id);
  if (!billing) throw new HttpError(409, m.noProviderPage);
  if (billing.kind === 'paypal') {
    const { mode } = await deps.providers.paypal(scope.tenantId);
    return { provider: 'paypal', url: paypalManageUrl(mode) };
  }
  const { adapter } = await deps.providers.stripe(scope.tenantId);
  const customerId = await adapter.customerOf(billing.providerSubscriptionId);
  if (!customerId) throw new HttpError(409, m.noProviderPage);
  const session = await adapter.createBillingPortalSession({ customerId, returnUrl: deps.returnUrl });
  return { provider: 'stripe', url: session.url };
}

/**
 * 'Passa al bonifico', provider step (before and outside the unit of work: a failure changes
 * nothing): an Active subscription billed through a provider stops renewing there — Stripe at the
 * current period's end (`cancel_at_period_end`), PayPal cancelled (it charges no more; the paid
 * period is not refunded). A provider that answers it is cancelled already counts as done.
 * Without the seller's IBAN it refuses (409) before calling. Anything else (already switched, not
 * active) is left to the unit's own checks.
 */
export async function stopProviderRenewal(
  deps: { providers: ProviderRegistry },
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
): Promise<void> {
  const sub = await ownSubscription(scope, subscriptionId, userId);
  if (sub.status !== SubscriptionStatus.Active) return;
  const billing = await providerBilling(scope, sub.id);
  if (!billing) return;
  // The unit would refuse without the seller's IBAN: refused before the provider is touched.
  await tenantBankDetails(scope);
  const stripe = billing.kind === 'stripe' ? (await deps.providers.stripe(scope.tenantId)).adapter : null;
  const adapter = stripe ?? (await deps.providers.paypal(scope.tenantId)).adapter;
  try {
    // Stripe: `cancel_at_period_end` (the same call as 'Disattiva il rinnovo'); PayPal cannot end
    // at the period's end, so its subscription is cancelled and the period runs out in Rinnova.
    if (stripe) await stripe.stopRenewal(billing.providerSubscriptionId, 'Il cliente è passato al bonifico');
    else await adapter.cancelSubscription(billing.providerSubscriptionId, 'Il cliente è passato al bonifico');
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unprocessable') {
      const remote = await adapter.getSubscription(billing.providerSubscriptionId);
      if (remote.status === 'CANCELLED' || remote.status === 'EXPIRED') return;
    }
    throw error;
  }
}

/**
 * 'Passa al bonifico', in the caller's unit: Active → ActiveNoRenewal through the state machine
 * (event `switchToBankTransfer`, the customer as actor; the paid period runs to its end), and the
 * next period's payment (from the next billing date) recorded now, unpaid, with method
 * 'bankTransfer' — the chosen method: the subscription renews by bank transfer (issue 29: the
 * reminder mails the transfer's instructions, the expiry leaves it in its grace while the transfer
 * is in collection, the ladder applies). Its open payment links are retired. Needs the tenant's
 * IBAN (409). Again: nothing changes (`changed: false`).
 */
export async function switchToBankTransfer(
  w: UnitOfWork,
  subscriptionId: number,
  userId: number,
): Promise<{ nextBillingDate: Date; paymentId: number; changed: boolean }> {
  const sub = await ownSubscription(w, subscriptionId, userId, { lock: true });
  if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
    throw new HttpError(409, m.switchOnlyActive);
  await tenantBankDetails(w);
  let changed = false;
  if (sub.status === SubscriptionStatus.Active) {
    await changeStatus(w, sub, 'switchToBankTransfer', 'Dal prossimo periodo con bonifico (area clienti)');
    changed = true;
  }
  const payment = await ensureRenewalPayment(w, sub, sub.nextBillingDate);
  // Paid by the residual credit of a plan change just now (issue 30: wholly covered): switched,
  // nothing to transfer for that period.
  if (payment.paidAt !== null && changed && (await creditUsedBy(w, payment.id)) > 0)
    return { nextBillingDate: sub.nextBillingDate, paymentId: payment.id, changed };
  if (payment.paidAt !== null) throw new HttpError(409, m.switchOnlyActive);
  if (payment.method !== 'bankTransfer') {
    await w.tx
      .update(payments)
      .set({ method: 'bankTransfer' })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, payment.id)));
    await w.tx
      .update(paymentTokens)
      .set({ status: PaymentTokenStatus.Expired })
      .where(
        and(
          eq(paymentTokens.tenantId, w.tenantId),
          eq(paymentTokens.paymentId, payment.id),
          eq(paymentTokens.status, PaymentTokenStatus.Active),
        ),
      );
    changed = true;
  }
  return { nextBillingDate: sub.nextBillingDate, paymentId: payment.id, changed };
}

/**
 * The one-off charges of the caller's own subscription (issue 30), newest first, deleted ones left
 * out: each with its invoice (paid and invoiced) and whether its own payment waits for 'Paga ora'.
 * 404 for another customer's or an unknown subscription.
 */
export async function ownCharges(
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
): Promise<OwnOneOffCharge[]> {
  const sub = await ownSubscription(scope, subscriptionId, userId);
  const all = (await listOneOffCharges(scope, sub.id)).filter((c) => c.status !== 'deleted');
  const paymentIds = [...new Set(all.flatMap((c) => (c.paymentId === null ? [] : [c.paymentId])))];
  const paymentRows = paymentIds.length
    ? await scope.tx
        .select({ id: payments.id, paidAt: payments.paidAt, method: payments.method })
        .from(payments)
        .where(and(eq(payments.tenantId, scope.tenantId), inArray(payments.id, paymentIds)))
    : [];
  const invoiceRows = paymentIds.length
    ? await scope.tx
        .select({
          id: invoices.id,
          paymentId: invoices.paymentId,
          number: invoices.numberText,
          documentType: sql<'TD01' | 'TD04'>`${invoices.documentType}`,
          fileName: invoices.fileName,
        })
        .from(invoices)
        .where(
          and(
            eq(invoices.tenantId, scope.tenantId),
            inArray(invoices.paymentId, paymentIds),
            eq(invoices.documentType, 'TD01'),
          ),
        )
    : [];
  const paymentOf = new Map(paymentRows.map((p) => [p.id, p]));
  const invoiceOf = new Map(invoiceRows.map(({ paymentId, ...i }) => [paymentId, i]));
  return all.map((c) => {
    const p = c.paymentId === null ? undefined : paymentOf.get(c.paymentId);
    return {
      ...c,
      invoice: c.status === 'paid' && c.paymentId !== null ? (invoiceOf.get(c.paymentId) ?? null) : null,
      payable:
        c.status === 'pending' &&
        c.collect === 'now' &&
        p !== undefined &&
        p.paidAt === null &&
        p.method !== 'stripe' &&
        isLive(sub.status),
    };
  });
}
