/**
 * Subscription commands. Each runs inside a unit of work (one transaction, one clock reading, an
 * outbox) and moves a status only through `changeStatus`, which asks the state machine.
 */
import { attachNextCharges } from './one-off-charge.service';
import { setOffRenewal } from './subscription-credit';
import { causaleOf } from '../../../contract/schemas/payment';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { nextBillingDate, periodEndAfter } from '../../../contract/billing-dates';
import { billingMessages, couponMessages, serverMessages } from '../../../contract/messages';
import { isNatura } from '../../../contract/invoice/fatturapa';
import type { FiscalDocument, LineDiscount } from '../../../contract/invoice/fiscal-document';
import { fromCents, toCents, toPercentHundredths, type Cents } from '../../../contract/money';
import { subscriptionDocument, type SubscriptionCharge } from '../../db/fiscal-profiles';
import type { BankTransferInstructions } from '../../../contract/schemas/subscription';
import {
  SubscriptionStatus,
  assertTransition,
  isEditable,
  type HistoryOnlyEvent,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import {
  collectionEvents,
  oneOffCharges,
  paymentTokens,
  payments,
  plans,
  stripeCheckoutSessions,
  subscriptionCredits,
  subscriptionEvents,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { bankTransferInstructionsMail, withSignInLink } from '../../mail/templates';
import {
  describeActor,
  machineActorOf,
  type TenantScope,
  type UnitOfWork,
} from '../../unit-of-work/unit-of-work';

/** The outbound webhook event of a status move (issue 15); none for setBankTransfer. */
import {
  findPayment,
  findSubscription,
  firstPayment,
  latestApprovalDate,
  paymentOfPeriod,
  paymentToSettle,
  transferTotals,
  type SubscriptionRow,
  scheduledAmountFor,
  scheduledRecurrenceFor,
} from './billing.repository';
import { redeemCoupon, redemptionForNextPayment, redemptionOf, usableCoupon } from '../../db/coupons';
import { trialDaysFor, trialEnd } from './trials';

const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
export const formatEur = (cents: Cents) => eur.format(fromCents(cents));

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

/**
 * The one place a subscription's status changes: the state machine decides (409 otherwise), the
 * row moves only from the status it was read in, and the move is appended to the history.
 */
export async function changeStatus(
  uow: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
  event: SubscriptionEvent,
  reason: string | null = null,
): Promise<SubscriptionStatusId> {
  const to = assertTransition(sub.status, event, machineActorOf(uow.actor));
  const moved = await uow.tx
    .update(subscriptions)
    .set({ status: to, updatedAt: uow.now })
    .where(
      and(
        eq(subscriptions.tenantId, uow.tenantId),
        eq(subscriptions.id, sub.id),
        eq(subscriptions.status, sub.status),
      ),
    )
    .returning({ id: subscriptions.id });
  if (moved.length === 0) throw new HttpError(409, serverMessages.conflict);
  await recordEvent(uow, sub.id, event, sub.status, to, reason);
  await uow.publish('subscription.statusChanged', { subscriptionId: sub.id, event, from: sub.status, to });
  return to;
}

async function recordEvent(
  uow: UnitOfWork,
  subscriptionId: number,
  event: SubscriptionEvent | 'create' | HistoryOnlyEvent,
  from: SubscriptionStatusId | null,
  to: SubscriptionStatusId,
  reason: string | null,
): Promise<void> {
  const actor = describeActor(uow.actor);
  await uow.tx.insert(subscriptionEvents).values({
    tenantId: uow.tenantId,
    subscriptionId,
    event,
    fromStatus: from,
    toStatus: to,
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    reason,
    at: uow.now,
  });
}

/**
 * A history row for a change that moves no status (issue 30: 'changePlan', 'schedulePlanChange'):
 * from and to are the subscription's status.
 */
export async function recordHistory(
  uow: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
  event: HistoryOnlyEvent,
  reason: string | null,
): Promise<void> {
  await recordEvent(uow, sub.id, event, sub.status, sub.status, reason);
}

async function lockedSubscription(uow: UnitOfWork, id: number): Promise<SubscriptionRow> {
  const sub = await findSubscription(uow, id, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  return sub;
}

async function planOfTenant(uow: UnitOfWork, planId: number) {
  const [plan] = await uow.tx
    .select({
      id: plans.id,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      recurrence: plans.recurrenceType,
      isActive: plans.isActive,
      natura: plans.natura,
      trialDays: plans.trialDays,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, uow.tenantId), eq(plans.id, planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  return plan;
}

export interface SubscriptionTerms {
  /** Cost before VAT (cents); absent → the plan's. */
  paymentAmount?: Cents | null;
  /** VAT (hundredths of a percent); absent → the plan's. */
  vatPercentage?: number | null;
}

/**
 * The agreed cost and VAT, and the amount due: the net to pay of the document one period produces
 * (contract/invoice/fiscal-document.ts, from the tenant's and the customer's fiscal profiles), so
 * the payment link, the providers, the transfer check and the invoice all ask the same amount.
 */
async function termsOf(
  uow: TenantScope,
  userId: number,
  plan: { name: string; cost: string; vat: string; natura: string | null },
  input: SubscriptionTerms,
  discount: LineDiscount | null = null,
) {
  const charge = subscriptionChargeOf(plan, input, discount);
  const document = await subscriptionDocument(uow.tx, uow.tenantId, userId, charge);
  return { cost: charge.costCents, vat: charge.vat, document, due: document.netToPayCents };
}

/** One period's charge at the agreed cost and VAT (the plan's when absent), with its discount. */
export function subscriptionChargeOf(
  plan: { name: string; cost: string; vat: string; natura: string | null },
  input: SubscriptionTerms,
  discount: LineDiscount | null = null,
): SubscriptionCharge {
  const vat = input.vatPercentage ?? toPercentHundredths(plan.vat);
  return {
    description: plan.name,
    costCents: input.paymentAmount ?? toCents(plan.cost),
    vat,
    natura: vat === 0 && isNatura(plan.natura) ? plan.natura : null,
    discount,
  };
}

/** 404 unless `userId` is a customer of the caller's tenant. */
async function assertMember(uow: TenantScope, userId: number): Promise<void> {
  const [member] = await uow.tx
    .select({ userId: userTenants.userId })
    .from(userTenants)
    .where(and(eq(userTenants.tenantId, uow.tenantId), eq(userTenants.userId, userId)));
  if (!member) throw new HttpError(404, serverMessages.notFound);
}

/** The next causale number comes from the payments' own id sequence, so it is unique and stable. */
async function nextPaymentId(uow: UnitOfWork): Promise<number> {
  const result = await uow.tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('payments', 'id')) as id`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  return Number(rows[0]?.id);
}

/** A new unpaid payment of a subscription, with its causale; answers its id. */
export async function insertPayment(
  uow: UnitOfWork,
  input: {
    subscriptionId: number;
    amountDueCents: Cents;
    periodStart: Date;
    periodEnd: Date;
    /** The coupon redemption whose discount the amount carries (issue 30). */
    couponRedemptionId?: number | null;
  },
): Promise<number> {
  const paymentId = await nextPaymentId(uow);
  await uow.tx.insert(payments).values({
    id: paymentId,
    tenantId: uow.tenantId,
    subscriptionId: input.subscriptionId,
    amountDueCents: input.amountDueCents,
    couponRedemptionId: input.couponRedemptionId ?? null,
    causale: causaleOf(uow.tenantId, paymentId),
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    createdAt: uow.now,
  });
  return paymentId;
}

/**
 * Withdraws unpaid payments that are no longer due (a paused period's, issue 30; a renewal made
 * before a change of recurrence moved the billing date, plan-change.service.ts): their payment
 * links (the validate call then answers the link as not valid), their collection history and the
 * payments themselves are removed in the caller's unit; one-off charges 'Con il prossimo
 * pagamento' they carried wait for the next period's payment. A paid payment is never removed
 * (no invoice was issued for these: no number is consumed). The caller has checked that no bank
 * transfer is recorded for them, nor a credit use Stripe's balance already gave back (the ledger
 * gets back the credit they used).
 */
export async function withdrawUnpaidPayments(w: UnitOfWork, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await w.tx
    .delete(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), inArray(paymentTokens.paymentId, ids)));
  // Stripe Checkout Sessions opened from their links may still be open at Stripe (up to 24 h):
  // expired after commit, so the customer cannot pay what is withdrawn (stripe-withdrawn-checkout.ts).
  // Read after the links are deleted: a session being recorded holds its link's lock until then.
  const open = await w.tx
    .select({ sessionId: stripeCheckoutSessions.sessionId })
    .from(stripeCheckoutSessions)
    .innerJoin(
      payments,
      and(
        eq(payments.tenantId, stripeCheckoutSessions.tenantId),
        eq(payments.id, stripeCheckoutSessions.paymentId),
      ),
    )
    .where(
      and(
        eq(stripeCheckoutSessions.tenantId, w.tenantId),
        inArray(stripeCheckoutSessions.paymentId, ids),
        isNull(stripeCheckoutSessions.expiredAt),
        isNull(payments.paidAt),
      ),
    )
    .orderBy(asc(stripeCheckoutSessions.id));
  if (open.length > 0)
    await w.publish('stripeCheckout.withdrawn', { sessionIds: open.map((s) => s.sessionId) });
  await w.tx
    .delete(collectionEvents)
    .where(and(eq(collectionEvents.tenantId, w.tenantId), inArray(collectionEvents.paymentId, ids)));
  await w.tx
    .update(oneOffCharges)
    .set({ paymentId: null })
    .where(and(eq(oneOffCharges.tenantId, w.tenantId), inArray(oneOffCharges.paymentId, ids)));
  // The residual credit they used goes back to the ledger (for the next period's payment).
  await w.tx
    .delete(subscriptionCredits)
    .where(and(eq(subscriptionCredits.tenantId, w.tenantId), inArray(subscriptionCredits.paymentId, ids)));
  await w.tx
    .delete(payments)
    .where(and(eq(payments.tenantId, w.tenantId), inArray(payments.id, ids), isNull(payments.paidAt)));
}

/**
 * The document one period would produce for this customer and plan at these terms (api-contract
 * 'Fiscal profiles': `POST api/subscription/quote`), before anything is created: both must be of
 * the tenant; nothing is written.
 */
export async function quoteSubscription(
  uow: UnitOfWork,
  input: SubscriptionTerms & { userId: number; planId: number; couponCode?: string | null },
): Promise<FiscalDocument> {
  await assertMember(uow, input.userId);
  const plan = await planOfTenant(uow, input.planId);
  const coupon = input.couponCode ? await usableCoupon(uow, input.couponCode, plan.id) : null;
  return (await termsOf(uow, input.userId, plan, input, coupon?.discount ?? null)).document;
}

/**
 * Create: NotActive, with its first payment; the customer and the plan must be of the tenant. A
 * `couponCode` (issue 30) is checked for the plan and redeemed: the amount due is the discounted
 * net to pay while the coupon lasts, and the first payment carries the redemption.
 */
export async function createSubscription(
  uow: UnitOfWork,
  input: SubscriptionTerms & {
    userId: number;
    planId: number;
    startDate?: Date | null;
    couponCode?: string | null;
  },
): Promise<number> {
  await assertMember(uow, input.userId);
  const plan = await planOfTenant(uow, input.planId);
  if (!plan.isActive) throw fieldError('planId', billingMessages.planInactive);
  const coupon = input.couponCode ? await usableCoupon(uow, input.couponCode, plan.id) : null;

  const { cost, vat, due } = await termsOf(uow, input.userId, plan, input, coupon?.discount ?? null);
  // Issue 30 ('Prove'): a plan with trial days starts the trial from the start given (or now); the
  // first paid period starts when the trial ends, which is the subscription's billing start
  // (`startDate`, the anchor of its periods) and its next billing date.
  const trialDays = await trialDaysFor(uow, plan, input.userId);
  const trialEndsAt = trialDays > 0 ? trialEnd(input.startDate ?? uow.now, trialDays) : null;
  const startDate = trialEndsAt ?? input.startDate ?? uow.now;
  const next = trialEndsAt ?? nextBillingDate(startDate, plan.recurrence);
  const status = SubscriptionStatus.NotActive;
  const [sub] = await uow.tx
    .insert(subscriptions)
    .values({
      tenantId: uow.tenantId,
      userId: input.userId,
      planId: plan.id,
      status,
      startDate,
      nextBillingDate: next,
      costBeforeVatCents: cost,
      vatHundredths: vat,
      amountDueCents: due,
      trialEndsAt,
      trialState: trialEndsAt ? 'running' : null,
      createdAt: uow.now,
      updatedAt: uow.now,
    })
    .returning({ id: subscriptions.id });
  if (!sub) throw new Error('subscription insert returned no row');
  const couponRedemptionId = coupon ? await redeemCoupon(uow, coupon, sub.id) : null;
  await insertPayment(uow, {
    subscriptionId: sub.id,
    amountDueCents: due,
    periodStart: startDate,
    periodEnd: trialEndsAt ? nextBillingDate(trialEndsAt, plan.recurrence) : next,
    couponRedemptionId,
  });
  await recordEvent(uow, sub.id, 'create', null, status, null);
  if (trialEndsAt)
    await changeStatus(uow, { id: sub.id, status }, 'startTrial', `Prova gratuita di ${trialDays} giorni`);
  await uow.publish('subscription.created', { subscriptionId: sub.id });
  return sub.id;
}

/**
 * Update: while NotActive the plan and the agreed price may change, and the unpaid first payment
 * follows; customer and start date are fixed after create (sent unchanged they are fine).
 */
export async function updateSubscription(
  uow: UnitOfWork,
  input: SubscriptionTerms & {
    id: number;
    userId?: number | null;
    planId?: number | null;
    startDate?: Date | null;
  },
): Promise<void> {
  const sub = await lockedSubscription(uow, input.id);
  if (input.userId != null && input.userId !== sub.userId)
    throw fieldError('userId', billingMessages.customerFixed);
  if (input.startDate && input.startDate.getTime() !== sub.startDate.getTime())
    throw fieldError('startDate', billingMessages.startDateFixed);
  const planId = input.planId ?? sub.planId;
  const changesTerms =
    planId !== sub.planId ||
    (input.paymentAmount != null && input.paymentAmount !== sub.costBeforeVatCents) ||
    (input.vatPercentage != null && input.vatPercentage !== sub.vatHundredths);
  if (!changesTerms) return;
  if (!isEditable(sub.status)) throw new HttpError(409, billingMessages.onlyNotActiveEditable);
  const plan = await planOfTenant(uow, planId);
  if (planId !== sub.planId && !plan.isActive) throw fieldError('planId', billingMessages.planInactive);
  // The coupon redeemed at Create still applies (to its plans only) while nothing is paid.
  const redemption = await redemptionOf(uow, sub.id);
  if (redemption && redemption.planIds.length > 0 && !redemption.planIds.includes(planId))
    throw fieldError('planId', couponMessages.notForPlan);
  const payment = await firstPayment(uow, sub.id, { lock: true });
  const discount = redemption && payment?.couponRedemptionId === redemption.id ? redemption.discount : null;
  // A changed plan brings its own price unless one is sent.
  const terms =
    planId !== sub.planId
      ? await termsOf(uow, sub.userId, plan, input, discount)
      : await termsOf(
          uow,
          sub.userId,
          plan,
          {
            paymentAmount: input.paymentAmount ?? sub.costBeforeVatCents,
            vatPercentage: input.vatPercentage ?? sub.vatHundredths,
          },
          discount,
        );
  const next = nextBillingDate(sub.startDate, plan.recurrence);
  await uow.tx
    .update(subscriptions)
    .set({
      planId,
      costBeforeVatCents: terms.cost,
      vatHundredths: terms.vat,
      amountDueCents: terms.due,
      nextBillingDate: next,
      updatedAt: uow.now,
    })
    .where(and(eq(subscriptions.tenantId, uow.tenantId), eq(subscriptions.id, sub.id)));
  if (payment && payment.paidAt === null) {
    await uow.tx
      .update(payments)
      .set({ amountDueCents: terms.due, periodEnd: next })
      .where(and(eq(payments.tenantId, uow.tenantId), eq(payments.id, payment.id)));
  }
}

/** Where a transfer goes: the tenant's beneficiary and IBAN; 409 without an IBAN. */
export async function tenantBankDetails(
  uow: TenantScope,
): Promise<{ tenantName: string; beneficiary: string; iban: string }> {
  const [tenant] = await uow.tx
    .select({
      name: tenants.name,
      legalName: tenants.legalName,
      iban: tenants.iban,
      holder: tenants.accountHolder,
    })
    .from(tenants)
    .where(eq(tenants.id, uow.tenantId));
  if (!tenant?.iban) throw new HttpError(409, billingMessages.ibanMissing);
  return {
    tenantName: tenant.name,
    beneficiary: tenant.holder ?? tenant.legalName ?? tenant.name,
    iban: tenant.iban,
  };
}

/** The instructions of one payment: the tenant's bank details, its amount due and causale. */
export async function instructionsOfPayment(
  uow: TenantScope,
  payment: { amountDueCents: Cents; causale: string },
): Promise<BankTransferInstructions & { tenantName: string }> {
  const bank = await tenantBankDetails(uow);
  return {
    ...bank,
    amountDue: fromCents(payment.amountDueCents),
    currency: 'EUR',
    causale: payment.causale,
  };
}

/**
 * The tenant's bank details and the amount and causale of the payment the subscription waits for
 * (`paymentToSettle`: the first payment, or a later period's paid by bank transfer); 409 without an IBAN.
 */
export async function bankTransferInstructions(
  uow: TenantScope,
  subscriptionId: number,
): Promise<BankTransferInstructions & { tenantName: string; paymentId: number }> {
  const sub = await findSubscription(uow, subscriptionId);
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const payment = await paymentToSettle(uow, sub.id);
  if (!payment) throw new HttpError(404, serverMessages.notFound);
  return { ...(await instructionsOfPayment(uow, payment)), paymentId: payment.id };
}

/** The customer's e-mail with the instructions of `payment` (outbox, sent after commit). */
export async function mailTransferInstructions(
  uow: UnitOfWork,
  sub: Pick<SubscriptionRow, 'userId' | 'planId'>,
  payment: { amountDueCents: Cents; causale: string },
): Promise<void> {
  const instructions = await instructionsOfPayment(uow, payment);
  const [customer] = await uow.tx
    .select({ email: users.email, name: userTenants.name, planName: plans.name })
    .from(users)
    .innerJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, uow.tenantId)))
    .innerJoin(plans, and(eq(plans.id, sub.planId), eq(plans.tenantId, uow.tenantId)))
    .where(eq(users.id, sub.userId));
  if (!customer) return;
  await uow.outbox.email(
    withSignInLink(
      bankTransferInstructionsMail(customer.email, customer.name, {
        tenantName: instructions.tenantName,
        planName: customer.planName,
        beneficiary: instructions.beneficiary,
        iban: instructions.iban,
        amount: formatEur(payment.amountDueCents),
        causale: instructions.causale,
      }),
      sub.userId,
    ),
  );
}

/** NotActive → BankTransferPending (irreversible); the customer gets the instructions by e-mail after commit. */
export async function setPaymentWithBankTransfer(uow: UnitOfWork, id: number): Promise<void> {
  const sub = await lockedSubscription(uow, id);
  await tenantBankDetails(uow);
  await changeStatus(uow, sub, 'setBankTransfer');
  const payment = await paymentToSettle(uow, sub.id, { lock: true });
  if (!payment) throw new HttpError(404, serverMessages.notFound);
  await uow.tx
    .update(payments)
    .set({ method: 'bankTransfer' })
    .where(and(eq(payments.tenantId, uow.tenantId), eq(payments.id, payment.id)));
  await mailTransferInstructions(uow, sub, payment);
}

/**
 * BankTransferPending → ActiveNoRenewal, once approved transfers cover the amount due; the payment
 * is paid. A later period's payment (a renewal by bank transfer) moves the next billing date to
 * its period's end; the first payment's end is the next billing date already.
 */
export async function confirmBankTransfer(uow: UnitOfWork, id: number): Promise<void> {
  const sub = await lockedSubscription(uow, id);
  const payment = await paymentToSettle(uow, sub.id, { lock: true });
  if (!payment) throw new HttpError(404, serverMessages.notFound);
  // The state machine first: a refused move says so, whatever the transfers.
  assertTransition(sub.status, 'confirmBankTransfer', machineActorOf(uow.actor));
  const totals = await transferTotals(uow, payment.id);
  if (totals.approved < payment.amountDueCents) {
    throw new HttpError(
      409,
      billingMessages.notCovered(formatEur(totals.approved), formatEur(payment.amountDueCents)),
    );
  }
  await changeStatus(uow, sub, 'confirmBankTransfer');
  await uow.tx
    .update(payments)
    .set({ paidAt: (await latestApprovalDate(uow, payment.id)) ?? uow.now, method: 'bankTransfer' })
    .where(and(eq(payments.tenantId, uow.tenantId), eq(payments.id, payment.id)));
  if (payment.periodEnd.getTime() > sub.nextBillingDate.getTime()) {
    await uow.tx
      .update(subscriptions)
      .set({ nextBillingDate: payment.periodEnd, updatedAt: uow.now })
      .where(and(eq(subscriptions.tenantId, uow.tenantId), eq(subscriptions.id, sub.id)));
  }
  // Its invoice (in this transaction), its webhook, …: whoever consumes the event.
  await uow.publish('payment.paid', { paymentId: payment.id, subscriptionId: sub.id });
}

/**
 * The payment of the period that starts at the subscription's next billing date, made now if it
 * does not exist yet (same amount due, a new causale, its end counted from the start date so a
 * 31st stays month-end). Used by the renewal reminder's link and the switch to bank transfer.
 */
export async function ensureRenewalPayment(
  uow: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'planId' | 'startDate' | 'amountDueCents'>,
  periodStart: Date,
) {
  const existing = await paymentOfPeriod(uow, sub.id, periodStart);
  if (existing) return existing;
  const plan = await planOfTenant(uow, sub.planId);
  // A change to another recurrence scheduled by then (issue 30): the new plan's period from that date.
  const recurrence = await scheduledRecurrenceFor(uow, sub.id, periodStart);
  const id = await insertPayment(uow, {
    subscriptionId: sub.id,
    // A plan change scheduled by then (issue 30): the period is asked at the new plan's price.
    amountDueCents: (await scheduledAmountFor(uow, sub.id, periodStart)) ?? sub.amountDueCents,
    periodStart,
    periodEnd:
      recurrence !== null && recurrence !== plan.recurrence
        ? periodEndAfter(periodStart, recurrence, periodStart)
        : periodEndAfter(sub.startDate, plan.recurrence, periodStart),
    couponRedemptionId: await redemptionForNextPayment(uow, sub.id),
  });
  // One-off charges 'Con il prossimo pagamento' (issue 30): their lines join this period's.
  await attachNextCharges(uow, sub.id, id);
  // A plan change's residual credit (issue 30) is set off: the payment asks that much less, and
  // one the credit wholly covers is paid by it now. Not a period Stripe or PayPal charges (an
  // Active Stripe subscription's invoice balance carries it; PayPal keeps it): subscription-credit.ts.
  await setOffRenewal(uow, sub.id, id);
  const created = await findPayment(uow, id);
  if (!created) throw new Error('renewal payment insert returned no row');
  return created;
}

/**
 * Cancel: Active with a provider subscription id (cancelled at the provider first, by the payment
 * issue's adapter, outside this transaction). Without one it is the contract's 409.
 */
export async function cancelSubscription(uow: UnitOfWork, id: number): Promise<void> {
  const sub = await lockedSubscription(uow, id);
  const payment = await firstPayment(uow, sub.id);
  if (sub.status === SubscriptionStatus.Active && !payment?.providerSubscriptionId) {
    throw new HttpError(409, billingMessages.cancelNeedsProvider);
  }
  await changeStatus(uow, sub, 'cancel');
}

/**
 * The public API's cancel: like an Admin's, except that a subscription cancelled meanwhile (a
 * concurrent replay of the same call) is left as it is.
 */
export async function cancelUnlessCanceled(uow: UnitOfWork, id: number): Promise<void> {
  const sub = await lockedSubscription(uow, id);
  if (sub.status === SubscriptionStatus.Canceled) return;
  await cancelSubscription(uow, id);
}

/**
 * The coupon's last discounted period was paid (issue 30): the subscription's amount due returns to
 * the net to pay of its agreed price without the discount, for the periods that follow.
 */
export async function restoreFullAmount(uow: UnitOfWork, subscriptionId: number): Promise<void> {
  const sub = await lockedSubscription(uow, subscriptionId);
  const plan = await planOfTenant(uow, sub.planId);
  const { due } = await termsOf(uow, sub.userId, plan, {
    paymentAmount: sub.costBeforeVatCents,
    vatPercentage: sub.vatHundredths,
  });
  await uow.tx
    .update(subscriptions)
    .set({ amountDueCents: due, updatedAt: uow.now })
    .where(and(eq(subscriptions.tenantId, uow.tenantId), eq(subscriptions.id, sub.id)));
}

/**
 * The subscription's documents of one period at its agreed price (issue 30, a coupon applied
 * later: the payment page and 'Applica coupon'): without a discount (`full`) and with `discount`.
 */
export async function subscriptionTermsWith(
  uow: TenantScope,
  sub: Pick<SubscriptionRow, 'userId' | 'planId' | 'costBeforeVatCents' | 'vatHundredths'>,
  discount: LineDiscount | null,
): Promise<{ full: FiscalDocument; discounted: FiscalDocument }> {
  const [plan] = await uow.tx
    .select({
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, uow.tenantId), eq(plans.id, sub.planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  const agreed = { paymentAmount: sub.costBeforeVatCents, vatPercentage: sub.vatHundredths };
  const full = (await termsOf(uow, sub.userId, plan, agreed)).document;
  const discounted = discount ? (await termsOf(uow, sub.userId, plan, agreed, discount)).document : full;
  return { full, discounted };
}
