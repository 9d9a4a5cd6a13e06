/**
 * A coupon paid through PayPal (issue 30), through the real server with the moved clock and the
 * fake PayPal (a PayPal-only tenant: the page's coupon is no longer card-only):
 * - `POST api/Payment/coupon` on a link PayPal charges makes the coupon's own PayPal plan first (a
 *   TRIAL cycle of N periods at the discounted net to pay, then the REGULAR one at the full net to
 *   pay; forever: the REGULAR one discounted), keyed, and the link asks that plan;
 * - the buyer's approval of that plan pays the first payment; PayPal's renewals (its sales, by
 *   webhook) are discounted while periods are left, then at full price: each Rinnova payment,
 *   PayPal's charge and the invoice's ImportoPagamento agree to the cent; a replayed sale is
 *   recorded once;
 * - PayPal failing at the plan: 502, nothing changes; an approval carrying an inline plan (a price
 *   typed in the browser) is refused;
 * - 'Applica coupon' on a subscription PayPal charges: paypal-coupon-revise.test.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import {
  couponRedemptions,
  coupons,
  invoices,
  paymentTokens,
  payments,
  plans,
  subscriptions,
} from '../../../server/db/schema';
import { paypalCouponRefused } from '../../../server/modules/billing/coupon-apply.service';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { paypalBillingCycles } from '../../../server/providers/paypal';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { tagText, withoutDemoInvoices } from '../invoices/helpers';
import {
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  userId,
  subscriptionOf,
  addPlan,
} from './helpers';

const clock = movableClock('2026-01-15T09:00:00.000Z');
const WEBHOOK_ID = 'WH-COUPON-0001';
let fake: FakePayPal;
let ctx: TestContext;
let admin: ApiClient;
let demoId: number;
let company: number;
let monthly: Plan;
let yearly: Plan;
let other: Plan;

beforeAll(async () => {
  fake = await startFakePayPal();
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: fake.url, webhookId: WEBHOOK_ID });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  monthly = await plan('Mensile PayPal coupon', 29);
  yearly = await plan('Annuale PayPal coupon', 290, 12);
  other = await plan('Altro PayPal coupon', 10);
  for (const p of [monthly, yearly, other]) {
    const res = await admin.post(`/api/plan/syncPaypal/${p.id}`);
    expect(res.status, res.raw).toBe(200);
  }
  await create(admin, 'coupon', { code: 'PPBENVENUTO', percentOff: 10, duration: 'once' });
  await create(admin, 'coupon', {
    code: 'PPTRIMESTRE',
    percentOff: 20,
    duration: 'repeating',
    durationPeriods: 3,
  });
  await create(admin, 'coupon', { code: 'PPFEDELTA', amountOff: 5, duration: 'forever' });
  await create(admin, 'coupon', { code: 'PPGRATIS', percentOff: 100, duration: 'once' });
  await create(admin, 'coupon', {
    code: 'PPBIENNIO',
    percentOff: 15,
    duration: 'repeating',
    durationPeriods: 2,
    planIds: [yearly.id],
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.clearFailures());

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

const view = async (token: string) =>
  (await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', { query: { token } })).body.data!;

/** A delivery by PayPal (signed by the fake) to the tenant's webhook. */
async function deliver(event: Record<string, unknown>) {
  const signed = fake.signWebhook(event, WEBHOOK_ID);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/paypal/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body) as { data: { outcome: string } };
}

/** The buyer approves the plan the page's button asks (the link's), PayPal takes the first cycle. */
async function payWithPayPal(token: string) {
  const planId = (await view(token)).paymentProviderPlanId;
  const paypalId = fake.approve(planId, undefined, 'ACTIVE', { at: clock.now() });
  const paid = await ctx.api.put<{ result: string }>('/api/Payment/updatePayment', {
    token,
    providerSubscriptionId: paypalId,
  });
  expect(paid.status, paid.raw).toBe(200);
  expect(paid.body.data!.result).toBe('paid');
  // PayPal's sale of that first cycle: the first payment's, not a renewal.
  const first = fake.charges.find((c) => c.subscriptionId === paypalId)!;
  await deliver(fake.saleEvent(first));
  return paypalId;
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

const cents = (euros: string) => Math.round(Number(euros) * 100);

/** Each payment's amount, PayPal's charge of it and its invoice's ImportoPagamento, in order. */
async function ledger(subscriptionId: number, paypalId: string) {
  const paid = [...(await getSub(subscriptionId)).payments].sort((a, b) => a.id - b.id);
  const charged = fake.charges.filter((c) => c.subscriptionId === paypalId).map((c) => cents(c.amount));
  const invoiced: number[] = [];
  for (const p of paid) invoiced.push(await invoicedCents(p.id));
  return { rinnova: paid.map((p) => Math.round(p.amountDue * 100)), charged, invoiced };
}

describe('the coupon’s PayPal plan', () => {
  it('billing cycles: TRIAL × N discounted then REGULAR full; forever a discounted REGULAR', () => {
    const base = { productId: 'PROD-X', name: 'X', priceCents: 3538, intervalMonths: 1 };
    expect(paypalBillingCycles({ ...base, discount: { priceCents: 2830, periods: 3 } })).toEqual([
      {
        frequency: { interval_unit: 'MONTH', interval_count: 1 },
        tenure_type: 'TRIAL',
        sequence: 1,
        total_cycles: 3,
        pricing_scheme: { fixed_price: { value: '28.30', currency_code: 'EUR' } },
      },
      {
        frequency: { interval_unit: 'MONTH', interval_count: 1 },
        tenure_type: 'REGULAR',
        sequence: 2,
        total_cycles: 0,
        pricing_scheme: { fixed_price: { value: '35.38', currency_code: 'EUR' } },
      },
    ]);
    expect(paypalBillingCycles({ ...base, discount: { priceCents: 610, periods: null } })).toEqual([
      expect.objectContaining({
        tenure_type: 'REGULAR',
        total_cycles: 0,
        pricing_scheme: { fixed_price: { value: '6.10', currency_code: 'EUR' } },
      }),
    ]);
  });

  it('the page offers the coupon to a PayPal-only tenant; the link then asks the coupon’s plan, once', async () => {
    const { sub, token } = await linkFor(monthly, '2026-01-15T09:00:00.000Z');
    const before = await view(token);
    expect(before).toMatchObject({ paymentProviderKind: 'paypal', amount: 35.38, coupon: null });
    const plansBefore = fake.plans.size;
    // A preview makes nothing at PayPal.
    expect((await applyCode(token, 'PPTRIMESTRE', true)).body.data).toMatchObject({ amount: 28.3 });
    expect(fake.plans.size).toBe(plansBefore);

    const applied = await applyCode(token, 'PPTRIMESTRE');
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.data).toMatchObject({
      amount: 28.3,
      fullAmount: 35.38,
      periodsLeft: 3,
      applied: true,
    });
    const after = await view(token);
    expect(after.paymentProviderKind).toBe('paypal');
    expect(after.paymentProviderPlanId).not.toBe(before.paymentProviderPlanId);
    expect(fake.plans.get(after.paymentProviderPlanId)).toMatchObject({
      interval: 1,
      cycles: [
        { tenure: 'TRIAL', totalCycles: 3, price: '28.30' },
        { tenure: 'REGULAR', totalCycles: 0, price: '35.38' },
      ],
    });
    // The same code again (a second tab): nothing more at PayPal, nothing more redeemed.
    expect((await applyCode(token, 'PPTRIMESTRE')).body.data).toMatchObject({ amount: 28.3, applied: true });
    expect(fake.plans.size).toBe(plansBefore + 1);
    expect((await view(token)).paymentProviderPlanId).toBe(after.paymentProviderPlanId);
    const [r] = await ctx.db
      .select({ left: couponRedemptions.periodsLeft })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, sub.id));
    expect(r!.left).toBe(3);
  });
});

describe('PayPal charges what Rinnova asks', () => {
  it('monthly, 20 % for 3 periods: three discounted charges, then the full price; a replayed sale once', async () => {
    const { sub, token } = await linkFor(monthly, '2026-02-10T09:00:00.000Z');
    expect((await applyCode(token, 'PPTRIMESTRE')).status).toBe(200);
    const paypalId = await payWithPayPal(token);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);

    let replay: Record<string, unknown> | null = null;
    for (const day of ['2026-03-10', '2026-04-10', '2026-05-10', '2026-06-10']) {
      clock.set(`${day}T09:05:00.000Z`);
      const { event } = fake.renew(paypalId, clock.now());
      expect((await deliver(event)).data.outcome).toBe('applied');
      replay ??= event;
    }
    // PayPal delivers the first renewal's sale again: recorded once.
    await deliver(replay!);
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([2830, 2830, 2830, 3538, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
    const [r] = await ctx.db
      .select({ left: couponRedemptions.periodsLeft })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, sub.id));
    expect(r!.left).toBe(0);
    const [row] = await ctx.db
      .select({ due: subscriptions.amountDueCents })
      .from(subscriptions)
      .where(eq(subscriptions.id, sub.id));
    expect(row!.due).toBe(3538);
  });

  it('once, 10 %: the first payment discounted, the renewal at full price', async () => {
    const { sub, token } = await linkFor(monthly, '2026-03-02T09:00:00.000Z');
    expect((await applyCode(token, 'PPBENVENUTO')).body.data).toMatchObject({ amount: 31.84 });
    const paypalId = await payWithPayPal(token);
    clock.set('2026-04-02T09:05:00.000Z');
    await deliver(fake.renew(paypalId, clock.now()).event);
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([3184, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });

  it('yearly, 15 % for 2 periods: the second year still discounted, the third at full price', async () => {
    const { sub, token } = await linkFor(yearly, '2026-03-31T09:00:00.000Z');
    expect((await applyCode(token, 'PPBIENNIO')).status).toBe(200);
    const paypalId = await payWithPayPal(token);
    expect(fake.plans.get((await getPlanOfPayPal(paypalId))!)?.interval).toBe(12);
    for (const day of ['2027-03-31', '2028-03-31']) {
      clock.set(`${day}T09:05:00.000Z`);
      await deliver(fake.renew(paypalId, clock.now()).event);
    }
    // 290 − 15 % = 246,50 + IVA 54,23 = 300,73; full 353,80.
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([30073, 30073, 35380]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });

  it('forever 5 €: every renewal discounted', async () => {
    const { sub, token } = await linkFor(other, '2026-04-05T09:00:00.000Z');
    expect((await applyCode(token, 'PPFEDELTA')).body.data).toMatchObject({ amount: 6.1, periodsLeft: null });
    const paypalId = await payWithPayPal(token);
    for (const day of ['2026-05-05', '2026-06-05']) {
      clock.set(`${day}T09:05:00.000Z`);
      await deliver(fake.renew(paypalId, clock.now()).event);
    }
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([610, 610, 610]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });
});

describe('a coupon given on Create: the payment link asks the coupon’s PayPal plan', () => {
  it('PaymentToken/create makes the plan (keyed), PayPal charges 3 discounted periods then the full price', async () => {
    clock.set('2026-08-03T09:00:00.000Z');
    const sub = await createSubscription(admin, {
      userId: company,
      planId: monthly.id,
      couponCode: 'PPTRIMESTRE',
    });
    expect(sub.payments[0]!.amountDue).toBe(28.3);
    const plansBefore = fake.plans.size;
    const makeLink = () =>
      admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId: sub.payments[0]!.id });
    const first = await makeLink();
    expect(first.status, first.raw).toBe(200);
    // A second link of the same payment: the same PayPal plan (PayPal-Request-Id), no other.
    const link = await makeLink();
    expect(fake.plans.size).toBe(plansBefore + 1);
    const token = link.body.data!.token;
    const page = await view(token);
    expect(page).toMatchObject({ paymentProviderKind: 'paypal', amount: 28.3, coupon: { periodsLeft: 3 } });
    expect(fake.plans.get(page.paymentProviderPlanId)!.cycles).toEqual([
      { tenure: 'TRIAL', totalCycles: 3, price: '28.30' },
      { tenure: 'REGULAR', totalCycles: 0, price: '35.38' },
    ]);
    const paypalId = await payWithPayPal(token);
    for (const day of ['2026-09-03', '2026-10-03', '2026-11-03']) {
      clock.set(`${day}T09:05:00.000Z`);
      await deliver(fake.renew(paypalId, clock.now()).event);
    }
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([2830, 2830, 2830, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });

  it('Applica coupon on a NotActive subscription: its full-price PayPal link is withdrawn, a new link asks the coupon’s plan', async () => {
    const { sub, token } = await linkFor(monthly, '2026-08-05T09:00:00.000Z');
    const applied = await admin.post<CouponQuote>(`/api/subscription/applyCoupon/${sub.id}`, {
      couponCode: 'PPBENVENUTO',
    });
    expect(applied.status, applied.raw).toBe(200);
    const [old] = await ctx.db
      .select({ status: paymentTokens.status })
      .from(paymentTokens)
      .where(eq(paymentTokens.subscriptionId, sub.id));
    expect(old!.status).not.toBe(0);
    expect(
      (await ctx.api.get('/api/PaymentToken/validate', { query: { token } })).body.data ?? null,
    ).toBeNull();
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    expect(link.status, link.raw).toBe(200);
    const page = await view(link.body.data!.token);
    expect(page).toMatchObject({ amount: 31.84, paymentProviderKind: 'paypal' });
    expect(fake.plans.get(page.paymentProviderPlanId)!.cycles).toEqual([
      { tenure: 'TRIAL', totalCycles: 1, price: '31.84' },
      { tenure: 'REGULAR', totalCycles: 0, price: '35.38' },
    ]);
  });

  it('the customer’s Paga ora: the fresh link asks the coupon’s PayPal plan', async () => {
    clock.set('2026-08-06T09:00:00.000Z');
    const cliente = await ctx.as('cliente', 'Demo Srl');
    const sub = await createSubscription(admin, {
      userId: await userId(ctx, 'cliente@demo.rinnova.it'),
      planId: other.id,
      couponCode: 'PPFEDELTA',
    });
    const res = await cliente.post<{ method: string; url: string }>(
      `/api/user/me/subscriptions/${sub.id}/pay`,
    );
    expect(res.status, res.raw).toBe(200);
    const token = new URL(res.body.data!.url).searchParams.get('token')!;
    const page = await view(token);
    expect(page).toMatchObject({ amount: 6.1, paymentProviderKind: 'paypal' });
    expect(fake.plans.get(page.paymentProviderPlanId)!.cycles).toEqual([
      { tenure: 'REGULAR', totalCycles: 0, price: '6.10' },
    ]);
  });

  it('PayPal failing at the plan: 502 and no link', async () => {
    clock.set('2026-08-04T09:00:00.000Z');
    const sub = await createSubscription(admin, {
      userId: company,
      planId: other.id,
      couponCode: 'PPFEDELTA',
    });
    fake.failNext('POST /v1/billing/plans', 503);
    const res = await admin.post('/api/PaymentToken/create', { paymentId: sub.payments[0]!.id });
    expect(res.status, res.raw).toBe(502);
    expect(await ctx.db.select().from(paymentTokens).where(eq(paymentTokens.subscriptionId, sub.id))).toEqual(
      [],
    );
  });
});

describe('failures and refusals', () => {
  it('two tabs applying at once: one PayPal plan, one redemption', async () => {
    const { sub, token } = await linkFor(other, '2026-07-04T09:00:00.000Z');
    const plansBefore = fake.plans.size;
    const [a, b] = await Promise.all([applyCode(token, 'PPFEDELTA'), applyCode(token, 'PPFEDELTA')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(fake.plans.size).toBe(plansBefore + 1);
    expect(
      await ctx.db.select().from(couponRedemptions).where(eq(couponRedemptions.subscriptionId, sub.id)),
    ).toHaveLength(1);
    expect(fake.plans.get((await view(token)).paymentProviderPlanId)!.cycles).toEqual([
      { tenure: 'REGULAR', totalCycles: 0, price: '6.10' },
    ]);
  });

  it('a 100 % coupon on a PayPal-only link: 409 (PayPal would bill nothing to record), nothing redeemed', async () => {
    const { sub, token } = await linkFor(other, '2026-07-05T09:00:00.000Z');
    const res = await applyCode(token, 'PPGRATIS');
    expect(res.status, res.raw).toBe(409);
    expect(res.body.message).toBe(paypalCouponRefused);
    expect(
      await ctx.db.select().from(couponRedemptions).where(eq(couponRedemptions.subscriptionId, sub.id)),
    ).toEqual([]);
    expect((await view(token)).amount).toBe(12.2);
  });

  it('PayPal failing at the plan: 502, nothing redeemed, the link unchanged; then it works', async () => {
    const { sub, token } = await linkFor(other, '2026-07-01T09:00:00.000Z');
    const snapshot = async () => ({
      payments: await ctx.db.select().from(payments).where(eq(payments.subscriptionId, sub.id)),
      tokens: await ctx.db.select().from(paymentTokens).where(eq(paymentTokens.subscriptionId, sub.id)),
      subs: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)),
      redemptions: await ctx.db
        .select()
        .from(couponRedemptions)
        .where(eq(couponRedemptions.subscriptionId, sub.id)),
      coupons: await ctx.db.select().from(coupons).orderBy(asc(coupons.id)),
    });
    const before = await snapshot();
    const plansBefore = fake.plans.size;
    fake.failNext('POST /v1/billing/plans', 500);
    const res = await applyCode(token, 'PPBENVENUTO');
    expect(res.status, res.raw).toBe(502);
    expect(res.body.message).toContain('PayPal');
    expect(await snapshot()).toEqual(before);
    expect(fake.plans.size).toBe(plansBefore);
    const again = await applyCode(token, 'PPBENVENUTO');
    expect(again.status, again.raw).toBe(200);
    expect(fake.plans.size).toBe(plansBefore + 1);
  });

  it('an approval carrying an inline plan (another price) or of the full-price plan is refused', async () => {
    const { sub, token } = await linkFor(other, '2026-07-02T09:00:00.000Z');
    expect((await applyCode(token, 'PPBENVENUTO')).status).toBe(200);
    const couponPlan = (await view(token)).paymentProviderPlanId;
    const overridden = fake.approve(couponPlan, undefined, 'ACTIVE', { planOverride: true });
    const [row] = await ctx.db
      .select({ paypalPlanId: plans.paypalPlanId })
      .from(plans)
      .where(eq(plans.id, other.id));
    const full = fake.approve(row!.paypalPlanId!, undefined, 'ACTIVE');
    for (const id of [overridden, full]) {
      const res = await ctx.api.put('/api/Payment/updatePayment', { token, providerSubscriptionId: id });
      expect(res.status, res.raw).toBe(400);
    }
    expect((await getSub(sub.id)).subscriptionStatus).toBe(2);
  });
});

async function getPlanOfPayPal(paypalId: string) {
  return fake.subscriptions.get(paypalId)?.plan_id;
}
