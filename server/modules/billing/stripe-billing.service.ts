/**
 * What Stripe does to Rinnova's subscriptions, through the same paths as PayPal: the customer
 * pays by card in a Stripe Checkout Session (subscription mode) created here for the payment
 * token; back on `/payment/process` the server reads the session at Stripe and only then records
 * the payment (`recordTokenPayment`: token Used, payment paid, subscription Active, invoice, in
 * one unit of work). Webhooks (verified offline with the tenant's signing secret) are stored once
 * per event id. Every Stripe call happens before and outside the unit of work.
 */
import { prorationCharged } from './plan-change.provider';
import { providerChargeFailed } from './collection.service';
import { and, eq } from 'drizzle-orm';
import { paymentUrlOf } from '../../../contract/schemas/payment';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  oneOffCharges,
  paymentTokens,
  payments,
  planChanges,
  plans,
  subscriptions,
  users,
} from '../../db/schema';
import { receiveProviderEvent } from './provider-inbox';
import { HttpError } from '../../lib/http-error';
import { ProviderError } from '../../providers/payment-provider';
import { STRIPE_STATUS, type StripeAdapter, type StripeWebhookEvent } from '../../providers/stripe';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import { formatEur, subscriptionTermsWith } from './subscription.service';
import { appliedCouponOf } from './coupon-apply.service';
import { creditUsedBy } from './subscription-credit';
import type { Database } from '../../db/client';
import {
  applyProviderStatus,
  recordCharge,
  recordExtraTokenPayment,
  recordTokenPayment,
  subscriptionOfProviderId,
  tokenInvalid,
  type ProviderDeps,
  type WebhookOutcome,
} from './provider-payments';
import {
  EXTRA_PAYMENT_PLAN,
  findToken,
  isUsable,
  paymentMessages,
  tokenRowColumns,
  type TokenRow,
} from './payment-token.service';
import { planToSync } from './widget-and-plans.service';
import {
  alreadyPaidSessionPaid,
  recordCheckoutSession,
  idOf,
  str,
  withdrawnSessionPaid,
} from './stripe-withdrawn-checkout';

export const stripeMessages = {
  planNotOnStripe: (plan: string) =>
    `Il piano «${plan}» non è ancora su Stripe: aprilo in «Gestisci piani di abbonamento» e usa «Sincronizza con Stripe».`,
  priceDiffers: (due: string, stripe: string) =>
    `L’importo di questo pagamento (${due}) è diverso dal prezzo del piano su Stripe (${stripe}): sincronizza di nuovo il piano con Stripe.`,
  sessionUnknown: 'Stripe non conosce questa sessione di pagamento.',
  sessionNotPaid: 'Il pagamento con carta non risulta completato su Stripe.',
  subscriptionNotActive: (status: string) =>
    `La sottoscrizione Stripe non risulta attiva (stato: ${status}).`,
  otherPlan: 'La sottoscrizione Stripe è di un altro piano.',
  planSynced: 'Piano sincronizzato con Stripe.',
  checkoutCreated: 'Sessione di pagamento creata.',
} as const;

export interface StripeDeps extends ProviderDeps {
  publicUrl: () => string;
}

/** Stripe's smallest window for a Checkout Session is 30 minutes; one more for the round trip. */
const MIN_SESSION_MS = 31 * 60 * 1000;

/**
 * `POST api/Payment/stripe/checkout {token}` (public): a Checkout Session in subscription mode
 * for the token's payment at the plan's Stripe price (checked at Stripe: EUR, the token's amount,
 * the plan's months), answering the URL the customer is sent to. Only the session is
 * recorded (`recordCheckoutSession`: expired at Stripe if its payment is withdrawn).
 */
export async function createStripeCheckout(
  deps: StripeDeps,
  token: string,
): Promise<{ url: string; sessionId: string }> {
  const row = await findToken(deps.home.ofToken(token), token);
  if (!row || !isUsable(row, deps.uow.clock())) throw tokenInvalid();
  const { adapter } = await deps.providers.stripe(row.tenantId);
  const db = deps.connectionFor(row.tenantId);
  if (row.providerPlanId === EXTRA_PAYMENT_PLAN) return createExtraCheckout(deps, adapter, db, row, token);
  const [plan] = await db
    .select({ name: plans.name, stripePlanId: plans.stripePlanId, recurrence: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, row.tenantId), eq(plans.id, row.planId)));
  if (!plan) throw tokenInvalid();
  if (!plan.stripePlanId) throw new HttpError(409, stripeMessages.planNotOnStripe(plan.name));
  const price = await adapter.getPrice(plan.stripePlanId);
  // A plan change's residual credit set off on this period's payment (issue 30: a renewal link of
  // a subscription Stripe no longer renews): Stripe's price is the full amount and a 'once' coupon
  // takes off exactly the credit used, so Stripe's first invoice charges what the payment asks.
  const creditUsed = await creditUsedBy({ tenantId: row.tenantId, tx: db }, row.paymentId);
  // A discounted payment (issue 30): Stripe's price is the full amount and a Stripe coupon takes
  // off exactly the difference (before the credit), for as many periods as Rinnova's redemption
  // has left.
  const discount = await stripeDiscountOf(db, row, creditUsed);
  const listAmount = discount ? discount.fullCents : row.amountCents + creditUsed;
  if (
    price.currency.toLowerCase() !== 'eur' ||
    price.unitAmount !== listAmount ||
    price.intervalMonths !== plan.recurrence
  ) {
    throw new HttpError(
      409,
      stripeMessages.priceDiffers(
        formatEur(listAmount),
        price.unitAmount === null ? '?' : formatEur(price.unitAmount),
      ),
    );
  }
  const [customer] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
  // Both a coupon's discount and a credit (a Checkout Session takes one discount): on the coupon's
  // last period one 'once' coupon of the two; else the coupon as always and the credit as the
  // invoice balance of a Stripe customer made for this payment (keyed: one customer however many
  // sessions), which Stripe applies to the first invoice it finalizes, the subscription's first.
  const lastPeriod = discount !== null && discount.periodsLeft !== null && discount.periodsLeft <= 1;
  const balanceCustomer =
    discount && creditUsed > 0 && !lastPeriod
      ? await adapter.createCustomer({
          email: customer?.email ?? null,
          balanceCents: -creditUsed,
          description: 'Credito residuo di un cambio di piano',
          metadata: { rinnovaTenantId: String(row.tenantId), rinnovaPaymentId: String(row.paymentId) },
          idempotencyKey: `rnv-credit-customer-${row.tenantId}-${row.paymentId}-${creditUsed}`,
        })
      : null;
  const couponId = discount
    ? await adapter.createCoupon({
        amountOffCents: discount.amountOffCents + (lastPeriod ? creditUsed : 0),
        ...stripeCouponDuration(discount.periodsLeft, plan.recurrence),
        name: discount.code,
        metadata: {
          rinnovaTenantId: String(row.tenantId),
          rinnovaRedemptionId: String(discount.redemptionId),
        },
        idempotencyKey: `rnv-coupon-${row.tenantId}-${discount.redemptionId}-${row.paymentId}-${discount.amountOffCents}-${discount.periodsLeft ?? 'f'}${lastPeriod && creditUsed > 0 ? `-c${creditUsed}` : ''}`,
      })
    : creditUsed > 0
      ? await adapter.createCoupon({
          amountOffCents: creditUsed,
          duration: 'once',
          durationInMonths: null,
          name: 'Credito residuo',
          metadata: { rinnovaTenantId: String(row.tenantId), rinnovaPaymentId: String(row.paymentId) },
          idempotencyKey: `rnv-credit-coupon-${row.tenantId}-${row.paymentId}-${creditUsed}`,
        })
      : null;
  const now = deps.uow.clock().getTime();
  const base = deps.publicUrl().replace(/\/+$/, '');
  const session = await adapter.createCheckoutSession({
    priceId: price.id,
    successUrl: `${base}/payment/process?session_id={CHECKOUT_SESSION_ID}&tenant=${row.tenantId}`,
    cancelUrl: paymentUrlOf(base, token),
    clientReferenceId: `rnv-${row.tenantId}-${row.id}`,
    metadata: {
      rinnovaTenantId: String(row.tenantId),
      rinnovaTokenId: String(row.id),
      rinnovaPaymentId: String(row.paymentId),
    },
    customerEmail: customer?.email ?? null,
    customerId: balanceCustomer,
    expiresAt: new Date(Math.max(row.expiresAt.getTime(), now + MIN_SESSION_MS)),
    couponId,
  });
  // Recorded, so a withdrawal of the payment expires it at Stripe (issue 30).
  await recordCheckoutSession(deps, row, session.id, 'subscription');
  return { url: session.url, sessionId: session.id };
}

/**
 * An extra payment's checkout (issue 30: a one-off charge or a plan change's proration of a live
 * subscription, not a period's): a payment-mode session of the token's amount, checked against
 * the payment (unpaid, same amount), named after what it pays, with Rinnova's token and payment in
 * its metadata; keyed by the token, so two clicks make one session. Only the session is recorded.
 */
async function createExtraCheckout(
  deps: StripeDeps,
  adapter: StripeAdapter,
  db: Database,
  row: TokenRow,
  token: string,
): Promise<{ url: string; sessionId: string }> {
  const [p] = await db
    .select({
      amountDueCents: payments.amountDueCents,
      paidAt: payments.paidAt,
      charge: oneOffCharges.description,
      plan: plans.name,
    })
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
  if (!p || p.amountDueCents !== row.amountCents || p.amountDueCents <= 0) throw tokenInvalid();
  if (p.paidAt) throw new HttpError(409, paymentMessages.alreadyPaid);
  const [customer] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
  const now = deps.uow.clock().getTime();
  const base = deps.publicUrl().replace(/\/+$/, '');
  const name =
    p.charge !== null
      ? `Addebito una tantum: «${p.charge}»`
      : `Conguaglio cambio di piano${p.plan ? `: «${p.plan}»` : ''}`;
  const session = await adapter.createPaymentCheckoutSession({
    amountCents: row.amountCents,
    name: name.slice(0, 250),
    successUrl: `${base}/payment/process?session_id={CHECKOUT_SESSION_ID}&tenant=${row.tenantId}`,
    cancelUrl: paymentUrlOf(base, token),
    clientReferenceId: `rnv-${row.tenantId}-${row.id}`,
    metadata: {
      rinnovaTenantId: String(row.tenantId),
      rinnovaTokenId: String(row.id),
      rinnovaPaymentId: String(row.paymentId),
    },
    customerEmail: customer?.email ?? null,
    expiresAt: new Date(Math.max(row.expiresAt.getTime(), now + MIN_SESSION_MS)),
    idempotencyKey: `rinnova-extra-checkout-${row.tenantId}-${row.id}`,
  });
  await recordCheckoutSession(deps, row, session.id, 'payment');
  return { url: session.url, sessionId: session.id };
}

/**
 * The Stripe coupon's duration for `periodsLeft` periods of `months` months (issue 30). 'once' and
 * 'forever' are Stripe's own. N periods are 'repeating' for (N − 1) × months + 1 months: Stripe
 * discounts the invoices made before the discount's end, so the end falls strictly inside the
 * N-th period whatever the recurrence (a yearly plan's renewal never lands on the boundary), and
 * for a monthly plan it is N months, Stripe's documented N invoices.
 */
export function stripeCouponDuration(
  periodsLeft: number | null,
  months: number,
): { duration: 'once' | 'repeating' | 'forever'; durationInMonths: number | null } {
  if (periodsLeft === null) return { duration: 'forever', durationInMonths: null };
  if (periodsLeft <= 1) return { duration: 'once', durationInMonths: null };
  return { duration: 'repeating', durationInMonths: (periodsLeft - 1) * months + 1 };
}

/**
 * The discount a token's payment carries, as Stripe must apply it (the full net to pay less the
 * payment's amount before `creditUsed` was set off); null without one.
 */
async function stripeDiscountOf(db: Database, row: TokenRow, creditUsed: number) {
  const [p] = await db
    .select({ redemptionId: payments.couponRedemptionId })
    .from(payments)
    .where(and(eq(payments.tenantId, row.tenantId), eq(payments.id, row.paymentId)));
  if (!p?.redemptionId) return null;
  const [sub] = await db
    .select({
      userId: subscriptions.userId,
      planId: subscriptions.planId,
      costBeforeVatCents: subscriptions.costBeforeVatCents,
      vatHundredths: subscriptions.vatHundredths,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, row.tenantId), eq(subscriptions.id, row.subscriptionId)));
  const applied = await appliedCouponOf({ tenantId: row.tenantId, tx: db }, row.subscriptionId);
  if (!sub || !applied || applied.id !== p.redemptionId) return null;
  const { full } = await subscriptionTermsWith({ tenantId: row.tenantId, tx: db }, sub, null);
  const amountOffCents = full.netToPayCents - (row.amountCents + creditUsed);
  if (amountOffCents <= 0) return null;
  return {
    redemptionId: applied.id,
    code: applied.code,
    periodsLeft: applied.periodsLeft,
    fullCents: full.netToPayCents,
    amountOffCents,
  };
}

/** The token of a session's metadata, in the tenant whose Stripe created the session. */
async function tokenOfSession(
  deps: ProviderDeps,
  tenantId: number,
  metadata: Record<string, string>,
): Promise<TokenRow | undefined> {
  if (metadata.rinnovaTenantId !== String(tenantId)) return undefined;
  const tokenId = Number(metadata.rinnovaTokenId);
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0) return undefined;
  const [row] = await deps
    .connectionFor(tenantId)
    .select(tokenRowColumns)
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, tenantId), eq(paymentTokens.id, tokenId)));
  return row as TokenRow | undefined;
}

/**
 * `PUT api/Payment/stripe/confirm {sessionId, tenantId}` (public; `/payment/process` calls it): the
 * session read at the tenant's Stripe must be complete and paid, with an active subscription at
 * the plan's price, made for a token of this tenant; then the same unit of work as PayPal's
 * payment. The same session again answers 'replayed' and changes nothing.
 */
export async function confirmStripeCheckout(
  deps: ProviderDeps,
  input: { sessionId: string; tenantId: number },
): Promise<'paid' | 'replayed'> {
  const { adapter } = await deps.providers.stripe(input.tenantId);
  let session;
  try {
    session = await adapter.getCheckoutSession(input.sessionId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'notFound')
      throw new HttpError(400, stripeMessages.sessionUnknown);
    throw error;
  }
  const row = await tokenOfSession(deps, input.tenantId, session.metadata);
  if (!row) throw tokenInvalid();
  const lateOk = session.created * 1000 <= row.expiresAt.getTime();
  if (session.mode === 'payment') {
    // An extra payment paid once by card (issue 30): recorded as the webhook does, once.
    if (
      row.providerPlanId !== EXTRA_PAYMENT_PLAN ||
      session.status !== 'complete' ||
      session.paymentStatus !== 'paid'
    )
      throw new HttpError(400, stripeMessages.sessionNotPaid);
    return deps.uow.run({ tenantId: input.tenantId, actor: { kind: 'paymentToken', tokenId: row.id } }, (w) =>
      recordExtraTokenPayment(w, row, {
        sessionId: session.id,
        paymentIntentId: session.paymentIntentId,
        amountPaid: session.amountTotal,
        lateOk,
      }),
    );
  }
  const subscriptionId = session.subscriptionId;
  if (
    session.mode !== 'subscription' ||
    session.status !== 'complete' ||
    (session.paymentStatus !== 'paid' && session.paymentStatus !== 'no_payment_required') ||
    !subscriptionId
  )
    throw new HttpError(400, stripeMessages.sessionNotPaid);
  if (row.status === 1) {
    if (row.providerSubscriptionId === subscriptionId) return 'replayed';
    throw tokenInvalid();
  }
  const remote = await adapter.getSubscription(subscriptionId);
  if (remote.status !== 'ACTIVE')
    throw new HttpError(400, stripeMessages.subscriptionNotActive(remote.status));
  const [plan] = await deps
    .connectionFor(input.tenantId)
    .select({ stripePlanId: plans.stripePlanId })
    .from(plans)
    .where(and(eq(plans.tenantId, input.tenantId), eq(plans.id, row.planId)));
  if (!plan?.stripePlanId || remote.planId !== plan.stripePlanId)
    throw new HttpError(400, stripeMessages.otherPlan);
  // Started while the link was valid (lateOk): the customer has paid, even if the hour ran out at Stripe.
  return deps.uow.run({ tenantId: input.tenantId, actor: { kind: 'paymentToken', tokenId: row.id } }, (w) =>
    recordTokenPayment(w, row, subscriptionId, 'stripe', { lateOk, checkoutSessionId: session.id }),
  );
}

// ---- Webhooks

/** The subscription an invoice belongs to (`parent.subscription_details` since 2025, `subscription` before). */
function subscriptionOfInvoice(invoice: Record<string, unknown>): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  return idOf(parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
}

function resourceIdOf(event: StripeWebhookEvent): string | null {
  const o = event.object;
  if (event.type.startsWith('invoice.')) return subscriptionOfInvoice(o);
  if (event.type.startsWith('checkout.session.')) return idOf(o.subscription) ?? str(o.id);
  return str(o.id);
}

/**
 * A verified Stripe event, once per event id: claimed in `provider_webhook_events` (provider
 * 'stripe') in the same unit that applies it, so a second delivery (or two at once) does nothing.
 */
export async function applyStripeEvent(
  deps: ProviderDeps,
  tenantId: number,
  event: StripeWebhookEvent,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  // A completed checkout is the customer's own payment (the state machine's 'pay' is theirs),
  // confirmed by Stripe's signature instead of the return page: it acts as the payment link.
  const tokenId =
    event.type === 'checkout.session.completed'
      ? Number((event.object.metadata as Record<string, unknown> | undefined)?.rinnovaTokenId)
      : NaN;
  const actor =
    Number.isSafeInteger(tokenId) && tokenId > 0
      ? ({ kind: 'paymentToken', tokenId } as const)
      : ({ kind: 'provider', provider: 'stripe', eventId: event.id } as const);
  const resourceId = resourceIdOf(event);
  return receiveProviderEvent(
    deps.uow,
    tenantId,
    {
      provider: 'stripe',
      id: event.id,
      type: event.type,
      resourceId,
      payload: { id: event.id, type: event.type, created: event.created, object: event.object },
      actor,
    },
    (w) => handleStripeEvent(w, event, resourceId),
  );
}

async function handleStripeEvent(
  w: UnitOfWork,
  event: StripeWebhookEvent,
  providerId: string | null,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const o = event.object;
  switch (event.type) {
    case 'checkout.session.completed':
      return sessionCompleted(w, event);
    case 'invoice.paid':
    case 'invoice.payment_failed':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      break;
    default:
      return { outcome: 'unsupported', detail: null };
  }
  // A plan change's proration invoice (issue 30): its metadata names Rinnova's payment.
  const rinnovaPaymentId = Number((o.metadata as Record<string, unknown> | undefined)?.rinnovaPaymentId);
  if (event.type === 'invoice.paid' && Number.isSafeInteger(rinnovaPaymentId) && rinnovaPaymentId > 0) {
    const paidAt = (o.status_transitions as { paid_at?: unknown } | undefined)?.paid_at;
    return prorationCharged(w, rinnovaPaymentId, {
      invoiceId: str(o.id)?.slice(0, 200) ?? '',
      amountPaid: typeof o.amount_paid === 'number' ? o.amount_paid : null,
      paidAt: new Date((typeof paidAt === 'number' ? paidAt : event.created) * 1000),
    });
  }
  if (!providerId) return { outcome: 'ignored', detail: 'evento senza ID della sottoscrizione' };
  const subscriptionId = await subscriptionOfProviderId(w, providerId);
  if (subscriptionId === null) return { outcome: 'unknownSubscription', detail: providerId };
  const reason = `Stripe ${providerId}: ${event.type}`;
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    const status =
      event.type === 'customer.subscription.deleted' ? 'CANCELLED' : STRIPE_STATUS[str(o.status) ?? ''];
    if (!status) return { outcome: 'ignored', detail: `stato Stripe ${str(o.status) ?? '?'}` };
    const outcome = await applyProviderStatus(w, subscriptionId, status, reason);
    return { outcome, detail: `sottoscrizione ${subscriptionId}` };
  }
  if (event.type === 'invoice.payment_failed') {
    // Stripe could not charge the period (issue 29): the period's payment is overdue, the
    // subscription stays Active through the tenant's grace while Stripe retries; the dunning
    // job's ladder (or a later invoice.paid) decides the rest.
    const attempt = typeof o.attempt_count === 'number' ? ` (tentativo ${o.attempt_count})` : '';
    return providerChargeFailed(w, subscriptionId, providerId, {
      kind: 'stripe',
      note: `Stripe: addebito non riuscito${attempt}`,
    });
  }
  // A change between recurrences moves Stripe's next charge with `trial_end` (issue 30): Stripe may
  // close that update with an invoice of 0 ('subscription_update'). It pays no period: Rinnova
  // charged the change itself, so it is no renewal to record (it would move the billing date).
  if (o.billing_reason === 'subscription_update' && o.amount_paid === 0)
    return { outcome: 'ignored', detail: 'fattura Stripe a zero dell’aggiornamento della sottoscrizione' };
  // invoice.paid: a suspended subscription is active again, then the charge is recorded once.
  const sub = await findSubscription(w, subscriptionId);
  if (sub?.status === SubscriptionStatus.NotActive)
    await applyProviderStatus(w, subscriptionId, 'ACTIVE', reason);
  const paidSeconds = (o.status_transitions as { paid_at?: unknown } | undefined)?.paid_at;
  const amountPaid = typeof o.amount_paid === 'number' ? o.amount_paid : null;
  return recordCharge(w, subscriptionId, providerId, {
    kind: 'stripe',
    chargeId: str(o.id)?.slice(0, 200) ?? null,
    paidAt: new Date((typeof paidSeconds === 'number' ? paidSeconds : event.created) * 1000),
    note: amountPaid === null ? '' : ` (Stripe ha addebitato ${formatEur(amountPaid)})`,
    amountPaid,
  });
}

/**
 * checkout.session.completed: the customer paid, whether or not the browser came back to
 * `/payment/process`. The session's own data (signed by Stripe) says which token and which
 * subscription; the same unit as the return page, so whichever comes first records the payment
 * and the other finds it done. A refusal (token used for another subscription…) is stored as
 * 'ignored' with its reason.
 */
async function sessionCompleted(
  w: UnitOfWork,
  event: StripeWebhookEvent,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const o = event.object;
  const subscriptionId = idOf(o.subscription);
  const metadata = (o.metadata ?? {}) as Record<string, string>;
  if (str(o.mode) === 'payment') return extraSessionCompleted(w, event);
  if (str(o.mode) !== 'subscription' || !subscriptionId)
    return { outcome: 'ignored', detail: 'sessione senza sottoscrizione' };
  if (str(o.payment_status) !== 'paid' && str(o.payment_status) !== 'no_payment_required')
    return { outcome: 'ignored', detail: 'sessione non pagata' };
  if (metadata.rinnovaTenantId !== String(w.tenantId))
    return { outcome: 'ignored', detail: 'sessione di un altro tenant' };
  const tokenId = Number(metadata.rinnovaTokenId);
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0)
    return { outcome: 'ignored', detail: 'sessione senza token' };
  const [row] = await w.tx
    .select({
      id: paymentTokens.id,
      paymentId: paymentTokens.paymentId,
      subscriptionId: paymentTokens.subscriptionId,
      expiresAt: paymentTokens.expiresAt,
    })
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
  // Its payment withdrawn (issue 30): refunded after commit, nothing recorded as paid.
  if (!row)
    return (
      (await withdrawnSessionPaid(w, event, 'subscription')) ?? {
        outcome: 'ignored',
        detail: `token ${tokenId} sconosciuto`,
      }
    );
  // Its payment paid another way meanwhile (issue 30): refunded after commit, nothing recorded twice.
  const alreadyPaid = await alreadyPaidSessionPaid(w, event, 'subscription', row);
  if (alreadyPaid) return alreadyPaid;
  const created = typeof o.created === 'number' ? o.created : event.created;
  const sessionId = str(o.id);
  try {
    const result = await recordTokenPayment(w, row, subscriptionId, 'stripe', {
      lateOk: created * 1000 <= row.expiresAt.getTime(),
      ...(sessionId ? { checkoutSessionId: sessionId } : {}),
    });
    return {
      outcome: result === 'paid' ? 'applied' : 'unchanged',
      detail: `sottoscrizione ${row.subscriptionId}`,
    };
  } catch (error) {
    if (error instanceof HttpError) return { outcome: 'ignored', detail: error.message };
    throw error;
  }
}

/**
 * checkout.session.completed of a payment-mode session (issue 30): an extra payment paid by card,
 * recorded once (`recordExtraTokenPayment`) whether the return page or this webhook comes first.
 */
async function extraSessionCompleted(
  w: UnitOfWork,
  event: StripeWebhookEvent,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const o = event.object;
  const metadata = (o.metadata ?? {}) as Record<string, string>;
  if (str(o.payment_status) !== 'paid') return { outcome: 'ignored', detail: 'sessione non pagata' };
  if (metadata.rinnovaTenantId !== String(w.tenantId))
    return { outcome: 'ignored', detail: 'sessione di un altro tenant' };
  const tokenId = Number(metadata.rinnovaTokenId);
  const sessionId = str(o.id);
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0 || !sessionId)
    return { outcome: 'ignored', detail: 'sessione senza token' };
  const [row] = await w.tx
    .select(tokenRowColumns)
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, tokenId)));
  if (!row) {
    const withdrawn = await withdrawnSessionPaid(w, event, 'payment');
    if (withdrawn) return withdrawn;
  }
  if (!row || row.providerPlanId !== EXTRA_PAYMENT_PLAN)
    return { outcome: 'ignored', detail: `token ${tokenId} sconosciuto` };
  const alreadyPaid = await alreadyPaidSessionPaid(w, event, 'payment', row);
  if (alreadyPaid) return alreadyPaid;
  const created = typeof o.created === 'number' ? o.created : event.created;
  try {
    const result = await recordExtraTokenPayment(w, row, {
      sessionId,
      paymentIntentId: idOf(o.payment_intent),
      amountPaid: typeof o.amount_total === 'number' ? o.amount_total : null,
      lateOk: created * 1000 <= row.expiresAt.getTime(),
    });
    return {
      outcome: result === 'paid' ? 'applied' : 'unchanged',
      detail: `pagamento ${row.paymentId} con carta`,
    };
  } catch (error) {
    if (error instanceof HttpError) return { outcome: 'ignored', detail: error.message };
    throw error;
  }
}

/**
 * 'Sincronizza con Stripe' on a plan: the Stripe product (reused from the plan's current price
 * when it has one) and a recurring price of `recurrence` months at the list price in EUR (listPriceOf);
 * stores the price id as `stripePlanId`. The Stripe calls come first; if one fails nothing is stored.
 */
export async function syncPlanWithStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planId: number,
  /** The caller's unit of work, where the ids are recorded once Stripe has answered. */
  inUnit: (work: (w: UnitOfWork) => Promise<void>) => Promise<void>,
): Promise<{ stripePlanId: string; stripeProductId: string }> {
  const db = deps.connectionFor(tenantId);
  const plan = await planToSync(db, tenantId, planId);
  const { adapter } = await deps.providers.stripe(tenantId);
  const priceCents = plan.priceCents;
  let productId: string | null = null;
  if (plan.stripePlanId) {
    try {
      productId = (await adapter.getPrice(plan.stripePlanId)).productId || null;
    } catch (error) {
      // A price deleted at Stripe (or of another account): a new product then.
      if (!(error instanceof ProviderError && error.kind === 'notFound')) throw error;
    }
  }
  productId ??= await adapter.createProduct({
    name: plan.name,
    description: `${plan.tenantName}: ${plan.name}`,
  });
  const stripePlanId = await adapter.createPlan({
    productId,
    name: `${plan.name} (${recurrenceTypeNames[plan.recurrence as RecurrenceTypeId]})`,
    priceCents,
    intervalMonths: plan.recurrence,
  });
  await inUnit(async (w) => {
    await w.tx
      .update(plans)
      .set({ stripePlanId, updatedAt: w.now })
      .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, planId)));
  });
  return { stripePlanId, stripeProductId: productId };
}
