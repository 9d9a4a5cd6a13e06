/**
 * A coupon applied to an existing subscription (issue 30): by the customer on the public payment
 * page (`POST api/Payment/coupon`, with the link's token) and by an Admin ('Applica coupon',
 * `POST api/subscription/applyCoupon/{id}`). One unit of work: the code checked for the plan, the
 * coupon redeemed once (the conditional update of `redeemCoupon`: racing applications never pass
 * the maximum), the subscription's amount due and the next unpaid payment discounted (the payment
 * carries the redemption, so its invoice applies it), and the payment's active links ask the new
 * amount. A subscription has at most one coupon: the same code again answers what is applied
 * (a replayed link redeems nothing), another code is a 400 on `couponCode`.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { couponMessages, serverMessages } from '../../../contract/messages';
import { fromCents, toCents } from '../../../contract/money';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import {
  couponDiscountLabel,
  couponDurationLabel,
  couponFigures,
  discountOf,
  normalizeCouponCode,
  type CouponDuration,
} from '../../../contract/schemas/coupon';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { periodsOf, redeemCoupon, usableCoupon } from '../../db/coupons';
import { capCreditUse, creditUsedBy } from '../../db/credits';
import {
  couponRedemptions,
  coupons,
  paymentProviders,
  paymentTokens,
  payments,
  plans,
  subscriptions,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findPayment, findSubscription, type SubscriptionRow } from './billing.repository';
import { subscriptionChargeOf, subscriptionTermsWith } from './subscription.service';
import { customerProfileOf, periodDocument, sellerProfileOf } from '../../db/fiscal-profiles';
import type { CustomerProfile } from '../../../contract/invoice/fiscal-document';
import { creditUnused, settleByCredit } from './subscription-credit';
import { findToken, isUsable } from './payment-token.service';
import { tokenInvalid, type ProviderDeps } from './provider-payments';

const couponError = (message: string) =>
  new HttpError(400, serverMessages.validation, { errors: [`couponCode: ${message}`] });

/** The subscription's redemption with its coupon's terms, or null. */
export async function appliedCouponOf(scope: TenantScope, subscriptionId: number) {
  const [r] = await scope.tx
    .select({
      id: couponRedemptions.id,
      couponId: coupons.id,
      code: coupons.code,
      duration: coupons.duration,
      durationPeriods: coupons.durationPeriods,
      percentOffHundredths: couponRedemptions.percentOffHundredths,
      amountOffCents: couponRedemptions.amountOffCents,
      periodsLeft: couponRedemptions.periodsLeft,
    })
    .from(couponRedemptions)
    .innerJoin(
      coupons,
      and(eq(coupons.id, couponRedemptions.couponId), eq(coupons.tenantId, couponRedemptions.tenantId)),
    )
    .where(
      and(
        eq(couponRedemptions.tenantId, scope.tenantId),
        eq(couponRedemptions.subscriptionId, subscriptionId),
      ),
    );
  return r ?? null;
}

/** The labels of a coupon's stored discount and duration. */
function labelsOf(c: {
  percentOffHundredths: number | null;
  amountOffCents: number | null;
  duration: string;
  durationPeriods: number | null;
}) {
  return {
    discountLabel: couponDiscountLabel(couponFigures(c.percentOffHundredths, c.amountOffCents)),
    durationLabel: couponDurationLabel({
      duration: c.duration as CouponDuration,
      durationPeriods: c.durationPeriods,
    }),
  };
}

/**
 * The quote of the coupon already on `sub` (null without one): its terms and what one period asks
 * without it and, while periods are left, with it.
 */
export async function couponQuoteOfSubscription(
  scope: TenantScope,
  sub: Pick<SubscriptionRow, 'id' | 'userId' | 'planId' | 'costBeforeVatCents' | 'vatHundredths'>,
): Promise<CouponQuote | null> {
  const r = await appliedCouponOf(scope, sub.id);
  if (!r) return null;
  const { full, discounted } = await subscriptionTermsWith(scope, sub, discountOf(r));
  return {
    code: r.code,
    ...labelsOf(r),
    periodsLeft: r.periodsLeft,
    discountAmount: fromCents(discounted.discountCents),
    fullAmount: fromCents(full.netToPayCents),
    amount: fromCents(discounted.netToPayCents),
    applied: true,
  };
}

/** The coupon in effect on subscription `id` (GetById), or null. */
export async function couponInEffect(scope: TenantScope, id: number): Promise<CouponQuote | null> {
  return (await couponsInEffect(scope, [id])).get(id) ?? null;
}

/**
 * The coupons in effect on `ids` (the customer's cards), by subscription id, in a fixed number of
 * queries whatever the number of cards: the redemptions with their subscription's agreed terms and
 * plan (one), the tenant's fiscal profile (one) and each customer's (one per customer: one in the
 * customer's area). The same quote as `couponQuoteOfSubscription`.
 */
export async function couponsInEffect(
  scope: TenantScope,
  ids: readonly number[],
): Promise<Map<number, CouponQuote>> {
  const out = new Map<number, CouponQuote>();
  if (ids.length === 0) return out;
  const rows = await scope.tx
    .select({
      subscriptionId: couponRedemptions.subscriptionId,
      userId: subscriptions.userId,
      costBeforeVatCents: subscriptions.costBeforeVatCents,
      vatHundredths: subscriptions.vatHundredths,
      planName: plans.name,
      planCost: plans.recurringCostBeforeVat,
      planVat: plans.vatPercentage,
      planNatura: plans.natura,
      code: coupons.code,
      duration: coupons.duration,
      durationPeriods: coupons.durationPeriods,
      percentOffHundredths: couponRedemptions.percentOffHundredths,
      amountOffCents: couponRedemptions.amountOffCents,
      periodsLeft: couponRedemptions.periodsLeft,
    })
    .from(couponRedemptions)
    .innerJoin(
      coupons,
      and(eq(coupons.id, couponRedemptions.couponId), eq(coupons.tenantId, couponRedemptions.tenantId)),
    )
    .innerJoin(
      subscriptions,
      and(
        eq(subscriptions.id, couponRedemptions.subscriptionId),
        eq(subscriptions.tenantId, couponRedemptions.tenantId),
      ),
    )
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(
      and(
        eq(couponRedemptions.tenantId, scope.tenantId),
        inArray(couponRedemptions.subscriptionId, [...ids]),
      ),
    );
  if (rows.length === 0) return out;
  const seller = await sellerProfileOf(scope.tx, scope.tenantId);
  const customers = new Map<number, CustomerProfile>();
  for (const userId of new Set(rows.map((r) => r.userId)))
    customers.set(userId, await customerProfileOf(scope.tx, scope.tenantId, userId));
  for (const r of rows) {
    const plan = { name: r.planName, cost: r.planCost, vat: r.planVat, natura: r.planNatura };
    const agreed = { paymentAmount: r.costBeforeVatCents, vatPercentage: r.vatHundredths };
    const customer = customers.get(r.userId)!;
    const full = periodDocument(seller, customer, subscriptionChargeOf(plan, agreed));
    const discounted = periodDocument(seller, customer, subscriptionChargeOf(plan, agreed, discountOf(r)));
    out.set(r.subscriptionId, {
      code: r.code,
      ...labelsOf(r),
      periodsLeft: r.periodsLeft,
      discountAmount: fromCents(discounted.discountCents),
      fullAmount: fromCents(full.netToPayCents),
      amount: fromCents(discounted.netToPayCents),
      applied: true,
    });
  }
  return out;
}

/**
 * Applies (or, with `preview`, only quotes) `code` on the subscription. `paymentId`: the payment the
 * discount starts from (the payment link's); absent, the oldest unpaid period payment, if any (the
 * Admin's: 'from the next payment'). The subscription must not be over (Canceled), the payment
 * unpaid. Answers the quote.
 */
export async function applyCouponToSubscription(
  uow: UnitOfWork,
  input: {
    subscriptionId: number;
    code: string;
    preview: boolean;
    paymentId?: number;
    /** The Admin's path, Stripe already told (`couponAtStripe`): a Stripe-charged subscription may take it. */
    stripeDone?: boolean;
  },
): Promise<CouponQuote> {
  const code = normalizeCouponCode(input.code);
  if (!code) throw couponError(couponMessages.invalid);
  const sub = await findSubscription(uow, input.subscriptionId, { lock: !input.preview });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (sub.status === SubscriptionStatus.Canceled) throw new HttpError(409, couponMessages.notApplicable);

  const existing = await couponQuoteOfSubscription(uow, sub);
  if (existing) {
    // The same code again (a replayed link, a second click): what is applied, nothing redeemed.
    if (existing.code === code) {
      const p = input.paymentId !== undefined ? await findPayment(uow, input.paymentId) : undefined;
      return p && p.subscriptionId === sub.id ? withCreditUsed(uow, existing, p) : existing;
    }
    throw couponError(couponMessages.alreadyApplied);
  }
  // The Admin's path on a subscription a provider charges: the provider would keep charging the
  // full price. Stripe is told first (`couponAtStripe`); PayPal's revise needs the buyer's
  // re-consent, so the route takes that path before this one (paypal-coupon-revise.ts: redeemed
  // on PayPal's confirmation); reaching here without it, it is refused and nothing changes.
  if (input.paymentId === undefined && !input.preview) {
    const charged = await chargedByProvider(uow, sub);
    if (charged === 'paypal' || (charged === 'stripe' && !input.stripeDone))
      throw new HttpError(409, providerCouponRefused);
  }
  const coupon = await usableCoupon(uow, code, sub.planId);
  const { full, discounted } = await subscriptionTermsWith(uow, sub, coupon.discount);
  const quote: CouponQuote = {
    code: coupon.code,
    ...labelsOf({
      percentOffHundredths: 'percentOff' in coupon.discount ? coupon.discount.percentOff : null,
      amountOffCents: 'amountOffCents' in coupon.discount ? coupon.discount.amountOffCents : null,
      duration: coupon.duration,
      durationPeriods: coupon.durationPeriods,
    }),
    periodsLeft: periodsOf(coupon),
    discountAmount: fromCents(discounted.discountCents),
    fullAmount: fromCents(full.netToPayCents),
    amount: fromCents(discounted.netToPayCents),
    applied: false,
  };
  if (input.preview) {
    // What the payment would ask: the discounted net less the credit it already sets off.
    const p =
      input.paymentId !== undefined
        ? await findPayment(uow, input.paymentId)
        : await nextUnpaidPayment(uow, sub.id, { lock: false });
    return p && p.subscriptionId === sub.id ? withCreditUsed(uow, quote, p) : quote;
  }

  const payment =
    input.paymentId !== undefined
      ? await findPayment(uow, input.paymentId, { lock: true })
      : await nextUnpaidPayment(uow, sub.id);
  if (input.paymentId !== undefined && (!payment || payment.subscriptionId !== sub.id))
    throw new HttpError(404, serverMessages.notFound);
  if (payment && payment.paidAt !== null && input.paymentId !== undefined)
    throw new HttpError(409, 'Questo pagamento risulta già pagato.');

  const redemptionId = await redeemCoupon(uow, coupon, sub.id);
  const due = discounted.netToPayCents;
  await uow.tx
    .update(subscriptions)
    .set({ amountDueCents: due, updatedAt: uow.now })
    .where(and(eq(subscriptions.tenantId, uow.tenantId), eq(subscriptions.id, sub.id)));
  let applied: CouponQuote = { ...quote, applied: true };
  if (payment && payment.paidAt === null) {
    // A residual credit already set off on this payment (issue 30) stays set off: the payment asks
    // the discounted net less the credit used; a discounted net below that use shrinks the use to
    // it (the rest stays on the ledger for the next payment) and the credit pays the payment now.
    const before = await creditUsedBy(uow, payment.id);
    const used = await capCreditUse(uow, sub.id, payment.id, due);
    await creditUnused(uow, sub.id, payment.id, before - used);
    const asks = due - used;
    await uow.tx
      .update(payments)
      .set({ amountDueCents: asks, couponRedemptionId: redemptionId })
      .where(and(eq(payments.tenantId, uow.tenantId), eq(payments.id, payment.id)));
    if (used > 0) applied = { ...applied, amount: fromCents(asks), creditUsed: fromCents(used) };
    // The payment's open links ask the discounted amount from now on.
    await uow.tx
      .update(paymentTokens)
      .set({ amountCents: asks })
      .where(
        and(
          eq(paymentTokens.tenantId, uow.tenantId),
          eq(paymentTokens.paymentId, payment.id),
          eq(paymentTokens.status, PaymentTokenStatus.Active),
        ),
      );
    // The Admin's path: a PayPal link of this payment asks the plan's full price at PayPal, which
    // PayPal would charge; it is withdrawn (a new link gets the coupon's own PayPal plan).
    if (input.paymentId === undefined) await withdrawFullPricePayPalLinks(uow, payment.id, sub.planId);
    if (used > 0 && asks === 0) await settleByCredit(uow, sub, payment.id);
  }
  return applied;
}

/**
 * A quote as payment `p` asks it: when the unpaid payment sets off a residual credit, `amount` is
 * the discounted net less the credit it uses (never more than that net) and `creditUsed` says how
 * much. Otherwise the quote as it is.
 */
async function withCreditUsed(
  scope: TenantScope,
  quote: CouponQuote,
  p: { id: number; paidAt: Date | null },
): Promise<CouponQuote> {
  if (p.paidAt !== null) return quote;
  return quoteWithCredit(quote, await creditUsedBy(scope, p.id));
}

/** `withCreditUsed` when the cents the payment sets off are already read. */
export function quoteWithCredit(quote: CouponQuote, creditCents: number): CouponQuote {
  const net = toCents(quote.amount);
  const used = Math.min(creditCents, net);
  return used > 0 ? { ...quote, amount: fromCents(net - used), creditUsed: fromCents(used) } : quote;
}

/** One period's discounted net (cents) of a quote, whatever credit its payment sets off. */
const periodCents = (quote: CouponQuote) => toCents(quote.amount) + toCents(quote.creditUsed ?? 0);

/** Expires the payment's active links routed to PayPal on the plan's own (full-price) PayPal plan. */
async function withdrawFullPricePayPalLinks(uow: UnitOfWork, paymentId: number, planId: number) {
  const [plan] = await uow.tx
    .select({ paypalPlanId: plans.paypalPlanId })
    .from(plans)
    .where(and(eq(plans.tenantId, uow.tenantId), eq(plans.id, planId)));
  if (!plan?.paypalPlanId) return;
  const paypalRows = await uow.tx
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(and(eq(paymentProviders.tenantId, uow.tenantId), eq(paymentProviders.kind, 'paypal')));
  if (paypalRows.length === 0) return;
  await uow.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Expired })
    .where(
      and(
        eq(paymentTokens.tenantId, uow.tenantId),
        eq(paymentTokens.paymentId, paymentId),
        eq(paymentTokens.status, PaymentTokenStatus.Active),
        eq(paymentTokens.providerPlanId, plan.paypalPlanId),
        inArray(
          paymentTokens.paymentProviderId,
          paypalRows.map((r) => r.id),
        ),
      ),
    );
}

export const providerCouponRefused =
  'Questa sottoscrizione si rinnova con carta o PayPal: il coupon si può applicare prima del primo pagamento o con il bonifico.';

/**
 * The provider that charges a live subscription's renewals ('stripe' with its subscription id, or
 * 'paypal'), or null.
 */
export async function chargedByProvider(
  scope: TenantScope,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
): Promise<'stripe' | 'paypal' | null> {
  return (await providerChargeOf(scope, sub))?.kind ?? null;
}

async function providerChargeOf(scope: TenantScope, sub: Pick<SubscriptionRow, 'id' | 'status'>) {
  if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
    return null;
  const [row] = await scope.tx
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, sub.id),
        sql`${payments.providerSubscriptionId} is not null`,
        sql`${payments.method} in ('stripe', 'paypal')`,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  return row?.providerSubscriptionId
    ? { kind: row.method as 'stripe' | 'paypal', providerSubscriptionId: row.providerSubscriptionId }
    : null;
}

/**
 * What Stripe must be told before 'Applica coupon' on a subscription it charges (issue 30): its
 * subscription, the amount off per period (full − discounted net to pay, cents), the periods and
 * the plan's months; null when Stripe does not charge it. Checked and computed, nothing written.
 */
export async function stripeCouponTarget(uow: UnitOfWork, subscriptionId: number, code: string) {
  const sub = await findSubscription(uow, subscriptionId);
  if (!sub) return null;
  const charge = await providerChargeOf(uow, sub);
  if (charge?.kind !== 'stripe') return null;
  const quote = await applyCouponToSubscription(uow, { subscriptionId, code, preview: true });
  if (quote.applied) return null;
  const [plan] = await uow.tx
    .select({ months: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, uow.tenantId), eq(plans.id, sub.planId)));
  const duration = stripeDurationFrom(uow.now, sub.nextBillingDate, quote.periodsLeft, plan?.months ?? 1);
  return {
    subscriptionId,
    providerSubscriptionId: charge.providerSubscriptionId,
    amountOffCents: Math.round(quote.fullAmount * 100) - Math.round(quote.amount * 100),
    ...duration,
    code: quote.code,
  };
}

export type StripeCouponTarget = NonNullable<Awaited<ReturnType<typeof stripeCouponTarget>>>;

/**
 * A Stripe coupon's duration for `periodsLeft` discounted periods of `months` each, applied at
 * `now` with the next invoice at `nextCharge`: Stripe counts a repeating coupon's months from now,
 * so D0 months reach past the next charge, then (N − 1) periods, and the end falls inside the
 * N-th discounted period (see stripeCouponDuration); null periods: forever.
 */
export function stripeDurationFrom(
  now: Date,
  nextCharge: Date,
  periodsLeft: number | null,
  months: number,
): { duration: 'forever' | 'once' | 'repeating'; durationInMonths: number | null } {
  if (periodsLeft === null) return { duration: 'forever', durationInMonths: null };
  if (periodsLeft <= 1) return { duration: 'once', durationInMonths: null };
  let reach = 1;
  while (addMonthsUtc(now, reach) <= nextCharge) reach++;
  return { duration: 'repeating', durationInMonths: reach + (periodsLeft - 1) * months };
}

function addMonthsUtc(d: Date, months: number): Date {
  const r = new Date(d.getTime());
  r.setUTCMonth(r.getUTCMonth() + months);
  return r;
}

/**
 * 'Applica coupon' at Stripe, before the unit and outside it (issue 30): a Stripe coupon of the
 * amount off and the subscription's discount from its next invoice, both keyed (a retry repeats
 * nothing). A failure throws (502) and nothing changes in Rinnova.
 */
export async function couponAtStripe(
  deps: Pick<ProviderDeps, 'providers'>,
  tenantId: number,
  t: StripeCouponTarget,
): Promise<void> {
  const { adapter } = await deps.providers.stripe(tenantId);
  const key = `rnv-apply-coupon-${tenantId}-${t.subscriptionId}-${t.code}-${t.amountOffCents}`;
  const couponId = await adapter.createCoupon({
    amountOffCents: t.amountOffCents,
    duration: t.duration,
    durationInMonths: t.durationInMonths,
    name: t.code,
    metadata: { rinnovaTenantId: String(tenantId), rinnovaSubscriptionId: String(t.subscriptionId) },
    idempotencyKey: key,
  });
  await adapter.setSubscriptionCoupon(t.providerSubscriptionId, couponId, `${key}-sub`);
}

/** The subscription's oldest unpaid period payment (not a plan change's proration), locked unless told. */
async function nextUnpaidPayment(uow: UnitOfWork, subscriptionId: number, options = { lock: true }) {
  const [row] = await uow.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, uow.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNull(payments.paidAt),
        isNull(payments.planChangeId),
        // A one-off charge's own payment is no period's: a coupon discounts periods only.
        isNull(payments.oneOffChargeId),
        isNull(payments.couponRedemptionId),
        sql`${payments.collectionStatus} <> 'exhausted'`,
      ),
    )
    .orderBy(asc(payments.periodStart), asc(payments.id))
    .limit(1);
  return row ? findPayment(uow, row.id, options) : undefined;
}

/**
 * `POST api/Payment/coupon {token, couponCode, preview}` (public, the payment page's 'Hai un codice
 * sconto?'): the link must be active and unexpired; its payment is the one discounted. A link PayPal
 * charges gets its own PayPal plan first, outside any transaction (`paypalCouponTarget`,
 * `couponPlanAtPayPal`: a PayPal failure is a 502 and nothing changes). Then, in the link holder's
 * own unit (actor: the payment token), the token row locked so two tabs of the same link apply
 * once, the coupon is applied and the link asks the discounted PayPal plan (see the README's
 * 'Coupons at PayPal').
 */
export async function applyPaymentCoupon(
  deps: Pick<ProviderDeps, 'uow' | 'home' | 'providers'>,
  input: { token: string; couponCode: string; preview?: boolean | undefined },
): Promise<CouponQuote> {
  const row = await findToken(deps.home.ofToken(input.token), input.token);
  if (!row || !isUsable(row, deps.uow.clock())) throw tokenInvalid();
  const actor = { kind: 'paymentToken' as const, tokenId: row.id };
  let paypalPlan: PayPalCouponPlan | null = null;
  if (input.preview !== true) {
    const target = await deps.uow.run({ tenantId: row.tenantId, actor }, (w) =>
      paypalCouponTarget(w, row, input.couponCode),
    );
    if (target) paypalPlan = { ...target, planId: await couponPlanAtPayPal(deps, row.tenantId, target) };
  }
  return deps.uow.run({ tenantId: row.tenantId, actor }, async (w) => {
    const [locked] = await w.tx
      .select({ status: paymentTokens.status, expiresAt: paymentTokens.expiresAt })
      .from(paymentTokens)
      .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, row.id)))
      .for('update');
    if (!locked || !isUsable({ status: locked.status as 0 | 1 | 2, expiresAt: locked.expiresAt }, w.now))
      throw tokenInvalid();
    const quote = await applyCouponToSubscription(w, {
      subscriptionId: row.subscriptionId,
      code: input.couponCode,
      preview: input.preview === true,
      paymentId: row.paymentId,
    });
    if (quote.applied && input.preview !== true)
      await routeDiscountedLink(w, row.id, row.planId, paypalPlan, quote);
    return quote;
  });
}

/** What a PayPal plan for a coupon on a link must charge (cents with VAT) and its cycles. */
export interface PayPalCouponTarget {
  subscriptionId: number;
  paymentId: number;
  code: string;
  productId: string;
  name: string;
  intervalMonths: number;
  /** One period's net to pay without the coupon: the REGULAR cycle. */
  fullCents: number;
  /** With it: the TRIAL cycles (or, forever, the REGULAR one). */
  discountedCents: number;
  /** Discounted periods (once 1, repeating N); null = forever. */
  periods: number | null;
  /** A plan change's target plan (issue 30): in the key, so each new plan gets its own. */
  forPlanId?: number;
}

type PayPalCouponPlan = PayPalCouponTarget & { planId: string };

/** The provider row kind of a link ('paypal', 'stripe') or null. */
async function routeOf(w: TenantScope, tokenId: number) {
  const [route] = await w.tx
    .select({ kind: paymentProviders.kind })
    .from(paymentTokens)
    .innerJoin(
      paymentProviders,
      and(
        eq(paymentProviders.id, paymentTokens.paymentProviderId),
        eq(paymentProviders.tenantId, paymentTokens.tenantId),
      ),
    )
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
  return route?.kind ?? null;
}

/**
 * The PayPal plan a coupon on link `token` needs (issue 30), or null when PayPal does not charge
 * the link, the coupon is already applied (the same code again: nothing to make), the discounted
 * amount is nothing (PayPal's free cycle takes no sale to record) or the plan has no PayPal product.
 * Checked with a preview (the same 400s); nothing written.
 */
export async function paypalCouponTarget(
  w: UnitOfWork,
  token: { id: number; subscriptionId: number; paymentId: number; planId: number },
  code: string,
): Promise<PayPalCouponTarget | null> {
  if ((await routeOf(w, token.id)) !== 'paypal') return null;
  const quote = await applyCouponToSubscription(w, {
    subscriptionId: token.subscriptionId,
    code,
    preview: true,
    paymentId: token.paymentId,
  });
  if (quote.applied) return null;
  const discountedCents = periodCents(quote);
  if (discountedCents <= 0) return null;
  const [plan] = await w.tx
    .select({ name: plans.name, productId: plans.paypalProductId, months: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, token.planId)));
  if (!plan?.productId) return null;
  return {
    subscriptionId: token.subscriptionId,
    paymentId: token.paymentId,
    code: quote.code,
    productId: plan.productId,
    name: plan.name,
    intervalMonths: plan.months,
    fullCents: toCents(quote.fullAmount),
    discountedCents,
    periods: quote.periodsLeft,
  };
}

/**
 * The PayPal plan a new payment link for `paymentId` needs (issue 30, `PaymentToken/create`): the
 * payment is unpaid and discounted by the subscription's coupon (`coupon_redemption_id`, e.g. a
 * coupon given on Create), its plan is on PayPal (plan and product) with an active PayPal row;
 * from this payment on, the coupon's periods left at its discounted net to pay, then the full one.
 * Null otherwise (the link is routed as before). Checked, nothing written.
 */
export async function paypalCouponTargetOfPayment(
  w: UnitOfWork,
  paymentId: number,
): Promise<PayPalCouponTarget | null> {
  const payment = await findPayment(w, paymentId);
  if (!payment || payment.paidAt !== null || payment.couponRedemptionId === null) return null;
  const sub = await findSubscription(w, payment.subscriptionId);
  if (!sub) return null;
  const [plan] = await w.tx
    .select({
      name: plans.name,
      paypalPlanId: plans.paypalPlanId,
      productId: plans.paypalProductId,
      months: plans.recurrenceType,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  if (!plan?.paypalPlanId || !plan.productId) return null;
  const [paypal] = await w.tx
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.tenantId, w.tenantId),
        eq(paymentProviders.kind, 'paypal'),
        eq(paymentProviders.isActive, true),
      ),
    )
    .limit(1);
  if (!paypal) return null;
  const quote = await couponQuoteOfSubscription(w, sub);
  if (!quote || quote.periodsLeft === 0) return null;
  const discountedCents = toCents(quote.amount);
  if (discountedCents <= 0 || discountedCents !== payment.amountDueCents) return null;
  return {
    subscriptionId: sub.id,
    paymentId,
    code: quote.code,
    productId: plan.productId,
    name: plan.name,
    intervalMonths: plan.months,
    fullCents: toCents(quote.fullAmount),
    discountedCents,
    periods: quote.periodsLeft,
  };
}

/**
 * The coupon's own PayPal plan (issue 30): PayPal's plan override on a subscription must adhere to
 * the plan's cycles (one REGULAR cycle here), so N discounted periods then the full price need a
 * plan of their own: a TRIAL cycle of N periods at the discounted net to pay, then the REGULAR one
 * at the full net to pay (forever: a REGULAR cycle at the discounted one). Keyed by PayPal-Request-Id
 * (tenant, subscription, payment, code, amounts, periods): a retry makes no second plan. Outside
 * any transaction; a failure throws (502) before Rinnova changes anything.
 */
export async function couponPlanAtPayPal(
  deps: Pick<ProviderDeps, 'providers'>,
  tenantId: number,
  t: PayPalCouponTarget,
): Promise<string> {
  const { adapter } = await deps.providers.paypal(tenantId);
  return adapter.createPlan({
    productId: t.productId,
    name: `${t.name} (coupon ${t.code})`,
    priceCents: t.fullCents,
    intervalMonths: t.intervalMonths,
    discount: { priceCents: t.discountedCents, periods: t.periods },
    // A digest keeps the key short whatever the code's length (PayPal-Request-Id has a limit).
    idempotencyKey: `rnv-coupon-plan-${createHash('sha256')
      .update(
        [
          tenantId,
          t.subscriptionId,
          t.paymentId,
          t.code,
          t.discountedCents,
          t.fullCents,
          t.periods ?? 'sempre',
          ...(t.forPlanId !== undefined ? [`piano ${t.forPlanId}`] : []),
        ].join('|'),
      )
      .digest('hex')
      .slice(0, 32)}`,
  });
}

export const paypalCouponRefused =
  'Con questo coupon il pagamento non si può fare con PayPal: chiedi all’azienda un link di pagamento con carta o il bonifico.';

/**
 * Where a discounted link is paid. A link PayPal charges asks the coupon's PayPal plan made for it
 * (`plan`, when the applied quote still asks what it was made for); the card stays offered where
 * Stripe is. Without such a plan, a PayPal link moves to Stripe when the plan is on an active
 * Stripe; otherwise the coupon is refused (409, the unit rolls back): PayPal's plan would charge
 * the full price.
 */
async function routeDiscountedLink(
  w: UnitOfWork,
  tokenId: number,
  planId: number,
  plan: PayPalCouponPlan | null,
  quote: CouponQuote,
): Promise<void> {
  if ((await routeOf(w, tokenId)) !== 'paypal') return;
  if (
    plan &&
    plan.discountedCents === periodCents(quote) &&
    plan.fullCents === toCents(quote.fullAmount) &&
    plan.periods === quote.periodsLeft
  ) {
    await w.tx
      .update(paymentTokens)
      .set({ providerPlanId: plan.planId })
      .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
    return;
  }
  const [row] = await w.tx
    .select({ stripePlanId: plans.stripePlanId, paypalPlanId: plans.paypalPlanId })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, planId)));
  const [token] = await w.tx
    .select({ providerPlanId: paymentTokens.providerPlanId })
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
  // The same code again on a link already asking its coupon's PayPal plan: nothing to move.
  if (token && token.providerPlanId !== row?.paypalPlanId) return;
  const [stripe] = await w.tx
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.tenantId, w.tenantId),
        eq(paymentProviders.kind, 'stripe'),
        eq(paymentProviders.isActive, true),
      ),
    )
    .orderBy(asc(paymentProviders.id))
    .limit(1);
  if (!row?.stripePlanId || !stripe) throw new HttpError(409, paypalCouponRefused);
  await w.tx
    .update(paymentTokens)
    .set({ paymentProviderId: stripe.id, providerPlanId: row.stripePlanId })
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
}
