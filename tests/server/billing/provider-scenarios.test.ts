/**
 * The payment scenarios of PayPal run for Stripe too: one table of scenarios over both providers
 * where they mean the same (the customer pays, each refusal, provider failures on the check, on
 * cancel and on sync change nothing, replays are harmless, webhook signatures, duplicate
 * deliveries, status events, a renewal recorded once). Demo Srl has both providers configured,
 * each pointed at its fake on loopback; Stripe's own parts (provider row, plan sync, checkout
 * price check, public keys, raw-body signatures) follow the table.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  invoiceIssues,
  invoices,
  paymentProviders,
  paymentTokens,
  payments,
  plans,
  providerWebhookEvents,
  subscriptionEvents,
  subscriptions,
} from '../../../server/db/schema';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { client, createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  createSubscription,
  movableClock,
  planId,
  pointPayPalAt,
  userId,
  pointStripeAt,
  subscriptionOf,
} from './helpers';

const clock = movableClock('2026-01-31T10:00:00.000Z');
const START = '2026-01-31T10:00:00.000Z';
const WEBHOOK_ID = 'WH-DEMO-0001';
const STRIPE_WHSEC = 'whsec_rinnova_test_secret';
let paypal: FakePayPal;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let demoId: number;
let basic: number;
let paypalPlan: string;
let stripePrice: string;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  const p = await admin.post<{ paypalPlanId: string }>(`/api/plan/syncPaypal/${basic}`);
  expect(p.status, p.raw).toBe(200);
  paypalPlan = p.body.data!.paypalPlanId;
  const s = await admin.post<{ stripePlanId: string }>(`/api/plan/syncStripe/${basic}`);
  expect(s.status, s.raw).toBe(200);
  stripePrice = s.body.data!.stripePlanId;
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([paypal.close(), stripe.close()]);
});
beforeEach(() => {
  paypal.clearFailures();
  stripe.clearFailures();
  clock.set(START);
});

async function snapshot() {
  return {
    subscriptions: await ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id)),
    payments: await ctx.db.select().from(payments).orderBy(asc(payments.id)),
    tokens: await ctx.db.select().from(paymentTokens).orderBy(asc(paymentTokens.id)),
    events: await ctx.db.select().from(subscriptionEvents).orderBy(asc(subscriptionEvents.id)),
    webhooks: await ctx.db.select().from(providerWebhookEvents).orderBy(asc(providerWebhookEvents.id)),
    invoices: await ctx.db.select().from(invoices).orderBy(asc(invoices.id)),
  };
}

async function newLink(body: Record<string, unknown> = {}) {
  const sub = await createSubscription(admin, {
    userId: await userId(ctx, 'mario.rossi@example.com'),
    planId: basic,
    ...body,
  });
  const res = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(res.status, res.raw).toBe(200);
  return { sub, token: res.body.data!.token };
}

/** Invoices issued for a payment, or the record of why issuing was blocked (the demo tenant lacks data). */
async function invoiceAttempts(paymentId: number) {
  const issued = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.paymentId, paymentId));
  const blocked = await ctx.db
    .select({ id: invoiceIssues.paymentId })
    .from(invoiceIssues)
    .where(eq(invoiceIssues.paymentId, paymentId));
  return issued.length + blocked.length;
}

const getSub = (id: number) => subscriptionOf(admin, id);

type Failure = 500 | 503 | 'timeout' | 401;
type Status = 'active' | 'suspended' | 'cancelled';

/** What a provider means for each scenario: how the customer pays, fails, is told about. */
interface Driver {
  name: 'PayPal' | 'Stripe';
  kind: 'paypal' | 'stripe';
  /** The customer approves (PayPal's button) or pays (Stripe Checkout) for `token`: the proof to send back. */
  approve(token: string): Promise<{ proof: string; providerId: string }>;
  /** The payment page's call with that proof. */
  pay(token: string, proof: string): ReturnType<ApiClient['put']>;
  unknownProof: string;
  unknownMessage: string;
  /** Another approval for the same token (a second PayPal approval, a second paid Checkout Session). */
  anotherProof(token: string, proof: string): Promise<string>;
  /** A proof of a subscription of another plan. */
  otherPlan(token: string): Promise<string>;
  otherPlanMessage: string;
  /** The next checks of a payment fail that way. */
  failCheck(failure: Failure): void;
  failCancel(providerId: string, failure: Failure): void;
  failSync(providerId: string, failure: Failure): void;
  setStatus(providerId: string, status: Status): void;
  remoteStatus(providerId: string): string | undefined;
  cancelledRemote: string;
  syncPath: string;
  syncMessage: (n: number) => string;
  statusEvent(providerId: string, status: Status): Record<string, unknown>;
  chargeEvent(providerId: string, chargeId: string, time: string): Record<string, unknown>;
  deliver(
    event: Record<string, unknown>,
    options?: { tamper?: boolean },
  ): Promise<{ status: number; body: string }>;
  webhookPath: string;
}

async function inject(path: string, signed: { headers: Record<string, string>; body: string }) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: path,
    headers: signed.headers,
    payload: signed.body,
  });
  return { status: res.statusCode, body: res.body };
}

const paypalStatus: Record<Status, string> = {
  active: 'ACTIVE',
  suspended: 'SUSPENDED',
  cancelled: 'CANCELLED',
};
const paypalEvent: Record<Status, string> = {
  active: 'BILLING.SUBSCRIPTION.ACTIVATED',
  suspended: 'BILLING.SUBSCRIPTION.SUSPENDED',
  cancelled: 'BILLING.SUBSCRIPTION.CANCELLED',
};
const stripeStatus: Record<Status, string> = {
  active: 'active',
  suspended: 'unpaid',
  cancelled: 'canceled',
};

const drivers: Driver[] = [
  {
    name: 'PayPal',
    kind: 'paypal',
    async approve() {
      const id = paypal.approve(paypalPlan);
      paypal.setStatus(id, 'ACTIVE');
      return { proof: id, providerId: id };
    },
    pay: (token, proof) =>
      ctx.api.put<{ result: string }>('/api/Payment/updatePayment', { token, providerSubscriptionId: proof }),
    unknownProof: 'I-NOTKNOWN000',
    unknownMessage: 'PayPal non conosce questa sottoscrizione.',
    anotherProof: async () => paypal.approve(paypalPlan),
    otherPlan: async () => paypal.approve('P-ANOTHERPLAN'),
    otherPlanMessage: 'La sottoscrizione PayPal è di un altro piano.',
    failCheck: (f) => paypal.failNext('GET /v1/billing/subscriptions/', f, f === 401 ? 2 : 1),
    failCancel: (id, f) =>
      paypal.failNext(`POST /v1/billing/subscriptions/${id}/cancel`, f, f === 401 ? 2 : 1),
    failSync: (id, f) => paypal.failNext(`GET /v1/billing/subscriptions/${id}`, f, f === 401 ? 2 : 1),
    setStatus: (id, s) => paypal.setStatus(id, paypalStatus[s]),
    remoteStatus: (id) => paypal.subscriptions.get(id)?.status,
    cancelledRemote: 'CANCELLED',
    syncPath: '/api/subscription/sync-paypal',
    syncMessage: (n) => `Aggiornate ${n} subscription(i) da PayPal ✅`,
    statusEvent: (id, s) => paypal.event(paypalEvent[s], { id, status: paypalStatus[s] }),
    chargeEvent: (id, chargeId, time) =>
      paypal.event(
        'PAYMENT.SALE.COMPLETED',
        { id: chargeId, billing_agreement_id: id, amount: { total: '12.08', currency: 'EUR' } },
        time,
      ),
    deliver: (event, options) =>
      inject(`/api/webhooks/paypal/${demoId}`, paypal.signWebhook(event, WEBHOOK_ID, options)),
    webhookPath: '/api/webhooks/paypal/',
  },
  {
    name: 'Stripe',
    kind: 'stripe',
    async approve(token) {
      const res = await ctx.api.post<{ url: string; sessionId: string }>('/api/Payment/stripe/checkout', {
        token,
      });
      expect(res.status, res.raw).toBe(200);
      const { sessionId, url } = res.body.data!;
      expect(url).toBe(`${stripe.url}/checkout/${sessionId}`);
      return { proof: sessionId, providerId: stripe.completeSession(sessionId) };
    },
    pay: (_token, proof) =>
      ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', { sessionId: proof, tenantId: demoId }),
    unknownProof: 'cs_test_notknown000',
    unknownMessage: 'Stripe non conosce questa sessione di pagamento.',
    async anotherProof(_token, proof) {
      // The token is spent, so Rinnova makes no new session: a second one straight at Stripe.
      const first = stripe.sessions.get(proof)!;
      const id = `${proof}_second`;
      stripe.sessions.set(id, { ...first, id, status: 'open', payment_status: 'unpaid', subscription: null });
      stripe.completeSession(id);
      return id;
    },
    async otherPlan(token) {
      const { proof, providerId } = await this.approve(token);
      stripe.subscriptions.get(providerId)!.items.data[0]!.price.id = 'price_another';
      return proof;
    },
    otherPlanMessage: 'La sottoscrizione Stripe è di un altro piano.',
    failCheck: (f) => stripe.failNext('GET /v1/checkout/sessions/', f),
    failCancel: (id, f) => stripe.failNext(`DELETE /v1/subscriptions/${id}`, f),
    failSync: (id, f) => stripe.failNext(`GET /v1/subscriptions/${id}`, f),
    setStatus: (id, s) => stripe.setStatus(id, stripeStatus[s]),
    remoteStatus: (id) => stripe.subscriptions.get(id)?.status,
    cancelledRemote: 'canceled',
    syncPath: '/api/subscription/sync-stripe',
    syncMessage: (n) => `Aggiornate ${n} subscription(i) da Stripe ✅`,
    statusEvent: (id, s) =>
      s === 'cancelled'
        ? stripe.event('customer.subscription.deleted', { id, object: 'subscription', status: 'canceled' })
        : stripe.event('customer.subscription.updated', {
            id,
            object: 'subscription',
            status: stripeStatus[s],
          }),
    chargeEvent: (id, chargeId, time) =>
      stripe.event('invoice.paid', {
        id: chargeId,
        object: 'invoice',
        amount_paid: 1208,
        currency: 'eur',
        status_transitions: { paid_at: Math.floor(Date.parse(time) / 1000) },
        parent: { type: 'subscription_details', subscription_details: { subscription: id } },
      }),
    deliver: (event, options) =>
      inject(`/api/webhooks/stripe/${demoId}`, stripe.signWebhook(event, STRIPE_WHSEC, options)),
    webhookPath: '/api/webhooks/stripe/',
  },
];

/** A subscription paid on the payment page through `d`: Active, with the provider's id. */
async function paid(d: Driver) {
  const { sub, token } = await newLink();
  const { proof, providerId } = await d.approve(token);
  const res = await d.pay(token, proof);
  expect(res.status, res.raw).toBe(200);
  return { sub: await getSub(sub.id), providerId, token, proof };
}

describe.each(drivers)('$name', (d) => {
  it('the customer pays: Active, token Used, payment paid with the provider id, invoice issued; a replay changes nothing', async () => {
    const { sub, token } = await newLink();
    const { proof, providerId } = await d.approve(token);
    clock.advanceDays(1 / 48);
    const res = await d.pay(token, proof);
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({
      data: { result: 'paid' },
      message: 'Pagamento registrato: la sottoscrizione è attiva.',
    });
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.payments[0]).toMatchObject({
      providerSubscriptionId: providerId,
      method: d.kind,
      paidAt: '2026-01-31T10:30:00.000Z',
    });
    expect(after.allowedActions).toEqual(['cancel']);
    expect(after.history?.at(-1)).toMatchObject({ event: 'pay', fromStatus: 2, toStatus: 1 });
    expect(await invoiceAttempts(sub.payments[0]!.id)).toBe(1);
    const before = await snapshot();
    const replay = await d.pay(token, proof);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ result: 'replayed' });
    expect(await snapshot()).toEqual(before);
    expect((await ctx.api.get('/api/PaymentToken/validate', { query: { token } })).body.success).toBe(false);
  });

  it('refuses an unknown id, another plan, a used token with another id, an expired token: nothing changes', async () => {
    const { token } = await newLink();
    const before = await snapshot();
    const unknown = await d.pay(token, d.unknownProof);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(d.unknownMessage);
    const other = await d.pay(token, await d.otherPlan(token));
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(d.otherPlanMessage);
    expect(await snapshot()).toEqual(before);

    const late = await d.approve(token);
    clock.advanceDays(1 / 24 + 1 / 86_400);
    const expired = await d.pay(token, late.proof);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Token non valido.');
    expect(await snapshot()).toEqual(before);
    clock.set(START);

    expect((await d.pay(token, late.proof)).status).toBe(200);
    const afterPaid = await snapshot();
    const again = await d.pay(token, await d.anotherProof(token, late.proof));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Token non valido.');
    expect(await snapshot()).toEqual(afterPaid);
  });

  it('the provider failing on the check (500, 503, timeout, 401) changes nothing and says so in Italian', async () => {
    const { token } = await newLink();
    const { proof } = await d.approve(token);
    const before = await snapshot();
    for (const failure of [500, 503, 'timeout', 401] as const) {
      d.failCheck(failure);
      const res = await d.pay(token, proof);
      expect(res.status).toBe(502);
      expect(res.body.message).toContain(d.name);
      expect(await snapshot()).toEqual(before);
    }
    expect((await d.pay(token, proof)).status).toBe(200);
  });

  it('cancel goes to the provider first; when it fails nothing changes; then Canceled there and here', async () => {
    const { sub, providerId } = await paid(d);
    const before = await snapshot();
    for (const failure of [500, 'timeout'] as const) {
      d.failCancel(providerId, failure);
      const res = await admin.delete(`/api/subscription/cancel/${sub.id}`);
      expect(res.status).toBe(502);
      expect(res.body.message).toContain('in Rinnova non è cambiato nulla');
      expect(await snapshot()).toEqual(before);
    }
    const res = await admin.delete<Subscription>(`/api/subscription/cancel/${sub.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data?.subscriptionStatus).toBe(5);
    expect(d.remoteStatus(providerId)).toBe(d.cancelledRemote);
  });

  it('sync maps suspended → NotActive, cancelled → Canceled, active → Active; a failure on any read changes nothing', async () => {
    const a = await paid(d);
    const b = await paid(d);
    d.setStatus(a.providerId, 'suspended');
    d.setStatus(b.providerId, 'cancelled');
    const before = await snapshot();
    for (const failure of [500, 'timeout'] as const) {
      d.failSync(a.providerId, failure);
      expect((await admin.post(d.syncPath)).status).toBe(502);
      expect(await snapshot()).toEqual(before);
    }
    const res = await admin.post<number>(d.syncPath);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toBe(2);
    expect(res.body.message).toBe(d.syncMessage(2));
    expect((await getSub(a.sub.id)).subscriptionStatus).toBe(2);
    expect((await getSub(b.sub.id)).subscriptionStatus).toBe(5);
    d.setStatus(a.providerId, 'active');
    expect((await admin.post<number>(d.syncPath)).body.data).toBe(1);
    expect((await getSub(a.sub.id)).subscriptionStatus).toBe(1);
    expect((await admin.post<number>(d.syncPath)).body.data).toBe(0);
  });

  it('webhooks: a bad signature is a 400 and changes nothing; status events apply once per event id', async () => {
    const { sub, providerId } = await paid(d);
    const before = await snapshot();
    const suspended = d.statusEvent(providerId, 'suspended');
    const tampered = await d.deliver(suspended, { tamper: true });
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body).message).toBe('Firma del webhook non valida: evento ignorato.');
    const unsigned = await client(ctx.app, {}, null).post(`${d.webhookPath}${demoId}`, suspended);
    expect(unsigned.status).toBe(400);
    expect(await snapshot()).toEqual(before);

    const first = await d.deliver(suspended);
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body).data).toEqual({ eventId: suspended.id, outcome: 'applied' });
    expect((await getSub(sub.id)).subscriptionStatus).toBe(2);
    expect((await getSub(sub.id)).history?.at(-1)).toMatchObject({
      event: 'providerSuspended',
      actor: { kind: 'provider', id: suspended.id, name: d.kind },
    });
    const afterFirst = await snapshot();
    const duplicate = await d.deliver(suspended);
    expect(JSON.parse(duplicate.body).data.outcome).toBe('duplicate');
    expect(await snapshot()).toEqual(afterFirst);

    expect(JSON.parse((await d.deliver(d.statusEvent(providerId, 'active'))).body).data.outcome).toBe(
      'applied',
    );
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);
    expect(JSON.parse((await d.deliver(d.statusEvent(providerId, 'cancelled'))).body).data.outcome).toBe(
      'applied',
    );
    expect((await getSub(sub.id)).subscriptionStatus).toBe(5);
    const stranger = await d.deliver(
      d.statusEvent(`${d.kind === 'stripe' ? 'sub' : 'I'}-STRANGER`, 'cancelled'),
    );
    expect(JSON.parse(stranger.body).data.outcome).toBe('unknownSubscription');
  });

  it('the first charge pays the first payment; a renewal is a new paid payment recorded once, the next billing date moves', async () => {
    const { sub, providerId } = await paid(d);
    expect(sub.nextBillingDate).toBe('2026-02-28T10:00:00.000Z');
    await d.deliver(d.chargeEvent(providerId, `${d.kind}-charge-1-${sub.id}`, '2026-01-31T10:01:00Z'));
    expect((await getSub(sub.id)).payments).toHaveLength(1);
    const renewal = d.chargeEvent(providerId, `${d.kind}-charge-2-${sub.id}`, '2026-02-28T10:05:00Z');
    expect(JSON.parse((await d.deliver(renewal)).body).data.outcome).toBe('applied');
    // Delivered again, and the same charge under another event id: still one renewal.
    await d.deliver(renewal);
    await d.deliver(d.chargeEvent(providerId, `${d.kind}-charge-2-${sub.id}`, '2026-02-28T10:05:00Z'));
    const after = await getSub(sub.id);
    expect(after.payments).toHaveLength(2);
    expect(after.payments[1]).toMatchObject({
      amountDue: 12.08,
      method: d.kind,
      periodStart: '2026-02-28T10:00:00.000Z',
      periodEnd: '2026-03-31T09:00:00.000Z',
      paidAt: '2026-02-28T10:05:00.000Z',
    });
    expect(after.nextBillingDate).toBe('2026-03-31T09:00:00.000Z');
    expect(await invoiceAttempts(after.payments[1]!.id)).toBe(1);
  });
});

describe('Stripe only', () => {
  it('the provider row keeps the secret key and the signing secret write-only; the public call shows only public keys', async () => {
    const list = await admin.get<{ items: Record<string, unknown>[] }>(
      '/api/paymentprovider/getAll?page=1&pageSize=20',
    );
    const row = list.body.data!.items.find((p) => p.kind === 'stripe')!;
    expect(row).toMatchObject({
      apiKey: 'pk_test_rinnova_public',
      apiSecret: '••••••••',
      webhookSecret: '••••••••',
    });
    expect(list.raw).not.toContain('sk_test_rinnova_secret');
    expect(list.raw).not.toContain(STRIPE_WHSEC);
    const [stored] = await ctx.db
      .select()
      .from(paymentProviders)
      .where(eq(paymentProviders.id, row.id as number));
    expect(JSON.stringify(stored)).not.toContain(STRIPE_WHSEC);
    expect(JSON.stringify(stored)).not.toContain('sk_test_rinnova_secret');
    const pub = await ctx.api.get(`/api/paymentprovider/GetPublicSettingsByTenant/${demoId}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toEqual({
      paypal: { apiKey: 'fake-client-id' },
      stripe: { publishableKey: 'pk_test_rinnova_public' },
    });
    const rossi = await ctx.api.get<{ stripe: unknown }>(
      `/api/paymentprovider/GetPublicSettingsByTenant/${await ctx.tenantId('Studio Rossi')}`,
    );
    expect(rossi.body.data?.stripe).toBeNull();
    // An update without the secrets keeps them.
    const kept = await admin.put('/api/paymentprovider/Update', {
      id: row.id,
      name: 'Stripe (finto)',
      kind: 'stripe',
      apiUrl: stripe.url,
      apiKey: 'pk_test_rinnova_public',
      webhookSecret: '••••••••',
    });
    expect(kept.status, kept.raw).toBe(200);
    const [again] = await ctx.db
      .select()
      .from(paymentProviders)
      .where(eq(paymentProviders.id, row.id as number));
    expect(again!.webhookSecretEncrypted).toBe(stored!.webhookSecretEncrypted);
  });

  it('Sincronizza con Stripe: a product and a monthly recurring price at the price with VAT; the product is reused', async () => {
    expect(stripe.prices.get(stripePrice)).toMatchObject({
      unit_amount: 1208,
      currency: 'eur',
      recurring: { interval: 'month', interval_count: 1 },
    });
    const productsBefore = stripe.products.size;
    const again = await admin.post<{ stripePlanId: string; stripeProductId: string }>(
      `/api/plan/syncStripe/${basic}`,
    );
    expect(again.status).toBe(200);
    expect(again.body.data!.stripeProductId).toBe(stripe.prices.get(stripePrice)!.product);
    expect(stripe.products.size).toBe(productsBefore);
    await ctx.db.update(plans).set({ stripePlanId: stripePrice }).where(eq(plans.id, basic));
    const pro = await planId(ctx, 'Demo Srl', 'Pro');
    stripe.failNext('POST /v1/prices', 500);
    const failed = await admin.post(`/api/plan/syncStripe/${pro}`);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain('Stripe è momentaneamente non disponibile');
    const [row] = await ctx.db.select().from(plans).where(eq(plans.id, pro));
    expect(row?.stripePlanId).toBeNull();
    expect((await (await ctx.as('cliente', 'Demo Srl')).post(`/api/plan/syncStripe/${basic}`)).status).toBe(
      403,
    );
    expect(
      (await (await ctx.as('superadmin', 'Studio Rossi')).post(`/api/plan/syncStripe/${basic}`)).status,
    ).toBe(404);
  });

  it('checkout: the session is for the token’s plan price, in subscription mode, returning to /payment/process; an amount Stripe would not charge is refused', async () => {
    const { token } = await newLink();
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(res.status, res.raw).toBe(200);
    const session = stripe.sessions.get(res.body.data!.sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      priceId: stripePrice,
      customer_email: 'mario.rossi@example.com',
      success_url: `http://localhost:3000/payment/process?session_id={CHECKOUT_SESSION_ID}&tenant=${demoId}`,
      cancel_url: `http://localhost:3000/payment?token=${token}&bypassTenant=true`,
    });
    expect(session.metadata.rinnovaTenantId).toBe(String(demoId));
    // Not paid yet: the return page is refused, nothing changes.
    const before = await snapshot();
    const unpaid = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: session.id,
      tenantId: demoId,
    });
    expect(unpaid.status).toBe(400);
    expect(unpaid.body.message).toBe('Il pagamento con carta non risulta completato su Stripe.');
    // The session of Demo's Stripe claimed for another tenant: that tenant has no Stripe.
    const rossiId = await ctx.tenantId('Studio Rossi');
    const foreign = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: session.id,
      tenantId: rossiId,
    });
    expect(foreign.status).toBe(409);
    expect((await ctx.api.post('/api/Payment/stripe/checkout', { token: 'x'.repeat(43) })).body.message).toBe(
      'Token non valido.',
    );
    const garbage = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: '<script>',
      tenantId: demoId,
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors?.[0]).toMatch(/^sessionId: /);
    stripe.failNext('POST /v1/checkout/sessions', 503);
    expect((await ctx.api.post('/api/Payment/stripe/checkout', { token })).status).toBe(502);
    expect(await snapshot()).toEqual(before);

    // A payment of another amount (custom price): the link is made (Stripe is configured), but
    // Stripe's price would charge another sum, so no session.
    const custom = await newLink({ paymentAmount: 5 });
    const refused = await ctx.api.post('/api/Payment/stripe/checkout', { token: custom.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('diverso dal prezzo del piano su Stripe');
  });

  it('checkout.session.completed records the payment when the customer never comes back; the return page then finds it done', async () => {
    const { sub, token } = await newLink();
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    const sessionId = res.body.data!.sessionId;
    const subscriptionId = stripe.completeSession(sessionId);
    const event = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    const first = await inject(`/api/webhooks/stripe/${demoId}`, stripe.signWebhook(event, STRIPE_WHSEC));
    const [stored] = await ctx.db
      .select({ outcome: providerWebhookEvents.outcome, detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, event.id as string));
    expect(stored).toEqual({ outcome: 'applied', detail: `sottoscrizione ${sub.id}` });
    expect(JSON.parse(first.body).data.outcome).toBe('applied');
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.payments[0]).toMatchObject({ providerSubscriptionId: subscriptionId, method: 'stripe' });
    const before = await snapshot();
    const back = await ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', {
      sessionId,
      tenantId: demoId,
    });
    expect(back.body.data).toEqual({ result: 'replayed' });
    expect(await snapshot()).toEqual(before);
    const duplicate = await inject(`/api/webhooks/stripe/${demoId}`, stripe.signWebhook(event, STRIPE_WHSEC));
    expect(JSON.parse(duplicate.body).data.outcome).toBe('duplicate');
    expect(await snapshot()).toEqual(before);
  });

  it('invoice.payment_failed leaves the subscription Active with the period overdue (issue 29); the next invoice.paid pays that payment', async () => {
    const { sub, providerId } = await paid(drivers[1]!);
    await drivers[1]!.deliver(
      drivers[1]!.chargeEvent(providerId, `in_first_${sub.id}`, '2026-01-31T10:01:00Z'),
    );
    const failed = stripe.event('invoice.payment_failed', {
      id: `in_failed_${sub.id}`,
      object: 'invoice',
      parent: { subscription_details: { subscription: providerId } },
    });
    expect(JSON.parse((await drivers[1]!.deliver(failed)).body).data.outcome).toBe('applied');
    const during = await getSub(sub.id);
    expect(during.subscriptionStatus).toBe(1);
    expect(during.payments).toHaveLength(2);
    expect(during.payments[1]).toMatchObject({ paidAt: null, collectionStatus: 'overdue', method: 'stripe' });
    await drivers[1]!.deliver(
      drivers[1]!.chargeEvent(providerId, `in_failed_${sub.id}`, '2026-02-28T12:00:00Z'),
    );
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.payments).toHaveLength(2);
    expect(after.payments[1]).toMatchObject({
      collectionStatus: 'recovered',
      paidAt: '2026-02-28T12:00:00.000Z',
    });
    expect(after.nextBillingDate).toBe('2026-03-31T09:00:00.000Z');
    const rows = await ctx.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.tenantId, demoId), eq(payments.subscriptionId, sub.id)));
    expect(rows).toHaveLength(2);
    expect(await invoiceAttempts(after.payments[1]!.id)).toBe(1);
  });

  it('a tenant without a Stripe signing secret refuses every delivery', async () => {
    const rossiId = await ctx.tenantId('Studio Rossi');
    const event = stripe.event('customer.subscription.deleted', { id: 'sub_x', status: 'canceled' });
    const res = await inject(`/api/webhooks/stripe/${rossiId}`, stripe.signWebhook(event, STRIPE_WHSEC));
    expect(res.status).toBe(400);
    const stored = await ctx.db
      .select()
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, event.id as string));
    expect(stored).toEqual([]);
  });
});
