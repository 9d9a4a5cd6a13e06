/**
 * A coupon applied to a period payment whose residual credit is already set off (issue 30), with
 * the moved clock, the real server and database, the fake Stripe on loopback:
 * - the Admin's 'Applica coupon': the payment asks the discounted net less the credit used, the
 *   ledger keeps the use; paid by transfer, its TD01 has the SC line, ImportoPagamento reduced by
 *   the set-off, the Causale citing the credit, XSD-valid;
 * - the customer's code on the renewal link: the quote (preview and applied) and the link ask the
 *   same; Stripe's Checkout charges exactly the payment;
 * - a discounted net below the credit used: the use shrinks to it, the credit pays the payment at
 *   once ('creditSettled', ImportoPagamento 0,00), the rest stays for the next payment; on a card
 *   subscription its customer turned off, that rest goes back onto the Stripe customer's balance;
 * - a plan change while a coupon runs: a coupon valid for the new plan discounts its price for the
 *   periods left (the renewal asks it, its TD01 matches); one not valid for it ends, told in the
 *   history, and the renewal asks the full price without the coupon.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import { paymentTokens } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  creditLedger,
  customersWithoutLiveSubscription,
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
const STRIPE_WHSEC = 'whsec_rinnova_coupon_setoff';
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let me: number;
let stripe: FakeStripe;
let demoId: number;
let customers: { id: number }[];
let base: Plan;
let pro: Plan;
let mini: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  customers = await customersWithoutLiveSubscription(ctx, demoId, 5);
  base = await addPlan(admin, 'Base cs', 29, 1, true);
  pro = await addPlan(admin, 'Pro cs', 49, 1, true);
  mini = await addPlan(admin, 'Mini cs', 20, 1, true);
  for (const p of [base, pro]) expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
  await create(admin, 'coupon', { code: 'DIECICS', percentOff: 10, duration: 'once' });
  await create(admin, 'coupon', { code: 'DUECS', percentOff: 10, duration: 'repeating', durationPeriods: 2 });
  await create(admin, 'coupon', { code: 'METACS', percentOff: 50, duration: 'once' });
  await create(admin, 'coupon', {
    code: 'TRECSPC',
    percentOff: 10,
    duration: 'repeating',
    durationPeriods: 3,
  });
  await create(admin, 'coupon', {
    code: 'SOLOPROCS',
    percentOff: 10,
    duration: 'forever',
    planIds: [pro.id, base.id],
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const getSub = (id: number) => subscriptionOf(admin, id);
const eur = (cents: number) => (cents / 100).toFixed(2);
const cents = (euro: number) => Math.round(euro * 100);
const ledgerOf = async (subscriptionId: number) =>
  (await creditLedger(ctx, subscriptionId)).map((r) => [r.amountCents, r.paymentId]);
// Base: 29,00 + IVA 6,38 = 35,38; −10 %: 26,10 + 5,74 = 31,84; −50 %: 14,50 + 3,19 = 17,69.
const FULL = 3538;
const TEN_OFF = 3184;
const HALF_OFF = 1769;

/**
 * Pro paid by transfer from `start`, downgraded to Base now on `changeOn` (a residual credit),
 * then the renewal reminder on `remindOn`: the next period's payment sets the credit off.
 */
async function setOffRenewal(userId: number, start: string, changeOn: string, remindOn: string) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId, planId: pro.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  clock.set(changeOn);
  const made = await admin.post<PlanChangePreview>(`/api/subscription/changePlan/${sub.id}`, {
    planId: base.id,
    when: 'now',
  });
  expect(made.status, made.raw).toBe(200);
  const credit = cents(made.body.data!.residualCredit);
  expect(credit).toBeGreaterThan(0);
  expect(credit).toBeLessThan(FULL);
  clock.set(remindOn);
  await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
  const renewal = (await getSub(sub.id)).payments.find((p) => p.paidAt === null)!;
  expect(renewal).toMatchObject({ amountDue: (FULL - credit) / 100 });
  expect(await ledgerOf(sub.id)).toEqual([
    [credit, null],
    [-credit, renewal.id],
  ]);
  return { subId: sub.id, renewalId: renewal.id, credit };
}

/** The payment's TD01: one, the SC line on it, XSD-valid; answers its XML. */
async function discountedInvoiceOf(paymentId: number, totalCents: number, paidCents: number) {
  const [invoice, ...more] = await invoicesOfPayment(ctx, paymentId);
  expect(more).toEqual([]);
  expect(invoice).toMatchObject({ totalCents });
  expect(xmlTags(invoice!.xml, 'Tipo')).toEqual(['SC']);
  expect(xmlTags(invoice!.xml, 'ImportoPagamento')).toEqual([eur(paidCents)]);
  expect(await fatturaErrors(invoice!.xml)).toEqual([]);
  return invoice!.xml;
}

describe('a coupon on a payment whose residual credit is set off', () => {
  it('the Admin’s coupon: the payment asks the discounted net less the credit; paid by transfer, the TD01 matches', async () => {
    const { subId, renewalId, credit } = await setOffRenewal(
      customers[0]!.id,
      '2027-02-01T09:00:00.000Z',
      '2027-02-15T09:00:00.000Z',
      '2027-02-22T09:00:00.000Z',
    );
    const applied = await admin.post<CouponQuote>(`/api/subscription/applyCoupon/${subId}`, {
      couponCode: 'DIECICS',
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.data).toMatchObject({
      fullAmount: FULL / 100,
      amount: (TEN_OFF - credit) / 100,
      creditUsed: credit / 100,
      applied: true,
    });
    const row = await paymentRowOf(ctx, renewalId);
    expect(row).toMatchObject({ amountDueCents: TEN_OFF - credit, paidAt: null });
    expect(row.couponRedemptionId).not.toBeNull();
    expect(await ledgerOf(subId)).toEqual([
      [credit, null],
      [-credit, renewalId],
    ]);
    expect((await getSub(subId)).amountDue).toBe(TEN_OFF / 100);

    const paid = await admin.post(`/api/collection/markPaid/${renewalId}`, {
      amount: (TEN_OFF - credit) / 100,
      approvalDate: '2027-02-22T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const xml = await discountedInvoiceOf(renewalId, TEN_OFF, TEN_OFF - credit);
    expect(xmlTags(xml, 'Causale').at(-1)).toMatch(
      new RegExp(`^Compensato credito residuo di EUR ${eur(credit).replace('.', ',')} `),
    );
  });

  it('the customer’s code on the renewal link: the quote, the link and Stripe’s Checkout ask the payment', async () => {
    const { subId, renewalId, credit } = await setOffRenewal(
      customers[1]!.id,
      '2027-04-01T09:00:00.000Z',
      '2027-04-15T09:00:00.000Z',
      '2027-04-24T09:00:00.000Z',
    );
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId: renewalId });
    expect(link.status, link.raw).toBe(200);
    const token = link.body.data!.token;
    const code = (preview: boolean) =>
      ctx.api.post<CouponQuote>('/api/Payment/coupon', { token, couponCode: 'duecs', preview });
    const expected = { amount: (TEN_OFF - credit) / 100, creditUsed: credit / 100, fullAmount: FULL / 100 };
    const preview = await code(true);
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.data).toMatchObject({ ...expected, applied: false });
    expect((await paymentRowOf(ctx, renewalId)).amountDueCents).toBe(FULL - credit);
    const applied = await code(false);
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.data).toMatchObject({ ...expected, applied: true, periodsLeft: 2 });
    // The same code again (a second tab): the same answer, nothing more.
    expect((await code(false)).body.data).toMatchObject({ ...expected, applied: true });
    // The page again (validate): the link's amount and the coupon with the credit it sets off.
    const view = await ctx.api.get<{ amount: number; coupon: CouponQuote | null }>(
      `/api/PaymentToken/validate?token=${encodeURIComponent(token)}`,
    );
    expect(view.status, view.raw).toBe(200);
    expect(view.body.data).toMatchObject({ amount: expected.amount, coupon: expected });
    expect(await paymentRowOf(ctx, renewalId)).toMatchObject({ amountDueCents: TEN_OFF - credit });
    const links = await ctx.db
      .select({ amountCents: paymentTokens.amountCents })
      .from(paymentTokens)
      .where(
        and(eq(paymentTokens.paymentId, renewalId), eq(paymentTokens.status, PaymentTokenStatus.Active)),
      );
    expect(links).toEqual([{ amountCents: TEN_OFF - credit }]);
    expect(await ledgerOf(subId)).toEqual([
      [credit, null],
      [-credit, renewalId],
    ]);

    // By card: Stripe's first invoice (price − coupon − the credit's balance) charges the payment.
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    const providerId = stripe.completeSession(sessionId);
    const first = stripe.checkoutInvoice(providerId);
    expect(first.amount_paid).toBe(TEN_OFF - credit);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(confirmed.status, confirmed.raw).toBe(200);
    const signed = stripe.signWebhook(stripe.event('invoice.paid', first), STRIPE_WHSEC);
    const hook = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: signed.headers,
      payload: signed.body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const row = await paymentRowOf(ctx, renewalId);
    expect(row).toMatchObject({ amountDueCents: TEN_OFF - credit, method: 'stripe' });
    expect(row.paidAt).not.toBeNull();
    await discountedInvoiceOf(renewalId, TEN_OFF, TEN_OFF - credit);
  });

  it('a discounted net below the credit used: the use shrinks to it, the credit pays the payment, the rest stays', async () => {
    const { subId, renewalId, credit } = await setOffRenewal(
      customers[2]!.id,
      '2027-06-01T09:00:00.000Z',
      '2027-06-02T09:00:00.000Z',
      '2027-06-24T09:00:00.000Z',
    );
    expect(credit).toBeGreaterThan(HALF_OFF);
    const applied = await admin.post<CouponQuote>(`/api/subscription/applyCoupon/${subId}`, {
      couponCode: 'METACS',
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.data).toMatchObject({ amount: 0, creditUsed: HALF_OFF / 100, applied: true });
    const row = await paymentRowOf(ctx, renewalId);
    expect(row).toMatchObject({ amountDueCents: 0, method: 'bankTransfer' });
    expect(row.paidAt).not.toBeNull();
    expect(await ledgerOf(subId)).toEqual([
      [credit, null],
      [-HALF_OFF, renewalId],
    ]);
    const sub = await getSub(subId);
    expect(sub.creditBalance).toBe((credit - HALF_OFF) / 100);
    expect(sub.history!.filter((h) => h.event === 'creditSettled')).toHaveLength(1);
    const xml = await discountedInvoiceOf(renewalId, HALF_OFF, 0);
    expect(xmlTags(xml, 'Causale').at(-1)).toMatch(
      new RegExp(`^Compensato credito residuo di EUR ${eur(HALF_OFF).replace('.', ',')} `),
    );

    // The next period: the coupon's once is spent; the rest of the credit is set off on it.
    clock.set('2027-07-25T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const next = (await getSub(subId)).payments.find((p) => p.periodStart.startsWith('2027-08-01'))!;
    expect(next).toMatchObject({ amountDue: (FULL - (credit - HALF_OFF)) / 100, paidAt: null });
    expect(await ledgerOf(subId)).toEqual([
      [credit, null],
      [-HALF_OFF, renewalId],
      [-(credit - HALF_OFF), next.id],
    ]);
  });
});

describe('a plan change while a coupon runs', () => {
  /** Pro paid by transfer with `couponCode` from `start`, then downgraded now to `toPlan`. */
  async function changedWithCoupon(
    userId: number,
    couponCode: string,
    toPlan: Plan,
    start: string,
    on: string,
  ) {
    clock.set(start);
    const { sub, confirm } = await payByBankTransfer(admin, { userId, planId: pro.id, couponCode }, start);
    expect(confirm.status, confirm.raw).toBe(200);
    // Pro 49,00 − 10 % = 44,10 + IVA 9,70 = 53,80.
    expect(sub.payments[0]!.amountDue).toBe(53.8);
    clock.set(on);
    const made = await admin.post<PlanChangePreview>(`/api/subscription/changePlan/${sub.id}`, {
      planId: toPlan.id,
      when: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    return { subId: sub.id, credit: cents(made.body.data!.residualCredit) };
  }

  it('a coupon valid for the new plan: its periods left discount the new price; the renewal and its TD01 agree', async () => {
    const { subId, credit } = await changedWithCoupon(
      customers[3]!.id,
      'TRECSPC',
      base,
      '2027-09-01T09:00:00.000Z',
      '2027-09-15T09:00:00.000Z',
    );
    const after = await getSub(subId);
    expect(after.amountDue).toBe(TEN_OFF / 100);
    expect(after.coupon).toMatchObject({ code: 'TRECSPC', periodsLeft: 2, amount: TEN_OFF / 100 });
    clock.set('2027-09-24T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(subId)).payments.find((p) => p.periodStart.startsWith('2027-10-01'))!;
    expect(renewal).toMatchObject({ amountDue: (TEN_OFF - credit) / 100, paidAt: null });
    expect((await paymentRowOf(ctx, renewal.id)).couponRedemptionId).not.toBeNull();
    const paid = await admin.post(`/api/collection/markPaid/${renewal.id}`, {
      amount: (TEN_OFF - credit) / 100,
      approvalDate: '2027-09-24T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    await discountedInvoiceOf(renewal.id, TEN_OFF, TEN_OFF - credit);
  });

  it('a coupon not valid for the new plan ends, told in the history; the renewal asks the full price', async () => {
    const { subId, credit } = await changedWithCoupon(
      customers[4]!.id,
      'SOLOPROCS',
      mini,
      '2027-11-01T09:00:00.000Z',
      '2027-11-15T09:00:00.000Z',
    );
    const after = await getSub(subId);
    // Mini: 20,00 + IVA 4,40 = 24,40.
    expect(after.amountDue).toBe(24.4);
    expect(after.coupon).toMatchObject({ code: 'SOLOPROCS', periodsLeft: 0 });
    expect(after.history!.filter((h) => h.event === 'couponEnded')).toEqual([
      expect.objectContaining({
        reason:
          'Coupon SOLOPROCS terminato: non vale per il piano «Mini cs»; dal prossimo pagamento si paga il prezzo pieno',
      }),
    ]);
    clock.set('2027-11-24T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(subId)).payments.find((p) => p.periodStart.startsWith('2027-12-01'))!;
    expect(renewal).toMatchObject({ amountDue: (2440 - credit) / 100, paidAt: null });
    expect((await paymentRowOf(ctx, renewal.id)).couponRedemptionId).toBeNull();
  });
});

describe('a card subscription its customer turned off: a coupon shrinks the set-off', () => {
  async function stripeHook(invoice: Record<string, unknown>) {
    const signed = stripe.signWebhook(stripe.event('invoice.paid', invoice), STRIPE_WHSEC);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: signed.headers,
      payload: signed.body,
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('the credit no longer used goes back onto the Stripe customer’s balance, once', async () => {
    clock.set('2028-02-01T09:00:00.000Z');
    const created = await createSubscription(admin, { userId: me, planId: pro.id });
    const first = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: created.payments[0]!.id,
    });
    expect(first.status, first.raw).toBe(200);
    const session = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: first.body.data!.token,
    });
    expect(session.status, session.raw).toBe(200);
    const providerId = stripe.completeSession(session.body.data!.sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: session.body.data!.sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    await stripeHook(stripe.checkoutInvoice(providerId));
    const customer = stripe.subscriptions.get(providerId)!.customer;
    const stopped = await cliente.post(`/api/user/me/subscriptions/${created.id}/cancelRenewal`, {
      reason: 'tooExpensive',
    });
    expect(stopped.status, stopped.raw).toBe(200);
    clock.set('2028-02-02T09:00:00.000Z');
    const made = await admin.post<PlanChangePreview>(`/api/subscription/changePlan/${created.id}`, {
      planId: base.id,
      when: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    const credit = cents(made.body.data!.residualCredit);
    expect(credit).toBeGreaterThan(HALF_OFF);
    expect(stripe.balances.get(customer)).toBe(-credit);

    // The renewal link's payment sets the whole credit off; Stripe's balance gives it back.
    clock.set('2028-02-23T09:00:00.000Z');
    await ctx.app.jobs!.runJobNow(JOB_NAMES.renewalReminders, { tenantId: demoId });
    const renewal = (await getSub(created.id)).payments.find((p) => p.periodStart.startsWith('2028-03-01'))!;
    expect(renewal).toMatchObject({ amountDue: (FULL - credit) / 100, paidAt: null });
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect(stripe.balances.get(customer) ?? 0).toBe(0);

    // 50 %: 17,69 < the credit used: the use shrinks, the credit pays, the rest back at Stripe.
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId: renewal.id });
    expect(link.status, link.raw).toBe(200);
    const applied = await ctx.api.post<CouponQuote>('/api/Payment/coupon', {
      token: link.body.data!.token,
      couponCode: 'METACS',
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.data).toMatchObject({ amount: 0, creditUsed: HALF_OFF / 100, applied: true });
    expect((await paymentRowOf(ctx, renewal.id)).paidAt).not.toBeNull();
    expect(await ledgerOf(created.id)).toEqual([
      [credit, null],
      [-HALF_OFF, renewal.id],
    ]);
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect(stripe.balances.get(customer)).toBe(-(credit - HALF_OFF));
    expect((await getSub(created.id)).creditBalance).toBe((credit - HALF_OFF) / 100);
  });
});
