/**
 * Issue 30, 'Sospendi incasso' / 'Riprendi ora' with the moved clock:
 * - bank transfer: the renewal payment already made for the paused period is removed; while
 *   paused the renewal reminder, the dunning ladder and the expire job make and chase nothing; the
 *   next billing date moves by the paused periods at the start's Rome wall-clock time (across the
 *   DST change); entitlements kept ('keep') answer paused/pausedUntil; 7 days before the pause's
 *   end the renewal payment is made; the subscription-pauses job ends the pause once (two runs);
 *   the outbound webhooks subscription.paused / subscription.resumed;
 * - entitlements suspended ('suspend') within the paused periods only; 'Riprendi ora' within the
 *   pause: the next billing date is the end of the paused period in course; the rules (field
 *   errors, twice, not paused, a customer);
 * - Stripe: pause_collection {behavior 'void', resumes_at} at Stripe, unset on resume; Stripe
 *   failing: 502 and nothing changed;
 * - PayPal: suspended at PayPal (its SUSPENDED does not suspend the subscription in Rinnova);
 *   PayPal failing: 502 and nothing changed; the pause's end re-activates it (a failure leaves the
 *   pause to the next run).
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  paymentTokens,
  payments,
  subscriptionEvents,
  subscriptions,
  webhookDeliveries,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { entitlementsOf } from '../../../server/modules/integrations/entitlements.service';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  approveWholeAmount,
  createSubscription,
  customersWithoutLiveSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  pointStripeAt,
  subscriptionOf,
} from './helpers';

const clock = movableClock('2026-01-05T10:00:00.000Z');
const DAY = 86_400_000;
const WEBHOOK_ID = 'WH-DEMO-PAUSE';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demoId: number;
let plan: Plan;
let customers: { id: number; email: string }[];

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: 'whsec_rinnova_pause_secret' });
  plan = await create<Plan>(admin, 'plan', {
    name: 'Mensile pausa',
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect((await admin.post(`/api/plan/syncStripe/${plan.id}`)).status).toBe(200);
  expect((await admin.post(`/api/plan/syncPaypal/${plan.id}`)).status).toBe(200);
  const f = await admin.post('/api/planfeature/Create', { planId: plan.id, featureName: 'Archivio pausa' });
  expect(f.status, f.raw).toBe(200);
  customers = await customersWithoutLiveSubscription(ctx, demoId, 5);
  expect(customers.length).toBe(5);
  const hook = await admin.post('/api/webhook/create', {
    url: 'https://prodotto.example.com/rinnova/webhook',
    events: ['subscription.paused', 'subscription.resumed'],
  });
  expect(hook.status, hook.raw).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await Promise.all([paypal?.close(), stripe?.close()]);
});
beforeEach(() => {
  paypal.clearFailures();
  stripe.clearFailures();
});

const getSub = (id: number) => subscriptionOf(admin, id);
const pause = (id: number, body: Record<string, unknown>) =>
  admin.post<{ from: string; until: string; periods: number; entitlements: string }>(
    `/api/subscription/pause/${id}`,
    body,
  );
const resume = (id: number) => admin.post<{ nextBillingDate: string }>(`/api/subscription/resume/${id}`, {});

async function run(job: string) {
  const processed = await ctx.app.jobs!.runJobNow(job, { tenantId: demoId });
  return processed.find((p) => p.data.tenantId === demoId)!;
}

async function paymentsOf(subscriptionId: number) {
  return ctx.db
    .select()
    .from(payments)
    .where(eq(payments.subscriptionId, subscriptionId))
    .orderBy(asc(payments.id));
}

async function historyOf(subscriptionId: number) {
  return ctx.db
    .select({
      event: subscriptionEvents.event,
      from: subscriptionEvents.fromStatus,
      to: subscriptionEvents.toStatus,
    })
    .from(subscriptionEvents)
    .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionEvents.id));
}

async function snapshot(subscriptionId: number) {
  return {
    subscription: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await paymentsOf(subscriptionId),
    events: await historyOf(subscriptionId),
  };
}

async function entitled(customer: number, subscriptionId: number) {
  return (await entitlementsOf(ctx.db, demoId, customer, clock.now())).filter(
    (e) => e.subscriptionId === subscriptionId,
  );
}

async function mailsTo(email: string) {
  return (await ctx.outbox()).filter((m) => m.to === email);
}

/** A monthly subscription whose first payment was confirmed by bank transfer on `start`: ActiveNoRenewal. */
async function paidByTransfer(start: string) {
  const customer = customers.shift()!;
  clock.set(start);
  const sub = await createSubscription(admin, { userId: customer.id, planId: plan.id });
  expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
  const first = (await getSub(sub.id)).payments[0]!;
  expect((await approveWholeAmount(admin, first, start)).status).toBe(200);
  const confirmed = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
  expect(confirmed.status, confirmed.raw).toBe(200);
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  return { sub: after, customer };
}

/** A monthly subscription paid on the payment page through PayPal or Stripe: Active, with the provider's id. */
async function paidAtProvider(kind: 'paypal' | 'stripe', start: string) {
  const customer = customers.shift()!;
  clock.set(start);
  const sub = await createSubscription(admin, { userId: customer.id, planId: plan.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  const token = link.body.data!.token;
  let providerId: string;
  if (kind === 'paypal') {
    const p = (await admin.get<Plan & { paypalPlanId: string | null }>(`/api/plan/GetById/${plan.id}`)).body
      .data!;
    providerId = paypal.approve(p.paypalPlanId!);
    paypal.setStatus(providerId, 'ACTIVE');
    const res = await ctx.api.put('/api/Payment/updatePayment', {
      token,
      providerSubscriptionId: providerId,
    });
    expect(res.status, res.raw).toBe(200);
  } else {
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    providerId = stripe.completeSession(sessionId);
    const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(paid.status, paid.raw).toBe(200);
  }
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(SubscriptionStatus.Active);
  return { sub: after, providerId, customer };
}

async function webhooksFor(subscriptionId: number) {
  const rows = await ctx.db
    .select({ type: webhookDeliveries.eventType, body: webhookDeliveries.body })
    .from(webhookDeliveries)
    .orderBy(asc(webhookDeliveries.id));
  return rows
    .filter((r) => r.type === 'subscription.paused' || r.type === 'subscription.resumed')
    .map((r) => ({
      type: r.type,
      data: (JSON.parse(r.body) as { data: { subscription: { id: number; pause: unknown } } }).data
        .subscription,
    }))
    .filter((r) => r.data.id === subscriptionId);
}

describe('a bank-transfer subscription paused for two periods', () => {
  it('makes and chases nothing while paused, moves the billing date, keeps the entitlements and ends by itself once', async () => {
    const { sub, customer } = await paidByTransfer('2026-01-05T10:00:00.000Z');
    expect(sub.nextBillingDate).toBe('2026-02-05T10:00:00.000Z');
    // 7 days before: the renewal payment of 5 February is made, with its e-mail and link.
    clock.set('2026-01-29T10:00:00.000Z');
    expect((await run(JOB_NAMES.renewalReminders)).outcome).toBe('succeeded');
    const renewal = (await paymentsOf(sub.id)).at(-1)!;
    expect(renewal.periodStart.toISOString()).toBe('2026-02-05T10:00:00.000Z');
    expect(renewal.paidAt).toBeNull();

    clock.set('2026-01-30T15:00:00.000Z');
    const made = await pause(sub.id, { periods: 2, entitlements: 'keep' });
    expect(made.status, made.raw).toBe(200);
    // 5 Feb + 2 months at the start's Rome time (11:00): 5 April is summer time, 09:00 UTC.
    expect(made.body.data).toEqual({
      from: '2026-02-05T10:00:00.000Z',
      until: '2026-04-05T09:00:00.000Z',
      periods: 2,
      entitlements: 'keep',
    });
    expect(made.body.message).toBe('Incasso sospeso: il prossimo addebito è il 05/04/2026.');
    const paused = await getSub(sub.id);
    expect(paused).toMatchObject({
      subscriptionStatus: SubscriptionStatus.ActiveNoRenewal,
      nextBillingDate: '2026-04-05T09:00:00.000Z',
      pause: { from: '2026-02-05T10:00:00.000Z', until: '2026-04-05T09:00:00.000Z', periods: 2 },
    });
    expect(paused.history!.at(-1)).toMatchObject({ event: 'pauseCollection', fromStatus: 3, toStatus: 3 });
    // The renewal payment of the paused period is gone, with its link: nothing is due.
    expect((await paymentsOf(sub.id)).map((p) => p.id)).toEqual([sub.payments[0]!.id]);
    expect(await ctx.db.select().from(paymentTokens).where(eq(paymentTokens.paymentId, renewal.id))).toEqual(
      [],
    );

    // Every renewal path, through the paused periods: nothing made, nothing chased, nothing expired.
    const mailsBefore = (await mailsTo(customer.email)).length;
    for (const day of ['2026-02-05T11:00:00.000Z', '2026-02-20T10:00:00.000Z', '2026-03-28T10:00:00.000Z']) {
      clock.set(day);
      for (const job of [
        JOB_NAMES.renewalReminders,
        JOB_NAMES.dunning,
        JOB_NAMES.expireSubscriptions,
        JOB_NAMES.pauses,
      ])
        expect((await run(job)).outcome, `${job} on ${day}`).toBe('succeeded');
      expect((await paymentsOf(sub.id)).length, day).toBe(1);
      expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    }
    expect((await mailsTo(customer.email)).length).toBe(mailsBefore);

    // Within the pause the entitlements are kept and say so.
    clock.set('2026-02-20T10:00:00.000Z');
    expect(await entitled(customer.id, sub.id)).toEqual([
      expect.objectContaining({ paused: true, pausedUntil: '2026-04-05T09:00:00.000Z', pastDue: false }),
    ]);

    // 7 days before the pause's end: the renewal payment of 5 April.
    clock.set('2026-03-29T09:00:00.000Z');
    expect((await run(JOB_NAMES.renewalReminders)).outcome).toBe('succeeded');
    const next = (await paymentsOf(sub.id)).at(-1)!;
    expect(next.periodStart.toISOString()).toBe('2026-04-05T09:00:00.000Z');
    expect(next.dueDate).toBe('2026-04-05');

    // The pause ends by itself, once.
    clock.set('2026-04-05T10:00:00.000Z');
    expect((await run(JOB_NAMES.pauses)).outcome).toBe('succeeded');
    expect((await run(JOB_NAMES.pauses)).outcome).toBe('succeeded');
    const ended = await getSub(sub.id);
    expect(ended.pause).toBeNull();
    expect(ended.nextBillingDate).toBe('2026-04-05T09:00:00.000Z');
    expect((await historyOf(sub.id)).filter((h) => h.event === 'pauseEnded')).toHaveLength(1);
    // ActiveNoRenewal past its billing date with the transfer due: no longer paused, pastDue
    // through the grace like any renewal by transfer.
    expect(await entitled(customer.id, sub.id)).toEqual([
      expect.objectContaining({ paused: false, pausedUntil: null, pastDue: true }),
    ]);

    const hooks = await webhooksFor(sub.id);
    expect(hooks.map((h) => h.type)).toEqual(['subscription.paused', 'subscription.resumed']);
    expect(hooks[0]!.data.pause).toEqual({
      from: '2026-02-05T10:00:00.000Z',
      until: '2026-04-05T09:00:00.000Z',
      entitlements: 'keep',
    });
  });
});

describe('entitlements suspended, resumed early, and the rules', () => {
  it('suspends the entitlements within the paused periods only; Riprendi ora bills from the end of the paused period in course', async () => {
    const { sub, customer } = await paidByTransfer('2026-01-05T10:00:00.000Z');
    clock.set('2026-01-20T10:00:00.000Z');

    // Field errors, in Italian, and nothing changes.
    const before = await snapshot(sub.id);
    const bad = await pause(sub.id, { periods: 0, entitlements: 'forse' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      'periods: Indica un numero di periodi da 1 a 12',
      'entitlements: Scegli se le funzionalità restano attive o sono sospese',
    ]);
    expect((await pause(sub.id, { periods: 13, entitlements: 'keep' })).status).toBe(400);
    expect((await resume(sub.id)).body.message).toBe('L’incasso di questa sottoscrizione non è sospeso.');
    expect(await snapshot(sub.id)).toEqual(before);

    const made = await pause(sub.id, { periods: 3, entitlements: 'suspend' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data!.until).toBe('2026-05-05T09:00:00.000Z');
    const twice = await pause(sub.id, { periods: 1, entitlements: 'keep' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('L’incasso è già sospeso fino al 05/05/2026.');

    // Before the pause starts the paid period is usable; within it, nothing.
    expect(await entitled(customer.id, sub.id)).toEqual([expect.objectContaining({ paused: false })]);
    clock.set('2026-02-10T10:00:00.000Z');
    expect(await entitled(customer.id, sub.id)).toEqual([]);

    // Riprendi ora on 10 February: the paused period 5 Feb – 5 Mar stays unbilled; billing from 5 March.
    const resumed = await resume(sub.id);
    expect(resumed.status, resumed.raw).toBe(200);
    expect(resumed.body.data).toEqual({ nextBillingDate: '2026-03-05T10:00:00.000Z' });
    expect(resumed.body.message).toBe('Incasso ripreso: il prossimo addebito è il 05/03/2026.');
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ pause: null, nextBillingDate: '2026-03-05T10:00:00.000Z' });
    expect(after.history!.at(-1)).toMatchObject({ event: 'resumeCollection' });
    expect(await entitled(customer.id, sub.id)).toEqual([
      expect.objectContaining({ paused: false, until: '2026-03-05T10:00:00.000Z' }),
    ]);
    // The job later finds nothing to end.
    clock.set('2026-05-06T10:00:00.000Z');
    expect((await run(JOB_NAMES.pauses)).outcome).toBe('succeeded');
    expect((await historyOf(sub.id)).filter((h) => h.event === 'pauseEnded')).toEqual([]);

    // A customer cannot pause; another tenant's subscription is not found.
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect(
      (await cliente.post(`/api/subscription/pause/${sub.id}`, { periods: 1, entitlements: 'keep' })).status,
    ).toBe(403);
    const other = await ctx.as('superadmin', 'Studio Rossi');
    expect(
      (await other.post(`/api/subscription/pause/${sub.id}`, { periods: 1, entitlements: 'keep' })).status,
    ).toBe(404);
  });

  it('resumed before the pause began, the billing date goes back', async () => {
    const { sub } = await paidByTransfer('2026-06-10T08:00:00.000Z');
    clock.set('2026-06-15T08:00:00.000Z');
    expect((await pause(sub.id, { periods: 2, entitlements: 'keep' })).status).toBe(200);
    expect((await getSub(sub.id)).nextBillingDate).toBe('2026-09-10T08:00:00.000Z');
    const resumed = await resume(sub.id);
    expect(resumed.body.data).toEqual({ nextBillingDate: '2026-07-10T08:00:00.000Z' });
  });
});

describe('Stripe', () => {
  it('pauses collection at Stripe (void, resumes_at), resumes it; a Stripe failure changes nothing', async () => {
    const { sub, providerId } = await paidAtProvider('stripe', '2026-03-02T10:00:00.000Z');
    clock.set('2026-03-10T10:00:00.000Z');
    const before = await snapshot(sub.id);
    stripe.failNext(`POST /v1/subscriptions/${providerId}`, 500);
    const failed = await pause(sub.id, { periods: 1, entitlements: 'keep' });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/Stripe/);
    expect(await snapshot(sub.id)).toEqual(before);
    expect(stripe.subscriptions.get(providerId)!.pause_collection).toBeNull();

    const made = await pause(sub.id, { periods: 1, entitlements: 'keep' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data!.until).toBe('2026-05-02T09:00:00.000Z');
    expect(stripe.subscriptions.get(providerId)!.pause_collection).toEqual({
      behavior: 'void',
      resumes_at: Date.parse('2026-05-02T09:00:00.000Z') / 1000,
    });
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.Active);

    clock.set('2026-04-03T10:00:00.000Z');
    const resumed = await resume(sub.id);
    expect(resumed.status, resumed.raw).toBe(200);
    expect(resumed.body.data).toEqual({ nextBillingDate: '2026-05-02T09:00:00.000Z' });
    expect(stripe.subscriptions.get(providerId)!.pause_collection).toBeNull();
  });
});

describe('PayPal', () => {
  it('suspends at PayPal without suspending the subscription; re-activates when the pause ends, retrying a failure', async () => {
    const { sub, providerId } = await paidAtProvider('paypal', '2026-03-03T10:00:00.000Z');
    clock.set('2026-03-10T10:00:00.000Z');
    const before = await snapshot(sub.id);
    paypal.failNext(`POST /v1/billing/subscriptions/${providerId}/suspend`, 500);
    const failed = await pause(sub.id, { periods: 1, entitlements: 'suspend' });
    expect(failed.status).toBe(502);
    expect(await snapshot(sub.id)).toEqual(before);
    expect(paypal.subscriptions.get(providerId)!.status).toBe('ACTIVE');

    const made = await pause(sub.id, { periods: 1, entitlements: 'suspend' });
    expect(made.status, made.raw).toBe(200);
    expect(paypal.subscriptions.get(providerId)!.status).toBe('SUSPENDED');
    // PayPal's SUSPENDED, read by the sync, does not suspend the subscription.
    const synced = await admin.post('/api/subscription/sync-paypal', {});
    expect(synced.status, synced.raw).toBe(200);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.Active);

    // The pause's end: PayPal refuses once (the pause stays), then the next run re-activates it.
    clock.set(new Date(Date.parse(made.body.data!.until) + DAY / 24).toISOString());
    paypal.failNext(`POST /v1/billing/subscriptions/${providerId}/activate`, 500);
    expect((await run(JOB_NAMES.pauses)).outcome).toBe('failed');
    expect((await getSub(sub.id)).pause).not.toBeNull();
    expect((await run(JOB_NAMES.pauses)).outcome).toBe('succeeded');
    expect(paypal.subscriptions.get(providerId)!.status).toBe('ACTIVE');
    const ended = await getSub(sub.id);
    expect(ended.pause).toBeNull();
    expect(ended.subscriptionStatus).toBe(SubscriptionStatus.Active);
    expect(ended.nextBillingDate).toBe('2026-05-03T09:00:00.000Z');
  });
});
