/**
 * 'Cambia piano' residual credit (issue 30) against an extra payment: a one-off 'Subito' charge
 * made while a credit is left sets it off too (the credit goes to the subscription's next payment
 * whatever its kind), with the moved clock, the real server and database, fake Stripe:
 * - bank transfer: a charge smaller than the credit is paid by the credit at once (its TD01 with
 *   ImportoPagamento 0,00 and the set-off in Causale, XSD-valid); a larger one asks the rest; the
 *   next renewal then sets off nothing more;
 * - Stripe: a charge the credit covers is paid by it, no Stripe invoice, the balance taken given
 *   back at Stripe once; a larger one: Stripe's invoice item is the whole amount, Stripe applies
 *   the balance and charges exactly what the payment asks, its invoice.paid (twice) is recorded
 *   once; Stripe's next renewal then charges the whole period and Rinnova sets off nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import { invoices, payments } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import {
  createSubscription,
  giveIban,
  movableClock,
  userId,
  pointStripeAt,
  subscriptionOf,
  addPlan,
  creditLedger,
  paymentRowOf,
  invoicesOfPayment,
  xmlTags,
} from './helpers';

const clock = movableClock('2027-02-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_credit_extra';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;

type Result = PlanChangePreview & {
  planChangeId?: number;
  creditNote?: { id: number; number: string } | null;
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  base = await plan('Base extra', 29);
  pro = await plan('Pro extra', 49);
  for (const p of [base, pro]) expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});
beforeEach(() => stripe.clearFailures());

const getSub = (id: number) => subscriptionOf(admin, id);
const change = (id: number, body: Record<string, unknown>) =>
  admin.post<Result>(`/api/subscription/changePlan/${id}`, body);
const charge = (id: number, unitPrice: number, description: string) =>
  admin.post<OneOffCharge>(`/api/subscription/charges/${id}`, {
    description,
    quantity: 1,
    unitPrice,
    collect: 'now',
  });
const ledger = (subscriptionId: number) => creditLedger(ctx, subscriptionId);
const paymentRow = (id: number) => paymentRowOf(ctx, id);
const invoiceOf = (paymentId: number) => invoicesOfPayment(ctx, paymentId);
const tags = xmlTags;
const creditNoteOf = async (id: number) =>
  (await ctx.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const italian = (iso: string) => iso.split('-').reverse().join('/');

describe('bank transfer: a one-off charge made while a credit is left', () => {
  it('smaller: paid by the credit at once; larger: asks the rest; the renewal then sets off nothing', async () => {
    clock.set('2027-02-01T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: pro.id },
      '2027-02-01T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    clock.set('2027-02-15T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ residualCredit: 12.2 });
    const note = await creditNoteOf(made.body.data!.creditNote!.id);

    // 5,00 + IVA 1,10 = 6,10 ≤ 12,20: paid by the credit now, status unchanged.
    const status = (await getSub(sub.id)).subscriptionStatus;
    clock.set('2027-02-16T09:00:00.000Z');
    const small = await charge(sub.id, 5, 'Configurazione');
    expect(small.status, small.raw).toBe(200);
    expect(small.body.data).toMatchObject({ status: 'paid' });
    const smallId = small.body.data!.paymentId!;
    expect(await paymentRow(smallId)).toMatchObject({ amountDueCents: 0, method: 'bankTransfer' });
    expect((await paymentRow(smallId)).paidAt).not.toBeNull();
    let after = await getSub(sub.id);
    expect(after.creditBalance).toBe(6.1);
    expect(after.subscriptionStatus).toBe(status);
    expect(after.history!.at(-1)).toMatchObject({ event: 'creditSettled' });
    const [smallInvoice] = await invoiceOf(smallId);
    expect(smallInvoice).toMatchObject({ taxableCents: 500, vatCents: 110, totalCents: 610 });
    expect(tags(smallInvoice!.xml, 'ImportoPagamento')).toEqual(['0.00']);
    expect(tags(smallInvoice!.xml, 'Causale')).toEqual([
      `Compensato credito residuo di EUR 6,10 della nota di credito n. ${note.numberText} del ${italian(note.issueDate)}`,
    ]);
    expect(await fatturaErrors(smallInvoice!.xml)).toEqual([]);

    // 10,00 + IVA 2,20 = 12,20 > 6,10 left: asks 6,10, unpaid; the credit is used up.
    const large = await charge(sub.id, 10, 'Formazione');
    expect(large.status, large.raw).toBe(200);
    expect(large.body.data).toMatchObject({ status: 'pending' });
    const largeId = large.body.data!.paymentId!;
    expect(await paymentRow(largeId)).toMatchObject({ amountDueCents: 610, paidAt: null });
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [1220, null],
      [-610, smallId],
      [-610, largeId],
    ]);
    const paid = await admin.post(`/api/collection/markPaid/${largeId}`, {
      amount: 6.1,
      approvalDate: '2027-02-16T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [largeInvoice] = await invoiceOf(largeId);
    expect(largeInvoice).toMatchObject({ totalCents: 1220 });
    expect(tags(largeInvoice!.xml, 'ImportoPagamento')).toEqual(['6.10']);
    expect(tags(largeInvoice!.xml, 'Causale').at(-1)).toBe(
      `Compensato credito residuo di EUR 6,10 della nota di credito n. ${note.numberText} del ${italian(note.issueDate)}`,
    );
    expect(await fatturaErrors(largeInvoice!.xml)).toEqual([]);

    // The renewal 7 days before 1 March asks the whole period: nothing left to set off.
    clock.set('2027-02-22T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    after = await getSub(sub.id);
    const renewal = after.payments.find((p) => p.periodStart.startsWith('2027-03-01'))!;
    expect(renewal).toMatchObject({ amountDue: 35.38, paidAt: null });
    expect(await ledger(sub.id)).toHaveLength(3);
    expect(after.creditBalance).toBe(0);
  });
});

describe('Stripe: a one-off charge made while the credit is on the customer balance', () => {
  async function paidByCard(start: string) {
    clock.set(start);
    const sub = await createSubscription(admin, { userId: company, planId: pro.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    expect(link.status, link.raw).toBe(200);
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    const providerId = stripe.completeSession(sessionId);
    const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(paid.status, paid.raw).toBe(200);
    return { sub: await getSub(sub.id), providerId };
  }
  const hook = async (invoice: Record<string, unknown>) => {
    const signed = stripe.signWebhook(stripe.event('invoice.paid', invoice), STRIPE_WHSEC);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: signed.headers,
      payload: signed.body,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('covered: paid by the credit, no Stripe invoice; larger: Stripe charges the difference, recorded once; the renewal charges in full', async () => {
    const { sub, providerId } = await paidByCard('2027-06-01T09:00:00.000Z');
    await hook(stripe.checkoutInvoice(providerId));
    const customer = stripe.subscriptions.get(providerId)!.customer;
    clock.set('2027-06-15T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const cents = Math.round(made.body.data!.residualCredit * 100);
    expect(cents).toBeGreaterThan(610);
    expect(stripe.balances.get(customer)).toBe(-cents);
    const stripeInvoicesOf = (paymentId: number) =>
      [...stripe.invoices.values()].filter((i) => i.metadata.rinnovaPaymentId === String(paymentId));

    // 6,10 ≤ the credit: paid by it in Rinnova, no Stripe invoice; Stripe's balance gives it back.
    clock.set('2027-06-16T09:00:00.000Z');
    const small = await charge(sub.id, 5, 'Configurazione');
    expect(small.status, small.raw).toBe(200);
    expect(small.body.data).toMatchObject({ status: 'paid' });
    const smallId = small.body.data!.paymentId!;
    expect(await paymentRow(smallId)).toMatchObject({ amountDueCents: 0, method: 'stripe' });
    expect(stripeInvoicesOf(smallId)).toEqual([]);
    expect(stripe.balances.get(customer)).toBe(-(cents - 610));
    const [smallInvoice] = await invoiceOf(smallId);
    expect(smallInvoice).toMatchObject({ totalCents: 610 });
    expect(tags(smallInvoice!.xml, 'ImportoPagamento')).toEqual(['0.00']);
    expect(await fatturaErrors(smallInvoice!.xml)).toEqual([]);
    // The outbox runs the consumer again: the balance is given back once.
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect(stripe.balances.get(customer)).toBe(-(cents - 610));

    // 61,00 > what is left: the payment asks 61,00 − left; Stripe's item is 61,00, its balance
    // takes the rest, it charges exactly the payment's amount.
    const left = cents - 610;
    const large = await charge(sub.id, 50, 'Migrazione dati');
    expect(large.status, large.raw).toBe(200);
    const largeId = large.body.data!.paymentId!;
    expect(await paymentRow(largeId)).toMatchObject({ amountDueCents: 6100 - left, paidAt: null });
    const charged = stripeInvoicesOf(largeId);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ status: 'paid', amount_paid: 6100 - left });
    expect(stripe.balances.get(customer)).toBe(0);
    await hook({
      ...charged[0]!,
      status_transitions: { paid_at: Math.floor(Date.parse('2027-06-16T09:01:00.000Z') / 1000) },
    });
    await hook({
      ...charged[0]!,
      status_transitions: { paid_at: Math.floor(Date.parse('2027-06-16T09:01:00.000Z') / 1000) },
    });
    expect((await paymentRow(largeId)).paidAt).not.toBeNull();
    const [largeInvoice, ...more] = await invoiceOf(largeId);
    expect(more).toEqual([]);
    expect(largeInvoice).toMatchObject({ totalCents: 6100 });
    expect(tags(largeInvoice!.xml, 'ImportoPagamento')).toEqual([((6100 - left) / 100).toFixed(2)]);
    expect(await fatturaErrors(largeInvoice!.xml)).toEqual([]);
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [cents, null],
      [-610, smallId],
      [-left, largeId],
    ]);

    // Stripe's renewal: no balance left, the whole period charged and recorded as such.
    clock.set('2027-07-01T09:00:00.000Z');
    const renewal = stripe.renew(providerId, clock.now());
    expect(renewal.amount_paid).toBe(3538);
    await hook(renewal);
    const recorded = (await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))).filter(
      (p) => p.providerPaymentId === renewal.id,
    );
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ amountDueCents: 3538 });
    expect(recorded[0]!.paidAt).not.toBeNull();
    expect(await ledger(sub.id)).toHaveLength(3);
  });
});
