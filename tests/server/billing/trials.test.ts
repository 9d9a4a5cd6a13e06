/**
 * Free trials (issue 30, 'Prove'), through the real server and the moved clock: a plan's
 * `trialDays` (Italian field errors), a subscription created on it starts its trial (ActiveNoRenewal,
 * `trialEndsAt`, entitlements with `trial: true`, no invoice, nothing paid), the trials job
 * reminds once three days before the end with a payment link, the first payment paid (fake Stripe
 * through that link, or 'Segna come pagato') converts it with one invoice, and an unpaid trial
 * ends NotActive once (system actor, e-mail, outbound webhook). Every job runs twice.
 */
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialMessages, type Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  invoices,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  webhookDeliveries,
} from '../../../server/db/schema';
import type { JobEngine } from '../../../server/jobs/engine';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { trialEnd } from '../../../server/modules/billing/trials';
import { entitlementsOf } from '../../../server/modules/integrations/entitlements.service';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create, dataOf } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  createSubscription,
  customersWithoutLiveSubscription,
  giveIban,
  movableClock,
  pointStripeAt,
} from './helpers';

const clock = movableClock('2026-01-05T10:00:00.000Z');
const DAY = 86_400_000;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
let demoId: number;
let trialPlan: Plan;
let customers: { id: number; email: string }[];

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  jobs = ctx.app.jobs!;
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url });
  trialPlan = await create<Plan>(admin, 'plan', {
    name: 'Pro con prova',
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
    trialDays: 14,
  });
  await create(admin, 'planfeature', { planId: trialPlan.id, featureName: 'Report avanzati' });
  expect((await admin.post(`/api/plan/syncStripe/${trialPlan.id}`)).status).toBe(200);
  customers = await customersWithoutLiveSubscription(ctx, demoId, 4);
  const hook = await admin.post('/api/webhook/create', {
    url: 'https://prodotto.example.com/rinnova/webhook',
    events: ['subscription.expired', 'payment.succeeded'],
  });
  expect(hook.status, hook.raw).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const getSub = async (id: number) =>
  dataOf(await admin.get<Subscription & { history: { event: string }[] }>(`/api/subscription/GetById/${id}`));

async function run(job: string) {
  const processed = await jobs.runJobNow(job, { tenantId: demoId });
  const mine = processed.find((p) => p.data.tenantId === demoId)!;
  expect(mine.outcome, JSON.stringify(mine.output)).toBe('succeeded');
  return mine.output as Record<string, unknown>;
}
const trials = () => run(JOB_NAMES.trials);

const invoicesOf = (paymentId: number) =>
  ctx.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.paymentId, paymentId));

const mailsTo = async (email: string, subject: string) =>
  (await ctx.outbox()).filter((m) => m.to === email && m.subject.includes(subject));

const linkIn = (text: string) => /\/payment\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

async function webhooksOf(type: string, subscriptionId: number) {
  const rows = await ctx.db
    .select({ body: webhookDeliveries.body })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventType, type));
  return rows
    .map(
      (r) =>
        JSON.parse(r.body) as {
          data: { subscription?: { id: number }; payment?: { subscriptionId?: number } };
        },
    )
    .filter((r) => (r.data.subscription?.id ?? r.data.payment?.subscriptionId) === subscriptionId);
}

/** A trial subscription of customer `i`, created by the Admin at `start`. */
async function startTrial(i: number, start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: customers[i]!.id, planId: trialPlan.id });
  return { sub, customer: customers[i]! };
}

describe('a plan’s trialDays', () => {
  it('is read back, and anything but an integer 0–365 is a 400 on the field in Italian', async () => {
    expect(trialPlan.trialDays).toBe(14);
    const listed = dataOf(await admin.get<Plan>(`/api/plan/GetById/${trialPlan.id}`));
    expect(listed.trialDays).toBe(14);
    for (const bad of [-1, 1.5, 366, 'abc']) {
      const res = await admin.post('/api/plan/Create', {
        name: `Prova errata ${String(bad)}`,
        recurringCostBeforeVAT: 10,
        vatPercentage: 22,
        recurrenceType: 1,
        trialDays: bad,
      });
      expect(res.status, String(bad)).toBe(400);
      expect(res.raw).toContain(`trialDays: ${trialMessages.invalid}`);
    }
    // Emptied: no trial. Absent on Update: unchanged.
    const none = await create<Plan>(admin, 'plan', {
      name: 'Senza prova',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
      trialDays: '',
    });
    expect(none.trialDays).toBeNull();
    const {
      trialDays: _kept,
      planFeatures: _features,
      ...rest
    } = dataOf(await admin.get<Plan>(`/api/plan/GetById/${trialPlan.id}`));
    const updated = await admin.put<Plan>('/api/plan/Update', rest);
    expect(dataOf(updated).trialDays).toBe(14);
  });
});

describe('a trial subscription', () => {
  it('is usable at once with nothing paid and no invoice; reminded once 3 days before the end; paid by card through the link it converts with one invoice', async () => {
    const { sub, customer } = await startTrial(0, '2026-01-05T10:00:00.000Z');
    const ends = trialEnd(new Date('2026-01-05T10:00:00.000Z'), 14);
    expect(ends.toISOString()).toBe('2026-01-19T10:00:00.000Z');
    expect(sub).toMatchObject({
      subscriptionStatus: SubscriptionStatus.ActiveNoRenewal,
      trialEndsAt: ends.toISOString(),
      trialState: 'running',
      nextBillingDate: ends.toISOString(),
    });
    expect(sub.payments).toHaveLength(1);
    const first = sub.payments[0]!;
    expect(first).toMatchObject({ paidAt: null, periodStart: ends.toISOString() });
    expect(first.periodEnd).toBe('2026-02-19T10:00:00.000Z');
    const history = (await getSub(sub.id)).history.map((h) => h.event);
    expect(history).toEqual(['create', 'startTrial']);
    // Listed with its end too.
    const list = dataOf(await admin.get<{ items: Subscription[] }>('/api/subscription/getAll'));
    expect(list.items.find((s) => s.id === sub.id)?.trialEndsAt).toBe(ends.toISOString());

    const rights = await entitlementsOf(ctx.db, demoId, customer.id, clock.now());
    expect(rights).toContainEqual(
      expect.objectContaining({ subscriptionId: sub.id, trial: true, trialEndsAt: ends.toISOString() }),
    );
    expect(await invoicesOf(first.id)).toHaveLength(0);

    // 4 days before: nothing yet. The renewal reminder (7 days) never takes a trial.
    clock.set(new Date(ends.getTime() - 4 * DAY).toISOString());
    expect(await trials()).toMatchObject({ reminded: 0, expired: 0 });
    await run(JOB_NAMES.renewalReminders);
    expect(await mailsTo(customer.email, 'scade il')).toHaveLength(0);
    // 3 days before (the daily run at 09:15 Rome is a little less than 3 days before 10:00 UTC).
    clock.set(new Date(ends.getTime() - 3 * DAY + 3600_000).toISOString());
    expect(await trials()).toMatchObject({ reminded: 1 });
    expect(await trials()).toMatchObject({ reminded: 0 });
    const reminders = await mailsTo(customer.email, 'termina il 19/01/2026');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain('36,60');
    const token = linkIn(reminders[0]!.text);
    expect(token).not.toBeNull();
    const rows = await ctx.db
      .select()
      .from(subscriptionReminders)
      .where(and(eq(subscriptionReminders.subscriptionId, sub.id), eq(subscriptionReminders.kind, 'trial')));
    expect(rows).toHaveLength(1);

    // Paid by card (fake Stripe Checkout) within the link's hour.
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(checkout.status, checkout.raw).toBe(200);
    stripe.completeSession(checkout.body.data!.sessionId);
    for (let i = 0; i < 2; i++) {
      const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
        sessionId: checkout.body.data!.sessionId,
        tenantId: demoId,
      });
      expect(confirmed.status, confirmed.raw).toBe(200);
    }
    const after = await getSub(sub.id);
    expect(after).toMatchObject({
      subscriptionStatus: SubscriptionStatus.Active,
      trialState: 'converted',
      trialEndsAt: ends.toISOString(),
      // The first period starts when the trial ends: the free days stay the customer's.
      nextBillingDate: '2026-02-19T10:00:00.000Z',
    });
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]).toMatchObject({ id: first.id, method: 'stripe' });
    expect(after.history.map((h) => h.event)).toEqual(['create', 'startTrial', 'pay', 'trialConverted']);
    expect(await invoicesOf(first.id)).toHaveLength(1);
    expect(await webhooksOf('payment.succeeded', sub.id)).toHaveLength(1);
    const nowRights = await entitlementsOf(ctx.db, demoId, customer.id, clock.now());
    expect(nowRights).toContainEqual(expect.objectContaining({ subscriptionId: sub.id, trial: false }));

    // The end passes: nothing more happens to a converted trial.
    clock.set(new Date(ends.getTime() + DAY).toISOString());
    expect(await trials()).toMatchObject({ reminded: 0, expired: 0 });
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.Active);
    expect(await invoicesOf(first.id)).toHaveLength(1);
  }, 60_000);

  it('paid by bank transfer (‘Segna come pagato’) converts it, still without renewal, with one invoice', async () => {
    const { sub } = await startTrial(1, '2026-02-02T10:00:00.000Z');
    const first = sub.payments[0]!;
    clock.set('2026-02-06T10:00:00.000Z');
    const paid = await admin.post(`/api/collection/markPaid/${first.id}`, {
      amount: first.amountDue,
      approvalDate: '2026-02-06T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const again = await admin.post(`/api/collection/markPaid/${first.id}`, {
      amount: first.amountDue,
      approvalDate: '2026-02-06T09:00:00.000Z',
    });
    expect(again.status).toBe(409);
    const after = await getSub(sub.id);
    expect(after).toMatchObject({
      subscriptionStatus: SubscriptionStatus.ActiveNoRenewal,
      trialState: 'converted',
      nextBillingDate: first.periodEnd,
    });
    expect(after.history.map((h) => h.event)).toEqual(['create', 'startTrial', 'trialConverted']);
    expect(await invoicesOf(first.id)).toHaveLength(1);
    // Past the trial's end: neither job ends it (its paid period runs to the next billing date).
    clock.set(new Date(Date.parse(sub.trialEndsAt!) + DAY).toISOString());
    await trials();
    await run(JOB_NAMES.expireSubscriptions);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  }, 60_000);

  it('unpaid at the end becomes NotActive once (system), the customer e-mailed, the webhook fired; no second trial on the plan', async () => {
    const { sub, customer } = await startTrial(2, '2026-03-02T10:00:00.000Z');
    const ends = Date.parse(sub.trialEndsAt!);
    // The hourly expiry job leaves a running trial to the trials job.
    clock.set(new Date(ends + 3600_000).toISOString());
    await run(JOB_NAMES.expireSubscriptions);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    // Past its end it is no longer usable, even before the job.
    expect(
      (await entitlementsOf(ctx.db, demoId, customer.id, clock.now())).filter(
        (e) => e.subscriptionId === sub.id,
      ),
    ).toHaveLength(0);
    expect(await trials()).toMatchObject({ expired: 1 });
    expect(await trials()).toMatchObject({ expired: 0 });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ subscriptionStatus: SubscriptionStatus.NotActive, trialState: 'expired' });
    const moves = await ctx.db
      .select({
        event: subscriptionEvents.event,
        from: subscriptionEvents.fromStatus,
        to: subscriptionEvents.toStatus,
        actor: subscriptionEvents.actorKind,
      })
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, sub.id))
      .orderBy(asc(subscriptionEvents.id));
    expect(moves.filter((m) => m.event === 'trialExpired')).toEqual([
      {
        event: 'trialExpired',
        from: SubscriptionStatus.ActiveNoRenewal,
        to: SubscriptionStatus.NotActive,
        actor: 'system',
      },
    ]);
    expect(moves.some((m) => m.event === 'expire')).toBe(false);
    expect(await mailsTo(customer.email, 'è terminata')).toHaveLength(1);
    expect(await webhooksOf('subscription.expired', sub.id)).toHaveLength(1);
    expect(await invoicesOf(sub.payments[0]!.id)).toHaveLength(0);

    // The same customer on the same plan again: no second trial, a normal unpaid subscription.
    const second = await createSubscription(admin, { userId: customer.id, planId: trialPlan.id });
    expect(second).toMatchObject({
      subscriptionStatus: SubscriptionStatus.NotActive,
      trialEndsAt: null,
      trialState: null,
    });
  }, 60_000);
});

describe('the dashboard’s trials', () => {
  it('counts the running trials and the conversion of the last 12 months from the real rows', async () => {
    // By now: one converted by card, one by transfer, one ended unpaid; one more running.
    await startTrial(3, '2026-03-20T10:00:00.000Z');
    const summary = dataOf(
      await admin.get<{
        trials: { running: number; converted: number; expired: number; conversionRate: number | null };
      }>('/api/dashboard/summary'),
    );
    // The demo seed's own trials are counted too: compare with a count of the rows.
    const tenantTrials = await ctx.db
      .select({ state: subscriptions.trialState, ends: subscriptions.trialEndsAt })
      .from(subscriptions)
      .where(and(eq(subscriptions.tenantId, demoId), isNotNull(subscriptions.trialEndsAt)));
    const windowStart = Date.parse('2025-04-01T00:00:00+02:00');
    const inWindow = (s: { ends: Date | null }) => s.ends!.getTime() >= windowStart;
    const converted = tenantTrials.filter((s) => s.state === 'converted' && inWindow(s)).length;
    const expired = tenantTrials.filter((s) => s.state === 'expired' && inWindow(s)).length;
    expect(summary.trials).toEqual({
      running: tenantTrials.filter((s) => s.state === 'running').length,
      converted,
      expired,
      conversionRate: Math.round((converted / (converted + expired)) * 1000) / 10,
    });
    expect(summary.trials.running).toBeGreaterThanOrEqual(1);
    expect(converted).toBeGreaterThanOrEqual(2);
    expect(expired).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
