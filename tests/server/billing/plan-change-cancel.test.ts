/**
 * 'Annulla cambio programmato' (issue 30): `POST api/subscription/cancelPlanChange/{id}` and
 * GetById's `scheduledPlanChange`, with the moved clock.
 * - bank transfer: a change scheduled at renewal is shown by GetById, cancelled (history row, the
 *   row 'canceled'), the same call twice changes things once; at the billing date nothing applies;
 * - Stripe: the price revised when the change was scheduled goes back to the current plan's price
 *   before anything changes in Rinnova; Stripe failing → 502 and nothing changed; a change
 *   scheduled again afterwards reaches Stripe again (a new idempotency key);
 * - PayPal: the revision is reverted (the current plan's PayPal plan id);
 * - the rules: another tenant's subscription 404, a customer 403, a change whose moment has come 409.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import { payments, planChanges, subscriptionEvents, subscriptions } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import {
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  userId,
  pointStripeAt,
  subscriptionOf,
  addPlan,
} from './helpers';

const clock = movableClock('2026-03-01T09:00:00.000Z');
const WEBHOOK_ID = 'WH-DEMO-CANCEL-CHANGE';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: 'whsec_rinnova_cancel_change' });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  base = await plan('Base annulla', 29);
  pro = await plan('Pro annulla', 49);
  for (const p of [base, pro]) {
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
    expect((await admin.post(`/api/plan/syncPaypal/${p.id}`)).status).toBe(200);
  }
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
const change = (id: number, body: Record<string, unknown>) =>
  admin.post(`/api/subscription/changePlan/${id}`, body);
const cancel = (id: number, client: ApiClient = admin) =>
  client.post<{ canceled: boolean; planChangeId: number | null }>(`/api/subscription/cancelPlanChange/${id}`);

async function snapshot(subscriptionId: number) {
  return {
    subscription: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await ctx.db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)),
    events: await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionEvents.id)),
    changes: await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, subscriptionId)),
  };
}

const getPlan = async (id: number) =>
  (
    await admin.get<Plan & { paypalPlanId: string | null; stripePlanId: string | null }>(
      `/api/plan/GetById/${id}`,
    )
  ).body.data!;

async function paidAtProvider(kind: 'paypal' | 'stripe', start: string, plan: Plan) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: company, planId: plan.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  const token = link.body.data!.token;
  let providerId: string;
  if (kind === 'paypal') {
    providerId = paypal.approve((await getPlan(plan.id)).paypalPlanId!);
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
  expect((await getSub(sub.id)).subscriptionStatus).toBe(1);
  return { sub: await getSub(sub.id), providerId };
}

describe('a change scheduled at renewal, bank transfer', () => {
  it('is shown by GetById, cancelled once (history row), and nothing applies at the billing date', async () => {
    clock.set('2026-04-01T08:00:00.000Z');
    const { sub } = await payByBankTransfer(
      admin,
      { userId: company, planId: pro.id },
      '2026-04-01T08:00:00.000Z',
    );
    expect((await getSub(sub.id)).scheduledPlanChange).toBeNull();
    clock.set('2026-04-10T08:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    const scheduled = (await getSub(sub.id)).scheduledPlanChange;
    expect(scheduled).toMatchObject({
      planId: base.id,
      planName: 'Base annulla',
      effectiveDay: '2026-05-01',
      when: 'renewal',
    });

    const res = await cancel(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({ canceled: true, planChangeId: scheduled!.id });
    expect(res.body.message).toBe('Cambio di piano a «Base annulla» dal 01/05/2026 annullato.');
    const after = await getSub(sub.id);
    expect(after.scheduledPlanChange).toBeNull();
    expect(after.history!.at(-1)).toMatchObject({
      event: 'planChangeCanceled',
      fromStatus: 3,
      toStatus: 3,
      reason: 'Annullato il cambio di piano programmato a «Base annulla» dal 01/05/2026',
    });
    const [row] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(row).toMatchObject({ status: 'canceled' });

    // Twice: nothing more happens.
    const before = await snapshot(sub.id);
    const again = await cancel(sub.id);
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data).toEqual({ canceled: false, planChangeId: null });
    expect(again.body.message).toBe('Nessun cambio di piano programmato da annullare.');
    expect(await snapshot(sub.id)).toEqual(before);

    // At the billing date the job finds nothing to apply: still Pro.
    clock.set('2026-05-01T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    expect((await getSub(sub.id)).planID).toBe(pro.id);
    // A new change can be scheduled again.
    clock.set('2026-04-20T08:00:00.000Z');
    expect((await change(sub.id, { planId: base.id, when: 'renewal' })).status).toBe(200);
  });
});

describe('the rules', () => {
  it('404 for another tenant, 403 for a customer, 409 once the change is due', async () => {
    clock.set('2026-06-02T08:00:00.000Z');
    const { sub } = await payByBankTransfer(
      admin,
      { userId: company, planId: base.id },
      '2026-06-02T08:00:00.000Z',
    );
    clock.set('2026-06-05T08:00:00.000Z');
    expect((await change(sub.id, { planId: pro.id, when: '2026-06-20' })).status).toBe(200);
    const before = await snapshot(sub.id);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect((await cancel(sub.id, rossi)).status).toBe(404);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cancel(sub.id, cliente)).status).toBe(403);
    // The day has come (the job has not run yet): the change is the job's now.
    clock.set('2026-06-20T08:00:00.000Z');
    const due = await cancel(sub.id);
    expect(due.status).toBe(409);
    expect(due.body.message).toBe(
      'Il cambio di piano programmato è già in corso di applicazione: non si può più annullare.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    expect((await admin.post('/api/subscription/cancelPlanChange/999999')).status).toBe(404);
  });
});

describe('Stripe: a change scheduled at renewal', () => {
  it('reverts the price at Stripe first; a Stripe failure changes nothing; scheduled again, Stripe is revised again', async () => {
    const { sub, providerId } = await paidAtProvider('stripe', '2026-09-10T09:00:00.000Z', pro);
    const basePrice = (await getPlan(base.id)).stripePlanId!;
    const proPrice = (await getPlan(pro.id)).stripePlanId!;
    clock.set('2026-09-20T09:00:00.000Z');
    expect((await change(sub.id, { planId: base.id, when: 'renewal' })).status).toBe(200);
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(basePrice);
    const planChangeId = (await getSub(sub.id)).scheduledPlanChange!.id;

    const before = await snapshot(sub.id);
    stripe.failNext(`POST /v1/subscriptions/${providerId}`, 500);
    const failed = await cancel(sub.id);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(
      'Stripe è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(basePrice);

    const res = await cancel(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({ canceled: true, planChangeId });
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(proPrice);
    expect(stripe.updates.at(-1)).toMatchObject({
      subscriptionId: providerId,
      price: proPrice,
      prorationBehavior: 'none',
      idempotencyKey: `rinnova-change-revert-${demoId}-${sub.id}-${planChangeId}`,
    });
    expect((await getSub(sub.id)).scheduledPlanChange).toBeNull();

    // The same change scheduled again reaches Stripe again (its key counts the cancelled change).
    expect((await change(sub.id, { planId: base.id, when: 'renewal' })).status).toBe(200);
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(basePrice);
    expect(stripe.updates.at(-1)).toMatchObject({
      price: basePrice,
      idempotencyKey: `rinnova-change-${demoId}-${sub.id}-${base.id}-2026-10-10-1`,
    });
  });
});

describe('PayPal: a change scheduled at renewal', () => {
  it('revises the PayPal subscription back to the current plan, then cancels; a PayPal failure changes nothing', async () => {
    const { sub, providerId } = await paidAtProvider('paypal', '2026-10-05T09:00:00.000Z', pro);
    clock.set('2026-10-20T09:00:00.000Z');
    expect((await change(sub.id, { planId: base.id, when: 'renewal' })).status).toBe(200);
    const proAtPayPal = (await getPlan(pro.id)).paypalPlanId!;
    const baseAtPayPal = (await getPlan(base.id)).paypalPlanId!;
    expect(paypal.subscriptions.get(providerId)!.plan_id).toBe(baseAtPayPal);
    const planChangeId = (await getSub(sub.id)).scheduledPlanChange!.id;

    const before = await snapshot(sub.id);
    paypal.failNext(`POST /v1/billing/subscriptions/${providerId}/revise`, 500);
    const failed = await cancel(sub.id);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(
      'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    expect(await snapshot(sub.id)).toEqual(before);

    const res = await cancel(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({ canceled: true, planChangeId });
    expect(paypal.subscriptions.get(providerId)!.plan_id).toBe(proAtPayPal);
    expect(paypal.revisions.at(-1)).toMatchObject({
      subscriptionId: providerId,
      planId: proAtPayPal,
      requestId: `rinnova-change-revert-${demoId}-${sub.id}-${planChangeId}`,
    });
    expect((await getSub(sub.id)).history!.at(-1)).toMatchObject({ event: 'planChangeCanceled' });
  });
});
