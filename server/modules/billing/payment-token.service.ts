/**
 * Payment tokens: the public payment link of one unpaid payment (spec §3, §4). A token is 256
 * random bits, shown once and stored only as its SHA-256; it lives one hour; a new link for the
 * same payment retires the older ones.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, lte, notLike } from 'drizzle-orm';
import { messages, serverMessages } from '../../../contract/messages';
import { fromCents, fromPercentHundredths } from '../../../contract/money';
import {
  PAYMENT_TOKEN_LIFETIME_MS,
  PaymentTokenStatus,
  type PaymentTokenStatusId,
  type PaymentTokenView,
} from '../../../contract/schemas/payment';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { tokenOfTenant } from '../../db/tenancy/public-home';
import {
  oneOffCharges,
  paymentProviders,
  paymentTokens,
  payments,
  planChanges,
  planFeatures,
  plans,
  subscriptions,
  tenants,
} from '../../db/schema';
import { listPriceOf } from '../../db/fiscal-profiles';
import { creditUsedBy } from '../../db/credits';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findPayment, findSubscription } from './billing.repository';
import { ensureRenewalPayment, formatEur } from './subscription.service';
import { couponQuoteOfSubscription, quoteWithCredit } from './coupon-apply.service';

export const paymentMessages = {
  linkOnlyNotActive: 'Il link di pagamento si crea solo per una sottoscrizione non attiva.',
  alreadyPaid: 'Questo pagamento risulta già pagato.',
  planNotOnPaypal: (plan: string) =>
    `Il piano «${plan}» non è ancora su PayPal: aprilo in «Gestisci piani di abbonamento» e usa «Sincronizza con PayPal».`,
  priceDiffers: (due: string, paypal: string) =>
    `L’importo di questa sottoscrizione (${due}) è diverso dal prezzo del piano su PayPal (${paypal}): PayPal addebiterebbe ${paypal}. Usa il bonifico, oppure sincronizza il piano con questo prezzo.`,
  paypalStatusInvalid: (status: string) =>
    `La sottoscrizione PayPal non risulta approvata (stato: ${status}).`,
  paypalOtherPlan: 'La sottoscrizione PayPal è di un altro piano.',
  /** Issue 30: a PayPal renewal that took another amount than the one asked (history and webhook detail). */
  takenDiffers: (taken: string, asked: string, from: string) =>
    `PayPal ha addebitato ${taken} invece di ${asked} per il rinnovo dal ${from} (per esempio il cliente non ha ancora approvato su PayPal il nuovo piano): il pagamento registra l’importo incassato e la fattura non viene emessa finché l’importo non è chiarito.`,
  planNotOnStripe: (plan: string) =>
    `Il piano «${plan}» non è ancora su Stripe: aprilo in «Gestisci piani di abbonamento» e usa «Sincronizza con Stripe».`,
  paypalIdTaken: 'Questa sottoscrizione PayPal è già collegata a un altro pagamento.',
  paid: 'Pagamento registrato: la sottoscrizione è attiva.',
  pending: messages.payment.paypalPending,
  linkCreated: 'Link di pagamento creato.',
  extraOnlyLive: 'Il link per questo pagamento si crea solo per una sottoscrizione attiva.',
  extraNeedsStripe:
    'Per pagare online questo importo serve Stripe (pagamento con carta): collegalo in «Metodi di pagamento», oppure chiedi un bonifico.',
  extraChargedByStripe:
    'Questo pagamento lo addebita Stripe sulla carta della sottoscrizione: non serve un link.',
} as const;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface CreatedLink {
  tokenId: number;
  /** The token itself: returned once, never stored. */
  token: string;
  expiresAt: Date;
}

/**
 * How a payment of `amountDueCents` for the tenant's plan `planId` can be paid: the provider's plan
 * id and the provider row (PayPal when its plan charges exactly that amount, else Stripe when the
 * plan is on Stripe), or the 409 that says why it cannot be paid online. 404 for another tenant's plan.
 */
export async function paymentRouteOf(
  uow: UnitOfWork,
  planId: number,
  amountDueCents: number,
  /** A coupon's own PayPal plan made for this payment (issue 30): PayPal charges `amountCents` first. */
  couponPlan?: { planId: string; amountCents: number } | null,
): Promise<{ providerPlanId: string; providerId: number | null }> {
  const [plan] = await uow.tx
    .select({
      name: plans.name,
      paypalPlanId: plans.paypalPlanId,
      paypalPriceCents: plans.paypalPriceCents,
      stripePlanId: plans.stripePlanId,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, uow.tenantId), eq(plans.id, planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  const active = await uow.tx
    .select({ id: paymentProviders.id, kind: paymentProviders.kind })
    .from(paymentProviders)
    .where(and(eq(paymentProviders.tenantId, uow.tenantId), eq(paymentProviders.isActive, true)))
    .orderBy(asc(paymentProviders.id));
  const paypalRow = active.find((p) => p.kind === 'paypal');
  const stripeRow = active.find((p) => p.kind === 'stripe');
  // Stripe beside PayPal (issue 16): a plan on Stripe can be paid by card; Stripe's price is
  // checked against the amount when the customer opens the checkout.
  const stripeOk = stripeRow !== undefined && plan.stripePlanId !== null;
  // PayPal charges what its plan says: a link for another amount would charge the wrong sum.
  const paypalPrice = plan.paypalPriceCents ?? (await listPriceOf(uow.tx, uow.tenantId, plan));
  // A discounted payment: the coupon's PayPal plan charges the discounted amount first.
  if (couponPlan && paypalRow && plan.paypalPlanId !== null && couponPlan.amountCents === amountDueCents)
    return { providerPlanId: couponPlan.planId, providerId: paypalRow.id };
  const paypalOk = plan.paypalPlanId !== null && paypalPrice === amountDueCents;
  if (!paypalOk && !stripeOk) {
    if (!plan.paypalPlanId) {
      throw new HttpError(
        409,
        stripeRow && !paypalRow
          ? paymentMessages.planNotOnStripe(plan.name)
          : paymentMessages.planNotOnPaypal(plan.name),
      );
    }
    throw new HttpError(409, paymentMessages.priceDiffers(formatEur(amountDueCents), formatEur(paypalPrice)));
  }
  const provider = paypalOk ? (paypalRow ?? stripeRow) : stripeRow;
  return {
    providerPlanId: paypalOk ? plan.paypalPlanId! : plan.stripePlanId!,
    providerId: provider?.id ?? null,
  };
}

/** A payment that is not a period's: a one-off charge's or a plan change's proration (issue 30). */
export function isExtraPayment(p: { oneOffChargeId: number | null; planChangeId: number | null }): boolean {
  return p.oneOffChargeId !== null || p.planChangeId !== null;
}

/** The provider-plan marker of an extra payment's token: no plan, a one-amount card payment. */
export const EXTRA_PAYMENT_PLAN = 'rinnova-one-off';

/**
 * How an extra payment is paid online: by card in a payment-mode Stripe Checkout, so the tenant
 * needs an active Stripe. PayPal cannot: its subscriptions charge a plan's price and Rinnova has no
 * PayPal Orders flow (a one-amount order) yet. A payment Stripe already charges on the
 * subscription's card (method 'stripe') needs no link.
 */
async function extraPaymentRoute(
  uow: UnitOfWork,
  payment: { method: string | null },
): Promise<{ providerPlanId: string; providerId: number | null }> {
  if (payment.method === 'stripe') throw new HttpError(409, paymentMessages.extraChargedByStripe);
  const [stripeRow] = await uow.tx
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.tenantId, uow.tenantId),
        eq(paymentProviders.isActive, true),
        eq(paymentProviders.kind, 'stripe'),
      ),
    )
    .orderBy(asc(paymentProviders.id))
    .limit(1);
  if (!stripeRow) throw new HttpError(409, paymentMessages.extraNeedsStripe);
  return { providerPlanId: EXTRA_PAYMENT_PLAN, providerId: stripeRow.id };
}

/**
 * A new payment link for `paymentId` (of the unit's tenant): its subscription must be NotActive
 * (or ActiveNoRenewal), the payment unpaid, the plan on PayPal at the payment's amount or on
 * Stripe; an extra payment (a one-off charge's, a proration's: issue 30) of a live subscription
 * needs the tenant's Stripe instead (`extraPaymentRoute`). Older active links of the same
 * payment are retired (Expired). 404 for a payment of another tenant. `options.token`: the link's
 * token when the caller derives it (the plan widget's confirmation, so that opening its link again
 * leads to the same page); 256 random bits otherwise.
 */
export async function createPaymentLink(
  uow: UnitOfWork,
  paymentId: number,
  options: { token?: string; paypalCouponPlan?: { planId: string; amountCents: number } | null } = {},
): Promise<CreatedLink> {
  const payment = await findPayment(uow, paymentId, { lock: true });
  if (!payment) throw new HttpError(404, serverMessages.notFound);
  const sub = await findSubscription(uow, payment.subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const extra = isExtraPayment(payment);
  if (extra) {
    // A payment that is not a period's (issue 30): a live subscription's one-off charge or
    // proration, paid once by card in a payment-mode Stripe Checkout (`createStripeCheckout`).
    if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
      throw new HttpError(409, paymentMessages.extraOnlyLive);
  } else if (
    // NotActive (the first payment), or ActiveNoRenewal (the next period's payment of a renewal
    // reminder: paying it with PayPal turns on automatic renewal).
    sub.status !== SubscriptionStatus.NotActive &&
    sub.status !== SubscriptionStatus.ActiveNoRenewal
  )
    throw new HttpError(409, paymentMessages.linkOnlyNotActive);
  if (payment.paidAt !== null) throw new HttpError(409, paymentMessages.alreadyPaid);
  const { providerPlanId, providerId } = extra
    ? await extraPaymentRoute(uow, payment)
    : await paymentRouteOf(uow, sub.planId, payment.amountDueCents, options.paypalCouponPlan);

  await uow.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Expired })
    .where(
      and(
        eq(paymentTokens.tenantId, uow.tenantId),
        eq(paymentTokens.paymentId, payment.id),
        eq(paymentTokens.status, PaymentTokenStatus.Active),
      ),
    );
  const token = options.token ?? tokenOfTenant(uow.tenantId, randomBytes(32).toString('base64url'));
  const expiresAt = new Date(uow.now.getTime() + PAYMENT_TOKEN_LIFETIME_MS);
  const [row] = await uow.tx
    .insert(paymentTokens)
    .values({
      tenantId: uow.tenantId,
      tokenHash: hashToken(token),
      paymentId: payment.id,
      subscriptionId: sub.id,
      userId: sub.userId,
      planId: sub.planId,
      amountCents: payment.amountDueCents,
      paymentProviderId: providerId,
      providerPlanId,
      expiresAt,
      createdAt: uow.now,
    })
    .returning({ id: paymentTokens.id });
  if (!row) throw new Error('payment token insert returned no row');
  return { tokenId: row.id, token, expiresAt };
}

/**
 * The renewal reminder's link (issue 10): the payment of the period of `subscriptionId` that starts
 * at `periodStart` (its next billing date), made now if it does not exist yet (same amount due, a
 * new causale, period to the next anchor date counted from the start), and a fresh link for it. Written in
 * the reminder's unit of work; no network call.
 */
export async function createRenewalPaymentLink(
  uow: UnitOfWork,
  input: { subscriptionId: number; periodStart: Date },
): Promise<CreatedLink> {
  const sub = await findSubscription(uow, input.subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const payment = await ensureRenewalPayment(uow, sub, input.periodStart);
  const paymentId = payment.id;
  return createPaymentLink(uow, paymentId);
}

export interface TokenRow {
  id: number;
  tenantId: number;
  paymentId: number;
  subscriptionId: number;
  userId: number;
  planId: number;
  amountCents: number;
  paymentProviderId: number | null;
  providerPlanId: string;
  status: PaymentTokenStatusId;
  expiresAt: Date;
  providerSubscriptionId: string | null;
}

/** The columns of a TokenRow. */
export const tokenRowColumns = {
  id: paymentTokens.id,
  tenantId: paymentTokens.tenantId,
  paymentId: paymentTokens.paymentId,
  subscriptionId: paymentTokens.subscriptionId,
  userId: paymentTokens.userId,
  planId: paymentTokens.planId,
  amountCents: paymentTokens.amountCents,
  paymentProviderId: paymentTokens.paymentProviderId,
  providerPlanId: paymentTokens.providerPlanId,
  status: paymentTokens.status,
  expiresAt: paymentTokens.expiresAt,
  providerSubscriptionId: paymentTokens.providerSubscriptionId,
};

/** The token row of `token` (any tenant: the hash is unique), or undefined. */
export async function findToken(db: Database, token: string): Promise<TokenRow | undefined> {
  const [row] = await db
    .select(tokenRowColumns)
    .from(paymentTokens)
    .where(eq(paymentTokens.tokenHash, hashToken(token)));
  return row as TokenRow | undefined;
}

export function isUsable(row: Pick<TokenRow, 'status' | 'expiresAt'>, now: Date): boolean {
  return row.status === PaymentTokenStatus.Active && row.expiresAt.getTime() > now.getTime();
}

/** The token object while Active and unexpired, else null (spec §7 'validate'). */
export async function validatePaymentToken(
  db: Database,
  token: string,
  now: Date,
): Promise<PaymentTokenView | null> {
  const row = await findToken(db, token);
  if (!row || !isUsable(row, now)) return null;
  const [extra] = await db
    .select({
      tenantName: tenants.name,
      planName: plans.name,
      recurrence: plans.recurrenceType,
      cost: subscriptions.costBeforeVatCents,
      vat: subscriptions.vatHundredths,
      subscriptionUserId: subscriptions.userId,
    })
    .from(subscriptions)
    .innerJoin(tenants, eq(tenants.id, subscriptions.tenantId))
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(subscriptions.tenantId, row.tenantId), eq(subscriptions.id, row.subscriptionId)));
  if (!extra) return null;
  const features = await db
    .select({ name: planFeatures.featureName })
    .from(planFeatures)
    .where(and(eq(planFeatures.tenantId, row.tenantId), eq(planFeatures.planId, row.planId)))
    .orderBy(asc(planFeatures.id));
  const recurrence = extra.recurrence as RecurrenceTypeId;
  // A coupon on the subscription (issue 30): the page shows its line, the total and its periods,
  // and the residual credit the link's payment sets off (its `amount` is what the link asks).
  const subscriptionCoupon = await couponQuoteOfSubscription(
    { tenantId: row.tenantId, tx: db },
    {
      id: row.subscriptionId,
      userId: extra.subscriptionUserId,
      planId: row.planId,
      costBeforeVatCents: extra.cost,
      vatHundredths: extra.vat,
    },
  );
  const [linkPayment] = subscriptionCoupon
    ? await db
        .select({ id: payments.id, paidAt: payments.paidAt, redemptionId: payments.couponRedemptionId })
        .from(payments)
        .where(and(eq(payments.tenantId, row.tenantId), eq(payments.id, row.paymentId)))
    : [];
  // The residual credit the link's payment sets off, read once for the coupon's quote and the page.
  const creditCents = await creditUsedBy({ tenantId: row.tenantId, tx: db }, row.paymentId);
  const coupon =
    subscriptionCoupon && linkPayment?.redemptionId && linkPayment.paidAt === null
      ? quoteWithCredit(subscriptionCoupon, creditCents)
      : subscriptionCoupon;
  const [provider] =
    row.paymentProviderId === null
      ? []
      : await db
          .select({ kind: paymentProviders.kind })
          .from(paymentProviders)
          .where(
            and(eq(paymentProviders.tenantId, row.tenantId), eq(paymentProviders.id, row.paymentProviderId)),
          );
  return {
    id: row.id,
    token,
    expiryDate: row.expiresAt.toISOString(),
    status: row.status,
    userId: row.userId,
    planId: row.planId,
    amount: fromCents(row.amountCents),
    currency: 'EUR',
    paymentId: row.paymentId,
    selectedPaymentProviderId: row.paymentProviderId,
    tenantID: row.tenantId,
    paymentProviderPlanId: row.providerPlanId,
    providerSubscriptionId: row.providerSubscriptionId,
    tenantName: extra.tenantName,
    plan: {
      name: extra.planName,
      recurrenceType: recurrence,
      recurrenceTypeName: recurrenceTypeNames[recurrence],
      features: features.map((f) => f.name),
    },
    costBeforeVAT: fromCents(extra.cost),
    vatPercentage: fromPercentHundredths(extra.vat),
    coupon,
    extra: row.providerPlanId === EXTRA_PAYMENT_PLAN ? await extraOfPayment(db, row) : null,
    paymentProviderKind: provider?.kind === 'paypal' || provider?.kind === 'stripe' ? provider.kind : null,
    // A period payment that sets off a residual credit (a renewal link, with or without a coupon).
    ...(creditCents > 0 ? { creditUsed: fromCents(creditCents) } : {}),
  };
}

/** What an extra payment's link pays (issue 30): the one-off charge's description or the new plan's name. */
async function extraOfPayment(
  db: Database,
  row: Pick<TokenRow, 'tenantId' | 'paymentId'>,
): Promise<PaymentTokenView['extra']> {
  const [p] = await db
    .select({ charge: oneOffCharges.description, plan: plans.name, planChangeId: payments.planChangeId })
    .from(payments)
    .leftJoin(
      oneOffCharges,
      and(eq(oneOffCharges.tenantId, payments.tenantId), eq(oneOffCharges.id, payments.oneOffChargeId)),
    )
    .leftJoin(
      planChanges,
      and(eq(planChanges.tenantId, payments.tenantId), eq(planChanges.id, payments.planChangeId)),
    )
    .leftJoin(plans, and(eq(plans.tenantId, payments.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(and(eq(payments.tenantId, row.tenantId), eq(payments.id, row.paymentId)));
  if (!p) return null;
  if (p.charge !== null) return { kind: 'oneOff', description: p.charge };
  return { kind: 'proration', description: p.plan ?? '' };
}

/**
 * The job's call (issue 10): every Active token whose hour has passed becomes Expired. Answers how
 * many. Runs in the caller's unit of work, for its tenant.
 */
export async function expirePaymentTokens(uow: UnitOfWork): Promise<number> {
  const rows = await uow.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Expired })
    .where(
      and(
        eq(paymentTokens.tenantId, uow.tenantId),
        eq(paymentTokens.status, PaymentTokenStatus.Active),
        lte(paymentTokens.expiresAt, uow.now),
      ),
    )
    .returning({ id: paymentTokens.id });
  return rows.length;
}

/**
 * Tenants whose PayPal the sync job may call: an active PayPal provider with real credentials (the
 * demo's placeholder row, `SEGNAPOSTO-…`, would only fail every night).
 */
export async function tenantsWithLivePaypal(
  db: Database,
  kind: 'paypal' | 'stripe' = 'paypal',
): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: paymentProviders.tenantId })
    .from(paymentProviders)
    .where(
      and(
        eq(paymentProviders.kind, kind),
        eq(paymentProviders.isActive, true),
        notLike(paymentProviders.apiKey, 'SEGNAPOSTO%'),
      ),
    )
    .orderBy(asc(paymentProviders.tenantId));
  return rows.map((r) => r.id);
}
