/**
 * 'Cambia piano' (issue 30): the residual credit of a downgrade made now is set off against the
 * subscription's next period payments (`subscription_credits`), with the moved clock, the real
 * server and database, fake Stripe:
 * - bank transfer: the renewal payment the reminder job makes asks the period's net less the
 *   credit; its invoice is the whole period's TD01 with ImportoPagamento reduced and a Causale
 *   citing the credit note (XSD and SdI arithmetic); the job again sets off nothing more;
 * - a credit larger than one period: the first renewal is paid by the credit (status unchanged,
 *   ImportoPagamento 0,00), the second asks the rest;
 * - Stripe: one customer balance transaction of −credit after commit, once even when the outbox
 *   runs again; a Stripe failure leaves Rinnova's credit as it was and the sweep credits once; the
 *   renewal's invoice.paid at the reduced amount is recorded once, the credit set off; a renewal
 *   Stripe first failed (overdue) then charged on retry sets it off on the overdue payment.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { invoices, outbox, payments, subscriptionCredits } from '../../../server/db/schema';
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
  invoicesOfPayment,
  xmlTags,
} from './helpers';

const clock = movableClock('2027-02-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_credit_secret';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;
let mini: Plan;

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
  base = await plan('Base credito', 29);
  pro = await plan('Pro credito', 49);
  mini = await plan('Mini credito', 20);
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
const ledger = (subscriptionId: number) => creditLedger(ctx, subscriptionId);
const renewalReminders = () => ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
const invoiceOf = (paymentId: number) => invoicesOfPayment(ctx, paymentId);
const tags = xmlTags;
const creditNoteOf = async (id: number) =>
  (await ctx.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const italian = (iso: string) => iso.split('-').reverse().join('/');

describe('bank transfer: the residual credit reduces the next renewal payment', () => {
  it('asks the period less the credit; the invoice is the whole period, ImportoPagamento reduced, XSD-valid', async () => {
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
    expect(made.body.data).toMatchObject({ netToPay: 0, residualCredit: 12.2 });
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.planChangeId])).toEqual([
      [1220, made.body.data!.planChangeId],
    ]);
    expect(await getSub(sub.id)).toMatchObject({ creditBalance: 12.2, creditSetOff: true, amountDue: 35.38 });

    // 7 days before 1 March: the renewal payment asks 35,38 − 12,20 = 23,18.
    clock.set('2027-02-22T09:00:00.000Z');
    await renewalReminders();
    const renewal = (await getSub(sub.id)).payments.find((p) => p.periodStart.startsWith('2027-03-01'))!;
    expect(renewal).toMatchObject({ amountDue: 23.18, paidAt: null, method: 'bankTransfer' });
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [1220, null],
      [-1220, renewal.id],
    ]);
    expect((await getSub(sub.id)).creditBalance).toBe(0);
    // The job again (same day, next day): nothing more set off, the amount unchanged.
    await renewalReminders();
    clock.set('2027-02-23T09:00:00.000Z');
    await renewalReminders();
    expect(await ledger(sub.id)).toHaveLength(2);
    expect((await getSub(sub.id)).payments.find((p) => p.id === renewal.id)!.amountDue).toBe(23.18);

    // Paid by transfer: the whole period's TD01 (Base 29,00 + IVA 6,38 = 35,38), 23,18 to pay.
    const paid = await admin.post(`/api/collection/markPaid/${renewal.id}`, {
      amount: 23.18,
      approvalDate: '2027-02-23T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [invoice] = await invoiceOf(renewal.id);
    expect(invoice).toMatchObject({ taxableCents: 2900, vatCents: 638, totalCents: 3538 });
    expect(tags(invoice!.xml, 'ImportoTotaleDocumento')).toEqual(['35.38']);
    expect(tags(invoice!.xml, 'ImportoPagamento')).toEqual(['23.18']);
    const note = await creditNoteOf(made.body.data!.creditNote!.id);
    expect(tags(invoice!.xml, 'Causale')).toEqual([
      `Pagamento ricevuto con causale ${renewal.causale}`,
      `Compensato credito residuo di EUR 12,20 della nota di credito n. ${note.numberText} del ${italian(note.issueDate)}`,
    ]);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
  });
});

describe('a credit larger than one period spans two payments', () => {
  it('the first renewal is paid by the credit, the second asks the rest', async () => {
    clock.set('2027-02-01T09:00:00.000Z');
    const { sub } = await payByBankTransfer(
      admin,
      { userId: company, planId: pro.id },
      '2027-02-01T09:00:00.000Z',
    );
    clock.set('2027-02-02T09:00:00.000Z');
    const made = await change(sub.id, { planId: mini.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    // 27 of 28 days unused: credit 47,25 + 10,40 = 57,65; charge 19,29 + 4,24 = 23,53; 34,12 left.
    expect(made.body.data).toMatchObject({ netToPay: 0, residualCredit: 34.12 });
    expect((await getSub(sub.id)).amountDue).toBe(24.4);

    clock.set('2027-02-22T09:00:00.000Z');
    await renewalReminders();
    let after = await getSub(sub.id);
    const first = after.payments.find((p) => p.periodStart.startsWith('2027-03-01'))!;
    // Wholly covered: paid by the credit now, no transfer asked, status unchanged, next period on.
    expect(first).toMatchObject({ amountDue: 0 });
    expect(first.paidAt).not.toBeNull();
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(after.nextBillingDate.startsWith('2027-04-01')).toBe(true);
    expect(after.history!.at(-1)).toMatchObject({ event: 'creditSettled', fromStatus: 3, toStatus: 3 });
    expect(after.creditBalance).toBe(9.72);
    const [firstInvoice] = await invoiceOf(first.id);
    expect(firstInvoice).toMatchObject({ totalCents: 2440 });
    expect(tags(firstInvoice!.xml, 'ImportoPagamento')).toEqual(['0.00']);
    const note = await creditNoteOf(made.body.data!.creditNote!.id);
    expect(tags(firstInvoice!.xml, 'Causale')).toEqual([
      `Compensato credito residuo di EUR 24,40 della nota di credito n. ${note.numberText} del ${italian(note.issueDate)}`,
    ]);
    expect(await fatturaErrors(firstInvoice!.xml)).toEqual([]);
    expect(
      (await ctx.outbox()).filter(
        (m) => m.subject.includes('istruzioni per il bonifico') && m.text.includes(first.causale!),
      ),
      'nothing to transfer: no instructions',
    ).toEqual([]);

    // A week before 1 April: 24,40 − 9,72 = 14,68.
    clock.set('2027-03-25T09:00:00.000Z');
    await renewalReminders();
    after = await getSub(sub.id);
    const second = after.payments.find((p) => p.periodStart.startsWith('2027-04-01'))!;
    expect(second).toMatchObject({ amountDue: 14.68, paidAt: null });
    expect(after.creditBalance).toBe(0);
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([3412, -2440, -972]);
    const paid = await admin.post(`/api/collection/markPaid/${second.id}`, {
      amount: 14.68,
      approvalDate: '2027-03-25T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [secondInvoice] = await invoiceOf(second.id);
    expect(tags(secondInvoice!.xml, 'ImportoPagamento')).toEqual(['14.68']);
    expect(tags(secondInvoice!.xml, 'Causale').at(-1)).toBe(
      `Compensato credito residuo di EUR 9,72 della nota di credito n. ${note.numberText} del ${italian(note.issueDate)}`,
    );
    expect(await fatturaErrors(secondInvoice!.xml)).toEqual([]);

    // The next one asks the whole period again.
    clock.set('2027-04-24T09:00:00.000Z');
    await renewalReminders();
    const third = (await getSub(sub.id)).payments.find((p) => p.periodStart.startsWith('2027-05-01'))!;
    expect(third.amountDue).toBe(24.4);
  });
});

describe('Stripe: the credit goes onto the customer balance; the reduced renewal is recorded once', () => {
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

  it('one balance transaction even when the outbox runs again; invoice.paid at the reduced amount once', async () => {
    const { sub, providerId } = await paidByCard('2027-06-01T09:00:00.000Z');
    // The Checkout's own invoice: the first payment's charge.
    await hook(stripe.checkoutInvoice(providerId));
    const customer = stripe.subscriptions.get(providerId)!.customer;
    // Stripe fails first: the change is made in Rinnova, the credit waits in the outbox.
    stripe.failNext('POST /v1/customers', 500);
    clock.set('2027-06-15T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const credit = made.body.data!.residualCredit;
    expect(credit).toBeGreaterThan(0);
    const cents = Math.round(credit * 100);
    expect(stripe.balanceTransactions.filter((t) => t.customer === customer)).toEqual([]);
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.providerRef])).toEqual([[cents, null]]);
    expect((await getSub(sub.id)).creditBalance).toBe(credit);

    // The sweep delivers it: one balance transaction of −credit, keyed by the plan change.
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    const mine = () => stripe.balanceTransactions.filter((t) => t.customer === customer);
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatchObject({
      amount: -cents,
      currency: 'eur',
      metadata: { rinnovaPlanChangeId: String(made.body.data!.planChangeId) },
    });
    expect((await ledger(sub.id))[0]!.providerRef).toBe(mine()[0]!.id);

    // The outbox runs the consumer again (a crash before the id was kept): Stripe's idempotency
    // answers the same transaction; still one.
    await ctx.db
      .update(subscriptionCredits)
      .set({ providerRef: null })
      .where(eq(subscriptionCredits.subscriptionId, sub.id));
    await ctx.db
      .update(outbox)
      .set({ sentAt: null })
      .where(and(eq(outbox.kind, 'event'), sql`${outbox.payload}->>'consumer' = 'billing.residualCredit'`));
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect(mine()).toHaveLength(1);
    expect(stripe.balances.get(customer)).toBe(-cents);

    // Stripe's renewal takes the balance: it charges the period less the credit.
    clock.set('2027-07-01T09:00:00.000Z');
    const invoice = stripe.renew(providerId, clock.now());
    const full = 3538;
    expect(invoice.amount_paid).toBe(full - cents);
    await hook(invoice);
    await hook(invoice);
    const renewals = (await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))).filter(
      (p) => p.providerPaymentId === invoice.id,
    );
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ amountDueCents: full - cents });
    expect(renewals[0]!.paidAt).not.toBeNull();
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [cents, null],
      [-cents, renewals[0]!.id],
    ]);
    const [issued] = await invoiceOf(renewals[0]!.id);
    expect(issued).toMatchObject({ totalCents: full });
    expect(tags(issued!.xml, 'ImportoPagamento')).toEqual([((full - cents) / 100).toFixed(2)]);
    expect(await fatturaErrors(issued!.xml)).toEqual([]);
    expect((await getSub(sub.id)).creditBalance).toBe(0);
  });
  it('a renewal Stripe first failed then charged (the retry) sets off the credit on the overdue payment', async () => {
    const { sub, providerId } = await paidByCard('2027-08-01T09:00:00.000Z');
    await hook(stripe.checkoutInvoice(providerId));
    clock.set('2027-08-16T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const cents = Math.round(made.body.data!.residualCredit * 100);
    expect(cents).toBeGreaterThan(0);
    clock.set('2027-09-01T09:00:00.000Z');
    const invoice = stripe.renew(providerId, clock.now());
    expect(invoice.amount_paid).toBe(3538 - cents);
    // Stripe could not charge at first: the period's payment is overdue, then the retry succeeds.
    const failed = stripe.signWebhook(
      stripe.event('invoice.payment_failed', { ...invoice, status: 'open', attempt_count: 1 }),
      STRIPE_WHSEC,
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: failed.headers,
      payload: failed.body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [overdue] = (
      await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))
    ).filter((p) => p.collectionStatus === 'overdue');
    expect(overdue).toMatchObject({ amountDueCents: 3538, paidAt: null });
    await hook(invoice);
    await hook(invoice);
    const [paid] = await ctx.db.select().from(payments).where(eq(payments.id, overdue!.id));
    expect(paid).toMatchObject({ amountDueCents: 3538 - cents, providerPaymentId: invoice.id });
    expect(paid!.paidAt).not.toBeNull();
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [cents, null],
      [-cents, overdue!.id],
    ]);
    const [issued] = await invoiceOf(overdue!.id);
    expect(tags(issued!.xml, 'ImportoPagamento')).toEqual([((3538 - cents) / 100).toFixed(2)]);
    expect(await fatturaErrors(issued!.xml)).toEqual([]);
  });
});
