/**
 * Trials against the fake PayPal and the fake Stripe (issue 30, 'Proof': a scenario with the moved
 * clock for each change, provider failures included). A trial's first payment, paid by PayPal from
 * the reminder's link, converts the trial once (one invoice, the first period from the trial's end)
 * and PayPal's sale of that cycle and its next renewal are recorded once each, the renewal as the
 * period after the first. A provider that fails while the customer pays (Stripe opening its
 * Checkout, PayPal answering for the approved subscription) changes nothing: the trial runs on,
 * unpaid, its link still valid, and a retry converts it.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  invoices,
  paymentTokens,
  payments,
  subscriptionEvents,
  subscriptions,
} from '../../../server/db/schema';
import type { JobEngine } from '../../../server/jobs/engine';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  createSubscription,
  customersWithoutLiveSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  pointStripeAt,
  subscriptionOf,
} from './helpers';

const clock = movableClock('2026-04-01T08:00:00.000Z');
const DAY = 86_400_000;
const WEBHOOK_ID = 'WH-TRIAL-0001';
let paypal: FakePayPal;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
let demoId: number;
let trialPlan: Plan;
let paypalPlanId: string;
let customers: { id: number; email: string }[];

beforeAll(async () => {
  paypal = await startFakePayPal();
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  jobs = ctx.app.jobs!;
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url });
  trialPlan = await create<Plan>(admin, 'plan', {
    name: 'Studio con prova',
    recurringCostBeforeVAT: 40,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
    trialDays: 10,
  });
  const synced = await admin.post<{ paypalPlanId: string }>(`/api/plan/syncPaypal/${trialPlan.id}`);
  expect(synced.status, synced.raw).toBe(200);
  paypalPlanId = synced.body.data!.paypalPlanId;
  expect((await admin.post(`/api/plan/syncStripe/${trialPlan.id}`)).status).toBe(200);
  customers = await customersWithoutLiveSubscription(ctx, demoId, 3);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await paypal?.close();
  await stripe?.close();
});
beforeEach(() => {
  paypal.clearFailures();
  stripe.clearFailures();
});

async function trials() {
  const processed = await jobs.runJobNow(JOB_NAMES.trials, { tenantId: demoId });
  const mine = processed.find((p) => p.data.tenantId === demoId)!;
  expect(mine.outcome, JSON.stringify(mine.output)).toBe('succeeded');
  return mine.output as Record<string, unknown>;
}

/** A trial of customer `i` started at `start`, and the payment link of its reminder (3 days before the end). */
async function remindedTrial(i: number, start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: customers[i]!.id, planId: trialPlan.id });
  expect(sub.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  clock.set(new Date(Date.parse(sub.trialEndsAt!) - 3 * DAY + 3_600_000).toISOString());
  expect(await trials()).toMatchObject({ reminded: 1 });
  const mail = (await ctx.outbox()).find(
    (m) => m.to === customers[i]!.email && m.subject.includes('termina il'),
  );
  const token = /\/payment\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  expect(token, 'the reminder carries a payment link').toBeDefined();
  return { sub, token: token! };
}

/** PayPal's signed delivery to the tenant's webhook. */
async function deliver(event: Record<string, unknown>) {
  const signed = paypal.signWebhook(event, WEBHOOK_ID);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/paypal/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (JSON.parse(res.body) as { data: { outcome: string } }).data.outcome;
}

const td01Of = async (subscriptionId: number) =>
  ctx.db
    .select({ paymentId: invoices.paymentId })
    .from(invoices)
    .innerJoin(payments, eq(payments.id, invoices.paymentId))
    .where(and(eq(payments.subscriptionId, subscriptionId), eq(invoices.documentType, 'TD01')));

/** What a refused payment must leave as it was: the subscription, its payments, links and history. */
async function snapshotOf(subscriptionId: number) {
  return {
    sub: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await ctx.db
      .select()
      .from(payments)
      .where(eq(payments.subscriptionId, subscriptionId))
      .orderBy(asc(payments.id)),
    tokens: await ctx.db.select().from(paymentTokens).orderBy(asc(paymentTokens.id)),
    history: await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionEvents.id)),
  };
}

describe('a trial paid with PayPal from its reminder', () => {
  it('converts once with one invoice; PayPal’s first sale and its renewal are recorded once each', async () => {
    const { sub, token } = await remindedTrial(0, '2026-04-01T08:00:00.000Z');
    const ends = sub.trialEndsAt!;
    const first = sub.payments[0]!;
    const approved = paypal.approve(paypalPlanId, undefined, 'ACTIVE', { at: clock.now() });
    for (const expected of ['paid', 'replayed']) {
      const paid = await ctx.api.put<{ result: string }>('/api/Payment/updatePayment', {
        token,
        providerSubscriptionId: approved,
      });
      expect(paid.status, paid.raw).toBe(200);
      expect(paid.body.data!.result).toBe(expected);
    }
    const converted = await subscriptionOf(admin, sub.id);
    expect(converted).toMatchObject({
      subscriptionStatus: SubscriptionStatus.Active,
      trialState: 'converted',
      // The free days stay the customer's: the first period runs from the trial's end.
      nextBillingDate: first.periodEnd,
    });
    expect(converted.payments).toHaveLength(1);
    expect(converted.payments[0]).toMatchObject({
      id: first.id,
      method: 'paypal',
      providerSubscriptionId: approved,
      periodStart: ends,
    });
    expect(await td01Of(sub.id)).toEqual([{ paymentId: first.id }]);

    // PayPal's sale of the first cycle is the first payment's; a second event of the same sale
    // changes nothing.
    const sale = paypal.charges.find((c) => c.subscriptionId === approved)!;
    expect(await deliver(paypal.saleEvent(sale))).toBe('applied');
    expect(await deliver(paypal.saleEvent(sale))).toBe('unchanged');
    expect((await subscriptionOf(admin, sub.id)).payments).toHaveLength(1);

    // PayPal renews on the anniversary of the payment, three days before Rinnova's period ends:
    // recorded as the period after the first (from its end), with its own invoice; the same event
    // delivered again is a duplicate.
    clock.set(new Date(clock.now().getTime() + 30 * DAY).toISOString());
    const renewal = paypal.renew(approved, clock.now()).event;
    expect(await deliver(renewal)).toBe('applied');
    expect(await deliver(renewal)).toBe('duplicate');
    const renewed = await subscriptionOf(admin, sub.id);
    expect(renewed.payments).toHaveLength(2);
    const second = renewed.payments.find((p) => p.id !== first.id)!;
    expect(second).toMatchObject({ method: 'paypal', periodStart: first.periodEnd });
    expect(renewed.nextBillingDate).toBe(second.periodEnd);
    expect((await td01Of(sub.id)).map((r) => r.paymentId).sort()).toEqual([first.id, second.id].sort());

    // The trial's end passes: a converted trial is left alone.
    clock.set(new Date(Date.parse(ends) + DAY).toISOString());
    expect(await trials()).toMatchObject({ reminded: 0, expired: 0 });
  }, 60_000);
});

describe('a provider failing while the customer pays a trial', () => {
  it('Stripe refusing to open its Checkout: a 502 in Italian and nothing changes; the retry converts', async () => {
    const { sub, token } = await remindedTrial(1, '2026-05-04T08:00:00.000Z');
    const before = await snapshotOf(sub.id);
    stripe.failNext('POST /v1/checkout/sessions', 500);
    const failed = await ctx.api.post('/api/Payment/stripe/checkout', { token });
    expect(failed.status).toBe(502);
    expect(failed.body.success).toBe(false);
    expect(failed.body.message).toMatch(/Stripe/);
    expect(await snapshotOf(sub.id)).toEqual(before);
    expect((await subscriptionOf(admin, sub.id)).trialState).toBe('running');

    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(checkout.status, checkout.raw).toBe(200);
    stripe.completeSession(checkout.body.data!.sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: checkout.body.data!.sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    expect(await subscriptionOf(admin, sub.id)).toMatchObject({
      subscriptionStatus: SubscriptionStatus.Active,
      trialState: 'converted',
    });
    expect(await td01Of(sub.id)).toHaveLength(1);
  }, 60_000);

  it('PayPal failing when asked for the approved subscription: a 502 and nothing changes; the retry converts', async () => {
    const { sub, token } = await remindedTrial(2, '2026-06-01T08:00:00.000Z');
    const approved = paypal.approve(paypalPlanId, undefined, 'ACTIVE', { at: clock.now() });
    const before = await snapshotOf(sub.id);
    paypal.failNext(`GET /v1/billing/subscriptions/${approved}`, 503);
    const failed = await ctx.api.put('/api/Payment/updatePayment', {
      token,
      providerSubscriptionId: approved,
    });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/PayPal/);
    expect(await snapshotOf(sub.id)).toEqual(before);

    const paid = await ctx.api.put<{ result: string }>('/api/Payment/updatePayment', {
      token,
      providerSubscriptionId: approved,
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data!.result).toBe('paid');
    expect(await subscriptionOf(admin, sub.id)).toMatchObject({
      subscriptionStatus: SubscriptionStatus.Active,
      trialState: 'converted',
    });
    expect(await td01Of(sub.id)).toHaveLength(1);
  }, 60_000);
});
