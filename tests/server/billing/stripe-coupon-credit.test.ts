/**
 * A period payment carrying both a coupon's discount and a plan change's residual credit, paid by
 * card (issue 30), with the moved clock, the real server and database, the fake Stripe on loopback:
 * - coupon periods left after this one: the Stripe customer is made first with a credit balance of
 *   the credit used (keyed), the Checkout takes that customer and the coupon as for any discounted
 *   payment; Stripe's first invoice (price − coupon − balance) charges exactly the payment, which
 *   is recorded once with its TD01 (SC line, ImportoPagamento reduced by the set-off, Causale); the
 *   next renewal is charged the coupon-discounted price (the credit not taken again), the one
 *   after the coupon's periods the full price; a webhook delivered again changes nothing;
 * - the coupon's last period: one 'once' Stripe coupon of discount + credit, no customer made.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { providerWebhookEvents } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  creditLedger,
  giveIban,
  invoicesOfPayment,
  movableClock,
  paymentRowOf,
  pointStripeAt,
  subscriptionOf,
  userId,
  xmlTags,
} from './helpers';

const clock = movableClock('2027-02-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_coupon_credit';
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let me: number;
let base: Plan;
let pro: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  me = await userId(ctx, DEMO.cliente);
  base = await addPlan(admin, 'Base cc', 29, 1, true);
  pro = await addPlan(admin, 'Pro cc', 49, 1, true);
  for (const p of [base, pro]) expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
  await create(admin, 'coupon', {
    code: 'TRE10CC',
    percentOff: 10,
    duration: 'repeating',
    durationPeriods: 3,
  });
  await create(admin, 'coupon', { code: 'UNO10CC', percentOff: 10, duration: 'once' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});
beforeEach(() => stripe.clearFailures());

const getSub = (id: number) => subscriptionOf(admin, id);
const eur = (cents: number) => (cents / 100).toFixed(2);
const cents = (euro: number) => Math.round(euro * 100);

async function hook(type: string, object: Record<string, unknown>, event = stripe.event(type, object)) {
  const signed = stripe.signWebhook(event, STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return event;
}

/** Pays a token on the fake Stripe Checkout (return page, then the session's and invoice's webhooks). */
async function payByCard(token: string) {
  const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
  expect(res.status, res.raw).toBe(200);
  const sessionId = res.body.data!.sessionId;
  const providerId = stripe.completeSession(sessionId);
  const first = stripe.checkoutInvoice(providerId);
  const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
  expect(paid.status, paid.raw).toBe(200);
  const completed = await hook('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
  const invoicePaid = await hook('invoice.paid', first);
  return { sessionId, providerId, first, completed, invoicePaid };
}

/**
 * Pro paid by card, renewal turned off by the customer, downgraded to Base now (its residual credit
 * onto the Stripe customer's balance), the Admin's 'Applica coupon' of `code`, then the renewal
 * reminder: the next period's payment carries the coupon and the credit. Answers what the test needs.
 */
async function couponAndCredit(code: string, start: string, changeOn: string, remindOn: string) {
  clock.set(start);
  const created = await createSubscription(admin, { userId: me, planId: pro.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: created.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  const { providerId: oldProvider } = await payByCard(link.body.data!.token);
  const stopped = await cliente.post(`/api/user/me/subscriptions/${created.id}/cancelRenewal`, {
    reason: 'tooExpensive',
  });
  expect(stopped.status, stopped.raw).toBe(200);
  clock.set(changeOn);
  const made = await admin.post<PlanChangePreview>(`/api/subscription/changePlan/${created.id}`, {
    planId: base.id,
    when: 'now',
  });
  expect(made.status, made.raw).toBe(200);
  const credit = cents(made.body.data!.residualCredit);
  expect(credit).toBeGreaterThan(0);
  const applied = await admin.post(`/api/subscription/applyCoupon/${created.id}`, { couponCode: code });
  expect(applied.status, applied.raw).toBe(200);
  clock.set(remindOn);
  await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
  const sub = await getSub(created.id);
  expect(sub.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  const renewal = sub.payments.find((p) => p.paidAt === null)!;
  expect(renewal).toBeDefined();
  const row = await paymentRowOf(ctx, renewal.id);
  expect(row.couponRedemptionId).not.toBeNull();
  const ledger = await creditLedger(ctx, sub.id);
  expect(ledger.map((r) => [r.amountCents, r.paymentId])).toEqual([
    [credit, null],
    [-credit, renewal.id],
  ]);
  const mail = (await ctx.outbox()).filter((m) => m.subject.includes(`«${base.name}» scade il`)).at(-1)!;
  const renewalToken = /token=([A-Za-z0-9_.~-]+)/.exec(mail.text)![1]!;
  return { sub, oldProvider, credit, renewal: row, renewalToken };
}

describe('a payment with a coupon’s discount and a residual credit, paid by card', () => {
  it('coupon periods left: a Stripe customer with the credit as balance; Stripe charges the payment exactly, once; later renewals keep only the discount', async () => {
    const { sub, credit, renewal, renewalToken } = await couponAndCredit(
      'TRE10CC',
      '2027-02-01T09:00:00.000Z',
      '2027-02-15T09:00:00.000Z',
      '2027-02-22T09:00:00.000Z',
    );
    // Base: 29,00 + IVA = 35,38; 10 % off the net: 26,10 + IVA 5,74 = 31,84.
    const full = 3538;
    const discounted = 3184;
    expect(renewal.amountDueCents).toBe(discounted - credit);
    expect(credit).toBeLessThan(discounted);

    const customersBefore = stripe.customers.size;
    // Stripe failing at the customer: 502, no session, nothing changes in Rinnova.
    const sessionsBefore = stripe.sessions.size;
    stripe.failNext('POST /v1/customers', 500);
    const failed = await ctx.api.post('/api/Payment/stripe/checkout', { token: renewalToken });
    expect(failed.status, failed.raw).toBe(502);
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(await paymentRowOf(ctx, renewal.id)).toEqual(renewal);
    // A first session left unpaid (a second click): the same customer (keyed), one credit at Stripe.
    const abandoned = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: renewalToken,
    });
    expect(abandoned.status, abandoned.raw).toBe(200);
    const { providerId, first, completed, invoicePaid } = await payByCard(renewalToken);
    expect(stripe.sessions.get(abandoned.body.data!.sessionId)!.customer).toBe(
      stripe.subscriptions.get(providerId)!.customer,
    );
    // Stripe's first invoice: the price less the coupon less the customer's balance = the payment.
    expect(first.amount_paid).toBe(renewal.amountDueCents);
    expect(stripe.customers.size).toBe(customersBefore + 1);
    const customer = stripe.subscriptions.get(providerId)!.customer;
    expect(stripe.customers.has(customer)).toBe(true);
    // The balance it was made with (−credit) is used up by that first invoice.
    expect(stripe.balances.get(customer)).toBe(0);
    expect(stripe.subscriptions.get(providerId)!.discount!.coupon).toMatchObject({
      amount_off: full - discounted,
      duration: 'repeating',
    });

    // Recorded once: the payment paid by Stripe with the first invoice's id, the credit used once.
    const paid = await paymentRowOf(ctx, renewal.id);
    expect(paid).toMatchObject({
      amountDueCents: discounted - credit,
      method: 'stripe',
      providerSubscriptionId: providerId,
      providerPaymentId: first.id,
    });
    expect(paid.paidAt).not.toBeNull();
    // The webhook took Stripe's first invoice as this payment's charge, at exactly its amount.
    const [seen] = await ctx.db
      .select({ outcome: providerWebhookEvents.outcome, detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, invoicePaid.id as string));
    expect(seen).toEqual({
      outcome: 'applied',
      detail: `primo addebito ${first.id} sul pagamento ${renewal.id}`,
    });
    const ledger = await creditLedger(ctx, sub.id);
    expect(ledger.map((r) => [r.amountCents, r.paymentId])).toEqual([
      [credit, null],
      [-credit, renewal.id],
    ]);
    // Its TD01: the whole period, the coupon's SC line, ImportoPagamento less the set-off.
    const [invoice, ...more] = await invoicesOfPayment(ctx, renewal.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ totalCents: discounted });
    expect(xmlTags(invoice!.xml, 'Tipo')).toContain('SC');
    expect(xmlTags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(discounted - credit)]);
    expect(xmlTags(invoice!.xml, 'Causale').at(-1)).toMatch(/^Compensato credito residuo di EUR /);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    // Stripe's first invoice paid this payment: no renewal recorded for the next period.
    const paymentsAfter = (await getSub(sub.id)).payments.length;
    expect((await getSub(sub.id)).payments.filter((p) => p.periodStart.startsWith('2027-04-01'))).toEqual([]);

    // The same webhooks again: nothing changes.
    await hook('checkout.session.completed', {}, completed);
    await hook('invoice.paid', {}, invoicePaid);
    await hook('invoice.paid', first);
    expect((await getSub(sub.id)).payments).toHaveLength(paymentsAfter);
    expect(await creditLedger(ctx, sub.id)).toHaveLength(2);
    expect(await invoicesOfPayment(ctx, renewal.id)).toHaveLength(1);

    // The next renewals: the coupon's discount only (its two periods left), no credit taken again;
    // then the full price.
    for (const [day, amount] of [
      ['2027-04-01', discounted],
      ['2027-05-01', discounted],
      ['2027-06-01', full],
    ] as const) {
      clock.set(`${day}T09:00:00.000Z`);
      const next = stripe.renew(providerId, clock.now());
      expect(next.amount_paid, day).toBe(amount);
      await hook('invoice.paid', next);
      const [p, ...others] = (await getSub(sub.id)).payments.filter((x) => x.periodStart.startsWith(day));
      expect(others, day).toEqual([]);
      expect(cents(p!.amountDue), day).toBe(amount);
      expect(xmlTags((await invoicesOfPayment(ctx, p!.id))[0]!.xml, 'ImportoPagamento')).toEqual([
        eur(amount),
      ]);
    }
    expect(await creditLedger(ctx, sub.id)).toHaveLength(2);
    expect((await getSub(sub.id)).creditBalance).toBe(0);
  }, 60_000); // two Checkout sessions, four webhooks and three renewals at the fake Stripe

  it('the coupon’s last period: one ‘once’ Stripe coupon of discount + credit; the next renewal at full price', async () => {
    const { sub, credit, renewal, renewalToken } = await couponAndCredit(
      'UNO10CC',
      '2027-06-01T09:00:00.000Z',
      '2027-06-15T09:00:00.000Z',
      '2027-06-24T09:00:00.000Z',
    );
    const full = 3538;
    const discounted = 3184;
    expect(renewal.amountDueCents).toBe(discounted - credit);
    const customersBefore = stripe.customers.size;
    const { providerId, first } = await payByCard(renewalToken);
    expect(first.amount_paid).toBe(discounted - credit);
    expect(stripe.customers.size).toBe(customersBefore);
    expect(stripe.subscriptions.get(providerId)!.discount!.coupon).toMatchObject({
      amount_off: full - discounted + credit,
      duration: 'once',
    });
    const paid = await paymentRowOf(ctx, renewal.id);
    expect(paid).toMatchObject({ amountDueCents: discounted - credit, providerPaymentId: first.id });
    const [invoice] = await invoicesOfPayment(ctx, renewal.id);
    expect(xmlTags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(discounted - credit)]);
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    clock.set('2027-08-01T09:00:00.000Z');
    const next = stripe.renew(providerId, clock.now());
    expect(next.amount_paid).toBe(full);
    await hook('invoice.paid', next);
    const after = await getSub(sub.id);
    expect(cents(after.payments.find((p) => p.periodStart.startsWith('2027-08-01'))!.amountDue)).toBe(full);
    expect(await creditLedger(ctx, sub.id)).toHaveLength(2);
  }, 60_000);
});
