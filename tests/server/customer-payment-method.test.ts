/**
 * 'Metodo di pagamento' of the customer area (issue 28):
 * `POST api/user/me/subscriptions/{id}/paymentMethod {action}` on the caller's OWN subscription.
 * 'portal': Stripe's billing portal session for the subscription's Stripe customer (made on the
 * fake Stripe), PayPal's automatic payments page. 'bankTransfer': the renewal is stopped at the
 * provider first (a provider failure changes nothing), then Active → ActiveNoRenewal and the next
 * period's payment is a bank transfer: the reminder mails its instructions (with a card link
 * beside them, issue 29), at the expiry the subscription stays ActiveNoRenewal in its grace while
 * the transfer is awaited (issue 29: a renewal by bank transfer), 'Paga ora' answers them, the
 * Admin records the transfer ('Segna come pagato'). Idempotent.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customerAreaMessages } from '../../contract/messages';
import type {
  BankTransferInstructions,
  PayNow,
  PaymentMethodAnswer,
  Subscription,
} from '../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../contract/subscription-status';
import { payments, subscriptionEvents, subscriptions, userTenants, users } from '../../server/db/schema';
import { JOB_NAMES } from '../../server/modules/billing/billing-jobs';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import { createTestContext, DEMO, type ApiClient, type TestContext } from './helpers/test-app';
import {
  addPlan,
  createSubscription,
  DEMO_IBAN,
  giveIban,
  movableClock,
  planId,
  pointPayPalAt,
  userId,
  pointStripeAt,
  subscriptionOf,
} from './billing/helpers';

const START = '2026-03-10T09:00:00.000Z';
const clock = movableClock(START);
let paypal: FakePayPal;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let me: number;
let mario: number;
let basic: number;
let paypalPlan: string;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: 'WH-DEMO-0001' });
  await pointStripeAt(admin, { url: stripe.url });
  const p = await admin.post<{ paypalPlanId: string }>(`/api/plan/syncPaypal/${basic}`);
  expect(p.status, p.raw).toBe(200);
  paypalPlan = p.body.data!.paypalPlanId;
  expect((await admin.post(`/api/plan/syncStripe/${basic}`)).status).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([paypal.close(), stripe.close()]);
});
beforeEach(() => {
  clock.set(START);
  paypal.clearFailures();
  stripe.clearFailures();
});

const method = (api: ApiClient, id: number, action: string) =>
  api.post<PaymentMethodAnswer>(`/api/user/me/subscriptions/${id}/paymentMethod`, { action });
const getSub = (id: number) => subscriptionOf(admin, id);

async function linkOf(sub: Subscription): Promise<string> {
  const res = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.data!.token;
}

/** A subscription of the demo customer paid by card on (fake) Stripe Checkout: Active. */
async function activeByStripe() {
  const sub = await createSubscription(admin, { userId: me, planId: basic });
  const token = await linkOf(sub);
  const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
  expect(checkout.status, checkout.raw).toBe(200);
  const sessionId = checkout.body.data!.sessionId;
  const providerId = stripe.completeSession(sessionId);
  const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
  expect(confirmed.status, confirmed.raw).toBe(200);
  const active = await getSub(sub.id);
  expect(active.subscriptionStatus).toBe(SubscriptionStatus.Active);
  return { sub: active, providerId };
}

/** The same, paid with (fake) PayPal. */
async function activeByPaypal() {
  const sub = await createSubscription(admin, { userId: me, planId: basic });
  const token = await linkOf(sub);
  const providerId = paypal.approve(paypalPlan);
  paypal.setStatus(providerId, 'ACTIVE');
  const paid = await ctx.api.put('/api/Payment/updatePayment', { token, providerSubscriptionId: providerId });
  expect(paid.status, paid.raw).toBe(200);
  const active = await getSub(sub.id);
  expect(active.subscriptionStatus).toBe(SubscriptionStatus.Active);
  return { sub: active, providerId };
}

/** What the switch may change: the subscription row, its payments, its history. */
async function state(subscriptionId: number) {
  return {
    sub: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await ctx.db
      .select()
      .from(payments)
      .where(eq(payments.subscriptionId, subscriptionId))
      .orderBy(asc(payments.id)),
    events: await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionEvents.id)),
  };
}

describe("action 'portal'", () => {
  it('Stripe: a billing portal session for the subscription’s own Stripe customer, back to the area', async () => {
    const { sub, providerId } = await activeByStripe();
    const before = stripe.portalSessions.size;
    const res = await method(cliente, sub.id, 'portal');
    expect(res.status, res.raw).toBe(200);
    expect(stripe.portalSessions.size).toBe(before + 1);
    const session = [...stripe.portalSessions.values()].at(-1)!;
    expect(session.customer).toBe(stripe.subscriptions.get(providerId)!.customer);
    expect(session.return_url).toMatch(/^https?:\/\/[^/]+\/$/);
    expect(res.body.data).toEqual({ action: 'portal', provider: 'stripe', url: session.url });
    expect(stripe.calls).toContain('POST /v1/billing_portal/sessions');
    // Nothing of the subscription changes.
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.Active);
  });

  it('PayPal: the automatic payments page of the row’s PayPal site (sandbox), no call to PayPal', async () => {
    const { sub } = await activeByPaypal();
    const res = await method(cliente, sub.id, 'portal');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      action: 'portal',
      provider: 'paypal',
      url: 'https://www.sandbox.paypal.com/myaccount/autopay/',
    });
  });

  it('a Stripe failure is a 502 with Stripe’s Italian message; a subscription with no provider a 409', async () => {
    const { sub } = await activeByStripe();
    stripe.failNext('POST /v1/billing_portal/sessions', 503);
    const failed = await method(cliente, sub.id, 'portal');
    expect(failed.status, failed.raw).toBe(502);
    expect(failed.body.message).toMatch(/Stripe/);

    const unpaid = await createSubscription(admin, { userId: me, planId: basic });
    const none = await method(cliente, unpaid.id, 'portal');
    expect(none.status, none.raw).toBe(409);
    expect(none.body.message).toBe(customerAreaMessages.noProviderPage);
  });
});

describe("action 'bankTransfer'", () => {
  it('Stripe: cancelled at the period’s end, ActiveNoRenewal, the next period a bank transfer; again: nothing more', async () => {
    const { sub, providerId } = await activeByStripe();
    const res = await method(cliente, sub.id, 'bankTransfer');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      action: 'bankTransfer',
      nextBillingDate: sub.nextBillingDate,
      changed: true,
    });
    expect(res.body.message).toMatch(/^Fatto: il rinnovo automatico è disattivato\. Dal \d\d\/\d\d\/2026/);
    const remote = stripe.subscriptions.get(providerId)!;
    expect(remote).toMatchObject({ cancel_at_period_end: true, status: 'active' });

    const after = await state(sub.id);
    expect(after.sub[0]?.status).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(after.payments).toHaveLength(2);
    const next = after.payments[1]!;
    expect(next).toMatchObject({
      method: 'bankTransfer',
      paidAt: null,
      amountDueCents: after.payments[0]!.amountDueCents,
    });
    expect(next.periodStart.toISOString()).toBe(sub.nextBillingDate);
    expect(res.body.data).toMatchObject({ paymentId: next.id });
    expect(after.events.at(-1)).toMatchObject({
      event: 'switchToBankTransfer',
      fromStatus: SubscriptionStatus.Active,
      toStatus: SubscriptionStatus.ActiveNoRenewal,
      actorKind: 'user',
      actorId: String(me),
    });

    const calls = stripe.calls.length;
    const again = await method(cliente, sub.id, 'bankTransfer');
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data).toMatchObject({ changed: false, paymentId: next.id });
    expect(stripe.calls.length).toBe(calls);
    expect(await state(sub.id)).toEqual(after);
  });

  it('PayPal: cancelled at PayPal (no more charges), then as for Stripe', async () => {
    const { sub, providerId } = await activeByPaypal();
    const res = await method(cliente, sub.id, 'bankTransfer');
    expect(res.status, res.raw).toBe(200);
    expect(paypal.subscriptions.get(providerId)?.status).toBe('CANCELLED');
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    // PayPal's webhook of the cancel moves nothing: the paid period runs to its end.
    const hook = paypal.signWebhook(
      paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: providerId, status: 'CANCELLED' }),
      'WH-DEMO-0001',
    );
    const delivered = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/paypal/${demoId}`,
      headers: hook.headers,
      payload: hook.body,
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  });

  for (const [name, fail] of [
    ['Stripe', (id: string) => stripe.failNext(`POST /v1/subscriptions/${id}`, 503)],
    ['PayPal', (id: string) => paypal.failNext(`POST /v1/billing/subscriptions/${id}/cancel`, 500)],
  ] as const) {
    it(`a ${name} failure changes nothing (502), and a retry then works`, async () => {
      const { sub, providerId } = await (name === 'Stripe' ? activeByStripe() : activeByPaypal());
      const before = await state(sub.id);
      fail(providerId);
      const res = await method(cliente, sub.id, 'bankTransfer');
      expect(res.status, res.raw).toBe(502);
      expect(res.body.message).toMatch(new RegExp(`${name}.*in Rinnova non è cambiato nulla`));
      expect(await state(sub.id)).toEqual(before);
      if (name === 'Stripe') expect(stripe.subscriptions.get(providerId)?.cancel_at_period_end).toBe(false);
      else expect(paypal.subscriptions.get(providerId)?.status).toBe('ACTIVE');
      expect((await method(cliente, sub.id, 'bankTransfer')).status).toBe(200);
    });
  }

  it('the next renewal is a bank transfer: instructions by e-mail, in grace at expiry (issue 29), Paga ora, the Admin records it', async () => {
    const { sub } = await activeByStripe();
    const switched = await method(cliente, sub.id, 'bankTransfer');
    expect(switched.status, switched.raw).toBe(200);
    const [, next] = (await state(sub.id)).payments;
    const nextBilling = Date.parse(sub.nextBillingDate);

    // The reminder, 3 days before: the transfer's instructions (issue 29: a card or PayPal link
    // beside them, for a customer who would rather pay online after all).
    clock.set(new Date(nextBilling - 3 * 86_400_000).toISOString());
    const mailsBefore = (await ctx.outbox()).length;
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const mails = (await ctx.outbox()).slice(mailsBefore).filter((m) => m.to === DEMO.cliente);
    const reminder = mails.filter((m) => m.text.includes(next!.causale));
    expect(reminder).toHaveLength(1);
    expect(reminder[0]!.text).toContain(DEMO_IBAN);
    expect(reminder[0]!.subject).toContain('istruzioni per il bonifico');
    expect(reminder[0]!.text).toContain('Preferisci pagare con carta o PayPal?');
    expect((await state(sub.id)).payments).toHaveLength(2);
    expect((await pay(sub.id)).status).toBe(409); // still ActiveNoRenewal: nothing due yet

    // The period ends (issue 29): the subscription stays ActiveNoRenewal while the transfer is in
    // collection — no expiry, no BankTransferPending; the dunning ladder applies.
    clock.set(new Date(nextBilling + 3_600_000).toISOString());
    await ctx.app.jobs!.runJobNow(JOB_NAMES.expireSubscriptions, { tenantId: demoId });
    const expired = await state(sub.id);
    expect(expired.sub[0]?.status).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(expired.events.at(-1)).toMatchObject({ event: 'switchToBankTransfer' });

    // 'Paga ora' and the Admin's instructions name the new period's payment.
    const due = await pay(sub.id);
    expect(due.status, due.raw).toBe(200);
    expect(due.body.data).toMatchObject({
      method: 'bankTransfer',
      paymentId: next!.id,
      causale: next!.causale,
      iban: DEMO_IBAN,
      netToPay: next!.amountDueCents / 100,
    });
    const adminView = await admin.get<BankTransferInstructions>(
      `/api/subscription/bankTransferInstructions/${sub.id}`,
    );
    expect(adminView.body.data).toMatchObject({ causale: next!.causale });

    // The Admin records the transfer ('Segna come pagato'): paid, ActiveNoRenewal to the period's end.
    const marked = await admin.post(`/api/collection/markPaid/${next!.id}`, {
      amount: next!.amountDueCents / 100,
      approvalDate: clock.now().toISOString(),
    });
    expect(marked.status, marked.raw).toBe(200);
    const done = await state(sub.id);
    expect(done.sub[0]).toMatchObject({
      status: SubscriptionStatus.ActiveNoRenewal,
      nextBillingDate: next!.periodEnd,
    });
    expect(done.payments).toHaveLength(2);
    expect(done.payments[1]).toMatchObject({ method: 'bankTransfer' });
    expect(done.payments[1]?.paidAt).not.toBeNull();
    expect((await pay(sub.id)).status).toBe(409);
  });

  it('a plan change withdraws the transfer asked: the choice stays, the next reminder asks the new plan by transfer (issue 30)', async () => {
    const pro = await addPlan(admin, 'Basic Plus bonifico', 49, 1);
    expect((await admin.post(`/api/plan/syncStripe/${pro.id}`)).status).toBe(200);
    const { sub } = await activeByStripe();
    expect((await method(cliente, sub.id, 'bankTransfer')).status).toBe(200);
    const [, asked] = (await state(sub.id)).payments;
    expect(asked).toMatchObject({ method: 'bankTransfer', paidAt: null });

    // An upgrade now: the renewal asked at the old price is withdrawn (it is asked again at the new one).
    const changed = await admin.post(`/api/subscription/changePlan/${sub.id}`, {
      planId: pro.id,
      when: 'now',
    });
    expect(changed.status, changed.raw).toBe(200);
    const afterChange = await state(sub.id);
    expect(afterChange.payments.map((p) => p.id)).not.toContain(asked!.id);
    expect(afterChange.sub[0]?.status).toBe(SubscriptionStatus.ActiveNoRenewal);

    // The reminder: the new plan's month, by transfer (before, a card link: the choice was lost).
    const nextBilling = Date.parse(sub.nextBillingDate);
    clock.set(new Date(nextBilling - 3 * 86_400_000).toISOString());
    const mailsBefore = (await ctx.outbox()).length;
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const next = (await state(sub.id)).payments.find(
      (p) => p.periodStart.toISOString() === sub.nextBillingDate && p.planChangeId === null,
    );
    expect(next).toMatchObject({ method: 'bankTransfer', paidAt: null, amountDueCents: 5978 });
    const mails = (await ctx.outbox()).slice(mailsBefore).filter((m) => m.text.includes(next!.causale));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('istruzioni per il bonifico');
    expect(mails[0]!.text).toContain(DEMO_IBAN);
    const due = await pay(sub.id);
    expect(due.status).toBe(409); // nothing due before the billing date, as for any renewal by transfer
  });

  it('only from an active subscription (409), and needs the seller’s IBAN (409, nothing written)', async () => {
    const unpaid = await createSubscription(admin, { userId: me, planId: basic });
    const res = await method(cliente, unpaid.id, 'bankTransfer');
    expect(res.status, res.raw).toBe(409);
    expect(res.body.message).toBe(customerAreaMessages.switchOnlyActive);

    const { sub, providerId } = await activeByStripe();
    await giveIban(ctx, 'Demo Srl', null);
    try {
      const before = await state(sub.id);
      const noIban = await method(cliente, sub.id, 'bankTransfer');
      expect(noIban.status, noIban.raw).toBe(409);
      expect(await state(sub.id)).toEqual(before);
      // Refused before Stripe is asked: the card keeps renewing.
      expect(stripe.subscriptions.get(providerId)).toMatchObject({
        status: 'active',
        cancel_at_period_end: false,
      });
    } finally {
      await giveIban(ctx, 'Demo Srl');
    }
  });
});

const pay = (id: number) => cliente.post<PayNow>(`/api/user/me/subscriptions/${id}/pay`);

describe('own rows only', () => {
  it('another customer’s and another tenant’s subscriptions are 404 for both actions, and nothing is called', async () => {
    const marios = await createSubscription(admin, { userId: mario, planId: basic });
    const rossiId = await ctx.tenantId('Studio Rossi');
    const [rossiCustomer] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(userTenants, eq(userTenants.userId, users.id))
      .where(and(eq(userTenants.tenantId, rossiId), eq(users.roleId, 3)))
      .limit(1);
    const rossi = await createSubscription(await ctx.as('superadmin', 'Studio Rossi'), {
      userId: rossiCustomer!.id,
      planId: await planId(ctx, 'Studio Rossi', 'Consulenza mensile'),
    });
    const calls = stripe.calls.length + paypal.calls.length;
    for (const id of [marios.id, rossi.id, 2_000_000_000])
      for (const action of ['portal', 'bankTransfer']) {
        const res = await method(cliente, id, action);
        expect(res.status, `${id} ${action}: ${res.raw}`).toBe(404);
      }
    expect(stripe.calls.length + paypal.calls.length).toBe(calls);
  });

  it('staff get 403, nobody signed in 401, an unknown action 400', async () => {
    const { sub } = await activeByStripe();
    expect((await method(admin, sub.id, 'portal')).status).toBe(403);
    expect(
      (await ctx.api.post(`/api/user/me/subscriptions/${sub.id}/paymentMethod`, { action: 'portal' })).status,
    ).toBe(401);
    const bad = await method(cliente, sub.id, 'cancel');
    expect(bad.status, bad.raw).toBe(400);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.Active);
  });
});
