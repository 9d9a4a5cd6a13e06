/**
 * A fake PayPal REST server on loopback, for tests and for trying the whole flow without a PayPal
 * account (`PAYPAL_FAKE=true npm run dev`). It serves the calls the adapter makes (OAuth2 token,
 * subscriptions read, cancel, suspend and activate, webhook signature check, products, plans, sale
 * refunds), keeps subscriptions in memory with states tests can change, fails on demand (timeout,
 * 401, 422, 500), delivers signed webhooks, and serves a stub of PayPal's browser SDK (`/sdk/js`)
 * whose button "approves" a subscription here. It never talks to the internet.
 */
import { createHmac, createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeFailure = 'timeout' | 401 | 404 | 422 | 500 | 503;

export interface FakeSubscription {
  id: string;
  status: string;
  plan_id: string;
  custom_id?: string;
  create_time: string;
  /** The buyer's approval carried an inline plan (`plan` beside `plan_id`): PayPal's flag. */
  plan_overridden?: boolean;
  /** Billing cycles charged so far (the first at an ACTIVE approval, then each `renew`). */
  cycles_completed?: number;
  /** `cycles_completed` when the current plan began (a revise starts the new plan's cycles). */
  plan_cycles_from?: number;
  /** A revise waiting for the buyer's approval (`revisionApproval`): the plan it asks. */
  pending_plan_id?: string;
}

/** A plan's billing cycle as the fake keeps it: TRIAL cycles first, then the REGULAR one. */
export interface FakeCycle {
  tenure: 'TRIAL' | 'REGULAR';
  /** 0 = for ever (REGULAR). */
  totalCycles: number;
  /** PayPal's string, '12.08'. */
  price: string;
}

/** A charge PayPal took (a sale): the first cycle at approval, then renewals. */
export interface FakeCharge {
  saleId: string;
  subscriptionId: string;
  /** 1-based billing cycle. */
  cycle: number;
  amount: string;
  time: string;
}

/** A refund of a sale (`POST /v1/payments/sale/{id}/refund`, issue 30). */
export interface FakeRefund {
  id: string;
  saleId: string;
  /** PayPal's string, '12.08'. */
  amount: string;
  requestId: string | null;
}

export interface FakePayPal {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly subscriptions: Map<string, FakeSubscription>;
  readonly plans: Map<
    string,
    {
      id: string;
      product_id: string;
      name: string;
      /** The first cycle's price. */
      price: string;
      interval: number;
      cycles: FakeCycle[];
      requestId: string | null;
    }
  >;
  readonly products: Map<string, { id: string; name: string }>;
  /** Calls received, in order ('POST /v1/oauth2/token', 'GET /v1/billing/subscriptions/I-…'). */
  readonly calls: string[];
  /** Plan revisions received (`POST …/subscriptions/{id}/revise`, issue 30), in order. */
  readonly revisions: { subscriptionId: string; planId: string; requestId: string | null }[];
  /**
   * How a revise takes effect. false (the default, what the plan-change tests rely on): at once.
   * true (real PayPal): the plan waits for the buyer's approval on the answer's `approve` link
   * (`approveRevision`, or a browser opening the link); until then PayPal bills the old plan.
   */
  revisionApproval: boolean;
  /**
   * The buyer approves the pending revise of `subscriptionId`: its plan becomes the revised one
   * (its cycles from the next billing on); answers PayPal's BILLING.SUBSCRIPTION.UPDATED event.
   */
  approveRevision(subscriptionId: string, at?: Date): Record<string, unknown>;
  /** Every charge taken, in order (issue 30: what PayPal charged per cycle). */
  readonly charges: FakeCharge[];
  /**
   * Refunds made, in order. A sale is refunded up to its amount (more: PayPal's 422
   * REFUND_EXCEEDED_TRANSACTION_AMOUNT); the same PayPal-Request-Id answers the same refund.
   */
  readonly refunds: FakeRefund[];
  /** What sale `saleId` still allows to refund, in cents. */
  refundableCents(saleId: string): number;
  /** The PAYMENT.SALE.REFUNDED event PayPal sends for a refund. */
  refundEvent(refund: FakeRefund): Record<string, unknown>;
  /**
   * What cycle `n` (1-based) of `planId` charges, following its cycles (TRIAL ones first); for a
   * plan the fake does not know (a seeded 'P-…' id) null.
   */
  amountOfCycle(planId: string, n: number): string | null;
  /**
   * PayPal's next billing cycle of an ACTIVE subscription at `at`: the charge of that cycle's price
   * (recorded in `charges`) and the PAYMENT.SALE.COMPLETED event PayPal sends for it.
   */
  renew(subscriptionId: string, at: Date): { charge: FakeCharge; event: Record<string, unknown> };
  /** The PAYMENT.SALE.COMPLETED event of a charge already taken (the first one at approval). */
  saleEvent(charge: FakeCharge): Record<string, unknown>;
  /**
   * The subscription a buyer's approval of `planId` creates; returns its id. ACTIVE (PayPal took
   * the first payment at once, the usual case) unless `status` says 'APPROVED' (not charged yet).
   */
  approve(
    planId: string,
    customId?: string,
    status?: 'ACTIVE' | 'APPROVED',
    options?: { planOverride?: boolean; at?: Date },
  ): string;
  setStatus(id: string, status: string): void;
  /** The next `times` calls whose "METHOD path" starts with `prefix` fail that way. */
  failNext(prefix: string, failure: FakeFailure, times?: number): void;
  /** Forgets failures that were not used up. */
  clearFailures(): void;
  /** Headers and body of a delivery of `event` signed for `webhookId` (`tamper`: signed for another). */
  signWebhook(
    event: Record<string, unknown>,
    webhookId: string,
    options?: { tamper?: boolean },
  ): { headers: Record<string, string>; body: string };
  /** A signed delivery of `event` to `url` (signature valid for `webhookId`); answers its HTTP status. */
  deliverWebhook(
    url: string,
    event: Record<string, unknown>,
    webhookId: string,
    options?: { tamper?: boolean; headers?: Record<string, string> },
  ): Promise<{ status: number; body: string }>;
  /** A webhook event of `type` about `resource`, with a fresh id. */
  event(type: string, resource: Record<string, unknown>, createTime?: string): Record<string, unknown>;
  /** The browser SDK stub's source (what `/sdk/js` answers). */
  sdkScript(): string;
  close(): Promise<void>;
}

/** The signing secret of this fake's webhooks (what PayPal's certificate stands for). */
const SIGNING_KEY = randomBytes(32);

function signature(transmissionId: string, time: string, webhookId: string, body: string): string {
  const digest = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', SIGNING_KEY)
    .update(`${transmissionId}|${time}|${webhookId}|${digest}`)
    .digest('base64');
}

/** '12.08' → 1208. */
const cents = (value: string) => {
  const [whole, frac = '0'] = value.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
};

const newId = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex').toUpperCase()}`;

export async function startFakePayPal(options: { port?: number; host?: string } = {}): Promise<FakePayPal> {
  const subscriptions = new Map<string, FakeSubscription>();
  const plans: FakePayPal['plans'] = new Map();
  const products: FakePayPal['products'] = new Map();
  const calls: string[] = [];
  const revisions: FakePayPal['revisions'] = [];
  const charges: FakeCharge[] = [];
  const refunds: FakeRefund[] = [];
  const failures: { prefix: string; failure: FakeFailure; times: number }[] = [];
  const hanging = new Set<http.ServerResponse>();
  let url = '';

  const send = (res: http.ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type',
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (data += chunk));
      req.on('end', () => resolve(data));
    });

  function sdkScript(): string {
    // Just enough of window.paypal for @paypal/react-paypal-js's <PayPalButtons>.
    return `(function () {
  var base = ${JSON.stringify(url)};
  function Buttons(opts) {
    var closed = false;
    return {
      isEligible: function () { return true; },
      render: function (container) {
        var el = typeof container === 'string' ? document.querySelector(container) : container;
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Abbonati con PayPal';
        button.setAttribute('data-fake-paypal', 'true');
        button.style.cssText = 'width:100%;min-height:45px;border:0;border-radius:6px;background:#ffc439;color:#111;font:600 16px system-ui,sans-serif;cursor:pointer';
        button.onclick = function () {
          var actions = { subscription: { create: function (body) {
            return fetch(base + '/fake/approve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) })
              .then(function (r) { if (!r.ok) throw new Error('approve ' + r.status); return r.json(); })
              .then(function (j) { return j.id; });
          } } };
          Promise.resolve(opts.createSubscription ? opts.createSubscription({}, actions) : null)
            .then(function (id) { return opts.onApprove && opts.onApprove({ subscriptionID: id, orderID: null }, {}); })
            .catch(function (err) { if (opts.onError) opts.onError(err); });
        };
        if (el) el.appendChild(button);
        if (opts.onInit) opts.onInit({}, { enable: function () { return Promise.resolve(); }, disable: function () { return Promise.resolve(); } });
        return Promise.resolve();
      },
      close: function () { closed = true; return Promise.resolve(closed); },
      updateProps: function () { return Promise.resolve(); },
      hasReturned: function () { return false; }
    };
  }
  window.paypal = { Buttons: Buttons, version: 'fake' };
})();`;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (method === 'OPTIONS') return send(res, 204);
    if (method === 'GET' && path === '/sdk/js') {
      res.writeHead(200, { 'content-type': 'application/javascript', 'access-control-allow-origin': '*' });
      res.end(sdkScript());
      return;
    }
    const raw = await readBody(req);
    const body = (() => {
      try {
        return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    })();
    const line = `${method} ${path}`;
    if (!path.startsWith('/fake/')) calls.push(line);

    const failure = failures.find((f) => line.startsWith(f.prefix) && f.times > 0);
    if (failure) {
      failure.times--;
      if (failure.failure === 'timeout') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return; // never answers: the adapter's timeout fires
      }
      return send(res, failure.failure, { name: `FAKE_${failure.failure}`, message: 'failure on demand' });
    }

    // The buyer opening a revise's `approve` link: approved, back to the merchant's return URL.
    const reviseApprove = /^\/fake\/revise-approve\/([^/]+)$/.exec(path);
    if (method === 'GET' && reviseApprove) {
      const id = decodeURIComponent(reviseApprove[1]!);
      if (!subscriptions.get(id)?.pending_plan_id) return send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
      api.approveRevision(id);
      const back = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('return_url');
      if (back) {
        res.writeHead(302, { location: back });
        res.end();
        return;
      }
      return send(res, 200, { approved: true });
    }
    if (method === 'POST' && path === '/fake/approve') {
      const planId = typeof body.plan_id === 'string' ? body.plan_id : '';
      if (!plans.has(planId) && !planId.startsWith('P-')) return send(res, 422, { name: 'INVALID_PLAN' });
      return send(res, 201, {
        id: api.approve(planId, typeof body.custom_id === 'string' ? body.custom_id : undefined, 'ACTIVE', {
          planOverride: body.plan !== undefined,
        }),
      });
    }
    if (method === 'POST' && path === '/v1/oauth2/token') {
      if (!String(req.headers.authorization ?? '').startsWith('Basic '))
        return send(res, 401, { error: 'invalid_client' });
      return send(res, 200, { access_token: newId('A21AA'), token_type: 'Bearer', expires_in: 32400 });
    }
    if (!String(req.headers.authorization ?? '').startsWith('Bearer '))
      return send(res, 401, { name: 'AUTHENTICATION_FAILURE' });

    const sub = /^\/v1\/billing\/subscriptions\/([^/]+)(\/cancel|\/suspend|\/activate|\/revise)?$/.exec(path);
    if (sub) {
      const found = subscriptions.get(decodeURIComponent(sub[1]!));
      if (!found) return send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
      if (method === 'GET' && !sub[2]) return send(res, 200, found);
      // Suspend an ACTIVE one, activate a SUSPENDED one; anything else is PayPal's 422.
      if (method === 'POST' && (sub[2] === '/suspend' || sub[2] === '/activate')) {
        const [from, to] = sub[2] === '/suspend' ? ['ACTIVE', 'SUSPENDED'] : ['SUSPENDED', 'ACTIVE'];
        if (found.status !== from)
          return send(res, 422, {
            name: 'UNPROCESSABLE_ENTITY',
            details: [{ issue: 'SUBSCRIPTION_STATUS_INVALID' }],
          });
        found.status = to;
        return send(res, 204);
      }
      // A plan change (issue 30): the subscription's plan from its next billing cycle on.
      if (method === 'POST' && sub[2] === '/revise') {
        const planId = typeof body.plan_id === 'string' ? body.plan_id : '';
        if (!plans.has(planId) && !planId.startsWith('P-')) return send(res, 422, { name: 'INVALID_PLAN' });
        if (found.status !== 'ACTIVE' && found.status !== 'SUSPENDED')
          return send(res, 422, {
            name: 'UNPROCESSABLE_ENTITY',
            details: [{ issue: 'SUBSCRIPTION_STATUS_INVALID' }],
          });
        const requestId = String(req.headers['paypal-request-id'] ?? '') || null;
        // The same PayPal-Request-Id again: the answer of the first time, nothing revised twice.
        const repeated = requestId !== null && revisions.some((r) => r.requestId === requestId);
        if (!repeated) {
          if (api.revisionApproval) found.pending_plan_id = planId;
          else switchPlan(found, planId);
          revisions.push({ subscriptionId: found.id, planId, requestId });
        }
        const context = body.application_context as { return_url?: unknown } | undefined;
        const back = typeof context?.return_url === 'string' ? context.return_url : '';
        const approve = `${url}/fake/revise-approve/${encodeURIComponent(found.id)}${
          back ? `?return_url=${encodeURIComponent(back)}` : ''
        }`;
        return send(res, 200, {
          plan_id: planId,
          plan_overridden: false,
          links: [
            { href: approve, rel: 'approve', method: 'GET' },
            { href: `${url}/v1/billing/subscriptions/${found.id}`, rel: 'self', method: 'GET' },
          ],
        });
      }
      if (method === 'POST' && sub[2] === '/cancel') {
        if (found.status === 'CANCELLED' || found.status === 'EXPIRED')
          return send(res, 422, {
            name: 'UNPROCESSABLE_ENTITY',
            details: [{ issue: 'SUBSCRIPTION_STATUS_INVALID' }],
          });
        found.status = 'CANCELLED';
        return send(res, 204);
      }
    }
    const saleRefund = /^\/v1\/payments\/sale\/([^/]+)\/refund$/.exec(path);
    if (method === 'POST' && saleRefund) {
      const saleId = decodeURIComponent(saleRefund[1]!);
      const sale = charges.find((c) => c.saleId === saleId);
      if (!sale) return send(res, 404, { name: 'INVALID_RESOURCE_ID' });
      const requestId = String(req.headers['paypal-request-id'] ?? '') || null;
      const known = requestId ? refunds.find((r) => r.requestId === requestId) : undefined;
      const answer = (r: FakeRefund) =>
        send(res, 201, {
          id: r.id,
          state: 'completed',
          sale_id: r.saleId,
          amount: { total: r.amount, currency: 'EUR' },
        });
      if (known) return answer(known);
      const amount = (body.amount ?? {}) as { total?: unknown; currency?: unknown };
      const total = typeof amount.total === 'string' ? amount.total : '';
      if (!/^\d+\.\d{2}$/.test(total) || amount.currency !== 'EUR' || cents(total) <= 0)
        return send(res, 400, { name: 'VALIDATION_ERROR' });
      if (cents(total) > api.refundableCents(saleId))
        return send(res, 422, { name: 'REFUND_EXCEEDED_TRANSACTION_AMOUNT' });
      const made: FakeRefund = { id: newId('REF'), saleId, amount: total, requestId };
      refunds.push(made);
      return answer(made);
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const id = String(body.transmission_id ?? '');
      const time = String(body.transmission_time ?? '');
      const webhookId = String(body.webhook_id ?? '');
      const expected = signature(id, time, webhookId, JSON.stringify(body.webhook_event ?? null));
      return send(res, 200, {
        verification_status: body.transmission_sig === expected ? 'SUCCESS' : 'FAILURE',
      });
    }
    if (method === 'POST' && path === '/v1/catalogs/products') {
      const id = newId('PROD');
      products.set(id, { id, name: String(body.name ?? '') });
      return send(res, 201, { id, name: body.name });
    }
    if (method === 'POST' && path === '/v1/billing/plans') {
      const productId = String(body.product_id ?? '');
      if (!products.has(productId)) return send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
      // The same PayPal-Request-Id again: the plan made the first time.
      const requestId = String(req.headers['paypal-request-id'] ?? '') || null;
      const known = requestId ? [...plans.values()].find((p) => p.requestId === requestId) : undefined;
      if (known) return send(res, 201, { id: known.id, status: 'ACTIVE' });
      const raw = (body.billing_cycles ?? []) as {
        frequency?: { interval_count?: number };
        tenure_type?: string;
        sequence?: number;
        total_cycles?: number;
        pricing_scheme?: { fixed_price?: { value?: string } };
      }[];
      const sorted = [...raw].sort((a, b) => Number(a.sequence ?? 0) - Number(b.sequence ?? 0));
      const cycles: FakeCycle[] = sorted.map((c) => ({
        tenure: c.tenure_type === 'TRIAL' ? 'TRIAL' : 'REGULAR',
        totalCycles: Number(c.total_cycles ?? 0),
        price: String(c.pricing_scheme?.fixed_price?.value ?? ''),
      }));
      // PayPal's rules the fake checks: at most two TRIAL cycles (finite), then one REGULAR.
      const regular = cycles.filter((c) => c.tenure === 'REGULAR');
      const trials = cycles.filter((c) => c.tenure === 'TRIAL');
      if (
        regular.length !== 1 ||
        cycles[cycles.length - 1]?.tenure !== 'REGULAR' ||
        trials.length > 2 ||
        trials.some((c) => c.totalCycles < 1 || c.totalCycles > 999) ||
        cycles.some((c) => !/^\d+\.\d{2}$/.test(c.price))
      )
        return send(res, 422, {
          name: 'UNPROCESSABLE_ENTITY',
          details: [{ issue: 'INVALID_BILLING_CYCLES' }],
        });
      const id = newId('P');
      plans.set(id, {
        id,
        product_id: productId,
        name: String(body.name ?? ''),
        price: cycles[0]!.price,
        interval: Number(sorted[0]?.frequency?.interval_count ?? 0),
        cycles,
        requestId,
      });
      return send(res, 201, { id, status: 'ACTIVE' });
    }
    return send(res, 404, { name: 'NOT_FOUND' });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { name: 'INTERNAL_SERVER_ERROR' }));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  /** The subscription bills `planId` from its next cycle on: that plan's cycles start there. */
  function switchPlan(found: FakeSubscription, planId: string) {
    found.plan_id = planId;
    found.plan_cycles_from = found.cycles_completed ?? 0;
    delete found.pending_plan_id;
  }

  /** The next cycle's charge of subscription `id` at `at`, at its plan's price of that cycle. */
  function charge(id: string, at: Date): FakeCharge {
    const found = subscriptions.get(id)!;
    const cycle = (found.cycles_completed ?? 0) + 1;
    // A seeded plan id the fake never made ('P-DEMO…'): its price is unknown here.
    const amount = api.amountOfCycle(found.plan_id, cycle - (found.plan_cycles_from ?? 0)) ?? '';
    found.cycles_completed = cycle;
    const taken: FakeCharge = {
      saleId: newId('SALE'),
      subscriptionId: id,
      cycle,
      amount,
      time: at.toISOString(),
    };
    charges.push(taken);
    return taken;
  }

  const api: FakePayPal = {
    url,
    subscriptions,
    plans,
    products,
    calls,
    revisions,
    revisionApproval: false,
    approveRevision(subscriptionId, at = new Date()) {
      const found = subscriptions.get(subscriptionId);
      if (!found?.pending_plan_id) throw new Error(`fake PayPal: no revise waits on ${subscriptionId}`);
      switchPlan(found, found.pending_plan_id);
      return api.event('BILLING.SUBSCRIPTION.UPDATED', { ...found }, at.toISOString());
    },
    charges,
    refunds,
    refundableCents(saleId) {
      const sale = charges.find((c) => c.saleId === saleId);
      if (!sale || !/^\d+\.\d{2}$/.test(sale.amount)) return 0;
      const refunded = refunds
        .filter((r) => r.saleId === saleId)
        .reduce((sum, r) => sum + cents(r.amount), 0);
      return cents(sale.amount) - refunded;
    },
    refundEvent(made) {
      const sale = charges.find((c) => c.saleId === made.saleId);
      return api.event('PAYMENT.SALE.REFUNDED', {
        id: made.id,
        sale_id: made.saleId,
        parent_payment: sale?.subscriptionId ?? null,
        amount: { total: made.amount, currency: 'EUR' },
        state: 'completed',
      });
    },
    approve(planId, customId, status = 'ACTIVE', opts = {}) {
      const id = newId('I');
      const at = opts.at ?? new Date();
      subscriptions.set(id, {
        id,
        status,
        plan_id: planId,
        ...(customId ? { custom_id: customId } : {}),
        create_time: at.toISOString(),
        plan_overridden: opts.planOverride === true,
        cycles_completed: 0,
      });
      // ACTIVE: PayPal took the first cycle's payment at once.
      if (status === 'ACTIVE') charge(id, at);
      return id;
    },
    amountOfCycle(planId, n) {
      const plan = plans.get(planId);
      if (!plan) return null;
      let left = n;
      for (const c of plan.cycles) {
        if (c.totalCycles === 0 || left <= c.totalCycles) return c.price;
        left -= c.totalCycles;
      }
      return null; // past a finite plan's last cycle: PayPal charges nothing more
    },
    renew(subscriptionId, at) {
      const found = subscriptions.get(subscriptionId);
      if (!found) throw new Error(`fake PayPal: no subscription ${subscriptionId}`);
      if (found.status !== 'ACTIVE') throw new Error(`fake PayPal: ${subscriptionId} is ${found.status}`);
      const taken = charge(subscriptionId, at);
      return { charge: taken, event: api.saleEvent(taken) };
    },
    saleEvent(taken) {
      return api.event(
        'PAYMENT.SALE.COMPLETED',
        {
          id: taken.saleId,
          billing_agreement_id: taken.subscriptionId,
          amount: { total: taken.amount, currency: 'EUR' },
          state: 'completed',
          create_time: taken.time,
        },
        taken.time,
      );
    },
    setStatus(id, status) {
      const found = subscriptions.get(id);
      if (!found) throw new Error(`fake PayPal: no subscription ${id}`);
      found.status = status;
    },
    failNext(prefix, failure, times = 1) {
      failures.push({ prefix, failure, times });
    },
    clearFailures() {
      failures.length = 0;
    },
    event(type, resource, createTime = new Date().toISOString()) {
      return {
        id: newId('WH'),
        event_version: '1.0',
        create_time: createTime,
        resource_type: type.startsWith('PAYMENT') ? 'sale' : 'subscription',
        event_type: type,
        summary: type,
        resource,
      };
    },
    signWebhook(event, webhookId, opts = {}) {
      const body = JSON.stringify(event);
      const transmissionId = randomBytes(8).toString('hex');
      const time = new Date().toISOString();
      const sig = signature(transmissionId, time, opts.tamper ? `${webhookId}-other` : webhookId, body);
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${url}/v1/notifications/certs/CERT-fake`,
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': sig,
          'paypal-transmission-time': time,
        },
      };
    },
    async deliverWebhook(target, event, webhookId, opts = {}) {
      const signed = api.signWebhook(event, webhookId, opts);
      const res = await fetch(target, {
        method: 'POST',
        headers: { ...signed.headers, ...opts.headers },
        body: signed.body,
      });
      return { status: res.status, body: await res.text() };
    },
    sdkScript,
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
