/**
 * 'Cambia piano' between recurrences (issue 30): `POST api/subscription/changePlan/{id}` from a
 * monthly plan to a yearly one and back, with the moved clock.
 * - monthly → yearly now (bank transfer): the unused days credited (partial TD04), a whole year of
 *   the new plan charged from today (its TD01 from today to the day before the new billing date),
 *   net to pay = year − credit to the cent, the billing date moved to today + 12 months, both
 *   documents valid through the XSD;
 * - 29 February (leap year): the credit over a 29-day February, the new billing date 28 February;
 * - yearly → monthly at the renewal (a 31 January): nothing prorated, the renewal payment made
 *   before the date is the new plan's month (31 January → 28 February), the plan switches on the
 *   date, the next periods count from it;
 * - Stripe, now: the price updated with no Stripe proration and `trial_end` at the new billing date
 *   (Stripe charges nothing until then), Rinnova's amount charged after commit; a Stripe failure
 *   changes nothing;
 * - PayPal, now: refused (its billing date cannot move), nothing written.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Plan } from '../../../contract/schemas/plan';
import {
  invoices,
  payments,
  providerWebhookEvents,
  planChanges,
  subscriptionEvents,
  subscriptions,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, tagText, withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  pointStripeAt,
  subscriptionOf,
  userId,
} from './helpers';

const clock = movableClock('2026-03-01T09:00:00.000Z');
const WEBHOOK_ID = 'WH-DEMO-RECURRENCE';
const STRIPE_WHSEC = 'whsec_rinnova_recurrence_secret';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let monthly: Plan;
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
  monthly = await addPlan(admin, 'Mensile ricorrenza', 29, 1);
  yearly = await addPlan(admin, 'Annuale ricorrenza', 290, 12);
  for (const p of [monthly, yearly]) {
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

/** A subscription of the company customer, its first period paid by bank transfer on `start`. */
async function paidByTransfer(start: string, plan: Plan) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: plan.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  return getSub(sub.id);
}

const td01Of = async (paymentId: number) =>
  ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));

describe('monthly → yearly now (bank transfer)', () => {
  it('credits the unused days, charges a whole year from today, moves the billing date; the documents are valid', async () => {
    const sub = await paidByTransfer('2026-03-01T09:00:00.000Z', monthly);
    clock.set('2026-03-20T14:00:00.000Z');
    const before = await snapshot(sub.id);
    const preview = await change(sub.id, { planId: yearly.id, when: 'now', preview: true });
    expect(preview.status, preview.raw).toBe(200);
    // March: 31 days, 12 unused from the 20th. Credit 29 × 12/31 = 11,2258 → 11,23, IVA 2,47,
    // note 13,70; charge the whole year 290,00, IVA 63,80, invoice 353,80; asked 340,10.
    expect(preview.body.data).toMatchObject({
      effective: 'now',
      effectiveDay: '2026-03-20',
      periodStart: '2026-03-01',
      periodEnd: '2026-04-01',
      totalDays: 31,
      unusedDays: 12,
      credit: { taxable: 11.23, vat: 2.47, total: 13.7, netToPay: 13.7 },
      charge: { taxable: 290, vat: 63.8, total: 353.8, netToPay: 353.8 },
      netToPay: 340.1,
      residualCredit: 0,
      nextBillingDate: '2027-03-20',
      recurrenceChanges: true,
    });
    expect(preview.body.data!.lines).toEqual([
      expect.objectContaining({ amount: -11.23, periodStart: '2026-03-20', periodEnd: '2026-03-31' }),
      expect.objectContaining({
        amount: 290,
        periodStart: '2026-03-20',
        periodEnd: '2027-03-19',
        // A whole period of the new plan: its ordinary line, not a proration's.
        description: 'Abbonamento «Annuale ricorrenza» dal 20/03/2026 al 19/03/2027',
      }),
    ]);
    expect(await snapshot(sub.id)).toEqual(before);

    const made = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({
      status: 'applied',
      netToPay: 340.1,
      nextBillingDate: '2027-03-20',
    });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({
      planID: yearly.id,
      costBeforeVAT: 290,
      amountDue: 353.8,
      // Today + 12 months, at the same Rome wall-clock time.
      nextBillingDate: '2027-03-20T14:00:00.000Z',
    });
    const proration = after.payments.find((p) => p.id === made.body.data!.prorationPaymentId)!;
    expect(proration).toMatchObject({
      amountDue: 340.1,
      paidAt: null,
      dueDate: '2026-03-20',
      method: 'bankTransfer',
      periodStart: '2026-03-20T14:00:00.000Z',
      periodEnd: '2027-03-20T14:00:00.000Z',
    });

    // The partial credit note of March's unused days, linked to March's invoice.
    const [note] = await ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, made.body.data!.creditNote!.id));
    const [march] = await td01Of(sub.payments[0]!.id);
    expect(note).toMatchObject({ documentType: 'TD04', relatedInvoiceId: march!.id, totalCents: 1370 });
    expect(await fatturaErrors(note!.xml)).toEqual([]);
    expect(tagText(note!.xml, 'DataInizioPeriodo')).toBe('2026-03-20');
    expect(tagText(note!.xml, 'DataFinePeriodo')).toBe('2026-03-31');

    // Paid by transfer: the year's TD01, from today to the day before the new billing date, with
    // the credit note's net set off.
    const paid = await admin.post(`/api/collection/markPaid/${proration.id}`, {
      amount: 340.1,
      approvalDate: '2026-03-20T14:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [invoice] = await td01Of(proration.id);
    expect(invoice, 'the new period is invoiced').toBeDefined();
    expect(invoice).toMatchObject({ taxableCents: 29000, vatCents: 6380, totalCents: 35380 });
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagText(invoice!.xml, 'DataInizioPeriodo')).toBe('2026-03-20');
    expect(tagText(invoice!.xml, 'DataFinePeriodo')).toBe('2027-03-19');
    expect(tagText(invoice!.xml, 'Descrizione')).toBe(
      'Abbonamento «Annuale ricorrenza» dal 20/03/2026 al 19/03/2027',
    );
    expect(tagText(invoice!.xml, 'ImportoPagamento')).toBe('340.10');
    // Paying the new period does not move the billing date again.
    expect((await getSub(sub.id)).nextBillingDate).toBe('2027-03-20T14:00:00.000Z');

    // The next year's renewal payment counts from the change day (the periods' new anchor).
    clock.set('2027-03-14T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(sub.id)).payments.find((p) => p.periodStart === '2027-03-20T14:00:00.000Z');
    expect(renewal, 'the renewal payment of the next year').toBeDefined();
    expect(renewal).toMatchObject({ amountDue: 353.8, periodEnd: '2028-03-20T14:00:00.000Z' });
  });
});

describe('monthly → yearly on 29 February (leap year)', () => {
  it('credits the days of a 29-day February period and moves the billing date to 28 February', async () => {
    // 10 February → 10 March 2028: 29 days; from the 29th, 10 unused.
    const sub = await paidByTransfer('2028-02-10T09:00:00.000Z', monthly);
    clock.set('2028-02-29T10:00:00.000Z');
    const preview = await change(sub.id, { planId: yearly.id, when: 'now', preview: true });
    expect(preview.status, preview.raw).toBe(200);
    // Credit 29 × 10/29 = 10,00, IVA 2,20 → 12,20; charge 353,80; asked 341,60.
    expect(preview.body.data).toMatchObject({
      totalDays: 29,
      unusedDays: 10,
      credit: { taxable: 10, vat: 2.2, netToPay: 12.2 },
      charge: { taxable: 290, netToPay: 353.8 },
      netToPay: 341.6,
      nextBillingDate: '2029-02-28',
    });
    expect(preview.body.data!.lines[1]).toMatchObject({ periodStart: '2028-02-29', periodEnd: '2029-02-27' });
  });
});

describe('yearly → monthly at the renewal (a 31 January)', () => {
  it('prorates nothing; the renewal payment is the new plan’s month; the plan switches on the date', async () => {
    const sub = await paidByTransfer('2026-01-31T09:00:00.000Z', yearly);
    expect(sub.nextBillingDate).toBe('2027-01-31T09:00:00.000Z');
    clock.set('2026-06-10T09:00:00.000Z');
    const made = await change(sub.id, { planId: monthly.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({
      status: 'scheduled',
      effectiveDay: '2027-01-31',
      unusedDays: 0,
      credit: null,
      charge: null,
      netToPay: 0,
      nextBillingDate: '2027-01-31',
      recurrenceChanges: true,
      nextPeriod: { taxable: 29, netToPay: 35.38 },
    });
    expect(await getSub(sub.id)).toMatchObject({ planID: yearly.id, amountDue: 353.8 });

    // The renewal reminder (a week before) makes the renewal payment: the new plan's month.
    clock.set('2027-01-24T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(sub.id)).payments.find((p) => p.periodStart === '2027-01-31T09:00:00.000Z');
    expect(renewal, 'the renewal payment').toBeDefined();
    expect(renewal).toMatchObject({ amountDue: 35.38, periodEnd: '2027-02-28T09:00:00.000Z' });

    // On the date the job applies the change: the new plan, its price, no proration.
    clock.set('2027-01-31T10:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.planChanges, { tenantId: demoId });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ planID: monthly.id, costBeforeVAT: 29, amountDue: 35.38 });
    const [row] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(row).toMatchObject({ status: 'applied', creditCents: 0, chargeCents: 0 });
    expect(after.payments.filter((p) => p.amountDue === 0)).toEqual([]);

    // The month paid: the billing date is 28 February; the month after counts from 31 January.
    const paid = await admin.post(`/api/collection/markPaid/${renewal!.id}`, {
      amount: 35.38,
      approvalDate: '2027-01-31T10:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    expect((await getSub(sub.id)).nextBillingDate).toBe('2027-02-28T09:00:00.000Z');
    const [invoice] = await td01Of(renewal!.id);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagText(invoice!.xml, 'DataInizioPeriodo')).toBe('2027-01-31');
    expect(tagText(invoice!.xml, 'DataFinePeriodo')).toBe('2027-02-27');
    clock.set('2027-02-21T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const march = (await getSub(sub.id)).payments.find((p) => p.periodStart === '2027-02-28T09:00:00.000Z');
    expect(march).toMatchObject({ amountDue: 35.38, periodEnd: '2027-03-31T08:00:00.000Z' });
  });
});

/** A monthly subscription paid on the payment page through Stripe or PayPal: Active, with the provider's id. */
async function paidAtProvider(kind: 'paypal' | 'stripe', start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: company, planId: monthly.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  const token = link.body.data!.token;
  let providerId: string;
  if (kind === 'paypal') {
    providerId = paypal.approve((await planAtProviders(monthly.id)).paypalPlanId!);
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

const planAtProviders = async (id: number) =>
  (
    await admin.get<Plan & { paypalPlanId: string | null; stripePlanId: string | null }>(
      `/api/plan/GetById/${id}`,
    )
  ).body.data!;

describe('Stripe: monthly → yearly now', () => {
  it('moves Stripe’s next charge to the new billing date (no Stripe proration) and charges Rinnova’s amount; a Stripe failure changes nothing', async () => {
    const { sub, providerId } = await paidAtProvider('stripe', '2026-09-10T09:00:00.000Z');
    clock.set('2026-09-25T09:00:00.000Z');
    const before = await snapshot(sub.id);
    stripe.failNext(`POST /v1/subscriptions/${providerId}`, 500);
    const failed = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(failed.status).toBe(502);
    expect(await snapshot(sub.id)).toEqual(before);
    const monthlyPrice = (await planAtProviders(monthly.id)).stripePlanId!;
    expect(stripe.subscriptions.get(providerId)!.items.data[0]!.price.id).toBe(monthlyPrice);

    const made = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    // September 10 → October 10: 30 days, 15 unused from the 25th: credit 14,50 + IVA 3,19 = 17,69;
    // the year 353,80; asked 336,11.
    expect(made.body.data).toMatchObject({
      totalDays: 30,
      unusedDays: 15,
      credit: { netToPay: 17.69 },
      charge: { netToPay: 353.8 },
      netToPay: 336.11,
      nextBillingDate: '2027-09-25',
    });
    const yearlyPrice = (await planAtProviders(yearly.id)).stripePlanId!;
    expect(stripe.updates.at(-1)).toMatchObject({
      subscriptionId: providerId,
      price: yearlyPrice,
      prorationBehavior: 'none',
      trialEnd: Math.floor(Date.parse('2027-09-25T09:00:00.000Z') / 1000),
      idempotencyKey: `rinnova-change-${demoId}-${sub.id}-${yearly.id}-2026-09-25`,
    });
    const after = await getSub(sub.id);
    expect(after).toMatchObject({ planID: yearly.id, nextBillingDate: '2027-09-25T09:00:00.000Z' });
    const proration = after.payments.find((p) => p.id === made.body.data!.prorationPaymentId)!;
    expect(proration).toMatchObject({
      amountDue: 336.11,
      method: 'stripe',
      providerSubscriptionId: providerId,
    });
    // After commit, Stripe charges exactly the amount asked, once.
    const charged = [...stripe.invoices.values()].filter(
      (i) => i.metadata.rinnovaPaymentId === String(proration.id),
    );
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ status: 'paid', amount_due: 33611 });

    // Stripe may close the trial_end update with an invoice of 0: it pays no period.
    const paymentsBefore = (await snapshot(sub.id)).payments.length;
    const zeroEvent = stripe.event('invoice.paid', {
      id: 'in_zero_update',
      subscription: providerId,
      billing_reason: 'subscription_update',
      amount_paid: 0,
      status_transitions: { paid_at: Math.floor(Date.parse('2026-09-25T09:00:05.000Z') / 1000) },
    });
    const zero = stripe.signWebhook(zeroEvent, STRIPE_WHSEC);
    const hook = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: zero.headers,
      payload: zero.body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const [received] = await ctx.db
      .select({ outcome: providerWebhookEvents.outcome, detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, String(zeroEvent.id)));
    expect(received).toEqual({
      outcome: 'ignored',
      detail: 'fattura Stripe a zero dell’aggiornamento della sottoscrizione',
    });
    expect((await snapshot(sub.id)).payments).toHaveLength(paymentsBefore);
    expect(await getSub(sub.id)).toMatchObject({ nextBillingDate: '2027-09-25T09:00:00.000Z' });
  });
});

describe('PayPal: monthly → yearly now', () => {
  it('is refused (PayPal keeps its billing date): nothing written, nothing revised', async () => {
    const { sub } = await paidAtProvider('paypal', '2026-10-05T09:00:00.000Z');
    clock.set('2026-10-20T09:00:00.000Z');
    const before = await snapshot(sub.id);
    const revisions = paypal.revisions.length;
    const now = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(now.status, now.raw).toBe(400);
    expect(now.body.errors).toEqual([
      'when: Per una sottoscrizione PayPal la ricorrenza si può cambiare solo al prossimo rinnovo: scegli «Al prossimo rinnovo».',
    ]);
    expect(await snapshot(sub.id)).toEqual(before);
    expect(paypal.revisions).toHaveLength(revisions);
    // At the renewal it is allowed (previewed: nothing prorated).
    const atRenewal = await change(sub.id, { planId: yearly.id, when: 'renewal', preview: true });
    expect(atRenewal.status, atRenewal.raw).toBe(200);
    expect(atRenewal.body.data).toMatchObject({ unusedDays: 0, netToPay: 0, nextBillingDate: '2026-11-05' });
  });
});
