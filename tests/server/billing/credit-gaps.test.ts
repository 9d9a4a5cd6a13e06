/**
 * 'Cambia piano' residual credit (issue 30), the gaps closed after the first slice, with the moved
 * clock, the real server and database, fake Stripe on loopback:
 * - a card subscription its customer turned off (ActiveNoRenewal): the renewal reminder's payment
 *   and link ask the period less the credit (Stripe's checkout takes it off with a 'once' coupon),
 *   Stripe's customer balance gives the credit back once; a period the credit wholly covers is paid
 *   by it at once ('creditSettled', no status move, invoiced once with ImportoPagamento 0,00);
 * - a Stripe proration after a downgrade's credit: Stripe's balance takes the credit off the
 *   proration invoice, Rinnova records the use and accepts exactly that amount, once (its invoice's
 *   ImportoPagamento matches); a one-off charge whose credit has not reached Stripe yet waits for it
 *   (the charge fails while the balance transaction fails) and is then charged the reduced amount.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';

import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { formatEur } from '../../../server/modules/billing/subscription.service';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  giveIban,
  movableClock,
  pointStripeAt,
  subscriptionOf,
  userId,
  creditLedger,
  paymentRowOf,
  invoicesOfPayment,
  xmlTags,
} from './helpers';

const clock = movableClock('2027-02-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_credit_gaps';
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let me: number;
let company: number;
let mini: Plan;
let base: Plan;
let pro: Plan;

type Result = PlanChangePreview & {
  planChangeId?: number;
  prorationPaymentId?: number | null;
  creditNote?: { id: number; number: string } | null;
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  me = await userId(ctx, DEMO.cliente);
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  mini = await addPlan(admin, 'Mini gaps', 20, 1, true);
  base = await addPlan(admin, 'Base gaps', 29, 1, true);
  pro = await addPlan(admin, 'Pro gaps', 49, 1, true);
  for (const p of [mini, base, pro])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
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
const paymentRow = (id: number) => paymentRowOf(ctx, id);
const invoiceOf = (paymentId: number) => invoicesOfPayment(ctx, paymentId);
const tags = xmlTags;
const eur = (cents: number) => (cents / 100).toFixed(2);
const stripeInvoicesOf = (paymentId: number) =>
  [...stripe.invoices.values()].filter((i) => i.metadata.rinnovaPaymentId === String(paymentId));
const outboxSweep = () => ctx.app.jobs!.runJobNow('outbox-sweep', {});

async function paidByCard(userIdOf: number, planId: number, start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: userIdOf, planId });
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
  await hook(stripe.checkoutInvoice(providerId));
  return { sub: await getSub(sub.id), providerId };
}
async function hook(invoice: Record<string, unknown>) {
  const signed = stripe.signWebhook(stripe.event('invoice.paid', invoice), STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
}
/** The customer's 'Disattiva il rinnovo', then an Admin's downgrade now (its credit to Stripe). */
async function stoppedThenDowngraded(toPlan: Plan, start: string, changeOn: string) {
  const { sub, providerId } = await paidByCard(me, pro.id, start);
  const stopped = await cliente.post(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, {
    reason: 'tooExpensive',
  });
  expect(stopped.status, stopped.raw).toBe(200);
  clock.set(changeOn);
  const made = await change(sub.id, { planId: toPlan.id, when: 'now' });
  expect(made.status, made.raw).toBe(200);
  const cents = Math.round(made.body.data!.residualCredit * 100);
  expect(cents).toBeGreaterThan(0);
  const customer = stripe.subscriptions.get(providerId)!.customer;
  expect(stripe.balances.get(customer)).toBe(-cents);
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  return { sub: after, providerId, customer, cents };
}
/** The renewal reminders (card link) of a plan. */
const reminderMails = async (planName: string) =>
  (await ctx.outbox()).filter((m) => m.subject.includes(`«${planName}» scade il`));

describe('a card subscription its customer turned off: the renewal link sets the credit off', () => {
  it('partly covered: the payment, the e-mail and Stripe’s checkout ask the rest; the balance given back once', async () => {
    const { sub, customer, cents } = await stoppedThenDowngraded(
      base,
      '2027-02-01T09:00:00.000Z',
      '2027-02-15T09:00:00.000Z',
    );
    const mailsBefore = (await reminderMails(base.name)).length;
    clock.set('2027-02-22T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(sub.id)).payments.find((p) => p.periodStart.startsWith('2027-03-01'))!;
    const full = Math.round(renewal.amountDue * 100) + cents;
    expect(cents).toBeLessThan(full);
    expect(renewal.paidAt).toBeNull();
    expect((await ledger(sub.id)).map((r) => [r.amountCents, r.paymentId])).toEqual([
      [cents, null],
      [-cents, renewal.id],
    ]);
    expect((await getSub(sub.id)).creditBalance).toBe(0);
    // Stripe's customer balance gives back what Rinnova used (after commit; a sweep again: once).
    expect(stripe.balances.get(customer) ?? 0).toBe(0);
    await outboxSweep();
    expect(stripe.balances.get(customer) ?? 0).toBe(0);
    // The e-mail names the reduced amount and carries the link.
    const mails = await reminderMails(base.name);
    expect(mails.length).toBe(mailsBefore + 1);
    const mail = mails.at(-1)!;
    expect(mail.text).toContain(`(importo ${formatEur(full - cents)})`);
    const token = /token=([A-Za-z0-9_.~-]+)/.exec(mail.text)![1]!;
    // Stripe's checkout: the plan's price with a 'once' coupon of the credit.
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    const newProvider = stripe.completeSession(sessionId);
    const first = stripe.checkoutInvoice(newProvider);
    expect(first.amount_paid).toBe(full - cents);
    const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(paid.status, paid.raw).toBe(200);
    await hook(first);
    const row = await paymentRow(renewal.id);
    // The Checkout's invoice is this payment's charge, not a renewal of the next period.
    expect(row).toMatchObject({
      amountDueCents: full - cents,
      method: 'stripe',
      providerPaymentId: first.id,
    });
    expect((await getSub(sub.id)).payments.filter((p) => p.periodStart.startsWith('2027-04-01'))).toEqual([]);
    expect(row.paidAt).not.toBeNull();
    const [invoice, ...more] = await invoiceOf(renewal.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ totalCents: full });
    expect(tags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(full - cents)]);
    expect(tags(invoice!.xml, 'Causale').at(-1)).toMatch(/^Compensato credito residuo di EUR /);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(await ledger(sub.id)).toHaveLength(2);
  });

  it('wholly covered: paid by the credit at once, no link nor e-mail, status unchanged, invoiced once', async () => {
    const { sub, customer, cents } = await stoppedThenDowngraded(
      mini,
      '2027-05-01T09:00:00.000Z',
      '2027-05-02T09:00:00.000Z',
    );
    const mailsBefore = (await reminderMails(mini.name)).length;
    clock.set('2027-05-25T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const after = await getSub(sub.id);
    const renewal = after.payments.find((p) => p.periodStart.startsWith('2027-06-01'))!;
    expect(renewal.amountDue).toBe(0);
    expect(renewal.paidAt).not.toBeNull();
    const used = -(await ledger(sub.id)).find((r) => r.paymentId === renewal.id)!.amountCents;
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(cents);
    expect(after.creditBalance).toBe((cents - used) / 100);
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(
      after.nextBillingDate.startsWith('2027-07-01') || after.nextBillingDate.startsWith('2027-06-30'),
    ).toBe(true);
    expect(after.history!.filter((h) => h.event === 'creditSettled')).toHaveLength(1);
    expect(after.history!.at(-1)).toMatchObject({
      event: 'creditSettled',
      fromStatus: SubscriptionStatus.ActiveNoRenewal,
      toStatus: SubscriptionStatus.ActiveNoRenewal,
    });
    expect((await reminderMails(mini.name)).length).toBe(mailsBefore);
    const [invoice, ...more] = await invoiceOf(renewal.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ totalCents: used });
    expect(tags(invoice!.xml, 'ImportoPagamento')).toEqual(['0.00']);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    await outboxSweep();
    expect(stripe.balances.get(customer)).toBe(-(cents - used));
  });
});

describe('Stripe: a proration or a one-off charge while a credit is left', () => {
  const secondsOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);

  it('an upgrade after a downgrade’s credit: Stripe’s balance takes it, Rinnova records the use and accepts that amount once', async () => {
    const { sub, providerId } = await paidByCard(company, pro.id, '2027-08-01T09:00:00.000Z');
    const customer = stripe.subscriptions.get(providerId)!.customer;
    clock.set('2027-08-02T09:00:00.000Z');
    const down = await change(sub.id, { planId: mini.id, when: 'now' });
    expect(down.status, down.raw).toBe(200);
    const cents = Math.round(down.body.data!.residualCredit * 100);
    // Stripe's renewal on Mini takes a period of the credit.
    clock.set('2027-09-01T09:00:00.000Z');
    const renewal = stripe.renew(providerId, clock.now());
    await hook(renewal);
    expect(renewal.amount_paid).toBe(0);
    const left = Math.round((await getSub(sub.id)).creditBalance! * 100);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(cents);
    expect(stripe.balances.get(customer)).toBe(-left);

    // The upgrade: the proration asks its net; Stripe's balance takes the credit off its invoice.
    clock.set('2027-09-02T09:00:00.000Z');
    const up = await change(sub.id, { planId: pro.id, when: 'now' });
    expect(up.status, up.raw).toBe(200);
    const prorationId = up.body.data!.prorationPaymentId!;
    const asked = Math.round(up.body.data!.netToPay * 100);
    expect(asked).toBeGreaterThan(left);
    const charged = stripeInvoicesOf(prorationId);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ status: 'paid', amount_paid: asked - left });
    expect(stripe.balances.get(customer)).toBe(0);
    const paidAt = { status_transitions: { paid_at: secondsOf('2027-09-02T09:01:00.000Z') } };
    await hook({ ...charged[0]!, ...paidAt });
    await hook({ ...charged[0]!, ...paidAt });
    const row = await paymentRow(prorationId);
    expect(row).toMatchObject({ amountDueCents: asked - left });
    expect(row.paidAt).not.toBeNull();
    const uses = (await ledger(sub.id)).filter((r) => r.paymentId === prorationId);
    expect(uses.map((r) => r.amountCents)).toEqual([-left]);
    expect((await getSub(sub.id)).creditBalance).toBe(0);
    const [invoice, ...more] = await invoiceOf(prorationId);
    expect(more).toEqual([]);
    expect(tags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(asked - left)]);
    const causali = tags(invoice!.xml, 'Causale');
    expect(causali.at(-1)).toMatch(
      new RegExp(`^Compensato credito residuo di EUR ${eur(left).replace('.', ',')} `),
    );
    expect(causali[0]).toMatch(/^Compensato credito di EUR \d+,\d{2} della nota di credito n\. /);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
  });

  it('a one-off charge whose credit has not reached Stripe yet: charged only once the balance holds it, the reduced amount', async () => {
    const { sub, providerId } = await paidByCard(company, pro.id, '2027-10-01T09:00:00.000Z');
    const customer = stripe.subscriptions.get(providerId)!.customer;
    clock.set('2027-10-15T09:00:00.000Z');
    stripe.failNext('POST /v1/customers', 500, 1);
    const down = await change(sub.id, { planId: base.id, when: 'now' });
    expect(down.status, down.raw).toBe(200);
    const cents = Math.round(down.body.data!.residualCredit * 100);
    expect(stripe.balances.get(customer) ?? 0).toBe(0);

    // 61,00 > the credit: the payment asks the rest; its charge waits while Stripe still fails.
    stripe.failNext('POST /v1/customers', 500, 1);
    const large = await admin.post<OneOffCharge>(`/api/subscription/charges/${sub.id}`, {
      description: 'Migrazione dati',
      quantity: 1,
      unitPrice: 50,
      collect: 'now',
    });
    expect(large.status, large.raw).toBe(200);
    const largeId = large.body.data!.paymentId!;
    expect(await paymentRow(largeId)).toMatchObject({ amountDueCents: 6100 - cents, paidAt: null });
    expect(stripeInvoicesOf(largeId)).toEqual([]);
    expect(stripe.balances.get(customer) ?? 0).toBe(0);

    // The outbox again: the credit reaches Stripe once, then the charge: Stripe takes exactly the rest.
    await outboxSweep();
    await outboxSweep();
    expect(stripe.balanceTransactions.filter((t) => t.customer === customer && t.amount < 0)).toHaveLength(1);
    const charged = stripeInvoicesOf(largeId);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ amount_paid: 6100 - cents });
    expect(stripe.balances.get(customer)).toBe(0);
    await hook({ ...charged[0]!, status_transitions: { paid_at: secondsOf('2027-10-15T09:05:00.000Z') } });
    const row = await paymentRow(largeId);
    expect(row.paidAt).not.toBeNull();
    const [invoice] = await invoiceOf(largeId);
    expect(tags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(6100 - cents)]);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
  });
});
