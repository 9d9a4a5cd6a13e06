/**
 * The provider's side of a plan change (issue 30, 'Cambia piano'), made BEFORE the unit of work
 * that changes Rinnova, outside any transaction (as the cancel does):
 *
 *   1. the route checks and computes the change (nothing written);
 *   2. this call: Stripe `subscriptions.update` of the subscription's item to the new plan's price
 *      with `proration_behavior: 'none'` (between recurrences also `trial_end`, the date Stripe
 *      charges next: its periods count from then), or PayPal `POST /v1/billing/subscriptions/{id}/revise`
 *      with the new plan's `plan_id` (or a running coupon's own plan for the new plan) and the
 *      customer's return URL, whose `approve` link the change's unit keeps and mails
 *      (paypal-plan-change.ts: PayPal bills the new plan only once the customer approves it);
 *      Stripe charges the new price from the next billing date on;
 *   3. the unit of work: plan, terms, documents, payment, history, event.
 *
 * Why first: a provider failure (timeout, 4xx, 5xx) throws before anything is written, so Rinnova
 * is unchanged (502 with the provider's Italian message). Why it is safe to repeat: the call is
 * keyed (Stripe Idempotency-Key, PayPal-Request-Id) by subscription, target plan and effective
 * day, and a subscription already on that price is left alone; if the unit then fails (a 409 from
 * a concurrent change), the provider charges the new price while Rinnova keeps the old plan — the
 * same request repeated completes it, and the daily provider sync shows the difference.
 *
 * Why not Stripe's own proration ('create_prorations' / 'always_invoice'): Stripe prorates by
 * the second over its own period (a 23-hour DST day is 23/24 of a day, a month's seconds differ
 * from its days) and charges its own lines; the customer would pay an amount different from the
 * Italian documents (the TD01 of the new days and the TD04 of the unused ones, day-exact, rounded
 * half-up once). Rinnova's proration payment carries the documents' amount.
 */
import { and, count, eq } from 'drizzle-orm';
import { billingMessages } from '../../../contract/messages';
import { toCents, toPercentHundredths } from '../../../contract/money';
import { redemptionOf } from '../../db/coupons';
import { payments, planChanges, plans, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { EventBus } from '../../unit-of-work/events';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findPayment } from './billing.repository';
import { providerLabel, type ProviderDeps } from './provider-payments';
import { creditBalance, ensureCreditsAtStripe, setOffCredit } from './subscription-credit';
import { stripeDurationFrom } from './coupon-apply.service';
import { reviseAtPayPalForChange, type PayPalPlanRevision } from './paypal-plan-change';
import { subscriptionTermsWith } from './subscription.service';

/** What the route passes: the checked change of a provider subscription. */
export interface ProviderPlanChange {
  subscriptionId: number;
  method: 'stripe' | 'paypal';
  providerSubscriptionId: string;
  toPlanId: number;
  whenKind: 'now' | 'renewal' | 'date';
  /** YYYY-MM-DD (Rome). */
  effectiveDay: string;
  /** The key of the call when not the change's own (the revert of a cancelled scheduled change). */
  idempotencyKey?: string;
  /**
   * A change between recurrences (Stripe): the provider charges nothing until then (the new billing
   * date, or the current one for a change at the billing date or its revert). See the adapter.
   */
  nextChargeAt?: Date;
}

/**
 * Answers, for a PayPal change (not a revert), what the revise asked: PayPal's plan, the buyer's
 * `approve` link and the next charge (paypal-plan-change.ts), for the change's unit to keep.
 */
export async function changePlanAtProvider(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor' | 'uow'> & { publicUrl?: () => string },
  tenantId: number,
  change: ProviderPlanChange,
): Promise<PayPalPlanRevision | null> {
  const [plan] = await deps
    .connectionFor(tenantId)
    .select({ name: plans.name, paypalPlanId: plans.paypalPlanId, stripePlanId: plans.stripePlanId })
    .from(plans)
    .where(and(eq(plans.tenantId, tenantId), eq(plans.id, change.toPlanId)));
  if (!plan) throw new HttpError(404, 'Piano non trovato.');
  const providerPlanId = change.method === 'stripe' ? plan.stripePlanId : plan.paypalPlanId;
  if (!providerPlanId)
    throw new HttpError(409, billingMessages.planNotAtProvider(plan.name, providerLabel(change.method)));
  let idempotencyKey = change.idempotencyKey;
  if (!idempotencyKey) {
    // A change scheduled again after one was cancelled (and reverted at the provider) must reach
    // the provider again: the key counts the subscription's cancelled changes.
    const [cancelled] = await deps
      .connectionFor(tenantId)
      .select({ n: count() })
      .from(planChanges)
      .where(
        and(
          eq(planChanges.tenantId, tenantId),
          eq(planChanges.subscriptionId, change.subscriptionId),
          eq(planChanges.status, 'canceled'),
        ),
      );
    const n = Number(cancelled?.n ?? 0);
    idempotencyKey = `rinnova-change-${tenantId}-${change.subscriptionId}-${change.toPlanId}-${change.effectiveDay}${n > 0 ? `-${n}` : ''}`;
  }
  // PayPal's revise needs the buyer's consent; a running coupon goes with the change (its own
  // plan for the new plan's amounts). Not the revert of a cancelled change (its own key).
  if (change.method === 'paypal' && !change.idempotencyKey)
    return reviseAtPayPalForChange(deps, tenantId, {
      subscriptionId: change.subscriptionId,
      providerSubscriptionId: change.providerSubscriptionId,
      toPlanId: change.toPlanId,
      plainPlanId: providerPlanId,
      idempotencyKey,
    });
  const adapter = await deps.providers.adapterOf(tenantId, change.method);
  await adapter.changePlan(change.providerSubscriptionId, {
    providerPlanId,
    idempotencyKey,
    ...(change.method === 'stripe' && change.nextChargeAt ? { nextChargeAt: change.nextChargeAt } : {}),
  });
  if (change.method === 'stripe') await couponAtStripeForPlan(deps, tenantId, change, idempotencyKey);
  return null;
}

/**
 * A Stripe subscription's running coupon after its price changed (issue 30): Rinnova's unit keeps
 * the coupon on the new plan when its plans allow it, the amount due discounted on the new price,
 * or ends it (plan-change.service.ts `couponOnNewPlan`). Stripe's discount is an amount off the old
 * price, so it is replaced here, keyed with the change: a coupon of the new plan's amount off for
 * the periods left, or none at all. Without a running coupon nothing is called.
 */
async function couponAtStripeForPlan(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor' | 'uow'>,
  tenantId: number,
  change: ProviderPlanChange,
  changeKey: string,
): Promise<void> {
  const scope = { tenantId, tx: deps.connectionFor(tenantId) };
  const r = await redemptionOf(scope, change.subscriptionId);
  if (!r || r.periodsLeft === 0) return;
  const { adapter } = await deps.providers.stripe(tenantId);
  if (r.planIds.length > 0 && !r.planIds.includes(change.toPlanId)) {
    await adapter.removeSubscriptionCoupon(change.providerSubscriptionId, `${changeKey}-coupon-off`);
    return;
  }
  const [row] = await scope.tx
    .select({
      userId: subscriptions.userId,
      nextBillingDate: subscriptions.nextBillingDate,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      months: plans.recurrenceType,
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.tenantId, subscriptions.tenantId), eq(plans.id, change.toPlanId)))
    .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.id, change.subscriptionId)));
  if (!row) return;
  const { full, discounted } = await subscriptionTermsWith(
    scope,
    {
      userId: row.userId,
      planId: change.toPlanId,
      costBeforeVatCents: toCents(row.cost),
      vatHundredths: toPercentHundredths(row.vat),
    },
    r.discount,
  );
  const amountOffCents = full.netToPayCents - discounted.netToPayCents;
  const key = `${changeKey}-coupon-${r.id}-${amountOffCents}`;
  const couponId = await adapter.createCoupon({
    amountOffCents,
    ...stripeDurationFrom(
      deps.uow.clock(),
      change.nextChargeAt ?? row.nextBillingDate,
      r.periodsLeft,
      row.months,
    ),
    name: r.code,
    metadata: { rinnovaTenantId: String(tenantId), rinnovaSubscriptionId: String(change.subscriptionId) },
    idempotencyKey: key,
  });
  await adapter.setSubscriptionCoupon(change.providerSubscriptionId, couponId, `${key}-sub`);
}

/**
 * The after-commit step of a plan change made at once (issue 30): a Stripe subscription's
 * proration payment is charged at Stripe — one invoice item of the amount asked (the charge's net
 * less the credit note's, as the Italian documents say), one invoice carrying Rinnova's payment id,
 * paid at once — keyed by the payment, so the outbox's retries charge once. Its `invoice.paid`
 * webhook records the payment (`prorationCharged`), whose invoice is then issued. A failure is the
 * outbox's to retry; meanwhile the payment waits, due today, like any unpaid one. A residual credit
 * of an earlier change (issue 30) is put on the Stripe customer's balance first, if its own outbox
 * row has not done it yet (`ensureCreditsAtStripe`; a failure throws, nothing is charged): Stripe
 * takes the balance off this invoice, and `prorationCharged` records that use. PayPal's
 * subscriptions cannot charge an arbitrary one-off amount: a PayPal proration waits for the
 * customer's payment (not built yet).
 */
export async function chargeProrationAtProvider(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planChangeId: number,
): Promise<void> {
  const [row] = await deps
    .connectionFor(tenantId)
    .select({
      paymentId: payments.id,
      subscriptionId: payments.subscriptionId,
      amountDueCents: payments.amountDueCents,
      paidAt: payments.paidAt,
      method: payments.method,
      providerSubscriptionId: payments.providerSubscriptionId,
      planName: plans.name,
    })
    .from(planChanges)
    .innerJoin(
      payments,
      and(eq(payments.tenantId, planChanges.tenantId), eq(payments.id, planChanges.prorationPaymentId)),
    )
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(and(eq(planChanges.tenantId, tenantId), eq(planChanges.id, planChangeId)));
  if (!row || row.paidAt || row.method !== 'stripe' || !row.providerSubscriptionId || row.amountDueCents <= 0)
    return;
  await ensureCreditsAtStripe(deps, tenantId, row.subscriptionId, row.providerSubscriptionId);
  const { adapter } = await deps.providers.stripe(tenantId);
  await adapter.chargeOnce({
    subscriptionId: row.providerSubscriptionId,
    amountCents: row.amountDueCents,
    description: `Conguaglio cambio di piano: «${row.planName}»`,
    metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(row.paymentId) },
    idempotencyKey: `rinnova-proration-${tenantId}-${row.paymentId}`,
  });
}

/** Billing's own after-commit consumer of its event (app start). */
export function subscribeProrationCharges(
  events: EventBus,
  deps: () => Pick<ProviderDeps, 'providers' | 'connectionFor'>,
): void {
  events.subscribe('subscription.planChanged', {
    name: 'billing.prorationCharge',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => chargeProrationAtProvider(deps(), tenantId, payload.planChangeId),
  });
}

/**
 * Stripe's `invoice.paid` of a proration invoice (its metadata names Rinnova's payment; a one-off
 * 'Subito' charge's too): the payment is paid, once, when Stripe took exactly the amount asked;
 * `payment.paid` issues its invoice. Stripe took less because its customer balance held the
 * subscription's residual credit (issue 30: an upgrade after a downgrade's credit): when the
 * ledger's balance covers the difference, that much is set off first (`setOffCredit` with what
 * Stripe charged: the use recorded, the payment's amount reduced to Stripe's, its invoice's
 * ImportoPagamento with it), in this unit, so a replay finds it paid and sets off nothing. Anything
 * else is told, never applied (and nothing is set off).
 */
export async function prorationCharged(
  w: UnitOfWork,
  paymentId: number,
  charge: { invoiceId: string; amountPaid: number | null; paidAt: Date },
): Promise<{ outcome: 'applied' | 'unchanged' | 'ignored'; detail: string | null }> {
  const p = await findPayment(w, paymentId, { lock: true });
  if (!p || p.method !== 'stripe')
    return { outcome: 'ignored', detail: `pagamento ${paymentId} sconosciuto` };
  if (p.paidAt) return { outcome: 'unchanged', detail: `conguaglio ${paymentId} già pagato` };
  let due = p.amountDueCents;
  if (
    charge.amountPaid !== null &&
    charge.amountPaid >= 0 &&
    charge.amountPaid < due &&
    due - charge.amountPaid <= (await creditBalance(w, p.subscriptionId))
  )
    due -= await setOffCredit(w, p.subscriptionId, p.id, { charged: charge.amountPaid });
  if (charge.amountPaid !== due)
    return {
      outcome: 'ignored',
      detail: `conguaglio ${paymentId}: Stripe ha addebitato ${charge.amountPaid ?? '?'} centesimi invece di ${due}`,
    };
  await w.tx
    .update(payments)
    .set({ paidAt: charge.paidAt, providerPaymentId: charge.invoiceId })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, p.id)));
  await w.publish('payment.paid', { paymentId: p.id, subscriptionId: p.subscriptionId });
  return { outcome: 'applied', detail: `conguaglio ${paymentId} pagato (${charge.invoiceId})` };
}
