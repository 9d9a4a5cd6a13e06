/**
 * A coupon on the public payment page and on an existing subscription (issue 30), through the real
 * server with the moved clock and the fake Stripe:
 * - `POST api/Payment/coupon`: the Italian errors on `couponCode`, a preview that writes nothing,
 *   the link's payment discounted and the coupon redeemed once (the same code again, or the link
 *   replayed, redeems nothing; another code is refused; racing links never pass the maximum);
 * - Stripe charges Rinnova's amount: the Checkout carries a Stripe coupon of exactly the full net
 *   to pay minus the discounted one, 'repeating' for (N − 1) × months + 1 months; first payment,
 *   renewals while periods are left and full price after: each Rinnova payment, its invoice's
 *   ImportoPagamento and Stripe's charge agree to the cent (monthly and yearly plans);
 * - Stripe failing at the coupon: 502, nothing changes;
 * - 'Applica coupon' (`POST api/subscription/applyCoupon/{id}`): preview, applied from the next
 *   unpaid payment, a customer 403.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { couponMessages as m } from '../../../contract/messages';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { couponRedemptions, coupons, invoices, payments, paymentTokens } from '../../../server/db/schema';
import { stripeCouponDuration } from '../../../server/modules/billing/stripe-billing.service';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { tagText, withoutDemoInvoices } from '../invoices/helpers';
import {
  createSubscription,
  giveIban,
  movableClock,
  userId,
  pointStripeAt,
  subscriptionOf,
  addPlan,
} from './helpers';

const clock = movableClock('2026-01-15T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_coupon_secret';
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let monthly: Plan;
let yearly: Plan;
let other: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  monthly = await plan('Mensile coupon', 29);
  yearly = await plan('Annuale coupon', 290, 12);
  other = await plan('Altro coupon', 10);
  for (const p of [monthly, yearly, other])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
  await create(admin, 'coupon', { code: 'BENVENUTO10', percentOff: 10, duration: 'once' });
  await create(admin, 'coupon', {
    code: 'TRIMESTRE20',
    percentOff: 20,
    duration: 'repeating',
    durationPeriods: 3,
  });
  await create(admin, 'coupon', { code: 'FEDELTA', amountOff: 5, duration: 'forever' });
  await create(admin, 'coupon', {
    code: 'BIENNIO',
    percentOff: 15,
    duration: 'repeating',
    durationPeriods: 2,
    planIds: [yearly.id],
  });
  await create(admin, 'coupon', {
    code: 'ESTATE2025',
    percentOff: 30,
    duration: 'once',
    expiresAt: '2025-09-30',
  });
  await create(admin, 'coupon', { code: 'UNOSOLO', amountOff: 3, duration: 'once', maxRedemptions: 1 });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});
beforeEach(() => stripe.clearFailures());

const getSub = (id: number) => subscriptionOf(admin, id);

/** A NotActive subscription of the company customer on `plan` and its payment link's token. */
async function linkFor(plan: Plan, start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: company, planId: plan.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  return { sub, token: link.body.data!.token };
}

const applyCode = (token: string, couponCode: string, preview?: boolean) =>
  ctx.api.post<CouponQuote>('/api/Payment/coupon', { token, couponCode, ...(preview ? { preview } : {}) });

const timesRedeemed = async (code: string) =>
  (await ctx.db.select({ n: coupons.timesRedeemed }).from(coupons).where(eq(coupons.code, code)))[0]!.n;

async function stripeHook(object: Record<string, unknown>) {
  const signed = stripe.signWebhook(stripe.event('invoice.paid', object), STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Pays the link on the fake Stripe Checkout: answers Stripe's subscription id. */
async function payByCard(token: string) {
  const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
  expect(res.status, res.raw).toBe(200);
  const sessionId = res.body.data!.sessionId;
  const providerId = stripe.completeSession(sessionId);
  const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
  expect(paid.status, paid.raw).toBe(200);
  // Stripe's own invoice of the Checkout: its sale is the first payment's, not a renewal.
  await stripeHook(stripe.checkoutInvoice(providerId));
  return providerId;
}

/** The invoice (TD01) of a payment: its ImportoPagamento in cents. */
async function invoicedCents(paymentId: number) {
  const [inv] = await ctx.db
    .select({ xml: invoices.xml })
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));
  expect(inv, `payment ${paymentId} is invoiced`).toBeDefined();
  return Math.round(Number(tagText(inv!.xml, 'ImportoPagamento')) * 100);
}

describe('the payment page: Hai un codice sconto?', () => {
  it('answers the Italian errors on couponCode and changes nothing', async () => {
    const { sub, token } = await linkFor(monthly, '2026-01-15T09:00:00.000Z');
    for (const [code, message] of [
      ['SBAGLIATO', m.invalid],
      ['', m.invalid],
      ['estate2025', m.expired],
      ['BIENNIO', m.notForPlan],
    ] as const) {
      const res = await applyCode(token, code);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.errors).toEqual([`couponCode: ${message}`]);
    }
    expect((await getSub(sub.id)).payments[0]!.amountDue).toBe(35.38);
    const bad = await ctx.api.post('/api/Payment/coupon', { token: 'nope', couponCode: 'FEDELTA' });
    expect(bad.status).toBe(400);
  });

  it('previews without redeeming, applies once, and a replay or a second tab redeems nothing', async () => {
    const { sub, token } = await linkFor(monthly, '2026-01-15T10:00:00.000Z');
    const before = await timesRedeemed('BENVENUTO10');
    const preview = await applyCode(token, 'benvenuto10', true);
    expect(preview.status, preview.raw).toBe(200);
    // 29,00 − 10 % = 26,10 + IVA 5,74 = 31,84; without: 35,38.
    expect(preview.body.data).toEqual({
      code: 'BENVENUTO10',
      discountLabel: '10%',
      durationLabel: 'Una volta',
      periodsLeft: 1,
      discountAmount: 2.9,
      fullAmount: 35.38,
      amount: 31.84,
      applied: false,
    });
    expect(await timesRedeemed('BENVENUTO10')).toBe(before);
    expect((await getSub(sub.id)).payments[0]!.amountDue).toBe(35.38);

    const [a, b] = await Promise.all([applyCode(token, 'BENVENUTO10'), applyCode(token, 'BENVENUTO10')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data).toMatchObject({ amount: 31.84, applied: true });
    expect(b.body.data).toMatchObject({ amount: 31.84, applied: true });
    expect(await timesRedeemed('BENVENUTO10')).toBe(before + 1);
    const again = await applyCode(token, 'BENVENUTO10');
    expect(again.body.data).toMatchObject({ amount: 31.84, applied: true });
    expect(await timesRedeemed('BENVENUTO10')).toBe(before + 1);
    const otherCode = await applyCode(token, 'FEDELTA');
    expect(otherCode.status).toBe(400);
    expect(otherCode.body.errors).toEqual([`couponCode: ${m.alreadyApplied}`]);

    const after = await getSub(sub.id);
    expect(after.payments[0]!.amountDue).toBe(31.84);
    const [tokenRow] = await ctx.db
      .select({ amount: paymentTokens.amountCents })
      .from(paymentTokens)
      .where(eq(paymentTokens.paymentId, sub.payments[0]!.id));
    expect(tokenRow!.amount).toBe(3184);
    // The page reads the coupon back with the link.
    const view = await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', { query: { token } });
    expect(view.body.data).toMatchObject({ amount: 31.84, coupon: { code: 'BENVENUTO10', periodsLeft: 1 } });
  });

  it('two links racing for the last use: one applies, the other answers Coupon esaurito', async () => {
    const first = await linkFor(other, '2026-01-15T11:00:00.000Z');
    const second = await linkFor(other, '2026-01-15T11:00:00.000Z');
    const results = await Promise.all([
      applyCode(first.token, 'UNOSOLO'),
      applyCode(second.token, 'UNOSOLO'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const refused = results.find((r) => r.status === 400)!;
    expect(refused.body.errors).toEqual([`couponCode: ${m.exhausted}`]);
    expect(await timesRedeemed('UNOSOLO')).toBe(1);
    expect(
      await ctx.db
        .select()
        .from(couponRedemptions)
        .where(
          eq(
            couponRedemptions.couponId,
            (await ctx.db.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, 'UNOSOLO')))[0]!.id,
          ),
        ),
    ).toHaveLength(1);
  });
});

describe('Stripe charges what Rinnova asks', () => {
  it('the Stripe coupon durations: once, forever, (N − 1) × months + 1', () => {
    expect(stripeCouponDuration(1, 1)).toEqual({ duration: 'once', durationInMonths: null });
    expect(stripeCouponDuration(null, 12)).toEqual({ duration: 'forever', durationInMonths: null });
    expect(stripeCouponDuration(3, 1)).toEqual({ duration: 'repeating', durationInMonths: 3 });
    expect(stripeCouponDuration(2, 12)).toEqual({ duration: 'repeating', durationInMonths: 13 });
  });

  it('monthly, 20 % for 3 periods: three discounted charges, then the full price; invoices equal charges', async () => {
    const { sub, token } = await linkFor(monthly, '2026-02-10T09:00:00.000Z');
    expect((await applyCode(token, 'TRIMESTRE20')).status).toBe(200);
    const providerId = await payByCard(token);
    // The Checkout's coupon: 35,38 − 28,30 = 7,08 off, repeating 3 months.
    const coupon = stripe.subscriptions.get(providerId)!.discount!.coupon;
    expect(coupon).toMatchObject({
      amount_off: 708,
      currency: 'eur',
      duration: 'repeating',
      duration_in_months: 3,
    });
    let current = await getSub(sub.id);
    expect(current.subscriptionStatus).toBe(1);
    expect(current.payments[0]!.amountDue).toBe(28.3);
    expect(stripe.amountOfCycle(providerId, 1)).toBe(2830);
    expect(current.payments).toHaveLength(1);
    expect(await invoicedCents(current.payments[0]!.id)).toBe(2830);

    const charged: number[] = [2830];
    for (const day of ['2026-03-10', '2026-04-10', '2026-05-10', '2026-06-10']) {
      clock.set(`${day}T09:00:00.000Z`);
      const invoice = stripe.renew(providerId, clock.now());
      charged.push(invoice.amount_paid as number);
      await stripeHook(invoice);
    }
    expect(charged).toEqual([2830, 2830, 2830, 3538, 3538]);
    current = await getSub(sub.id);
    const paid = [...current.payments].sort((a, b) => a.id - b.id);
    expect(paid.map((p) => Math.round(p.amountDue * 100))).toEqual(charged);
    for (const [i, p] of paid.entries()) expect(await invoicedCents(p.id)).toBe(charged[i]);
    const [r] = await ctx.db
      .select({ left: couponRedemptions.periodsLeft })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, sub.id));
    expect(r!.left).toBe(0);
  });

  it('yearly, 15 % for 2 periods: the second year still discounted, the third at full price', async () => {
    const { sub, token } = await linkFor(yearly, '2026-03-31T09:00:00.000Z');
    expect((await applyCode(token, 'BIENNIO')).status).toBe(200);
    const providerId = await payByCard(token);
    expect(stripe.subscriptions.get(providerId)!.discount!.coupon).toMatchObject({
      duration: 'repeating',
      duration_in_months: 13,
    });
    const charged = [stripe.amountOfCycle(providerId, 1)];
    for (const day of ['2027-03-31', '2028-03-31']) {
      clock.set(`${day}T09:00:00.000Z`);
      const invoice = stripe.renew(providerId, clock.now());
      charged.push(invoice.amount_paid as number);
      await stripeHook(invoice);
    }
    // 290 − 15 % = 246,50 + IVA 54,23 = 300,73; full 353,80.
    expect(charged).toEqual([30073, 30073, 35380]);
    const paid = [...(await getSub(sub.id)).payments].sort((a, b) => a.id - b.id);
    expect(paid.map((p) => Math.round(p.amountDue * 100))).toEqual(charged);
    for (const [i, p] of paid.entries()) expect(await invoicedCents(p.id)).toBe(charged[i]);
  });

  it('forever 5 €: every renewal discounted', async () => {
    const { token } = await linkFor(other, '2026-04-05T09:00:00.000Z');
    expect((await applyCode(token, 'FEDELTA')).body.data).toMatchObject({ amount: 6.1, periodsLeft: null });
    const providerId = await payByCard(token);
    clock.set('2026-05-05T09:00:00.000Z');
    const invoice = stripe.renew(providerId, clock.now());
    expect(invoice.amount_paid).toBe(610);
    await stripeHook(invoice);
  });

  it('Stripe failing at the coupon: 502, no session, nothing changes in Rinnova', async () => {
    const { sub, token } = await linkFor(monthly, '2026-07-01T09:00:00.000Z');
    expect((await applyCode(token, 'BENVENUTO10')).status).toBe(200);
    const before = await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id));
    const sessions = stripe.sessions.size;
    stripe.failNext('POST /v1/coupons', 500);
    const res = await ctx.api.post('/api/Payment/stripe/checkout', { token });
    expect(res.status).toBe(502);
    expect(stripe.sessions.size).toBe(sessions);
    expect(await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))).toEqual(before);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(2);
  });
});

describe("'Applica coupon' on a subscription", () => {
  it('previews, applies from the next unpaid payment, and refuses a customer', async () => {
    clock.set('2026-08-01T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: company, planId: monthly.id });
    const path = `/api/subscription/applyCoupon/${sub.id}`;
    expect((await cliente.post(path, { couponCode: 'FEDELTA' })).status).toBe(403);
    const preview = await admin.post<CouponQuote>(path, { couponCode: 'FEDELTA', preview: true });
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.data).toMatchObject({ amount: 29.28, fullAmount: 35.38, applied: false });
    expect((await getSub(sub.id)).payments[0]!.amountDue).toBe(35.38);
    const applied = await admin.post<CouponQuote>(path, { couponCode: 'FEDELTA' });
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.message).toBe(m.applied('FEDELTA'));
    const after = await getSub(sub.id);
    expect(after.payments[0]!.amountDue).toBe(29.28);
    const rows = await ctx.db
      .select({ redemption: payments.couponRedemptionId })
      .from(payments)
      .where(eq(payments.subscriptionId, sub.id))
      .orderBy(asc(payments.id));
    expect(rows[0]!.redemption).not.toBeNull();
    const wrong = await admin.post(path, { couponCode: 'NONESISTE' });
    expect(wrong.status).toBe(400);
    // Another tenant's staff do not find it, and nothing of it changes.
    const other = await ctx.as('superadmin', 'Studio Rossi');
    const before = await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id));
    expect((await other.post(path, { couponCode: 'FEDELTA' })).status).toBe(404);
    expect(await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))).toEqual(before);
    // The subscription shows the coupon in effect.
    expect(after.coupon).toMatchObject({ code: 'FEDELTA', periodsLeft: null, amount: 29.28, applied: true });
  });

  it('on a subscription Stripe charges: Stripe first (a failure: 502, nothing changes), then the next renewals charge the discounted amount', async () => {
    const { sub, token } = await linkFor(monthly, '2026-08-01T10:00:00.000Z');
    const providerId = await payByCard(token);
    clock.set('2026-08-20T10:00:00.000Z');
    const path = `/api/subscription/applyCoupon/${sub.id}`;
    const before = await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id));
    const redeemed = await timesRedeemed('TRIMESTRE20');
    stripe.failNext('POST /v1/subscriptions', 500);
    const failed = await admin.post(path, { couponCode: 'TRIMESTRE20' });
    expect(failed.status, failed.raw).toBe(502);
    expect(await timesRedeemed('TRIMESTRE20')).toBe(redeemed);
    expect(await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id))).toEqual(before);
    expect((await getSub(sub.id)).coupon).toBeNull();

    const applied = await admin.post<CouponQuote>(path, { couponCode: 'TRIMESTRE20' });
    expect(applied.status, applied.raw).toBe(200);
    expect(await timesRedeemed('TRIMESTRE20')).toBe(redeemed + 1);
    const discount = stripe.subscriptions.get(providerId)!.discount!;
    // From 20 Aug: 1 month reaches past 1 Sep, then 2 more periods: 3 months, the end inside the third.
    expect(discount.coupon).toMatchObject({ amount_off: 708, duration: 'repeating', duration_in_months: 3 });
    const charged: number[] = [];
    for (const day of ['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']) {
      clock.set(`${day}T10:00:00.000Z`);
      const invoice = stripe.renew(providerId, clock.now());
      charged.push(invoice.amount_paid as number);
      await stripeHook(invoice);
    }
    expect(charged).toEqual([2830, 2830, 2830, 3538]);
    const renewals = [...(await getSub(sub.id)).payments].sort((a, b) => a.id - b.id).slice(1);
    expect(renewals.map((p) => Math.round(p.amountDue * 100))).toEqual(charged);
    for (const [i, p] of renewals.entries()) expect(await invoicedCents(p.id)).toBe(charged[i]);
  });

  it('a plan change at Stripe replaces Stripe’s discount: the new plan’s amount off for the periods left, or none when the coupon does not allow it', async () => {
    const plus = await addPlan(admin, 'Mensile coupon plus', 49);
    expect((await admin.post(`/api/plan/syncStripe/${plus.id}`)).status).toBe(200);
    await create(admin, 'coupon', {
      code: 'SOLOMENSILE',
      percentOff: 10,
      duration: 'repeating',
      durationPeriods: 3,
      planIds: [monthly.id],
    });
    const renewals = async (providerId: string, subId: number, days: string[]) => {
      const charged: number[] = [];
      for (const day of days) {
        clock.set(`${day}T10:00:00.000Z`);
        await ctx.app.jobs!.runJobNow('plan-changes', { tenantId: demoId });
        const invoice = stripe.renew(providerId, clock.now());
        charged.push(invoice.amount_paid as number);
        await stripeHook(invoice);
      }
      const paid = [...(await getSub(subId)).payments].sort((a, b) => a.id - b.id).slice(1);
      expect(paid.map((p) => Math.round(p.amountDue * 100))).toEqual(charged);
      for (const [i, p] of paid.entries()) expect(await invoicedCents(p.id)).toBe(charged[i]);
      return charged;
    };

    // 20 % for 3 periods on the 29,00 € month, then Plus (49,00 €) from the renewal: Stripe's
    // discount becomes 20 % of 59,78 € = 11,96 € for the same 3 periods.
    const first = await linkFor(monthly, '2027-01-04T10:00:00.000Z');
    const firstAtStripe = await payByCard(first.token);
    clock.set('2027-01-10T10:00:00.000Z');
    const applied = await admin.post(`/api/subscription/applyCoupon/${first.sub.id}`, {
      couponCode: 'TRIMESTRE20',
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(stripe.subscriptions.get(firstAtStripe)!.discount!.coupon).toMatchObject({ amount_off: 708 });
    clock.set('2027-01-12T10:00:00.000Z');
    const changed = await admin.post(`/api/subscription/changePlan/${first.sub.id}`, {
      planId: plus.id,
      when: 'renewal',
    });
    expect(changed.status, changed.raw).toBe(200);
    expect(stripe.subscriptions.get(firstAtStripe)!.discount!.coupon).toMatchObject({
      amount_off: 1196,
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect(
      await renewals(firstAtStripe, first.sub.id, ['2027-02-04', '2027-03-04', '2027-04-04', '2027-05-04']),
    ).toEqual([4782, 4782, 4782, 5978]);

    // A coupon of the month only: the change to Plus ends it in Rinnova and at Stripe.
    const second = await linkFor(monthly, '2027-06-07T10:00:00.000Z');
    const secondAtStripe = await payByCard(second.token);
    clock.set('2027-06-10T10:00:00.000Z');
    expect(
      (await admin.post(`/api/subscription/applyCoupon/${second.sub.id}`, { couponCode: 'SOLOMENSILE' }))
        .status,
    ).toBe(200);
    expect(stripe.subscriptions.get(secondAtStripe)!.discount).not.toBeNull();
    clock.set('2027-06-12T10:00:00.000Z');
    const ended = await admin.post(`/api/subscription/changePlan/${second.sub.id}`, {
      planId: plus.id,
      when: 'renewal',
    });
    expect(ended.status, ended.raw).toBe(200);
    expect(stripe.subscriptions.get(secondAtStripe)!.discount).toBeNull();
    expect(await renewals(secondAtStripe, second.sub.id, ['2027-07-07', '2027-08-07'])).toEqual([5978, 5978]);
  }, 60_000);

  it("a customer's own list carries the coupon in effect (the area's cards)", async () => {
    clock.set('2026-08-02T09:00:00.000Z');
    const me = await userId(ctx, 'cliente@demo.rinnova.it');
    const sub = await createSubscription(admin, {
      userId: me,
      planId: monthly.id,
      couponCode: 'TRIMESTRE20',
    });
    const mine = await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll', {
      query: { page: 1, pageSize: 50 },
    });
    expect(mine.status, mine.raw).toBe(200);
    const item = mine.body.data!.items.find((s) => s.id === sub.id)!;
    expect(item.coupon).toMatchObject({ code: 'TRIMESTRE20', periodsLeft: 3, discountLabel: '20%' });
  });
});
