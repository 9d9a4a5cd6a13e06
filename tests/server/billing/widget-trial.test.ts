/**
 * The plan widget says 'prova' (issue 30), on the real server with the moved clock and the fake
 * Stripe: `GET api/plan/widget` answers the plan's `trialDays` and when a trial started now would
 * end (`trialEndsAt`, same Rome wall-clock time); the e-mailed link says the trial; the
 * confirmation answers the trial it started (`trialEndsAt`, the subscription's own) and the first
 * payment's amount, again when the link is opened twice; a second subscription of the same
 * customer on the plan gets no second trial and its confirmation says none.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanWidgetView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import { subscriptions, widgetRequests } from '../../../server/db/schema';
import type { OutboxEntry } from '../../../server/mail/mailer';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { addPlan, movableClock, pointStripeAt } from './helpers';

const clock = movableClock('2026-04-14T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let trialPlan: Plan;
let plainPlan: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url });
  trialPlan = await create<Plan>(admin, 'plan', {
    name: 'Widget con prova',
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
    trialDays: 14,
  });
  plainPlan = await addPlan(admin, 'Widget mensile semplice', 30);
  for (const p of [trialPlan, plainPlan])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

type ConfirmAnswer = { paymentUrl: string; result: string; trialEndsAt: string | null; amount: number };
const confirm = (token: string) =>
  ctx.api.post<ConfirmAnswer>('/api/subscription/subscribe/confirm', { token });

function tokenIn(mail: OutboxEntry | undefined): string {
  const match = /\/widget\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in ${JSON.stringify(mail)}`);
  return match[1];
}

async function requestLink(body: Record<string, unknown>): Promise<{ token: string; mail: OutboxEntry }> {
  const before = (await ctx.outbox()).length;
  const res = await ctx.api.post('/api/subscription/subscribe', body);
  expect(res.status, res.raw).toBe(200);
  const sent = (await ctx.outbox()).slice(before);
  expect(sent).toHaveLength(1);
  return { token: tokenIn(sent[0]), mail: sent[0]! };
}

const subscriptionOfRequest = async (email: string) => {
  const rows = await ctx.db
    .select({ subscriptionId: widgetRequests.subscriptionId })
    .from(widgetRequests)
    .where(eq(widgetRequests.email, email));
  const ids = rows.map((r) => r.subscriptionId).filter((id): id is number => id !== null);
  return ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, ids[ids.length - 1]!));
};

describe('the widget and free trials', () => {
  it('the widget’s view carries trialDays and when a trial started now would end; none without', async () => {
    const trial = await ctx.api.get<PlanWidgetView>('/api/plan/widget', { query: { planId: trialPlan.id } });
    expect(trial.status, trial.raw).toBe(200);
    // 30,00 + 22 % = 36,60; 14 days later at the same Rome time (both in CEST).
    expect(trial.body.data).toMatchObject({
      amount: 36.6,
      trialDays: 14,
      trialEndsAt: '2026-04-28T08:00:00.000Z',
    });
    const plain = await ctx.api.get<PlanWidgetView>('/api/plan/widget', { query: { planId: plainPlan.id } });
    expect(plain.body.data).toMatchObject({ trialDays: null, trialEndsAt: null });
  });

  it('across the change to summer time the end keeps the Rome wall-clock time', async () => {
    clock.set('2026-03-20T09:00:00.000Z'); // 10:00 in Rome (CET)
    try {
      const view = await ctx.api.get<PlanWidgetView>('/api/plan/widget', { query: { planId: trialPlan.id } });
      // 3 April 10:00 in Rome is 08:00 UTC (CEST).
      expect(view.body.data!.trialEndsAt).toBe('2026-04-03T08:00:00.000Z');
    } finally {
      clock.set('2026-04-14T08:00:00.000Z');
    }
  });

  it('the e-mail says the trial; the confirmation answers the trial it started and the first payment', async () => {
    const email = 'prova.widget@example.it';
    const { token, mail } = await requestLink({ planId: trialPlan.id, email });
    expect(mail.text).toMatch(/\(prova gratuita di 14 giorni, poi 36,60\s€ al mese, IVA inclusa\)/);

    clock.set('2026-04-14T08:20:00.000Z');
    const done = await confirm(token);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      result: 'created',
      trialEndsAt: '2026-04-28T08:20:00.000Z',
      amount: 36.6,
    });
    const [sub] = await subscriptionOfRequest(email);
    expect(sub).toMatchObject({ trialState: 'running' });
    expect(sub!.trialEndsAt!.toISOString()).toBe(done.body.data!.trialEndsAt);

    const again = await confirm(token);
    expect(again.body.data).toEqual({ ...done.body.data!, result: 'replayed' });

    // The same customer again on the same plan: one trial per customer and plan.
    const second = await requestLink({ planId: trialPlan.id, email });
    const noTrial = await confirm(second.token);
    expect(noTrial.status, noTrial.raw).toBe(200);
    expect(noTrial.body.data).toMatchObject({ result: 'created', trialEndsAt: null, amount: 36.6 });
  });

  it('a plan without a trial: the e-mail and the confirmation say none', async () => {
    const { token, mail } = await requestLink({ planId: plainPlan.id, email: 'senza.prova@example.it' });
    expect(mail.text).toMatch(/\(36,60\s€ al mese, IVA inclusa\)/);
    expect(mail.text).not.toContain('prova');
    const done = await confirm(token);
    expect(done.body.data).toMatchObject({ result: 'created', trialEndsAt: null, amount: 36.6 });
  });
});
