/**
 * Stripe through the official `stripe` package, pointed at the provider row's `apiUrl`
 * (https://api.stripe.com for sandbox and live alike: the key decides; a loopback fake in tests)
 * by host, port and protocol, its sockets from the outbound door (lib/outbound). No automatic retries (a failure is reported, nothing changes);
 * every Stripe error becomes a `ProviderError` with an Italian message. Webhook signatures are
 * checked offline with the signing secret (`stripe.webhooks.constructEvent` on the raw body).
 */
import Stripe from 'stripe';
import type { Outbound } from '../lib/outbound';
import { isStripeBillingPortalUrl, isStripeCheckoutUrl } from '../lib/outbound/provider-hosts';
import {
  ProviderError,
  type PaymentProviderAdapter,
  type ProviderErrorKind,
  type ProviderPlanInput,
  type ProviderSubscription,
  type WebhookDelivery,
} from './payment-provider';

export interface StripeCredentials {
  apiUrl: string;
  /** sk_…: decrypted here only, never logged or returned. */
  secretKey: string;
  /** whsec_…: decrypted here only; null when the tenant has not set it (webhooks then refused). */
  webhookSecret: string | null;
}

export interface StripeCheckoutInput {
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  clientReferenceId: string;
  metadata: Record<string, string>;
  customerEmail?: string | null;
  /**
   * An existing Stripe customer (`createCustomer`) the subscription bills instead of one Checkout
   * makes from `customerEmail` (Stripe takes one of the two): its credit balance applies to the
   * subscription's first invoice (issue 30).
   */
  customerId?: string | null;
  /** When the session stops accepting payment (Stripe wants 30 minutes to 24 hours from now). */
  expiresAt?: Date;
  /** A Rinnova coupon (issue 30): the Stripe coupon (`createCoupon`) the subscription starts with. */
  couponId?: string | null;
}

/**
 * A Stripe coupon for one redemption of a Rinnova coupon (issue 30): always an amount in cents
 * (Rinnova's discounted net to pay subtracted from the full one, so Stripe charges exactly what the
 * Italian document asks, VAT and rounding included), for 'once', 'forever' or 'repeating' months.
 */
export interface StripeCouponInput {
  amountOffCents: number;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths?: number | null;
  name: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface StripeCheckoutSession {
  id: string;
  url: string | null;
  /** open, complete, expired. */
  status: string | null;
  /** paid, unpaid, no_payment_required. */
  paymentStatus: string;
  mode: string;
  subscriptionId: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  /** Seconds since the epoch. */
  created: number;
  /** What the session charges in cents (a payment-mode session's one amount), null when unknown. */
  amountTotal: number | null;
  /** A payment-mode session's PaymentIntent (pi_…), once paid; null otherwise. */
  paymentIntentId: string | null;
}

/**
 * A Checkout Session in `payment` mode (issue 30): one amount paid once by card, for a payment
 * that is not a period's (a one-off charge, a plan change's proration). No subscription at Stripe.
 */
export interface StripePaymentCheckoutInput {
  amountCents: number;
  /** The line's name on Stripe's page and receipt. */
  name: string;
  successUrl: string;
  cancelUrl: string;
  clientReferenceId: string;
  metadata: Record<string, string>;
  customerEmail?: string | null;
  expiresAt?: Date;
  idempotencyKey: string;
}

export interface StripePrice {
  id: string;
  productId: string;
  unitAmount: number | null;
  currency: string;
  /** Months per period (a yearly price counts 12), null for a one-off price. */
  intervalMonths: number | null;
  active: boolean;
}

export interface StripeWebhookEvent {
  id: string;
  type: string;
  created: number;
  object: Record<string, unknown>;
}

export interface StripeAdapter extends PaymentProviderAdapter {
  readonly kind: 'stripe';
  getPrice(id: string): Promise<StripePrice>;
  createCheckoutSession(input: StripeCheckoutInput): Promise<{ id: string; url: string }>;
  /** A payment-mode Checkout Session of one amount (`StripePaymentCheckoutInput`), keyed. */
  createPaymentCheckoutSession(input: StripePaymentCheckoutInput): Promise<{ id: string; url: string }>;
  getCheckoutSession(id: string): Promise<StripeCheckoutSession>;
  /**
   * Expires an open Checkout Session (issue 30: its payment was withdrawn), so it can no longer be
   * paid: 'expired'; a session Stripe says is no longer open (complete, already expired) or does
   * not know answers its state ('complete' | 'expired' | 'unknown') instead of failing.
   */
  expireCheckoutSession(id: string): Promise<'expired' | 'complete' | 'unknown'>;
  /**
   * Refunds all a completed Checkout Session took (issue 30: paid on a withdrawn payment): a
   * payment-mode session's PaymentIntent, a subscription-mode session's first invoice's payment;
   * keyed, so a retry refunds once. Answers the refund (null when Stripe took nothing).
   */
  refundCheckoutSession(input: {
    sessionId: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ refundId: string; amountCents: number } | null>;
  /** The Stripe customer (cus_…) a subscription bills, or null. */
  customerOf(subscriptionId: string): Promise<string | null>;
  /**
   * A billing portal session for the customer (`POST /v1/billing_portal/sessions`): the page where
   * they change the card, see Stripe's invoices or cancel; `returnUrl` is where its back link leads.
   */
  createBillingPortalSession(input: {
    customerId: string;
    returnUrl: string;
  }): Promise<{ id: string; url: string }>;
  /**
   * A one-off charge of the subscription's customer (a plan change's proration, issue 30): an
   * invoice item of `amountCents`, an invoice carrying `metadata` (Rinnova's payment id) that takes
   * it, paid at once with the customer's default method. Every call keyed by `idempotencyKey`, so a
   * retry charges once. Its `invoice.paid` webhook (with the metadata) records the payment.
   */
  chargeOnce(input: {
    subscriptionId: string;
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ invoiceId: string; status: string }>;
  /**
   * An invoice item on the subscription (`POST /v1/invoiceitems` with `subscription`): Stripe adds
   * it to that subscription's next invoice (a one-off charge 'Con il prossimo pagamento', issue
   * 30). Keyed by `idempotencyKey`; answers the item's id.
   */
  addToNextInvoice(input: {
    subscriptionId: string;
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<string>;
  /**
   * A credit on the subscription's customer's invoice balance (`POST
   * /v1/customers/{id}/balance_transactions` with a negative amount): Stripe applies it to the
   * customer's next finalized invoices (the renewal's), which ask that much less (a plan change's
   * residual credit, issue 30). Keyed by `idempotencyKey`; answers the balance transaction's id.
   */
  creditCustomerBalance(input: {
    subscriptionId: string;
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<string>;
  /**
   * Deletes the subscription's customer's pending invoice items whose metadata has `match`
   * (`GET /v1/invoiceitems?customer&pending=true`, `DELETE /v1/invoiceitems/{id}`); answers how many.
   */
  removeFromNextInvoice(subscriptionId: string, match: Record<string, string>): Promise<number>;
  /**
   * A customer (`POST /v1/customers`) with an invoice balance of `balanceCents` (negative: a
   * credit Stripe applies to the next invoice it finalizes for the customer), keyed by
   * `idempotencyKey`; answers its id (issue 30: a payment's residual credit beside a coupon).
   */
  createCustomer(input: {
    email: string | null;
    balanceCents: number;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<string>;
  /** A coupon (`POST /v1/coupons`), keyed by `idempotencyKey`; answers its id. */
  createCoupon(input: StripeCouponInput): Promise<string>;
  /** The subscription's discount from its next invoice on (`discounts: [{coupon}]`), keyed. */
  setSubscriptionCoupon(id: string, couponId: string, idempotencyKey: string): Promise<void>;
  /** The subscription without a discount from its next invoice on (`discounts: ''`), keyed. */
  removeSubscriptionCoupon(id: string, idempotencyKey: string): Promise<void>;
  /** The verified event, or null when the signature (or the secret) does not match the raw body. */
  parseWebhook(rawBody: Buffer | string, signature: string | undefined): StripeWebhookEvent | null;
}

export interface StripeOptions {
  timeoutMs: number;
  /** The door of the calls: the package's HTTP agent comes from it (lib/outbound). */
  outbound: Outbound;
  /** A Checkout (billing portal) URL is accepted only on Stripe's Checkout (billing) host (production). */
  checkoutHostPinned: boolean;
}

/** Stripe's subscription statuses in the words the rest of Rinnova uses (PayPal's). */
export const STRIPE_STATUS: Record<string, string> = {
  active: 'ACTIVE',
  trialing: 'ACTIVE',
  // Stripe is still retrying the charge (issue 29): Rinnova's collection ladder decides, the
  // subscription stays as it is (no such status in PROVIDER_STATUS: ignored).
  past_due: 'PAST_DUE',
  unpaid: 'SUSPENDED',
  paused: 'SUSPENDED',
  canceled: 'CANCELLED',
  incomplete_expired: 'EXPIRED',
  incomplete: 'APPROVAL_PENDING',
};

function errorOf(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as { type?: string; statusCode?: number; code?: string; message?: string };
  const status = typeof e.statusCode === 'number' ? e.statusCode : null;
  const code = e.code ?? e.type ?? null;
  let kind: ProviderErrorKind;
  if (e.type === 'StripeConnectionError') kind = /timeout/i.test(e.message ?? '') ? 'timeout' : 'network';
  else if (status === 401 || status === 403 || e.type === 'StripeAuthenticationError') kind = 'unauthorized';
  else if (status === 404 || e.code === 'resource_missing') kind = 'notFound';
  else if (status === 400 || status === 402 || status === 409 || status === 422) kind = 'unprocessable';
  else if (status !== null && status >= 500) kind = 'server';
  else if (e.type === 'StripeAPIError') kind = 'server';
  else kind = 'invalid';
  return new ProviderError(kind, status, code, 'stripe');
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw errorOf(error);
  }
}

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && 'id' in value
      ? String((value as { id: unknown }).id)
      : null;

export function createStripeAdapter(credentials: StripeCredentials, options: StripeOptions): StripeAdapter {
  const url = new URL(credentials.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(credentials.secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    timeout: options.timeoutMs,
    // Every socket from the outbound door, checked at connect time; no redirects are followed.
    httpAgent: protocol === 'http' ? options.outbound.agents.http : options.outbound.agents.https,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'Rinnova' },
  });

  function priceView(price: Stripe.Price): StripePrice {
    const recurring = price.recurring;
    return {
      id: price.id,
      productId: idOf(price.product) ?? '',
      unitAmount: price.unit_amount,
      currency: price.currency,
      intervalMonths: recurring
        ? recurring.interval === 'year'
          ? 12 * recurring.interval_count
          : recurring.interval === 'month'
            ? recurring.interval_count
            : null
        : null,
      active: price.active,
    };
  }

  const adapter: StripeAdapter = {
    kind: 'stripe',
    async getSubscription(id): Promise<ProviderSubscription> {
      const sub = await call(() => stripe.subscriptions.retrieve(id));
      if (typeof sub?.id !== 'string' || typeof sub.status !== 'string')
        throw new ProviderError('invalid', null, null, 'stripe');
      return {
        id: sub.id,
        status: STRIPE_STATUS[sub.status] ?? sub.status.toUpperCase(),
        planId: idOf(sub.items?.data?.[0]?.price) ?? null,
      };
    },
    async cancelSubscription(id) {
      await call(() => stripe.subscriptions.cancel(id));
    },
    async stopRenewal(id) {
      await call(() => stripe.subscriptions.update(id, { cancel_at_period_end: true }));
    },
    async resumeRenewal(id) {
      await call(() => stripe.subscriptions.update(id, { cancel_at_period_end: false }));
    },
    async pauseCollection(id, { resumesAt, idempotencyKey }) {
      await call(() =>
        stripe.subscriptions.update(
          id,
          { pause_collection: { behavior: 'void', resumes_at: Math.floor(resumesAt.getTime() / 1000) } },
          { idempotencyKey },
        ),
      );
    },
    async resumeCollection(id, { idempotencyKey }) {
      // An empty string unsets the field: collection resumes at the next period of the subscription.
      await call(() => stripe.subscriptions.update(id, { pause_collection: '' }, { idempotencyKey }));
    },
    async changePlan(id, { providerPlanId, idempotencyKey, nextChargeAt }) {
      const sub = await call(() => stripe.subscriptions.retrieve(id));
      const item = sub?.items?.data?.[0];
      if (typeof item?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      if (idOf(item.price) === providerPlanId) return;
      await call(() =>
        stripe.subscriptions.update(
          id,
          {
            items: [{ id: item.id, price: providerPlanId }],
            proration_behavior: 'none',
            // A change between recurrences (issue 30): nothing charged until the new billing date.
            ...(nextChargeAt ? { trial_end: Math.floor(nextChargeAt.getTime() / 1000) } : {}),
          },
          { idempotencyKey },
        ),
      );
    },
    async chargeOnce({ subscriptionId, amountCents, description, metadata, idempotencyKey }) {
      const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId));
      const customer = idOf(sub?.customer);
      if (!customer) throw new ProviderError('invalid', null, null, 'stripe');
      await call(() =>
        stripe.invoiceItems.create(
          { customer, amount: amountCents, currency: 'eur', description, metadata },
          { idempotencyKey: `${idempotencyKey}-item` },
        ),
      );
      const invoice = await call(() =>
        stripe.invoices.create(
          {
            customer,
            collection_method: 'charge_automatically',
            auto_advance: false,
            pending_invoice_items_behavior: 'include',
            description,
            metadata,
          },
          { idempotencyKey: `${idempotencyKey}-invoice` },
        ),
      );
      if (typeof invoice?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      const paid = await call(() =>
        stripe.invoices.pay(invoice.id, {}, { idempotencyKey: `${idempotencyKey}-pay` }),
      );
      return { invoiceId: invoice.id, status: String(paid?.status ?? 'open') };
    },
    async addToNextInvoice({ subscriptionId, amountCents, description, metadata, idempotencyKey }) {
      const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId));
      const customer = idOf(sub?.customer);
      if (!customer) throw new ProviderError('invalid', null, null, 'stripe');
      const item = await call(() =>
        stripe.invoiceItems.create(
          {
            customer,
            subscription: subscriptionId,
            amount: amountCents,
            currency: 'eur',
            description,
            metadata,
          },
          { idempotencyKey },
        ),
      );
      if (typeof item?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return item.id;
    },
    async creditCustomerBalance({ subscriptionId, amountCents, description, metadata, idempotencyKey }) {
      const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId));
      const customer = idOf(sub?.customer);
      if (!customer) throw new ProviderError('invalid', null, null, 'stripe');
      const txn = await call(() =>
        stripe.customers.createBalanceTransaction(
          customer,
          { amount: -amountCents, currency: 'eur', description, metadata },
          { idempotencyKey },
        ),
      );
      if (typeof txn?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return txn.id;
    },
    async removeFromNextInvoice(subscriptionId, match) {
      const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId));
      const customer = idOf(sub?.customer);
      if (!customer) throw new ProviderError('invalid', null, null, 'stripe');
      const list = await call(() => stripe.invoiceItems.list({ customer, pending: true, limit: 100 }));
      const doomed = (list?.data ?? []).filter((item) =>
        Object.entries(match).every(([k, v]) => item.metadata?.[k] === v),
      );
      for (const item of doomed) {
        try {
          await call(() => stripe.invoiceItems.del(item.id));
        } catch (error) {
          // Deleted meanwhile (a retry): done.
          if (!(error instanceof ProviderError && error.kind === 'notFound')) throw error;
        }
      }
      return doomed.length;
    },
    async customerOf(id) {
      const sub = await call(() => stripe.subscriptions.retrieve(id));
      if (typeof sub?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return idOf(sub.customer);
    },
    async createBillingPortalSession({ customerId, returnUrl }) {
      const session = await call(() =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl, locale: 'it' }),
      );
      if (typeof session?.id !== 'string' || typeof session.url !== 'string')
        throw new ProviderError('invalid', null, null, 'stripe');
      // The customer is sent there: only to Stripe's own billing portal.
      if (options.checkoutHostPinned && !isStripeBillingPortalUrl(session.url))
        throw new ProviderError('invalid', null, 'portal_url_not_stripe', 'stripe');
      return { id: session.id, url: session.url };
    },
    async verifyWebhook(delivery: WebhookDelivery) {
      const sig = delivery.headers['stripe-signature'];
      return (
        delivery.rawBody !== undefined &&
        adapter.parseWebhook(delivery.rawBody, Array.isArray(sig) ? sig[0] : sig) !== null
      );
    },
    async createProduct({ name, description }) {
      const product = await call(() =>
        stripe.products.create({
          name: name.slice(0, 250),
          ...(description ? { description: description.slice(0, 500) } : {}),
        }),
      );
      if (typeof product?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return product.id;
    },
    async createPlan(input: ProviderPlanInput) {
      const price = await call(() =>
        stripe.prices.create({
          product: input.productId,
          nickname: input.name.slice(0, 250),
          unit_amount: input.priceCents,
          currency: 'eur',
          recurring: { interval: 'month', interval_count: input.intervalMonths },
        }),
      );
      if (typeof price?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return price.id;
    },
    async createCoupon(input) {
      const coupon = await call(() =>
        stripe.coupons.create(
          {
            amount_off: input.amountOffCents,
            currency: 'eur',
            duration: input.duration,
            ...(input.duration === 'repeating' ? { duration_in_months: input.durationInMonths ?? 1 } : {}),
            name: input.name.slice(0, 40),
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (typeof coupon?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return coupon.id;
    },
    async createCustomer(input) {
      const customer = await call(() =>
        stripe.customers.create(
          {
            ...(input.email ? { email: input.email } : {}),
            balance: input.balanceCents,
            description: input.description.slice(0, 350),
            metadata: input.metadata,
            preferred_locales: ['it'],
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (typeof customer?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return customer.id;
    },
    async setSubscriptionCoupon(id, couponId, idempotencyKey) {
      await call(() =>
        stripe.subscriptions.update(
          id,
          { discounts: [{ coupon: couponId }], proration_behavior: 'none' },
          { idempotencyKey },
        ),
      );
    },
    async removeSubscriptionCoupon(id, idempotencyKey) {
      await call(() =>
        stripe.subscriptions.update(id, { discounts: '', proration_behavior: 'none' }, { idempotencyKey }),
      );
    },
    async getPrice(id) {
      const price = await call(() => stripe.prices.retrieve(id));
      if (typeof price?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return priceView(price);
    },
    async createCheckoutSession(input) {
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.clientReferenceId,
          metadata: input.metadata,
          subscription_data: { metadata: input.metadata },
          ...(input.couponId ? { discounts: [{ coupon: input.couponId }] } : {}),
          locale: 'it',
          ...(input.customerId
            ? { customer: input.customerId }
            : input.customerEmail
              ? { customer_email: input.customerEmail }
              : {}),
          ...(input.expiresAt ? { expires_at: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
        }),
      );
      if (typeof session?.id !== 'string' || typeof session.url !== 'string')
        throw new ProviderError('invalid', null, null, 'stripe');
      // The customer is sent there: only to Stripe's own Checkout.
      if (options.checkoutHostPinned && !isStripeCheckoutUrl(session.url))
        throw new ProviderError('invalid', null, 'checkout_url_not_stripe', 'stripe');
      return { id: session.id, url: session.url };
    },
    async createPaymentCheckoutSession(input) {
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                price_data: {
                  currency: 'eur',
                  unit_amount: input.amountCents,
                  product_data: { name: input.name },
                },
                quantity: 1,
              },
            ],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.clientReferenceId,
            metadata: input.metadata,
            payment_intent_data: { metadata: input.metadata, description: input.name },
            locale: 'it',
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
            ...(input.expiresAt ? { expires_at: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (typeof session?.id !== 'string' || typeof session.url !== 'string')
        throw new ProviderError('invalid', null, null, 'stripe');
      if (options.checkoutHostPinned && !isStripeCheckoutUrl(session.url))
        throw new ProviderError('invalid', null, 'checkout_url_not_stripe', 'stripe');
      return { id: session.id, url: session.url };
    },
    async getCheckoutSession(id) {
      const s = await call(() => stripe.checkout.sessions.retrieve(id));
      if (typeof s?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return {
        id: s.id,
        url: s.url ?? null,
        status: s.status ?? null,
        paymentStatus: s.payment_status,
        mode: s.mode,
        subscriptionId: idOf(s.subscription),
        clientReferenceId: s.client_reference_id ?? null,
        metadata: (s.metadata ?? {}) as Record<string, string>,
        created: s.created,
        amountTotal: typeof s.amount_total === 'number' ? s.amount_total : null,
        paymentIntentId: idOf(s.payment_intent),
      };
    },
    async expireCheckoutSession(id) {
      try {
        await call(() => stripe.checkout.sessions.expire(id));
        return 'expired';
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        if (error.kind === 'notFound') return 'unknown';
        if (error.kind !== 'unprocessable') throw error;
        // Only an open session can be expired: read what it is now.
        const now = await call(() => stripe.checkout.sessions.retrieve(id));
        if (now.status === 'complete') return 'complete';
        if (now.status === 'expired') return 'expired';
        throw error;
      }
    },
    async refundCheckoutSession({ sessionId, metadata, idempotencyKey }) {
      const s = await call(() => stripe.checkout.sessions.retrieve(sessionId));
      let paymentIntent: string | null = null;
      let charge: string | null = null;
      if (s.mode === 'payment') paymentIntent = idOf(s.payment_intent);
      else {
        // A subscription's first invoice: its paid payment (Stripe's InvoicePayment).
        const invoice = idOf(s.invoice);
        if (!invoice) return null;
        const paid = await call(() => stripe.invoicePayments.list({ invoice, status: 'paid', limit: 10 }));
        const first = paid.data.find((p) => (p.amount_paid ?? 0) > 0);
        if (!first) return null;
        paymentIntent = idOf(first.payment.payment_intent);
        charge = paymentIntent ? null : idOf(first.payment.charge);
      }
      if (!paymentIntent && !charge) return null;
      const refund = await call(() =>
        stripe.refunds.create(
          { ...(paymentIntent ? { payment_intent: paymentIntent } : { charge: charge! }), metadata },
          { idempotencyKey },
        ),
      );
      if (typeof refund?.id !== 'string') throw new ProviderError('invalid', null, null, 'stripe');
      return { refundId: refund.id, amountCents: refund.amount };
    },
    parseWebhook(rawBody, signature) {
      if (!credentials.webhookSecret || !signature) return null;
      try {
        const event = stripe.webhooks.constructEvent(rawBody, signature, credentials.webhookSecret);
        const object = (event.data as { object?: unknown } | undefined)?.object;
        if (typeof event.id !== 'string' || typeof event.type !== 'string' || !object) return null;
        return {
          id: event.id,
          type: event.type,
          created: event.created,
          object: object as unknown as Record<string, unknown>,
        };
      } catch {
        return null;
      }
    },
  };
  return adapter;
}
