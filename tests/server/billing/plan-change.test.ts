/**
 * 'Cambia piano' (issue 30): `POST api/subscription/changePlan/{id}` with the moved clock.
 * - a bank-transfer subscription upgraded now: the preview's figures (golden document 1 of
 *   docs/fiscal-rules.md), nothing written by a preview; made: plan and amount switched, the
 *   partial TD04 linked to the period's invoice, the proration payment due today whose TD01 (paid
 *   by transfer) carries DataInizioPeriodo/DataFinePeriodo, a history row, the outbound webhook;
 *   the same request again is refused (once per period) and changes nothing;
 * - Stripe: upgrade now (the subscription's price updated with proration_behavior 'none' and an
 *   idempotency key); Stripe answering 500 → 502 in Italian and nothing changed in the database;
 * - PayPal: downgrade at renewal (revised at PayPal; nothing changes in Rinnova until the billing
 *   date; the renewal charge then records the new plan at its price);
 * - a chosen day: scheduled, applied by the plan-changes job on its day with the proration from it;
 * - the rules: another tenant's subscription 404, a customer 403, same plan / day outside the
 *   period 400, a NotActive subscription 409 (another recurrence: plan-change-recurrence.test.ts).
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Plan } from '../../../contract/schemas/plan';
import {
  invoices,
  payments,
  planChanges,
  subscriptionEvents,
  subscriptions,
  webhookDeliveries,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { entitlementsOf } from '../../../server/modules/integrations/entitlements.service';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, tagText, withoutDemoInvoices } from '../invoices/helpers';
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
const WEBHOOK_ID = 'WH-DEMO-CHANGE';
const STRIPE_WHSEC = 'whsec_rinnova_change_secret';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;
let yearly: Plan;

type Result = PlanChangePreview & {
  status?: 'applied' | 'scheduled';
  planChangeId?: number;
  prorationPaymentId?: number | null;
  creditNote?: { id: number; number: string } | null;
};

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  base = await plan('Base cambio', 29);
  pro = await plan('Pro cambio', 49);
  yearly = await plan('Annuale cambio', 290, 12);
  for (const p of [base, pro]) {
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
    expect((await admin.post(`/api/plan/syncPaypal/${p.id}`)).status).toBe(200);
  }
  for (const [p, featureName] of [
    [base, 'Report base'],
    [pro, 'Report avanzato'],
  ] as const) {
    const f = await admin.post('/api/planfeature/Create', { planId: p.id, featureName });
    expect(f.status, f.raw).toBe(200);
  }
  const hook = await admin.post('/api/webhook/create', {
    url: 'https://prodotto.example.com/rinnova/webhook',
    events: ['subscription.plan_changed'],
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
const change = (id: number, body: Record<string, unknown>) =>
  admin.post<Result>(`/api/subscription/changePlan/${id}`, body);

/** Everything a change may write, to compare before and after. */
async function snapshot(subscriptionId: number) {
  return {
    subscription: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
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
    changes: await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, subscriptionId)),
    invoices: await ctx.db.select({ id: invoices.id }).from(invoices).orderBy(asc(invoices.id)),
  };
}

/** A subscription of the company customer (Base by default), its first month paid by bank transfer on `start`. */
async function paidByTransfer(start: string, plan: Plan = base) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: plan.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  const [first] = await ctx.db
    .select({ id: invoices.id, number: invoices.numberText })
    .from(invoices)
    .where(and(eq(invoices.paymentId, sub.payments[0]!.id), eq(invoices.documentType, 'TD01')));
  expect(first, 'the first payment has its invoice').toBeDefined();
  return { sub: await getSub(sub.id), invoice: first! };
}

/** A Base subscription paid on the payment page through PayPal or Stripe: Active, with the provider's id. */
async function paidAtProvider(kind: 'paypal' | 'stripe', start: string, plan: Plan = base) {
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
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(1);
  return { sub: after, providerId };
}

const getPlan = async (id: number) =>
  (
    await admin.get<Plan & { paypalPlanId: string | null; stripePlanId: string | null }>(
      `/api/plan/GetById/${id}`,
    )
  ).body.data!;

describe('upgrade now of a bank-transfer subscription (golden document 1)', () => {
  it('previews the credited and charged documents as quote answers them, and writes nothing', async () => {
    const { sub } = await paidByTransfer('2026-03-01T09:00:00.000Z');
    clock.set('2026-03-20T14:00:00.000Z');
    const before = await snapshot(sub.id);
    const res = await change(sub.id, { planId: pro.id, when: 'now', preview: true });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      effective: 'now',
      effectiveDay: '2026-03-20',
      fromPlan: { id: base.id, name: 'Base cambio' },
      toPlan: { id: pro.id, name: 'Pro cambio' },
      periodStart: '2026-03-01',
      periodEnd: '2026-04-01',
      totalDays: 31,
      unusedDays: 12,
      credit: { taxable: 11.23, vat: 2.47, total: 13.7, netToPay: 13.7 },
      charge: { taxable: 18.97, vat: 4.17, total: 23.14, netToPay: 23.14 },
      netToPay: 9.44,
      residualCredit: 0,
      nextPeriod: { taxable: 49, vat: 10.78, netToPay: 59.78 },
    });
    expect(res.body.data!.lines.map((l) => l.amount)).toEqual([-11.23, 18.97]);
    expect(await snapshot(sub.id)).toEqual(before);
    const entitled = async () =>
      (await entitlementsOf(ctx.db, demoId, company, clock.now()))
        .filter((e) => e.subscriptionId === sub.id)
        .map((e) => e.planId);
    expect(await entitled()).toEqual([base.id]);

    // Made: the same figures, and everything the change writes.
    const made = await change(sub.id, { planId: pro.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.message).toBe('Piano cambiato: ora «Pro cambio».');
    expect(made.body.data).toMatchObject({ status: 'applied', netToPay: 9.44 });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ planID: pro.id, costBeforeVAT: 49, subscriptionStatus: 3 });
    expect(after.history!.at(-1)).toMatchObject({ event: 'changePlan', fromStatus: 3, toStatus: 3 });
    // Entitlements follow the plan at once.
    expect(await entitled()).toEqual([pro.id]);
    const proration = after.payments.find((p) => p.id === made.body.data!.prorationPaymentId)!;
    expect(proration).toMatchObject({
      amountDue: 9.44,
      paidAt: null,
      dueDate: '2026-03-20',
      method: 'bankTransfer',
    });

    // The partial credit note: TD04, linked to the period's invoice, valid.
    const [note] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, made.body.data!.creditNote!.id));
    const [original] = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, sub.payments[0]!.id), eq(invoices.documentType, 'TD01')));
    expect(note).toMatchObject({ documentType: 'TD04', relatedInvoiceId: original!.id, totalCents: 1370 });
    expect(await fatturaErrors(note!.xml)).toEqual([]);
    expect(tagText(note!.xml, 'IdDocumento')).toBe(original!.numberText);
    expect(tagText(note!.xml, 'DataInizioPeriodo')).toBe('2026-03-20');
    expect(tagText(note!.xml, 'DataFinePeriodo')).toBe('2026-03-31');

    // The outbound webhook, in the same unit.
    const hooks = await ctx.db
      .select({ body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventType, 'subscription.plan_changed'));
    const mine = hooks
      .map((h) => JSON.parse(h.body) as { data: { subscription: { id: number; planId: number } } })
      .filter((h) => h.data.subscription.id === sub.id);
    expect(mine.map((h) => h.data.subscription.planId)).toEqual([pro.id]);

    // The same request again (a double click, a retry): made once — the subscription is already
    // on that plan; and another change now is refused while the proration is unpaid.
    const again = await snapshot(sub.id);
    const twice = await change(sub.id, { planId: pro.id, when: 'now' });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual(['planId: Scegli un piano diverso da quello attuale']);
    const back = await change(sub.id, { planId: base.id, when: 'now' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe(
      'C’è ancora un pagamento di conguaglio da saldare per il cambio di piano precedente.',
    );
    expect(await snapshot(sub.id)).toEqual(again);

    // The proration paid by transfer: its invoice carries the new plan's days, net of the credit.
    const paid = await admin.post(`/api/collection/markPaid/${proration.id}`, {
      amount: 9.44,
      approvalDate: '2026-03-20T14:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [invoice] = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, proration.id), eq(invoices.documentType, 'TD01')));
    expect(invoice, 'the proration payment is invoiced').toBeDefined();
    expect(invoice).toMatchObject({ taxableCents: 1897, vatCents: 417, totalCents: 2314 });
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagText(invoice!.xml, 'DataInizioPeriodo')).toBe('2026-03-20');
    expect(tagText(invoice!.xml, 'DataFinePeriodo')).toBe('2026-03-31');
    expect(tagText(invoice!.xml, 'ImportoPagamento')).toBe('9.44');
    // The next period is the new plan's.
    expect((await getSub(sub.id)).amountDue).toBe(59.78);
  });
});

describe('downgrade now of a bank-transfer subscription', () => {
  it('credits more than it charges: nothing to pay, the new days invoiced and set off, the rest a credit of the customer', async () => {
    // Pro 49,00 from 1 February; Base 29,00 from the 15th: 14 of 28 days unused.
    const { sub } = await paidByTransfer('2027-02-01T09:00:00.000Z', pro);
    clock.set('2027-02-15T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    // Credit 24,50 + IVA 5,39 = 29,89; charge 14,50 + IVA 3,19 = 17,69; owed to the customer 12,20.
    expect(made.body.data).toMatchObject({
      totalDays: 28,
      unusedDays: 14,
      credit: { taxable: 24.5, vat: 5.39, netToPay: 29.89 },
      charge: { taxable: 14.5, vat: 3.19, netToPay: 17.69 },
      netToPay: 0,
      residualCredit: 12.2,
    });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ planID: base.id, amountDue: 35.38 });
    const proration = after.payments.find((p) => p.id === made.body.data!.prorationPaymentId)!;
    expect(proration.amountDue).toBe(0);
    expect(proration.paidAt).not.toBeNull();
    const [invoice] = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, proration.id), eq(invoices.documentType, 'TD01')));
    expect(invoice).toMatchObject({ totalCents: 1769 });
    expect(tagText(invoice!.xml, 'ImportoPagamento')).toBe('0.00');
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    const [note] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, made.body.data!.creditNote!.id));
    expect(note).toMatchObject({ documentType: 'TD04', totalCents: 2989 });
    const [row] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(row).toMatchObject({ offsetCents: 1769, residualCreditCents: 1220 });
  });
});

describe('the rules', () => {
  it('404 for another tenant, 403 for a customer, 400 for the same plan or a day outside the period, 409 when not live', async () => {
    const { sub } = await paidByTransfer('2026-05-04T09:00:00.000Z');
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect(
      (await rossi.post(`/api/subscription/changePlan/${sub.id}`, { planId: pro.id, preview: true })).status,
    ).toBe(404);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect(
      (await cliente.post(`/api/subscription/changePlan/${sub.id}`, { planId: pro.id, preview: true }))
        .status,
    ).toBe(403);
    const same = await change(sub.id, { planId: base.id, preview: true });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual(['planId: Scegli un piano diverso da quello attuale']);
    // Another recurrence is a change like the others (plan-change-recurrence.test.ts).
    const year = await change(sub.id, { planId: yearly.id, preview: true });
    expect(year.status, year.raw).toBe(200);
    expect(year.body.data).toMatchObject({ recurrenceChanges: true, nextBillingDate: '2027-05-04' });
    const outside = await change(sub.id, { planId: pro.id, when: '2026-06-05', preview: true });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual([
      'when: La data deve essere entro il periodo in corso o alla scadenza',
    ]);
    const bad = await change(sub.id, { planId: pro.id, when: 'domani' });
    expect(bad.status).toBe(400);
    const unpaid = await createSubscription(admin, { userId: company, planId: base.id });
    const notLive = await change(unpaid.id, { planId: pro.id, preview: true });
    expect(notLive.status).toBe(409);
    expect(notLive.body.message).toBe('Si può cambiare piano solo a una sottoscrizione attiva.');
  });
});

describe('a change on a chosen day', () => {
  it('is scheduled, changes nothing until its day, then the job applies it prorated from that day', async () => {
    const { sub } = await paidByTransfer('2026-07-01T08:00:00.000Z');
    clock.set('2026-07-05T10:00:00.000Z');
    const made = await change(sub.id, { planId: pro.id, when: '2026-07-16' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'scheduled', effectiveDay: '2026-07-16', unusedDays: 16 });
    expect(made.body.message).toBe('Cambio di piano programmato: «Pro cambio» dal 16/07/2026.');
    // A second change while one is scheduled: 409.
    expect((await change(sub.id, { planId: pro.id, when: 'renewal' })).status).toBe(409);
    clock.set('2026-07-15T20:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    expect((await getSub(sub.id)).planID).toBe(base.id);
    clock.set('2026-07-16T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    const after = await getSub(sub.id);
    expect(after.planID).toBe(pro.id);
    // July: 31 days, from the 16th 16 unused: credit 29 × 16/31 = 14,97; charge 49 × 16/31 = 25,29.
    const [row] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(row).toMatchObject({
      status: 'applied',
      totalDays: 31,
      unusedDays: 16,
      creditCents: 1497,
      chargeCents: 2529,
    });
    // (25,29 + 5,56) − (14,97 + 3,29) = 30,85 − 18,26 = 12,59
    const proration = after.payments.find((p) => p.id === row!.prorationPaymentId)!;
    expect(proration).toMatchObject({ amountDue: 12.59, dueDate: '2026-07-16' });
  });
});

describe('a scheduled day that can no longer apply', () => {
  it('is cancelled by the job with its reason in the history; the subscription stays as it was', async () => {
    const extra = await create<Plan>(admin, 'plan', {
      name: 'Piano ritirato',
      recurringCostBeforeVAT: 39,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    const { sub } = await paidByTransfer('2026-08-03T08:00:00.000Z');
    clock.set('2026-08-04T08:00:00.000Z');
    expect((await change(sub.id, { planId: extra.id, when: '2026-08-20' })).status).toBe(200);
    // The plan is withdrawn before the day.
    const withdrawn = await admin.put('/api/plan/Update', { ...extra, isActive: false });
    expect(withdrawn.status, withdrawn.raw).toBe(200);
    clock.set('2026-08-20T08:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    const after = await getSub(sub.id);
    expect(after.planID).toBe(base.id);
    expect(after.payments).toHaveLength(1);
    const [row] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(row!.status).toBe('canceled');
    expect(after.history!.at(-1)).toMatchObject({
      event: 'planChangeCanceled',
      reason: 'Il cambio di piano programmato non si è potuto applicare: Il piano scelto non è attivo.',
    });
  });
});

describe('Stripe: upgrade now', () => {
  it('updates the price at Stripe (no Stripe proration, idempotency key) then changes Rinnova; a Stripe failure changes nothing', async () => {
    const { sub, providerId } = await paidAtProvider('stripe', '2026-09-10T09:00:00.000Z');
    clock.set('2026-09-25T09:00:00.000Z');
    const before = await snapshot(sub.id);
    stripe.failNext(`POST /v1/subscriptions/${providerId}`, 500);
    const failed = await change(sub.id, { planId: pro.id, when: 'now' });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(
      'Stripe è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(
      (await getPlan(base.id)).stripePlanId,
    );

    const made = await change(sub.id, { planId: pro.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const proPrice = (await getPlan(pro.id)).stripePlanId!;
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(proPrice);
    expect(stripe.updates.at(-1)).toMatchObject({
      subscriptionId: providerId,
      price: proPrice,
      prorationBehavior: 'none',
      idempotencyKey: `rinnova-change-${demoId}-${sub.id}-${pro.id}-2026-09-25`,
    });
    const after = await getSub(sub.id);
    expect(after.planID).toBe(pro.id);
    // September 10 → October 10: 30 days, 15 unused from the 25th.
    expect(made.body.data).toMatchObject({ totalDays: 30, unusedDays: 15, status: 'applied' });
    const proration = after.payments.find((p) => p.id === made.body.data!.prorationPaymentId)!;
    // (24,50 + 5,39) − (14,50 + 3,19) = 29,89 − 17,69 = 12,20
    expect(proration).toMatchObject({
      amountDue: 12.2,
      method: 'stripe',
      providerSubscriptionId: providerId,
      paidAt: null,
    });
    expect(made.body.data!.creditNote).not.toBeNull();

    // After commit, Stripe charges the amount asked (not its own proration), keyed by the payment.
    const charged = [...stripe.invoices.values()].filter(
      (i) => i.metadata.rinnovaPaymentId === String(proration.id),
    );
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({
      status: 'paid',
      amount_due: Math.round(proration.amountDue * 100),
      customer: stripe.subscriptions.get(providerId)!.customer,
    });
    // Its invoice.paid records the payment once; the proration's invoice is issued.
    const paidEvent = stripe.event('invoice.paid', {
      ...charged[0]!,
      status_transitions: { paid_at: Math.floor(Date.parse('2026-09-25T09:05:00.000Z') / 1000) },
    });
    for (let i = 0; i < 2; i++) {
      const signed = stripe.signWebhook(paidEvent, STRIPE_WHSEC);
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/webhooks/stripe/${demoId}`,
        headers: signed.headers,
        payload: signed.body,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const settled = (await getSub(sub.id)).payments.find((p) => p.id === proration.id)!;
    expect(settled.paidAt).toBe('2026-09-25T09:05:00.000Z');
    const issued = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, proration.id), eq(invoices.documentType, 'TD01')));
    expect(issued).toHaveLength(1);
    expect(tagText(issued[0]!.xml, 'DataInizioPeriodo')).toBe('2026-09-25');
    expect(tagText(issued[0]!.xml, 'DataFinePeriodo')).toBe('2026-10-09');
    expect(tagText(issued[0]!.xml, 'ImportoPagamento')).toBe(proration.amountDue.toFixed(2));
    // The subscription's next period is untouched (a one-off charge is no renewal).
    expect((await getSub(sub.id)).nextBillingDate).toBe(sub.nextBillingDate);
  });
});

describe('PayPal: downgrade at renewal', () => {
  it('revises the PayPal subscription; nothing changes in Rinnova until the billing date, then the renewal is the new plan at its price', async () => {
    const { sub, providerId } = await paidAtProvider('paypal', '2026-10-05T09:00:00.000Z', pro);
    const sale = async (id: string, total: string, time: string) => {
      const event = paypal.event(
        'PAYMENT.SALE.COMPLETED',
        { id, billing_agreement_id: providerId, amount: { total, currency: 'EUR' } },
        time,
      );
      const signed = paypal.signWebhook(event, WEBHOOK_ID);
      return ctx.app.inject({
        method: 'POST',
        url: `/api/webhooks/paypal/${demoId}`,
        headers: signed.headers,
        payload: signed.body,
      });
    };
    // PayPal's first charge (the payment page's period).
    expect((await sale('SALE-CHANGE-0', '59.78', '2026-10-05T09:00:00.000Z')).statusCode).toBe(200);
    clock.set('2026-10-20T09:00:00.000Z');
    // The default for a downgrade: at the next billing date, no proration.
    // PayPal answering 500: 502 in Italian, nothing changed in Rinnova.
    const before = await snapshot(sub.id);
    paypal.failNext(`POST /v1/billing/subscriptions/${providerId}/revise`, 500);
    const failed = await change(sub.id, { planId: base.id, when: 'renewal' });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(
      'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    const made = await change(sub.id, { planId: base.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({
      status: 'scheduled',
      effectiveDay: '2026-11-05',
      unusedDays: 0,
      netToPay: 0,
    });
    const baseAtPayPal = (await getPlan(base.id)).paypalPlanId!;
    expect(paypal.revisions.at(-1)).toMatchObject({ subscriptionId: providerId, planId: baseAtPayPal });
    expect(paypal.subscriptions.get(providerId)!.plan_id).toBe(baseAtPayPal);
    // Nothing changes in Rinnova before the billing date.
    expect(await getSub(sub.id)).toMatchObject({ planID: pro.id, costBeforeVAT: 49, amountDue: 59.78 });
    clock.set('2026-11-04T20:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    expect((await getSub(sub.id)).planID).toBe(pro.id);
    clock.set('2026-11-05T10:00:00.000Z');
    expect((await sale('SALE-CHANGE-1', '35.38', '2026-11-05T10:00:00.000Z')).statusCode).toBe(200);
    const after = await getSub(sub.id);
    // 29,00 + 22 % = 35,38 from this period on.
    expect(after).toMatchObject({ planID: base.id, costBeforeVAT: 29, amountDue: 35.38 });
    const renewal = after.payments.at(-1)!;
    // 5 October 11:00 in Rome (CEST) → 5 November 11:00 in Rome (CET): 10:00 UTC.
    expect(renewal).toMatchObject({ amountDue: 35.38, periodStart: '2026-11-05T10:00:00.000Z' });
    expect(renewal.paidAt).not.toBeNull();
    expect(after.history!.some((h) => h.event === 'changePlan')).toBe(true);
  });
});
