/**
 * 'Addebito una tantum' collected 'Con il prossimo pagamento' (issue 30), with the moved clock:
 * - bank transfer: the charge waits (pending, no payment); the renewal reminder 7 days before makes
 *   the next period's payment asking the period and the charge together (the one computation of
 *   one document), a charge deleted before is not in it, one made after the payment joins it; paid,
 *   one TD01 carries the period's line (with its dates) and the charge's line (without), valid
 *   against the XSD with the SdI arithmetic; the charge is 'paid'; a paid one is not deleted;
 * - Stripe: the charge becomes an invoice item on the subscription (keyed by the charge), the
 *   renewal invoice carries it, its invoice.paid records one payment of that amount whose invoice
 *   has both lines; a charge deleted before leaves Stripe first (a Stripe failure changes nothing);
 * - PayPal: collected at once instead ('now', its own payment, its own card link).
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import { invoices, payments } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import type { JobEngine } from '../../../server/jobs/engine';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import {
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  userId,
  pointStripeAt,
  subscriptionOf,
} from './helpers';

const clock = movableClock('2026-03-02T09:00:00.000Z');
const DAY = 86_400_000;
const STRIPE_WHSEC = 'whsec_rinnova_oneoff_next_secret';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let paypal: FakePayPal;
let jobs: JobEngine;
let demoId: number;
let company: number;
let plan: Plan;

beforeAll(async () => {
  [stripe, paypal] = await Promise.all([startFakeStripe({ now: clock.now }), startFakePayPal()]);
  ctx = await createTestContext({ app: { now: clock.now } });
  jobs = ctx.app.jobs!;
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: 'WH-ONEOFF-NEXT' });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  plan = await create<Plan>(admin, 'plan', {
    name: 'Mensile prossimo',
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect((await admin.post(`/api/plan/syncStripe/${plan.id}`)).status).toBe(200);
  expect((await admin.post(`/api/plan/syncPaypal/${plan.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await Promise.all([stripe?.close(), paypal?.close()]);
});

const getSub = (id: number) => subscriptionOf(admin, id);
const charge = (id: number, body: Record<string, unknown>) =>
  admin.post<OneOffCharge>(`/api/subscription/charges/${id}`, body);
const list = async (id: number) =>
  (await admin.get<OneOffCharge[]>(`/api/subscription/charges/${id}`)).body.data!;
const paymentsOf = (subscriptionId: number) =>
  ctx.db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(asc(payments.id));
const invoiceOf = async (paymentId: number) =>
  (
    await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')))
  )[0];
/** The texts of every `tag` in `xml`, in order. */
const tagsText = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);

async function deliver(event: Record<string, unknown>) {
  const signed = stripe.signWebhook(event, STRIPE_WHSEC);
  const delivered = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(delivered.statusCode, delivered.body).toBe(200);
}

describe('bank transfer', () => {
  it('the renewal payment asks the period and the charge; its one invoice has both lines, XSD-valid', async () => {
    clock.set('2026-03-02T09:00:00.000Z');
    const { sub: made, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: plan.id },
      '2026-03-02T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    const sub = await getSub(made.id);
    clock.set('2026-03-10T10:00:00.000Z');
    const kept = await charge(sub.id, {
      description: 'Configurazione dominio',
      quantity: 2,
      unitPrice: '45,50',
      collect: 'nextPayment',
    });
    expect(kept.status, kept.raw).toBe(200);
    // 2 × 45,50 = 91,00 + IVA 20,02: what it adds to the period's document.
    expect(kept.body.data).toMatchObject({
      collect: 'nextPayment',
      status: 'pending',
      paymentId: null,
      amountDue: 111.02,
    });
    const dropped = await charge(sub.id, {
      description: 'Formazione',
      quantity: 1,
      unitPrice: 80,
      collect: 'nextPayment',
    });
    expect(dropped.status, dropped.raw).toBe(200);
    const del = await admin.delete(`/api/subscription/charges/${sub.id}/${dropped.body.data!.id}`);
    expect(del.status, del.raw).toBe(200);
    // Nothing asked yet; the period and its billing date as they were.
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect((await getSub(sub.id)).nextBillingDate).toBe(sub.nextBillingDate);

    // The renewal reminder 7 days before makes the next period's payment: 30 + 22 % = 36,60 and the charge.
    clock.set(new Date(Date.parse(sub.nextBillingDate!) - 7 * DAY).toISOString());
    const ran = await jobs.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    expect(ran.find((r) => r.data.tenantId === demoId)!.outcome).toBe('succeeded');
    const renewal = (await paymentsOf(sub.id)).at(-1)!;
    expect(renewal.periodStart.toISOString()).toBe(sub.nextBillingDate);
    expect(renewal).toMatchObject({ paidAt: null, amountDueCents: 3660 + 11102 });
    const charges = await list(sub.id);
    expect(charges.find((c) => c.id === kept.body.data!.id)).toMatchObject({
      status: 'pending',
      paymentId: renewal.id,
    });
    expect(charges.find((c) => c.id === dropped.body.data!.id)).toMatchObject({
      status: 'deleted',
      paymentId: null,
    });

    // Paid by transfer: one invoice of the period's line and the charge's.
    const paid = await admin.post(`/api/collection/markPaid/${renewal.id}`, {
      amount: 147.62,
      approvalDate: clock.now().toISOString(),
    });
    expect(paid.status, paid.raw).toBe(200);
    const invoice = await invoiceOf(renewal.id);
    expect(invoice, 'the renewal is invoiced').toBeDefined();
    expect(invoice).toMatchObject({ taxableCents: 3000 + 9100, vatCents: 660 + 2002, totalCents: 14762 });
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    const descriptions = tagsText(invoice!.xml, 'Descrizione');
    expect(descriptions).toHaveLength(2);
    expect(descriptions[0]).toContain('Mensile prossimo');
    expect(descriptions[1]).toBe('Configurazione dominio');
    expect(tagsText(invoice!.xml, 'Quantita')).toEqual(['1.00', '2.00']);
    // The period's dates on its line only.
    expect(tagsText(invoice!.xml, 'DataInizioPeriodo')).toHaveLength(1);
    expect(tagsText(invoice!.xml, 'ImportoPagamento')).toEqual(['147.62']);
    expect(invoice!.xml).not.toContain('Formazione');
    expect((await list(sub.id)).find((c) => c.id === kept.body.data!.id)).toMatchObject({ status: 'paid' });
    const late = await admin.delete(`/api/subscription/charges/${sub.id}/${kept.body.data!.id}`);
    expect(late.status).toBe(409);
  });

  it('a charge made after the renewal payment joins it; deleted before it is paid, it leaves it', async () => {
    clock.set('2026-05-04T09:00:00.000Z');
    const { sub: made } = await payByBankTransfer(
      admin,
      { userId: company, planId: plan.id },
      '2026-05-04T09:00:00.000Z',
    );
    const sub = await getSub(made.id);
    clock.set(new Date(Date.parse(sub.nextBillingDate!) - 7 * DAY).toISOString());
    await jobs.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await paymentsOf(sub.id)).at(-1)!;
    expect(renewal.amountDueCents).toBe(3660);
    const added = await charge(sub.id, {
      description: 'Supporto extra',
      quantity: 1,
      unitPrice: 50,
      collect: 'nextPayment',
    });
    expect(added.status, added.raw).toBe(200);
    expect(added.body.data).toMatchObject({ paymentId: renewal.id, amountDue: 61 });
    expect((await paymentsOf(sub.id)).at(-1)!.amountDueCents).toBe(3660 + 6100);
    const del = await admin.delete(`/api/subscription/charges/${sub.id}/${added.body.data!.id}`);
    expect(del.status, del.raw).toBe(200);
    expect((await paymentsOf(sub.id)).at(-1)!.amountDueCents).toBe(3660);
  });
});

describe('Stripe', () => {
  it('adds an invoice item to the subscription; the renewal invoice carries it, recorded and invoiced once with both lines', async () => {
    clock.set('2026-06-01T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: company, planId: plan.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(res.status, res.raw).toBe(200);
    const providerId = stripe.completeSession(res.body.data!.sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: res.body.data!.sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    const active = await getSub(sub.id);
    // The Checkout's own invoice: the first payment's charge.
    await deliver(stripe.event('invoice.paid', stripe.checkoutInvoice(providerId)));

    clock.set('2026-06-10T09:00:00.000Z');
    const made = await charge(sub.id, {
      description: 'Migrazione dati',
      quantity: 1,
      unitPrice: 120,
      collect: 'nextPayment',
    });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ collect: 'nextPayment', paymentId: null, amountDue: 146.4 });
    expect(stripe.calls.filter((c) => c === 'POST /v1/invoiceitems')).toHaveLength(1);
    // No one-off invoice: it waits for the renewal.
    const withItem = () =>
      [...stripe.invoices.values()].filter((i) =>
        i.lines.data.some((l) => l.description.includes('Migrazione dati')),
      );
    expect(withItem()).toHaveLength(0);

    // Another one, deleted before the renewal: its item leaves Stripe first (a Stripe failure changes nothing).
    const dropped = await charge(sub.id, {
      description: 'Formazione',
      quantity: 1,
      unitPrice: 80,
      collect: 'nextPayment',
    });
    expect(dropped.status, dropped.raw).toBe(200);
    expect(stripe.calls.filter((c) => c === 'POST /v1/invoiceitems')).toHaveLength(2);
    stripe.failNext('DELETE /v1/invoiceitems', 500);
    const failed = await admin.delete(`/api/subscription/charges/${sub.id}/${dropped.body.data!.id}`);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect((await list(sub.id))[0]).toMatchObject({ id: dropped.body.data!.id, status: 'pending' });
    const del = await admin.delete(`/api/subscription/charges/${sub.id}/${dropped.body.data!.id}`);
    expect(del.status, del.raw).toBe(200);
    expect((await list(sub.id))[0]).toMatchObject({ id: dropped.body.data!.id, status: 'deleted' });

    clock.set(active.nextBillingDate!);
    const renewal = stripe.renew(providerId, clock.now());
    expect(renewal.amount_paid).toBe(3660 + 14640);
    expect(withItem()).toHaveLength(1);
    const event = stripe.event('invoice.paid', renewal);
    await deliver(event);
    await deliver(event);
    const all = await paymentsOf(sub.id);
    expect(all).toHaveLength(2);
    const period = all[1]!;
    expect(period).toMatchObject({ amountDueCents: 18300, method: 'stripe' });
    expect(period.paidAt).not.toBeNull();
    const invoice = await invoiceOf(period.id);
    expect(invoice, 'the renewal is invoiced').toBeDefined();
    expect(invoice).toMatchObject({ taxableCents: 15000, totalCents: 18300 });
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagsText(invoice!.xml, 'Descrizione')[1]).toBe('Migrazione dati');
    expect((await list(sub.id)).find((c) => c.id === made.body.data!.id)).toMatchObject({
      status: 'paid',
      paymentId: period.id,
    });
    expect(invoice!.xml).not.toContain('Formazione');
  });
});

describe('PayPal', () => {
  it('cannot add an amount to its charge: the charge is collected at once, with its own payment and card link', async () => {
    clock.set('2026-07-01T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: company, planId: plan.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    expect(link.status, link.raw).toBe(200);
    const plans = await admin.get<{ paypalPlanId: string }>(`/api/plan/GetById/${plan.id}`);
    const providerId = paypal.approve(plans.body.data!.paypalPlanId);
    paypal.setStatus(providerId, 'ACTIVE');
    const paid = await ctx.api.put('/api/Payment/updatePayment', {
      token: link.body.data!.token,
      providerSubscriptionId: providerId,
    });
    expect(paid.status, paid.raw).toBe(200);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);

    const made = await charge(sub.id, {
      description: 'Consulenza',
      quantity: 1,
      unitPrice: 100,
      collect: 'nextPayment',
    });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ collect: 'now', status: 'pending', amountDue: 122 });
    const paymentId = made.body.data!.paymentId!;
    expect(paymentId).not.toBeNull();
    expect((await getSub(sub.id)).history!.at(-1)!.reason).toContain('PayPal non aggiunge importi');
    const own = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId });
    expect(own.status, own.raw).toBe(200);
  });
});
