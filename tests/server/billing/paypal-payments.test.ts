/**
 * Getting paid through PayPal, against the fake PayPal on loopback: plan sync, payment links,
 * the public payment call and its refusals, provider failures on verify, cancel and sync (nothing
 * changes), webhooks (signature, duplicates, renewals once) and the plan widget's view.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import {
  invoices,
  paymentTokens,
  payments,
  plans,
  providerWebhookEvents,
  subscriptionEvents,
  subscriptions,
  users,
} from '../../../server/db/schema';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { client, createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { createRenewalPaymentLink } from '../../../server/modules/billing/payment-token.service';
import { withoutDemoInvoices } from '../invoices/helpers';
import {
  createSubscription,
  giveIban,
  movableClock,
  planId,
  pointPayPalAt,
  userId,
  subscriptionOf,
} from './helpers';

const clock = movableClock('2026-01-31T10:00:00.000Z');
const WEBHOOK_ID = 'WH-DEMO-0001';
let fake: FakePayPal;
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let rossiId: number;
let basic: number;
let basicPaypalPlan: string;

beforeAll(async () => {
  fake = await startFakePayPal();
  // The timeout scenarios wait this long for a fake that never answers; an answering fake must
  // stay well inside it on a loaded 2-core machine (300 ms was exceeded there).
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
  // The seeded sandbox row, pointed at the fake through the API as an Admin would.
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: fake.url, webhookId: WEBHOOK_ID });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.clearFailures());

/** A delivery by PayPal (signed by the fake) to the tenant's webhook, without x-api-key. */
async function deliver(
  event: Record<string, unknown>,
  options: { tenantId?: number; tamper?: boolean } = {},
) {
  const signed = fake.signWebhook(event, WEBHOOK_ID, options);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/paypal/${options.tenantId ?? demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  return { status: res.statusCode, body: res.body };
}

/** Rows a refused call must leave as they were. */
async function snapshot() {
  return {
    subscriptions: await ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id)),
    payments: await ctx.db.select().from(payments).orderBy(asc(payments.id)),
    tokens: await ctx.db.select().from(paymentTokens).orderBy(asc(paymentTokens.id)),
    events: await ctx.db.select().from(subscriptionEvents).orderBy(asc(subscriptionEvents.id)),
    webhooks: await ctx.db.select().from(providerWebhookEvents).orderBy(asc(providerWebhookEvents.id)),
  };
}

async function newSubscription(email = 'mario.rossi@example.com', body: Record<string, unknown> = {}) {
  return createSubscription(admin, { userId: await userId(ctx, email), planId: basic, ...body });
}

async function link(sub: Subscription) {
  const res = await admin.post<{ token: string; paymentUrl: string; expiryDate: string }>(
    '/api/PaymentToken/create',
    { paymentId: sub.payments[0]!.id },
  );
  expect(res.status, res.raw).toBe(200);
  return res.body.data!;
}

const pay = (token: string, providerSubscriptionId: string) =>
  ctx.api.put<{ result: string }>('/api/Payment/updatePayment', { token, providerSubscriptionId });

const getSub = (id: number) => subscriptionOf(admin, id);

/** A subscription paid on the payment page: Active, with its PayPal id. */
async function paidSubscription(email = 'mario.rossi@example.com') {
  const sub = await newSubscription(email);
  const { token } = await link(sub);
  const paypalId = fake.approve(basicPaypalPlan);
  fake.setStatus(paypalId, 'ACTIVE');
  expect((await pay(token, paypalId)).status).toBe(200);
  return { sub: await getSub(sub.id), paypalId, token };
}

describe('Sincronizza con PayPal on a plan', () => {
  it('creates the product and a billing plan at the price with VAT, and stores their ids', async () => {
    const res = await admin.post<{ paypalPlanId: string; paypalProductId: string }>(
      `/api/plan/syncPaypal/${basic}`,
    );
    expect(res.status, res.raw).toBe(200);
    basicPaypalPlan = res.body.data!.paypalPlanId;
    expect(fake.plans.get(basicPaypalPlan)).toMatchObject({ price: '12.08', interval: 1 });
    const [row] = await ctx.db.select().from(plans).where(eq(plans.id, basic));
    expect(row).toMatchObject({ paypalPlanId: basicPaypalPlan, paypalPriceCents: 1208 });
    const again = await admin.post<{ paypalPlanId: string; paypalProductId: string }>(
      `/api/plan/syncPaypal/${basic}`,
    );
    expect(again.body.data!.paypalProductId).toBe(res.body.data!.paypalProductId);
    expect(fake.products.size).toBe(1);
    // Back to the first plan id, which the rest of the file uses.
    await ctx.db.update(plans).set({ paypalPlanId: basicPaypalPlan }).where(eq(plans.id, basic));
  });

  it('refuses a User, another tenant’s plan, and stores nothing when PayPal fails', async () => {
    expect((await cliente.post(`/api/plan/syncPaypal/${basic}`)).status).toBe(403);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect((await rossi.post(`/api/plan/syncPaypal/${basic}`)).status).toBe(404);
    const pro = await planId(ctx, 'Demo Srl', 'Pro');
    fake.failNext('POST /v1/billing/plans', 500);
    const failed = await admin.post(`/api/plan/syncPaypal/${pro}`);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain('PayPal è momentaneamente non disponibile');
    const [row] = await ctx.db.select().from(plans).where(eq(plans.id, pro));
    expect(row?.paypalPlanId).toBeNull();
  });
});

describe('payment links', () => {
  it('are unguessable, stored hashed, valid one hour, and show plan, amount and period', async () => {
    const sub = await newSubscription();
    const created = await link(sub);
    // 256 bits after the tenant's prefix (db/tenancy/public-home.ts)
    expect(created.token).toMatch(new RegExp(`^t${demoId}_[A-Za-z0-9_-]{43}$`));
    expect(created.paymentUrl).toBe(`http://localhost:3000/payment?token=${created.token}&bypassTenant=true`);
    expect(created.expiryDate).toBe('2026-01-31T11:00:00.000Z');
    const stored = await ctx.db.select().from(paymentTokens);
    expect(JSON.stringify(stored)).not.toContain(created.token);
    const res = await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', {
      query: { token: created.token },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 0,
      amount: 12.08,
      currency: 'EUR',
      tenantID: demoId,
      paymentId: sub.payments[0]!.id,
      paymentProviderPlanId: basicPaypalPlan,
      providerSubscriptionId: null,
      plan: { name: 'Basic', recurrenceType: 1 },
      costBeforeVAT: 9.9,
      vatPercentage: 22,
    });
  });

  it('a new link retires the older one; expired and unknown tokens are not valid', async () => {
    const sub = await newSubscription();
    const first = await link(sub);
    const second = await link(sub);
    const validate = (token: string) => ctx.api.get('/api/PaymentToken/validate', { query: { token } });
    expect((await validate(first.token)).body).toMatchObject({
      success: false,
      message: 'Token non valido.',
    });
    expect((await validate(second.token)).body.success).toBe(true);
    expect((await validate('x'.repeat(43))).body.success).toBe(false);
    const missing = await ctx.api.get('/api/PaymentToken/validate');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Token mancante nella richiesta.');
    clock.advanceDays(1 / 24);
    expect((await validate(second.token)).body.success).toBe(false);
    clock.set('2026-01-31T10:00:00.000Z');
  });

  it('only for a NotActive subscription of the tenant, by an Admin, at the PayPal plan’s price', async () => {
    const sub = await newSubscription();
    expect((await cliente.post('/api/PaymentToken/create', { paymentId: sub.payments[0]!.id })).status).toBe(
      403,
    );
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect((await rossi.post('/api/PaymentToken/create', { paymentId: sub.payments[0]!.id })).status).toBe(
      404,
    );
    const custom = await newSubscription('mario.rossi@example.com', { paymentAmount: 5 });
    const refused = await admin.post('/api/PaymentToken/create', { paymentId: custom.payments[0]!.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('diverso dal prezzo del piano su PayPal');
    const pro = await createSubscription(admin, {
      userId: await userId(ctx, 'mario.rossi@example.com'),
      planId: await planId(ctx, 'Demo Srl', 'Pro'),
    });
    const noPlan = await admin.post('/api/PaymentToken/create', { paymentId: pro.payments[0]!.id });
    expect(noPlan.status).toBe(409);
    expect(noPlan.body.message).toContain('Sincronizza con PayPal');
    const bad = await admin.post('/api/PaymentToken/create', { paymentId: 'abc' });
    expect(bad.status).toBe(400);
  });
});

describe('the customer pays (PUT api/Payment/updatePayment)', () => {
  it('checks the subscription with PayPal, then the subscription is Active and the token Used; a replay changes nothing', async () => {
    const sub = await newSubscription();
    const { token } = await link(sub);
    const paypalId = fake.approve(basicPaypalPlan);
    clock.advanceDays(1 / 48);
    const res = await pay(token, paypalId);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({ result: 'paid' });
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.payments[0]).toMatchObject({
      providerSubscriptionId: paypalId,
      method: 'paypal',
      paidAt: '2026-01-31T10:30:00.000Z',
    });
    expect(after.allowedActions).toEqual(['cancel']);
    expect(after.history?.at(-1)).toMatchObject({
      event: 'pay',
      fromStatus: 2,
      toStatus: 1,
      actor: { kind: 'paymentToken', name: 'Cliente (link di pagamento)' },
    });
    const before = await snapshot();
    const replay = await pay(token, paypalId);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ result: 'replayed' });
    expect(await snapshot()).toEqual(before);
    // The link is spent.
    const validate = await ctx.api.get('/api/PaymentToken/validate', { query: { token } });
    expect(validate.body.success).toBe(false);
    clock.set('2026-01-31T10:00:00.000Z');
  });

  it('refuses an id PayPal does not know, another plan’s id, a used token with another id, an expired token: nothing changes', async () => {
    const sub = await newSubscription();
    const { token } = await link(sub);
    const before = await snapshot();
    const unknown = await pay(token, 'I-NOTKNOWN000');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('PayPal non conosce questa sottoscrizione.');
    const other = await pay(token, fake.approve('P-ANOTHERPLAN'));
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('La sottoscrizione PayPal è di un altro piano.');
    const pending = fake.approve(basicPaypalPlan);
    fake.setStatus(pending, 'APPROVAL_PENDING');
    expect((await pay(token, pending)).status).toBe(400);
    const garbage = await pay(token, 'I-<script>');
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors?.[0]).toMatch(/^providerSubscriptionId: /);
    expect((await pay('not-a-token', fake.approve(basicPaypalPlan))).body.message).toBe('Token non valido.');
    expect(await snapshot()).toEqual(before);

    // Expired: one hour and a second later.
    clock.advanceDays(1 / 24 + 1 / 86_400);
    const expired = await pay(token, fake.approve(basicPaypalPlan));
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Token non valido.');
    expect(await snapshot()).toEqual(before);
    clock.set('2026-01-31T10:00:00.000Z');

    // Used, then again with another id.
    const paid = await pay(token, fake.approve(basicPaypalPlan));
    expect(paid.status).toBe(200);
    const afterPaid = await snapshot();
    const again = await pay(token, fake.approve(basicPaypalPlan));
    expect(again.status).toBe(400);
    expect(await snapshot()).toEqual(afterPaid);
  });

  it('APPROVED (the first charge not taken yet) pays nothing: pending until PayPal reports it ACTIVE, by the page or by the webhook', async () => {
    // Asked again by the page once PayPal has taken the payment.
    const first = await newSubscription();
    const { token } = await link(first);
    const approved = fake.approve(basicPaypalPlan, undefined, 'APPROVED');
    const before = await snapshot();
    const waiting = await pay(token, approved);
    expect(waiting.status, waiting.raw).toBe(200);
    expect(waiting.body.data).toEqual({ result: 'pending' });
    expect(waiting.body.message).toMatch(/PayPal sta ancora confermando/);
    const afterWaiting = await snapshot();
    expect(afterWaiting.subscriptions).toEqual(before.subscriptions);
    expect(afterWaiting.payments).toEqual(before.payments);
    expect(afterWaiting.events).toEqual(before.events);
    expect((await getSub(first.id)).subscriptionStatus).toBe(2);
    fake.setStatus(approved, 'ACTIVE');
    expect((await pay(token, approved)).body.data).toEqual({ result: 'paid' });
    expect((await getSub(first.id)).subscriptionStatus).toBe(1);

    // Activated by PayPal's webhook while the page was closed.
    const second = await newSubscription('laura.verdi@example.com');
    const link2 = await link(second);
    const approved2 = fake.approve(basicPaypalPlan, undefined, 'APPROVED');
    expect((await pay(link2.token, approved2)).body.data).toEqual({ result: 'pending' });
    const activated = fake.event('BILLING.SUBSCRIPTION.ACTIVATED', { id: approved2, status: 'ACTIVE' });
    const delivered = await deliver(activated);
    expect(delivered.status, delivered.body).toBe(200);
    expect(JSON.parse(delivered.body).data.outcome).toBe('applied');
    const paid = await getSub(second.id);
    expect(paid.subscriptionStatus).toBe(1);
    expect(paid.payments[0]).toMatchObject({ providerSubscriptionId: approved2, method: 'paypal' });
    expect(paid.payments[0]?.paidAt).not.toBeNull();
    // The page asking afterwards is a harmless replay; the token is spent.
    expect((await pay(link2.token, approved2)).body.data).toEqual({ result: 'replayed' });
  });

  it('PayPal failing (500, 503, timeout, 401) on the check changes nothing and says so in Italian', async () => {
    const sub = await newSubscription();
    const { token } = await link(sub);
    const paypalId = fake.approve(basicPaypalPlan);
    const before = await snapshot();
    for (const failure of [500, 503, 'timeout', 401] as const) {
      fake.failNext('GET /v1/billing/subscriptions/', failure, failure === 401 ? 2 : 1);
      const res = await pay(token, paypalId);
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/PayPal/);
      expect(await snapshot()).toEqual(before);
    }
    expect((await pay(token, paypalId)).status).toBe(200);
  });

  it('reuses the OAuth token until it expires', async () => {
    const tokensBefore = fake.calls.filter((c) => c === 'POST /v1/oauth2/token').length;
    const sub = await newSubscription();
    const { token } = await link(sub);
    const paypalId = fake.approve(basicPaypalPlan);
    expect((await pay(token, paypalId)).status).toBe(200);
    expect(fake.calls.filter((c) => c === 'POST /v1/oauth2/token').length).toBe(tokensBefore);
  });
});

describe('cancel (DELETE api/subscription/cancel/{id})', () => {
  it('cancels at PayPal first; when PayPal fails nothing changes and the error is shown', async () => {
    const { sub, paypalId } = await paidSubscription();
    const before = await snapshot();
    for (const failure of [500, 'timeout'] as const) {
      fake.failNext(`POST /v1/billing/subscriptions/${paypalId}/cancel`, failure);
      const res = await admin.delete(`/api/subscription/cancel/${sub.id}`);
      expect(res.status).toBe(502);
      expect(res.body.message).toContain('in Rinnova non è cambiato nulla');
      expect(await snapshot()).toEqual(before);
      expect(fake.subscriptions.get(paypalId)?.status).toBe('ACTIVE');
    }
    const res = await admin.delete<Subscription>(`/api/subscription/cancel/${sub.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data?.subscriptionStatus).toBe(5);
    expect(fake.subscriptions.get(paypalId)?.status).toBe('CANCELLED');
    expect(res.body.data?.history?.at(-1)).toMatchObject({ event: 'cancel', toStatus: 5 });
  });

  it('a subscription PayPal already cancelled is cancelled in Rinnova too; another tenant’s is a 404 with no PayPal call', async () => {
    const { sub, paypalId } = await paidSubscription();
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const calls = fake.calls.length;
    expect((await rossi.delete(`/api/subscription/cancel/${sub.id}`)).status).toBe(404);
    expect(fake.calls.length).toBe(calls);
    expect((await cliente.delete(`/api/subscription/cancel/${sub.id}`)).status).toBe(403);
    fake.setStatus(paypalId, 'CANCELLED');
    const res = await admin.delete<Subscription>(`/api/subscription/cancel/${sub.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data?.subscriptionStatus).toBe(5);
  });
});

describe('sync with PayPal (POST api/subscription/sync-paypal)', () => {
  it('maps SUSPENDED → NotActive, ACTIVE → Active, CANCELLED → Canceled, counts the changes, records each', async () => {
    const a = await paidSubscription('laura.verdi@example.com');
    const b = await paidSubscription('laura.verdi@example.com');
    const c = await paidSubscription('laura.verdi@example.com');
    fake.setStatus(a.paypalId, 'SUSPENDED');
    fake.setStatus(b.paypalId, 'CANCELLED');
    const res = await admin.post<number>('/api/subscription/sync-paypal');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toBe(2);
    expect(res.body.message).toBe('Aggiornate 2 subscription(i) da PayPal ✅');
    expect((await getSub(a.sub.id)).subscriptionStatus).toBe(2);
    expect((await getSub(b.sub.id)).subscriptionStatus).toBe(5);
    expect((await getSub(c.sub.id)).subscriptionStatus).toBe(1);
    expect((await getSub(a.sub.id)).history?.at(-1)).toMatchObject({
      event: 'providerSuspended',
      actor: { kind: 'system', name: 'sync-paypal' },
    });
    fake.setStatus(a.paypalId, 'ACTIVE');
    expect((await admin.post<number>('/api/subscription/sync-paypal')).body.data).toBe(1);
    expect((await getSub(a.sub.id)).subscriptionStatus).toBe(1);
    expect((await admin.post<number>('/api/subscription/sync-paypal')).body.data).toBe(0);
  });

  it('a PayPal failure on any read changes nothing', async () => {
    const a = await paidSubscription('laura.verdi@example.com');
    fake.setStatus(a.paypalId, 'SUSPENDED');
    const before = await snapshot();
    for (const failure of [500, 'timeout', 401] as const) {
      fake.failNext(`GET /v1/billing/subscriptions/${a.paypalId}`, failure, failure === 401 ? 2 : 1);
      const res = await admin.post('/api/subscription/sync-paypal');
      expect(res.status).toBe(502);
      expect(await snapshot()).toEqual(before);
    }
    expect((await cliente.post('/api/subscription/sync-paypal')).status).toBe(403);
    // Studio Rossi has PayPal subscriptions but no PayPal configured: said so, nothing changes.
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const rossiSync = await rossi.post<number>('/api/subscription/sync-paypal');
    expect(rossiSync.status).toBe(409);
    expect(rossiSync.body.message).toBe('Configurazione PayPal non trovata per questo tenant.');
    expect(await snapshot()).toEqual(before);
    expect((await getSub(a.sub.id)).subscriptionStatus).toBe(1);
  });
});

describe('PayPal webhooks (POST api/webhooks/paypal/{tenantId})', () => {
  it('a delivery whose signature PayPal does not confirm is a 400 and changes nothing; no x-api-key needed', async () => {
    const { paypalId } = await paidSubscription();
    const before = await snapshot();
    const event = fake.event('BILLING.SUBSCRIPTION.SUSPENDED', { id: paypalId, status: 'SUSPENDED' });
    const tampered = await deliver(event, { tamper: true });
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body).message).toBe('Firma del webhook non valida: evento ignorato.');
    const unsigned = await client(ctx.app, {}, null).post(`/api/webhooks/paypal/${demoId}`, event);
    expect(unsigned.status).toBe(400);
    // Studio Rossi has no webhook id: nothing there can be verified.
    expect((await deliver(event, { tenantId: rossiId })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    // PayPal down while verifying: 502 (PayPal delivers again later), nothing changes.
    fake.failNext('POST /v1/notifications/verify-webhook-signature', 500);
    expect((await deliver(event)).status).toBe(502);
    expect(await snapshot()).toEqual(before);
  });

  it('status events change the status once per event id, and every event is stored with its outcome', async () => {
    const { sub, paypalId } = await paidSubscription();
    const suspended = fake.event('BILLING.SUBSCRIPTION.SUSPENDED', { id: paypalId, status: 'SUSPENDED' });
    const first = await deliver(suspended);
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body).data).toEqual({ eventId: suspended.id, outcome: 'applied' });
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(2);
    expect(after.history?.at(-1)).toMatchObject({
      event: 'providerSuspended',
      actor: { kind: 'provider', id: suspended.id, name: 'paypal' },
    });
    const before = await snapshot();
    const duplicate = await deliver(suspended);
    expect(duplicate.status).toBe(200);
    expect(JSON.parse(duplicate.body).data.outcome).toBe('duplicate');
    expect(await snapshot()).toEqual(before);

    const activated = fake.event('BILLING.SUBSCRIPTION.ACTIVATED', { id: paypalId, status: 'ACTIVE' });
    expect(JSON.parse((await deliver(activated)).body).data.outcome).toBe('applied');
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);
    const expired = fake.event('BILLING.SUBSCRIPTION.EXPIRED', { id: paypalId, status: 'EXPIRED' });
    await deliver(expired);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(5);
    const stranger = fake.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-STRANGER', status: 'CANCELLED' });
    await deliver(stranger);
    const other = fake.event('CUSTOMER.DISPUTE.CREATED', { id: 'PP-D-1' });
    await deliver(other);
    const stored = await ctx.db
      .select({ eventId: providerWebhookEvents.eventId, outcome: providerWebhookEvents.outcome })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.tenantId, demoId))
      .orderBy(asc(providerWebhookEvents.id));
    expect(stored.slice(-5)).toEqual([
      { eventId: suspended.id, outcome: 'applied' },
      { eventId: activated.id, outcome: 'applied' },
      { eventId: expired.id, outcome: 'applied' },
      { eventId: stranger.id, outcome: 'unknownSubscription' },
      { eventId: other.id, outcome: 'unsupported' },
    ]);
  });

  it('PAYMENT.SALE.COMPLETED: the first charge pays the first payment, each later one is a renewal recorded once', async () => {
    const { sub, paypalId } = await paidSubscription();
    expect(sub.nextBillingDate).toBe('2026-02-28T10:00:00.000Z');
    const sale = (id: string, time: string) =>
      fake.event(
        'PAYMENT.SALE.COMPLETED',
        {
          id,
          billing_agreement_id: paypalId,
          amount: { total: '12.08', currency: 'EUR' },
          state: 'completed',
        },
        time,
      );
    const firstCharge = sale('SALE-1', '2026-01-31T10:01:00Z');
    await deliver(firstCharge);
    expect((await getSub(sub.id)).payments).toHaveLength(1);

    const renewal = sale('SALE-2', '2026-02-28T10:05:00Z');
    const res = await deliver(renewal);
    expect(JSON.parse(res.body).data.outcome).toBe('applied');
    // Delivered again, and the same sale under another event id: still one renewal.
    await deliver(renewal);
    await deliver(sale('SALE-2', '2026-02-28T10:05:00Z'));
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.payments).toHaveLength(2);
    expect(after.payments[1]).toMatchObject({
      amountDue: 12.08,
      method: 'paypal',
      periodStart: '2026-02-28T10:00:00.000Z',
      periodEnd: '2026-03-31T09:00:00.000Z',
      paidAt: '2026-02-28T10:05:00.000Z',
    });
    expect(after.payments[1]!.causale).toMatch(/^RNV-\d+-\d{6}$/);
    expect(after.nextBillingDate).toBe('2026-03-31T09:00:00.000Z');
    const rows = await ctx.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.tenantId, demoId), eq(payments.subscriptionId, sub.id)));
    expect(rows).toHaveLength(2);
  });

  it('PAYMENT.SALE.REFUNDED / REVERSED: the credit note (TD04) of the sale’s invoice, in the webhook’s unit, once', async () => {
    const { sub, paypalId } = await paidSubscription('amministrazione@bianchi-consulting.example.com');
    const charge = fake.event('PAYMENT.SALE.COMPLETED', {
      id: 'SALE-R1',
      billing_agreement_id: paypalId,
      amount: { total: '12.08', currency: 'EUR' },
    });
    await deliver(charge);
    const paymentId = sub.payments[0]!.id;
    const invoiceOf = async (type: 'TD01' | 'TD04') =>
      (
        await ctx.db
          .select()
          .from(invoices)
          .where(
            and(
              eq(invoices.tenantId, demoId),
              eq(invoices.paymentId, paymentId),
              eq(invoices.documentType, type),
            ),
          )
      )[0];
    const invoice = await invoiceOf('TD01');
    expect(invoice).toMatchObject({ paymentMethod: 'MP08', totalCents: 1208 });
    expect(await invoiceOf('TD04')).toBeUndefined();

    // A partial refund: left to a person, said so.
    const partial = fake.event('PAYMENT.SALE.REFUNDED', {
      id: 'REFUND-P1',
      sale_id: 'SALE-R1',
      amount: { total: '-5.00', currency: 'EUR' },
    });
    expect(JSON.parse((await deliver(partial)).body).data).toMatchObject({ outcome: 'ignored' });
    expect(await invoiceOf('TD04')).toBeUndefined();

    const refund = fake.event('PAYMENT.SALE.REFUNDED', {
      id: 'REFUND-1',
      sale_id: 'SALE-R1',
      amount: { total: '12.08', currency: 'EUR' },
    });
    expect(JSON.parse((await deliver(refund)).body).data).toMatchObject({ outcome: 'applied' });
    const note = await invoiceOf('TD04');
    expect(note).toMatchObject({
      relatedInvoiceId: invoice!.id,
      totalCents: 1208,
      reason: 'pagamento rimborsato (PayPal)',
    });
    expect(note!.xml).toContain(`<IdDocumento>${invoice!.numberText}</IdDocumento>`);
    expect(note!.xml).toContain('<TipoDocumento>TD04</TipoDocumento>');
    // Delivered again, and a reversal of the same sale: still one credit note.
    await deliver(refund);
    const reversal = fake.event('PAYMENT.SALE.REVERSED', { id: 'SALE-R1', amount: { total: '-12.08' } });
    expect(JSON.parse((await deliver(reversal)).body).data).toMatchObject({ outcome: 'unchanged' });
    const notes = await ctx.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.tenantId, demoId), eq(invoices.relatedInvoiceId, invoice!.id)));
    expect(notes).toHaveLength(1);
    // A sale nobody knows: recorded as ignored, nothing written.
    const stranger = fake.event('PAYMENT.SALE.REFUNDED', { id: 'REFUND-X', sale_id: 'SALE-NOBODY' });
    expect(JSON.parse((await deliver(stranger)).body).data).toMatchObject({ outcome: 'ignored' });
  });
});

describe('the plan widget (GET api/plan/widget, POST api/subscription/subscribe)', () => {
  // Subscribing through the widget (confirmation e-mail first) is widget-confirmation.test.ts's.
  it('shows an active plan; subscribing answers that a confirmation was sent and creates no customer', async () => {
    const view = await ctx.api.get<{ name: string; amount: number; features: unknown[] }>(
      '/api/plan/widget',
      {
        query: { planId: basic },
      },
    );
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({
      name: 'Basic',
      amount: 12.08,
      recurrenceType: 1,
      tenantName: 'Demo Srl',
    });
    const res = await ctx.api.post<{ confirmationSent: boolean }>('/api/subscription/subscribe', {
      planId: basic,
      email: 'Nuova.Cliente@Example.com',
      name: 'Nuova Cliente',
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({ confirmationSent: true });
    expect(await ctx.db.select().from(users).where(eq(users.email, 'nuova.cliente@example.com'))).toEqual([]);
  });

  it('unknown or inactive plan → 404, a bad e-mail → 400; nothing is written', async () => {
    const before = await snapshot();
    expect(
      (await ctx.api.post('/api/subscription/subscribe', { planId: 999999, email: 'a@b.it' })).status,
    ).toBe(404);
    const enterprise = await planId(ctx, 'Demo Srl', 'Enterprise');
    await ctx.db.update(plans).set({ isActive: false }).where(eq(plans.id, enterprise));
    expect(
      (await ctx.api.post('/api/subscription/subscribe', { planId: enterprise, email: 'a@b.it' })).status,
    ).toBe(404);
    expect((await ctx.api.get('/api/plan/widget', { query: { planId: enterprise } })).status).toBe(404);
    await ctx.db.update(plans).set({ isActive: true }).where(eq(plans.id, enterprise));
    const bad = await ctx.api.post('/api/subscription/subscribe', { planId: basic, email: 'non-una-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['email: Formato email non valido.']);
    expect(await snapshot()).toEqual(before);
  });

  it('public calls are limited per IP', async () => {
    const limited = await ctx.buildAnotherApp({ RATE_LIMIT_PUBLIC: '2' }, { now: clock.now });
    const api = client(limited, {});
    const statuses: number[] = [];
    // An address of its own: on PostgreSQL the counts are shared by every app on the database
    // (lib/shared-counters.ts), and this file's other calls came from the default one.
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await api.put(
            '/api/Payment/updatePayment',
            { token: 'x', providerSubscriptionId: 'I-X' },
            { remoteAddress: '10.0.0.8' },
          )
        ).status,
      );
    expect(statuses).toEqual([400, 400, 429]);
    const widget = client(limited, {});
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (await widget.get('/api/plan/widget', { query: { planId: basic }, remoteAddress: '10.0.0.9' }))
          .status,
      );
    expect(codes).toEqual([200, 200, 429]);
  });
});

describe('a renewal reminder’s link (the job engine’s hook, the real services)', () => {
  it('makes the next period’s payment once, and paying it with PayPal turns on automatic renewal', async () => {
    await giveIban(ctx, 'Demo Srl');
    const sub = await newSubscription('laura.verdi@example.com');
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    await admin.post('/api/BankTransfer/create', {
      paymentId: sub.payments[0]!.id,
      amount: sub.amountDue,
      approvalDate: '2026-01-31T09:00:00Z',
    });
    const active = await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(active.body.data?.subscriptionStatus).toBe(3);
    const periodStart = new Date(active.body.data!.nextBillingDate);
    const tenantId = await ctx.tenantId('Demo Srl');
    const run = () =>
      ctx.app.unitOfWork.run({ tenantId, actor: { kind: 'system', job: 'renewal-reminders' } }, (w) =>
        createRenewalPaymentLink(w, { subscriptionId: sub.id, periodStart }),
      );
    const first = await run();
    const second = await run(); // a second reminder for the same period reuses its payment
    const renewal = (await getSub(sub.id)).payments;
    expect(renewal).toHaveLength(2);
    expect(renewal[1]).toMatchObject({
      amountDue: sub.amountDue,
      periodStart: periodStart.toISOString(),
      periodEnd: '2026-03-31T09:00:00.000Z', // counted from 31 Jan: 31 Mar, not 28 Mar
      paidAt: null,
    });
    // The older link of the same payment is retired.
    expect(
      (await ctx.api.get('/api/PaymentToken/validate', { query: { token: first.token } })).body.success,
    ).toBe(false);
    const paypalId = fake.approve(basicPaypalPlan);
    fake.setStatus(paypalId, 'ACTIVE');
    const paid = await pay(second.token, paypalId);
    expect(paid.status, paid.raw).toBe(200);
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(1);
    expect(after.nextBillingDate).toBe('2026-03-31T09:00:00.000Z');
    expect(after.payments[1]).toMatchObject({ method: 'paypal', providerSubscriptionId: paypalId });
    expect(after.history?.at(-1)).toMatchObject({ event: 'pay', fromStatus: 3, toStatus: 1 });
  });
});

describe('invoices of PayPal payments', () => {
  it('a payment verified with PayPal issues its invoice in the same unit of work, paid by MP08', async () => {
    const { sub } = await paidSubscription('amministrazione@bianchi-consulting.example.com');
    const paymentId = sub.payments[0]!.id;
    const list = await admin.get<{
      items: { paymentId: number; paymentMethod: string; total: number; routing: string }[];
    }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const invoice = list.body.data!.items.find((i) => i.paymentId === paymentId);
    expect(invoice, list.raw).toMatchObject({
      paymentMethod: 'MP08',
      total: sub.amountDue,
      routing: 'Codice SDI M5UXCR1',
    });
  });
});
