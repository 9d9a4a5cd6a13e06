/**
 * A fake Stripe API on loopback, for tests and for trying the card flow without a Stripe account
 * (`STRIPE_FAKE=true npm run dev`). It answers the calls the `stripe` package makes for Rinnova
 * (products, prices, customers with an invoice balance, Checkout Sessions (with a coupon, with a
 * customer whose balance the first invoice takes; expired, after which they cannot be paid),
 * subscriptions read, update (cancel_at_period_end) and cancel, invoice payments listed, refunds of
 * a PaymentIntent), keeps everything in memory
 * with states tests can change, fails on demand (timeout, 401, 404, 500, 503), signs webhook
 * deliveries with a tenant's signing secret as Stripe does (`Stripe-Signature`, t=…,v1=…), and
 * serves a tiny stand-in of Stripe Checkout (`/checkout/{sessionId}`): its button completes the
 * session (a new active subscription) and redirects to the session's success URL. It never talks
 * to the internet.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export type FakeStripeFailure = 'timeout' | 401 | 404 | 500 | 503;

export interface FakeStripeSubscription {
  id: string;
  object: 'subscription';
  status: string;
  /** The Stripe customer the subscription bills (a Checkout makes one per subscription here). */
  customer: string;
  /** Set by an update ('Disattiva il rinnovo', 'Passa al bonifico'): the subscription ends when its period does. */
  cancel_at_period_end: boolean;
  /** A pause of collection (issue 30): invoices voided until `resumes_at` (Unix seconds); null when collecting. */
  pause_collection: { behavior: string; resumes_at: number | null } | null;
  items: { object: 'list'; data: { id: string; price: { id: string } }[] };
  metadata: Record<string, string>;
  created: number;
  /** A coupon (issue 30): from the Checkout's `discounts` or an update's; `start` in seconds. */
  discount: { coupon: FakeStripeCoupon; start: number; fromCycle: number } | null;
  /** Invoices made so far (the Checkout's is the first): the next renewal is cycle `cycles + 1`. */
  cycles: number;
}

/** A coupon (`POST /v1/coupons`, issue 30). */
export interface FakeStripeCoupon {
  id: string;
  object: 'coupon';
  amount_off: number | null;
  percent_off: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
  name: string | null;
  metadata: Record<string, string>;
}

/** A subscription's price changed by `POST /v1/subscriptions/{id}` with items[0][price]. */
export interface FakeStripeUpdate {
  subscriptionId: string;
  price: string;
  prorationBehavior: string | null;
  idempotencyKey: string | null;
  /** `trial_end` (seconds) sent with it: a change between recurrences moves the billing date. */
  trialEnd: number | null;
}

/** A one-off invoice (a plan change's proration, issue 30): its items, paid at `pay`. */
export interface FakeStripeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid';
  amount_due: number;
  amount_paid: number;
  currency: 'eur';
  description: string | null;
  metadata: Record<string, string>;
  lines: { object: 'list'; data: { amount: number; description: string }[] };
  created: number;
}

export interface FakeStripePortalSession {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  locale: string | null;
  url: string;
  created: number;
}

export interface FakeStripeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  subscription: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  customer_email: string | null;
  expires_at: number | null;
  created: number;
  priceId: string;
  /** `discounts[0][coupon]`: the coupon the subscription starts with. */
  couponId: string | null;
  /** A payment-mode session's one amount (cents); null for a subscription session. */
  amount_total: number | null;
  /** A payment-mode session's PaymentIntent, set when paid. */
  payment_intent: string | null;
  /** `customer`: an existing customer the subscription bills (its balance applies to the first invoice). */
  customer: string | null;
  /** A subscription-mode session's first invoice, once complete; null otherwise. */
  invoice: string | null;
}

/** A refund (`POST /v1/refunds`, issue 30): of a PaymentIntent, whole. */
export interface FakeStripeRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  currency: 'eur';
  status: 'succeeded';
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}

/** A customer made by `POST /v1/customers` (issue 30); its invoice balance lives in `balances`. */
export interface FakeStripeCustomer {
  id: string;
  object: 'customer';
  email: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeStripePrice {
  id: string;
  object: 'price';
  product: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: string; interval_count: number } | null;
  active: boolean;
  nickname: string | null;
}

export interface FakeStripeBalanceTransaction {
  id: string;
  object: 'customer_balance_transaction';
  customer: string;
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  ending_balance: number;
}

export interface FakeStripe {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly subscriptions: Map<string, FakeStripeSubscription>;
  readonly sessions: Map<string, FakeStripeSession>;
  readonly prices: Map<string, FakeStripePrice>;
  readonly products: Map<string, { id: string; name: string }>;
  /** Billing portal sessions created (`POST /v1/billing_portal/sessions`), by id. */
  readonly portalSessions: Map<string, FakeStripePortalSession>;
  /** API calls received, in order ('POST /v1/checkout/sessions', 'GET /v1/subscriptions/sub_…'). */
  readonly calls: string[];
  /** Price changes of subscriptions (a plan change, issue 30), in order. */
  readonly updates: FakeStripeUpdate[];
  /** One-off invoices (`POST /v1/invoices`, paid by `POST /v1/invoices/{id}/pay`), by id. */
  readonly invoices: Map<string, FakeStripeInvoice>;
  /** Customer balance transactions created (issue 30: a plan change's residual credit), in order. */
  readonly balanceTransactions: FakeStripeBalanceTransaction[];
  /** Each customer's invoice balance (negative: a credit), applied to its next invoices. */
  readonly balances: Map<string, number>;
  /** Coupons created (issue 30), by id. */
  readonly coupons: Map<string, FakeStripeCoupon>;
  /** Customers made by `POST /v1/customers` (a Checkout's own customers are not listed), by id. */
  readonly customers: Map<string, FakeStripeCustomer>;
  /** Refunds made (issue 30: a Checkout paid on a withdrawn payment), in order. */
  readonly refunds: FakeStripeRefund[];
  /**
   * What Stripe charges for cycle `cycle` (1 = the Checkout's) of the subscription: its price's
   * unit amount less its coupon while the coupon applies (once: the first invoice after it was
   * set; repeating: invoices made before start + duration_in_months; forever: all), never below 0.
   */
  amountOfCycle(subscriptionId: string, cycle: number): number;
  /**
   * The next renewal invoice of the subscription, paid (cycle + 1, amount by `amountOfCycle`): the
   * object an `invoice.paid` event carries (`id`, `amount_paid`, `subscription`, `status_transitions`).
   * `at`: when Stripe makes it (the test's moved clock), seconds.
   */
  renew(subscriptionId: string, at: Date): Record<string, unknown>;
  /**
   * The Checkout's own invoice (cycle 1, made and paid when the subscription started: the same
   * invoice however often asked), as `renew` answers one. A customer given to the session with a
   * credit balance has it applied to this invoice, as Stripe applies a balance to the next invoice
   * it finalizes.
   */
  checkoutInvoice(subscriptionId: string): Record<string, unknown>;
  /** An active subscription of `priceId` (what a paid Checkout creates), of `customer` or a new one; returns its id. */
  subscribe(priceId: string, metadata?: Record<string, string>, customer?: string | null): string;
  /**
   * The customer paid the session: a new active subscription; answers the subscription id. A
   * payment-mode session (issue 30) is paid once instead: answers its PaymentIntent id. An expired
   * session (`POST /v1/checkout/sessions/{id}/expire`) cannot be paid: throws.
   */
  completeSession(sessionId: string): string;
  setStatus(id: string, status: string): void;
  /** The next `times` calls whose "METHOD path" starts with `prefix` fail that way. */
  failNext(prefix: string, failure: FakeStripeFailure, times?: number): void;
  clearFailures(): void;
  /** An event of `type` about `object`, with a fresh id, as Stripe sends it. */
  event(type: string, object: Record<string, unknown>): Record<string, unknown>;
  /** Headers and body of a delivery of `event` signed with `secret` (`tamper`: with another). */
  signWebhook(
    event: Record<string, unknown>,
    secret: string,
    options?: { tamper?: boolean },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** `a[b][0][c]=v` form fields (how the `stripe` package encodes bodies) as nested objects. */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startFakeStripe(
  options: {
    port?: number;
    host?: string;
    /** Where the sessions' `url` points (tests: Stripe's own Checkout host); default this fake. */
    checkoutBaseUrl?: string;
    /** Where billing portal sessions' `url` points (tests: Stripe's billing host); default this fake. */
    portalBaseUrl?: string;
    /** Stripe's clock (tests: the moved clock), for `created` and a coupon's months; default now. */
    now?: () => Date;
  } = {},
): Promise<FakeStripe> {
  const nowSeconds = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const subscriptions = new Map<string, FakeStripeSubscription>();
  const sessions = new Map<string, FakeStripeSession>();
  const prices = new Map<string, FakeStripePrice>();
  const products = new Map<string, { id: string; name: string }>();
  const portalSessions = new Map<string, FakeStripePortalSession>();
  const calls: string[] = [];
  const updates: FakeStripeUpdate[] = [];
  const invoices = new Map<string, FakeStripeInvoice>();
  const coupons = new Map<string, FakeStripeCoupon>();
  const balanceTransactions: FakeStripeBalanceTransaction[] = [];
  const balances = new Map<string, number>();
  const customers = new Map<string, FakeStripeCustomer>();
  const refunds: FakeStripeRefund[] = [];
  /** The PaymentIntent that paid each invoice Stripe charged (made when first asked). */
  const invoiceIntents = new Map<string, string>();
  /** Each subscription's first invoice (the Checkout's), made once. */
  const firstInvoices = new Map<string, ReturnType<typeof invoiceOf>>();
  const customerExists = (id: string) =>
    customers.has(id) || [...subscriptions.values()].some((sub) => sub.customer === id);
  /** The customer's credit taken by an invoice of `amount` (Stripe: applied at finalization). */
  const applyBalance = (customer: string, amount: number) => {
    const credit = Math.max(0, -(balances.get(customer) ?? 0));
    const used = Math.min(credit, Math.max(0, amount));
    if (used > 0) balances.set(customer, (balances.get(customer) ?? 0) + used);
    return used;
  };
  /** Invoice items not yet invoiced; one with `subscription` waits for that subscription's next invoice. */
  const pendingItems: {
    id: string;
    customer: string;
    subscription: string | null;
    amount: number;
    description: string;
    metadata: Record<string, string>;
  }[] = [];
  /** What a keyed POST answered: the same key answers the same again (Stripe's idempotency). */
  const keyed = new Map<string, { status: number; body: unknown }>();
  const failures: { prefix: string; failure: FakeStripeFailure; times: number }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const signer = new Stripe('sk_test_fake_signer');

  const send = (res: http.ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const stripeError = (
    res: http.ServerResponse,
    status: number,
    type: string,
    message: string,
    code?: string,
  ) => send(res, status, { error: { type, message, ...(code ? { code } : {}) } });

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (data += chunk));
      req.on('end', () => resolve(data));
    });

  function checkoutPage(session: FakeStripeSession): string {
    const price = prices.get(session.priceId);
    const coupon = session.couponId ? coupons.get(session.couponId) : undefined;
    // A subscription's first invoice: the price less the coupon less the given customer's credit.
    const credit = session.customer ? Math.max(0, -(balances.get(session.customer) ?? 0)) : 0;
    const first =
      session.amount_total !== null
        ? session.amount_total
        : price
          ? Math.max(0, discounted(price.unit_amount, coupon ?? null) - credit)
          : null;
    const amount = first !== null ? (first / 100).toFixed(2).replace('.', ',') : '?';
    return `<!doctype html><html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Stripe Checkout (finto)</title></head>
<body style="font:16px system-ui,sans-serif;background:#f6f9fc;margin:0;padding:32px 16px">
<main style="max-width:420px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 8px rgba(0,0,0,.08)">
<h1 style="font-size:20px;margin:0 0 8px">Stripe Checkout (finto)</h1>
<p data-testid="fake-checkout-amount">€ ${escapeHtml(amount)}</p>
<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay">
<button type="submit" style="width:100%;min-height:44px;border:0;border-radius:6px;background:#635bff;color:#fff;font:600 16px system-ui,sans-serif">Paga con carta</button>
</form>
<p><a href="${escapeHtml(session.cancel_url)}">Annulla</a></p>
</main></body></html>`;
  }

  function discounted(amount: number, coupon: FakeStripeCoupon | null): number {
    if (!coupon) return amount;
    const off =
      coupon.amount_off !== null ? coupon.amount_off : Math.round((amount * (coupon.percent_off ?? 0)) / 100);
    return Math.max(0, amount - off);
  }

  /** Whether the subscription's coupon applies to the invoice of `cycle`, made at `at` (seconds). */
  function couponApplies(sub: FakeStripeSubscription, cycle: number, at: number): boolean {
    const d = sub.discount;
    if (!d || cycle < d.fromCycle) return false;
    if (d.coupon.duration === 'forever') return true;
    if (d.coupon.duration === 'once') return cycle === d.fromCycle;
    const end = new Date(d.start * 1000);
    end.setUTCMonth(end.getUTCMonth() + (d.coupon.duration_in_months ?? 0));
    return at < end.getTime() / 1000;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);

    // The Checkout stand-in, opened by the customer's browser.
    const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
    if (page) {
      const session = sessions.get(decodeURIComponent(page[1]!));
      if (!session) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('Sessione sconosciuta');
      }
      if (session.status === 'expired') {
        res.writeHead(410, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('Sessione scaduta: non si può più pagare');
      }
      if (method === 'GET' && !page[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(checkoutPage(session));
      }
      if (method === 'POST' && page[2]) {
        if (session.status === 'open') api.completeSession(session.id);
        res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
        return void res.end();
      }
    }

    // The billing portal stand-in, opened by the customer's browser: a link back to the return URL.
    const portalPage = /^\/p\/session\/([^/]+)$/.exec(path);
    if (method === 'GET' && portalPage) {
      const portal = portalSessions.get(decodeURIComponent(portalPage[1]!));
      res.writeHead(portal ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(
        portal
          ? `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Portale clienti Stripe (finto)</title></head><body style="font:16px system-ui,sans-serif;padding:32px 16px"><h1 style="font-size:20px">Portale clienti Stripe (finto)</h1><p>Cliente ${escapeHtml(portal.customer)}</p>${portal.return_url ? `<p><a href="${escapeHtml(portal.return_url)}">Torna al sito</a></p>` : ''}</body></html>`
          : 'Sessione sconosciuta',
      );
    }

    const line = `${method} ${path}`;
    calls.push(line);
    const failure = failures.find((f) => line.startsWith(f.prefix) && f.times > 0);
    if (failure) {
      failure.times--;
      if (failure.failure === 'timeout') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return; // never answers: the client's timeout fires
      }
      const type =
        failure.failure === 401
          ? 'authentication_error'
          : failure.failure === 404
            ? 'invalid_request_error'
            : 'api_error';
      return stripeError(res, failure.failure, type, 'failure on demand');
    }
    if (!/^Bearer sk_/.test(String(req.headers.authorization ?? '')))
      return stripeError(res, 401, 'authentication_error', 'Invalid API Key provided');

    const body = parseStripeForm(raw);
    const str = (v: unknown) => (typeof v === 'string' ? v : '');

    // Idempotency-Key: a keyed POST seen before answers what it answered then.
    const key = method === 'POST' ? String(req.headers['idempotency-key'] ?? '') : '';
    if (key && keyed.has(key)) {
      const seen = keyed.get(key)!;
      return send(res, seen.status, seen.body);
    }
    const answer = (status: number, value: unknown) => {
      if (key) keyed.set(key, { status, body: value });
      return send(res, status, value);
    };
    // A customer's invoice balance (issue 30): a negative amount is a credit for its next invoices.
    const balanceMatch = /^\/v1\/customers\/([^/]+)\/balance_transactions$/.exec(path);
    if (method === 'POST' && balanceMatch) {
      const customer = decodeURIComponent(balanceMatch[1]!);
      if (!customerExists(customer))
        return stripeError(
          res,
          404,
          'invalid_request_error',
          `No such customer: '${customer}'`,
          'resource_missing',
        );
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount === 0)
        return stripeError(res, 400, 'invalid_request_error', 'Invalid amount');
      const ending = (balances.get(customer) ?? 0) + amount;
      balances.set(customer, ending);
      const txn: FakeStripeBalanceTransaction = {
        id: newId('cbtxn'),
        object: 'customer_balance_transaction',
        customer,
        amount,
        currency: str(body.currency),
        description: str(body.description) || null,
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        ending_balance: ending,
      };
      balanceTransactions.push(txn);
      return answer(200, txn);
    }
    // A customer made beforehand (issue 30), optionally with an invoice balance (negative: a credit).
    if (method === 'POST' && path === '/v1/customers') {
      const balance = body.balance === undefined ? 0 : Number(body.balance);
      if (!Number.isInteger(balance))
        return stripeError(res, 400, 'invalid_request_error', 'Invalid integer: balance');
      const customer: FakeStripeCustomer = {
        id: newId('cus'),
        object: 'customer',
        email: str(body.email) || null,
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        created: nowSeconds(),
      };
      customers.set(customer.id, customer);
      if (balance !== 0) balances.set(customer.id, balance);
      return answer(200, { ...customer, balance });
    }
    // One-off invoices (issue 30): items pending on a customer, an invoice taking them, paid.
    if (method === 'POST' && path === '/v1/invoiceitems') {
      const item = {
        id: newId('ii'),
        customer: str(body.customer),
        subscription: str(body.subscription) || null,
        amount: Number(body.amount),
        description: str(body.description),
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      };
      pendingItems.push(item);
      return answer(200, { object: 'invoiceitem', ...item, currency: str(body.currency) });
    }
    if (method === 'GET' && path === '/v1/invoiceitems') {
      const q = new URL(req.url ?? '/', 'http://fake').searchParams;
      const customer = q.get('customer') ?? '';
      const data = pendingItems
        .filter((i) => i.customer === customer)
        .map((i) => ({ object: 'invoiceitem', ...i, currency: 'eur' }));
      return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/invoiceitems' });
    }
    const itemMatch = /^\/v1\/invoiceitems\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && itemMatch) {
      const id = decodeURIComponent(itemMatch[1]!);
      const at = pendingItems.findIndex((i) => i.id === id);
      if (at < 0)
        return stripeError(res, 404, 'invalid_request_error', 'No such invoiceitem', 'resource_missing');
      pendingItems.splice(at, 1);
      return send(res, 200, { id, object: 'invoiceitem', deleted: true });
    }
    if (method === 'POST' && path === '/v1/invoices') {
      const customer = str(body.customer);
      const taken = (i: (typeof pendingItems)[number]) => i.customer === customer && i.subscription === null;
      const items = pendingItems.filter(taken);
      pendingItems.splice(0, pendingItems.length, ...pendingItems.filter((i) => !taken(i)));
      const total = items.reduce((a, i) => a + i.amount, 0);
      const invoice: FakeStripeInvoice = {
        id: newId('in'),
        object: 'invoice',
        customer,
        status: 'draft',
        // Stripe applies the customer's credit balance to the invoice when it is finalized.
        amount_due: total - applyBalance(customer, total),
        amount_paid: 0,
        currency: 'eur',
        description: str(body.description) || null,
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        lines: { object: 'list', data: items.map((i) => ({ amount: i.amount, description: i.description })) },
        created: nowSeconds(),
      };
      invoices.set(invoice.id, invoice);
      return answer(200, invoice);
    }
    const payMatch = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(path);
    if (method === 'POST' && payMatch) {
      const invoice = invoices.get(decodeURIComponent(payMatch[1]!));
      if (!invoice)
        return stripeError(res, 404, 'invalid_request_error', 'No such invoice', 'resource_missing');
      if (invoice.status === 'paid')
        return stripeError(
          res,
          400,
          'invalid_request_error',
          'Invoice is already paid',
          'invoice_already_paid',
        );
      invoice.status = 'paid';
      invoice.amount_paid = invoice.amount_due;
      return answer(200, invoice);
    }

    if (method === 'POST' && path === '/v1/coupons') {
      const duration = str(body.duration) || 'once';
      if (duration !== 'once' && duration !== 'repeating' && duration !== 'forever')
        return stripeError(res, 400, 'invalid_request_error', `Invalid duration: ${duration}`);
      const amountOff = body.amount_off === undefined ? null : Number(body.amount_off);
      const percentOff = body.percent_off === undefined ? null : Number(body.percent_off);
      if ((amountOff === null) === (percentOff === null))
        return stripeError(res, 400, 'invalid_request_error', 'Specify amount_off or percent_off');
      if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff <= 0 || !str(body.currency)))
        return stripeError(res, 400, 'invalid_request_error', 'Invalid amount_off or currency');
      if (duration === 'repeating' && !(Number(body.duration_in_months) > 0))
        return stripeError(res, 400, 'invalid_request_error', 'duration_in_months is required');
      const coupon: FakeStripeCoupon = {
        id: newId('co'),
        object: 'coupon',
        amount_off: amountOff,
        percent_off: percentOff,
        currency: str(body.currency) || null,
        duration,
        duration_in_months: duration === 'repeating' ? Number(body.duration_in_months) : null,
        name: str(body.name) || null,
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      };
      coupons.set(coupon.id, coupon);
      return answer(200, coupon);
    }
    if (method === 'POST' && path === '/v1/products') {
      const id = newId('prod');
      products.set(id, { id, name: str(body.name) });
      return send(res, 200, { id, object: 'product', name: body.name, active: true });
    }
    if (method === 'POST' && path === '/v1/prices') {
      const product = str(body.product);
      if (!products.has(product))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `No such product: '${product}'`,
          'resource_missing',
        );
      const recurring = body.recurring as { interval?: string; interval_count?: string } | undefined;
      const price: FakeStripePrice = {
        id: newId('price'),
        object: 'price',
        product,
        unit_amount: Number(body.unit_amount),
        currency: str(body.currency),
        recurring: recurring
          ? { interval: str(recurring.interval), interval_count: Number(recurring.interval_count ?? 1) }
          : null,
        active: true,
        nickname: str(body.nickname) || null,
      };
      prices.set(price.id, price);
      return send(res, 200, price);
    }
    const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(path);
    if (method === 'GET' && priceMatch) {
      const price = prices.get(decodeURIComponent(priceMatch[1]!));
      if (!price) return stripeError(res, 404, 'invalid_request_error', 'No such price', 'resource_missing');
      return send(res, 200, price);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const item = (
        body.line_items as
          | Record<string, { price?: string; price_data?: { currency?: string; unit_amount?: string } }>
          | undefined
      )?.['0'];
      // A payment-mode session (issue 30): one amount (`price_data`), paid once, no subscription.
      if (str(body.mode) === 'payment') {
        const amount = Number(item?.price_data?.unit_amount);
        if (!Number.isSafeInteger(amount) || amount <= 0 || str(item?.price_data?.currency) !== 'eur')
          return stripeError(res, 400, 'invalid_request_error', 'Invalid price_data', 'parameter_invalid');
        const id = newId('cs_test');
        const session: FakeStripeSession = {
          id,
          object: 'checkout.session',
          url: `${options.checkoutBaseUrl ?? url}/checkout/${id}`,
          mode: 'payment',
          status: 'open',
          payment_status: 'unpaid',
          subscription: null,
          client_reference_id: str(body.client_reference_id) || null,
          metadata: (body.metadata as Record<string, string> | undefined) ?? {},
          success_url: str(body.success_url),
          cancel_url: str(body.cancel_url),
          customer_email: str(body.customer_email) || null,
          expires_at: body.expires_at ? Number(body.expires_at) : null,
          created: nowSeconds(),
          priceId: '',
          couponId: null,
          amount_total: amount,
          payment_intent: null,
          customer: null,
          invoice: null,
        };
        sessions.set(id, session);
        return answer(200, session);
      }
      const priceId = str(item?.price);
      if (!prices.has(priceId))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `No such price: '${priceId}'`,
          'resource_missing',
        );
      const couponId =
        str((body.discounts as Record<string, { coupon?: string }> | undefined)?.['0']?.coupon) || null;
      if (couponId && !coupons.has(couponId))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `No such coupon: '${couponId}'`,
          'resource_missing',
        );
      const customer = str(body.customer) || null;
      if (customer && str(body.customer_email))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          'You may only specify one of these parameters: customer, customer_email.',
        );
      if (customer && !customerExists(customer))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `No such customer: '${customer}'`,
          'resource_missing',
        );
      const id = newId('cs_test');
      const session: FakeStripeSession = {
        id,
        object: 'checkout.session',
        url: `${options.checkoutBaseUrl ?? url}/checkout/${id}`,
        mode: str(body.mode),
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        client_reference_id: str(body.client_reference_id) || null,
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        success_url: str(body.success_url),
        cancel_url: str(body.cancel_url),
        customer_email: str(body.customer_email) || null,
        expires_at: body.expires_at ? Number(body.expires_at) : null,
        created: nowSeconds(),
        priceId,
        couponId,
        amount_total: null,
        payment_intent: null,
        customer,
        invoice: null,
      };
      sessions.set(id, session);
      return send(res, 200, session);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = str(body.customer);
      if (!customerExists(customer))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `No such customer: '${customer}'`,
          'resource_missing',
        );
      const id = newId('bps');
      const session: FakeStripePortalSession = {
        id,
        object: 'billing_portal.session',
        customer,
        return_url: str(body.return_url) || null,
        locale: str(body.locale) || null,
        url: `${options.portalBaseUrl ?? url}/p/session/${id}`,
        created: nowSeconds(),
      };
      portalSessions.set(id, session);
      return send(res, 200, session);
    }
    // Issue 30: an open session expired (its payment withdrawn): it can no longer be paid.
    const expireMatch = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expireMatch) {
      const session = sessions.get(decodeURIComponent(expireMatch[1]!));
      if (!session)
        return stripeError(res, 404, 'invalid_request_error', 'No such checkout.session', 'resource_missing');
      if (session.status !== 'open')
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        );
      session.status = 'expired';
      return answer(200, session);
    }
    // The payments of an invoice (issue 30): the first invoice of a Checkout's subscription.
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const q = new URL(req.url ?? '/', 'http://fake').searchParams;
      const invoice = invoices.get(q.get('invoice') ?? '');
      const data =
        invoice && invoice.status === 'paid' && invoice.amount_paid > 0
          ? [
              {
                id: `inpay_${invoice.id}`,
                object: 'invoice_payment',
                invoice: invoice.id,
                amount_paid: invoice.amount_paid,
                currency: 'eur',
                status: 'paid',
                is_default: true,
                payment: { type: 'payment_intent', payment_intent: intentOfInvoice(invoice.id) },
              },
            ]
          : [];
      return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = str(body.payment_intent);
      const paid =
        [...sessions.values()].find((x) => x.payment_intent === intent && x.payment_status === 'paid')
          ?.amount_total ??
        [...invoiceIntents.entries()]
          .filter(([, pi]) => pi === intent)
          .map(([inv]) => invoices.get(inv)?.amount_paid ?? 0)[0];
      if (!intent || paid === undefined || paid === null)
        return stripeError(
          res,
          404,
          'invalid_request_error',
          `No such payment_intent: '${intent}'`,
          'resource_missing',
        );
      if (refunds.some((r) => r.payment_intent === intent))
        return stripeError(
          res,
          400,
          'invalid_request_error',
          `Charge for payment_intent ${intent} has already been refunded.`,
          'charge_already_refunded',
        );
      const refund: FakeStripeRefund = {
        id: newId('re'),
        object: 'refund',
        payment_intent: intent,
        amount: paid,
        currency: 'eur',
        status: 'succeeded',
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        idempotencyKey: key || null,
      };
      refunds.push(refund);
      return answer(200, refund);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1]!));
      if (!session)
        return stripeError(res, 404, 'invalid_request_error', 'No such checkout.session', 'resource_missing');
      return send(res, 200, session);
    }
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subMatch) {
      const sub = subscriptions.get(decodeURIComponent(subMatch[1]!));
      if (!sub)
        return stripeError(res, 404, 'invalid_request_error', 'No such subscription', 'resource_missing');
      if (method === 'GET') return send(res, 200, sub);
      if (method === 'POST') {
        if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
          return stripeError(
            res,
            400,
            'invalid_request_error',
            'A canceled subscription can only update its cancellation_details and metadata.',
          );
        if (body.cancel_at_period_end !== undefined)
          sub.cancel_at_period_end = str(body.cancel_at_period_end) === 'true';
        // Issue 30: pause_collection[behavior], pause_collection[resumes_at]; '' unsets it.
        if (body.pause_collection !== undefined) {
          const pause = body.pause_collection as { behavior?: string; resumes_at?: string } | string;
          if (typeof pause === 'string' || pause === null) sub.pause_collection = null;
          else {
            const behavior = str(pause.behavior);
            if (!['void', 'keep_as_draft', 'mark_uncollectible'].includes(behavior))
              return stripeError(res, 400, 'invalid_request_error', `Invalid pause_collection[behavior]`);
            sub.pause_collection = {
              behavior,
              resumes_at: pause.resumes_at ? Number(str(pause.resumes_at)) : null,
            };
          }
        }
        // The discount removed (issue 30: a plan change the coupon does not allow): `discounts=`.
        if (body.discounts === '') {
          sub.discount = null;
          if (key) keyed.set(key, { status: 200, body: sub });
        }
        // A coupon applied later (issue 30): from the next invoice on.
        const discountCoupon = str(
          (body.discounts as Record<string, { coupon?: string }> | undefined)?.['0']?.coupon,
        );
        if (discountCoupon) {
          const coupon = coupons.get(discountCoupon);
          if (!coupon)
            return stripeError(
              res,
              400,
              'invalid_request_error',
              `No such coupon: '${discountCoupon}'`,
              'resource_missing',
            );
          sub.discount = { coupon, start: nowSeconds(), fromCycle: sub.cycles + 1 };
          if (key) keyed.set(key, { status: 200, body: sub });
        }
        // A plan change (issue 30): items[0][id] the subscription item, items[0][price] the new price.
        const items = body.items as Record<string, { id?: string; price?: string }> | undefined;
        const item = items?.['0'];
        if (item?.price !== undefined) {
          const price = str(item.price);
          if (!prices.has(price))
            return stripeError(
              res,
              400,
              'invalid_request_error',
              `No such price: '${price}'`,
              'resource_missing',
            );
          const current = sub.items.data.find((d) => d.id === str(item.id));
          if (!current)
            return stripeError(
              res,
              400,
              'invalid_request_error',
              'No such subscription item',
              'resource_missing',
            );
          current.price = { id: price };
          updates.push({
            subscriptionId: sub.id,
            price,
            prorationBehavior: str(body.proration_behavior) || null,
            idempotencyKey: String(req.headers['idempotency-key'] ?? '') || null,
            trialEnd: body.trial_end === undefined ? null : Number(str(body.trial_end)),
          });
        }
        return send(res, 200, sub);
      }
      if (method === 'DELETE') {
        if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
          return stripeError(
            res,
            400,
            'invalid_request_error',
            'A canceled subscription can only update its cancellation_details and metadata.',
          );
        sub.status = 'canceled';
        return send(res, 200, sub);
      }
    }
    return stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => stripeError(res, 500, 'api_error', 'fake failure'));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  function cycleAmount(sub: FakeStripeSubscription, price: FakeStripePrice, cycle: number, at: number) {
    // The Checkout's invoice is made when the subscription starts.
    const when = cycle === 1 ? sub.created : at;
    return couponApplies(sub, cycle, when)
      ? discounted(price.unit_amount, sub.discount!.coupon)
      : price.unit_amount;
  }

  function intentOfInvoice(invoiceId: string): string {
    let pi = invoiceIntents.get(invoiceId);
    if (!pi) invoiceIntents.set(invoiceId, (pi = newId('pi')));
    return pi;
  }

  function invoiceOf(sub: FakeStripeSubscription, cycle: number, seconds: number) {
    const price = prices.get(sub.items.data[0]!.price.id);
    if (!price) throw new Error(`fake Stripe: no price for ${sub.id}`);
    // Items waiting for this subscription's next invoice (a renewal) join it; the Checkout's own does not.
    const items = cycle > 1 ? pendingItems.filter((i) => i.subscription === sub.id) : [];
    if (items.length > 0)
      pendingItems.splice(0, pendingItems.length, ...pendingItems.filter((i) => !items.includes(i)));
    const periodAmount = cycleAmount(sub, price, cycle, seconds);
    const total = periodAmount + items.reduce((a, i) => a + i.amount, 0);
    // Stripe applies the customer's balance to every invoice it finalizes: a renewal's, and the
    // Checkout's when the session was given a customer holding a credit (a new one holds none).
    const amount = total - applyBalance(sub.customer, total);
    const invoice: FakeStripeInvoice = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status: 'paid',
      amount_due: amount,
      amount_paid: amount,
      currency: 'eur',
      description: null,
      metadata: {},
      lines: {
        object: 'list',
        data: [
          { amount: periodAmount, description: price.nickname ?? '' },
          ...items.map((i) => ({ amount: i.amount, description: i.description })),
        ],
      },
      created: seconds,
    };
    invoices.set(invoice.id, invoice);
    return { ...invoice, subscription: sub.id, status_transitions: { paid_at: seconds } };
  }

  const api: FakeStripe = {
    url,
    coupons,
    customers,
    refunds,
    balanceTransactions,
    balances,
    subscriptions,
    updates,
    invoices,
    sessions,
    prices,
    products,
    portalSessions,
    calls,
    subscribe(priceId, metadata = {}, customer = null) {
      const id = newId('sub');
      subscriptions.set(id, {
        id,
        object: 'subscription',
        status: 'active',
        customer: customer ?? newId('cus'),
        cancel_at_period_end: false,
        pause_collection: null,
        items: { object: 'list', data: [{ id: newId('si'), price: { id: priceId } }] },
        metadata,
        created: nowSeconds(),
        discount: null,
        cycles: 1,
      });
      return id;
    },
    completeSession(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
      if (session.status === 'expired') throw new Error(`fake Stripe: session ${sessionId} expired`);
      if (session.mode === 'payment') {
        // Paid once by card: a PaymentIntent, no subscription (answers its id).
        session.status = 'complete';
        session.payment_status = 'paid';
        session.payment_intent ??= newId('pi');
        return session.payment_intent;
      }
      const subscription = api.subscribe(session.priceId, session.metadata, session.customer);
      const sub = subscriptions.get(subscription)!;
      const coupon = session.couponId ? coupons.get(session.couponId) : undefined;
      if (coupon) sub.discount = { coupon, start: sub.created, fromCycle: 1 };
      // Stripe makes (and finalizes) the first invoice as the subscription starts.
      const first = invoiceOf(sub, 1, sub.created);
      firstInvoices.set(subscription, first);
      session.invoice = first.id;
      session.amount_total = first.amount_paid;
      session.status = 'complete';
      session.payment_status = 'paid';
      session.subscription = subscription;
      return subscription;
    },
    amountOfCycle(subscriptionId, cycle) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      const price = prices.get(sub.items.data[0]!.price.id);
      if (!price) throw new Error(`fake Stripe: no price for ${subscriptionId}`);
      return cycleAmount(sub, price, cycle, nowSeconds());
    },
    checkoutInvoice(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      let first = firstInvoices.get(subscriptionId);
      if (!first) firstInvoices.set(subscriptionId, (first = invoiceOf(sub, 1, sub.created)));
      return { ...first };
    },
    renew(subscriptionId, at) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subscriptionId}`);
      sub.cycles += 1;
      return invoiceOf(sub, sub.cycles, Math.floor(at.getTime() / 1000));
    },
    setStatus(id, status) {
      const found = subscriptions.get(id);
      if (!found) throw new Error(`fake Stripe: no subscription ${id}`);
      found.status = status;
    },
    failNext(prefix, failure, times = 1) {
      failures.push({ prefix, failure, times });
    },
    clearFailures() {
      failures.length = 0;
    },
    event(type, object) {
      return {
        id: newId('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: nowSeconds(),
        livemode: false,
        type,
        data: { object },
      };
    },
    signWebhook(event, secret, opts = {}) {
      const body = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({
        payload: body,
        secret: opts.tamper ? `${secret}_other` : secret,
      });
      return { body, headers: { 'content-type': 'application/json', 'stripe-signature': header } };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
