/**
 * The shared set-up of the 'Applica coupon' on PayPal tests (paypal-coupon-revise, paypal-coupon-
 * expiry): the fake PayPal in its real mode (a revise waits for the buyer's approval), Demo Srl on
 * it, the demo customer with a company's complete invoice data, a monthly plan synced at PayPal, a
 * coupon of 20 % for 3 periods (`${prefix}TRIMESTRE`) and one of 10 % once (`${prefix}UNA`); and the
 * readers both files use. The hooks are registered by the call; `state` is filled by its beforeAll.
 */
import type { Logger } from 'drizzle-orm';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { couponRedemptions, coupons, invoices, userTenants } from '../../../server/db/schema';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { create } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { tagText, withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  giveIban,
  pointPayPalAt,
  subscriptionOf,
  userId,
  type movableClock,
} from './helpers';

export interface PayPalCouponState {
  fake: FakePayPal;
  ctx: TestContext;
  admin: ApiClient;
  cliente: ApiClient;
  demoId: number;
  me: number;
  monthly: Plan;
}

export function paypalCouponFixture(options: {
  clock: ReturnType<typeof movableClock>;
  webhookId: string;
  planName: string;
  prefix: string;
  logger?: Logger;
}) {
  const { clock, webhookId: WEBHOOK_ID, planName, prefix, logger } = options;
  const state = {} as PayPalCouponState;
  let fake: FakePayPal;
  let ctx: TestContext;
  let admin: ApiClient;
  let cliente: ApiClient;
  let demoId: number;
  let me: number;
  let monthly: Plan;

  beforeAll(async () => {
    fake = await startFakePayPal();
    fake.revisionApproval = true;
    ctx = await createTestContext({
      app: { now: clock.now },
      env: { PAYPAL_TIMEOUT: '2s' },
      ...(logger ? { database: { logger } } : {}),
    });
    await withoutDemoInvoices(ctx);
    admin = await ctx.as('admin', 'Demo Srl');
    cliente = await ctx.as('cliente', 'Demo Srl');
    demoId = await ctx.tenantId('Demo Srl');
    await giveIban(ctx, 'Demo Srl');
    await pointPayPalAt(ctx, admin, 'Demo Srl', { url: fake.url, webhookId: WEBHOOK_ID });
    me = await userId(ctx, DEMO.cliente);
    // The demo customer gets a company's complete invoice data, so their payments are invoiced.
    const company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
    const [data] = await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.userId, company), eq(userTenants.tenantId, demoId)));
    await ctx.db
      .update(userTenants)
      .set({
        vatCode: data!.vatCode,
        isCompany: data!.isCompany,
        fiscalCode: data!.fiscalCode,
        sdi: data!.sdi,
        billingStreet: data!.billingStreet,
        billingZip: data!.billingZip,
        billingRegionId: data!.billingRegionId,
        billingProvinceId: data!.billingProvinceId,
        billingMunicipalityId: data!.billingMunicipalityId,
      })
      .where(and(eq(userTenants.userId, me), eq(userTenants.tenantId, demoId)));
    monthly = await addPlan(admin, planName, 29, 1, true);
    const synced = await admin.post(`/api/plan/syncPaypal/${monthly.id}`);
    expect(synced.status, synced.raw).toBe(200);
    await create(admin, 'coupon', {
      code: `${prefix}TRIMESTRE`,
      percentOff: 20,
      duration: 'repeating',
      durationPeriods: 3,
    });
    await create(admin, 'coupon', { code: `${prefix}UNA`, percentOff: 10, duration: 'once' });
    Object.assign(state, { fake, ctx, admin, cliente, demoId, me, monthly });
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });
  beforeEach(() => fake.clearFailures());

  const getSub = (id: number) => subscriptionOf(admin, id);
  const cents = (euros: string) => Math.round(Number(euros) * 100);

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

  /** An Active subscription of the demo customer that PayPal charges (its first cycle taken). */
  async function paidWithPayPal(start: string) {
    clock.set(start);
    const sub = await createSubscription(admin, { userId: me, planId: monthly.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    expect(link.status, link.raw).toBe(200);
    const token = link.body.data!.token;
    const view = (await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', { query: { token } }))
      .body.data!;
    const paypalId = fake.approve(view.paymentProviderPlanId, undefined, 'ACTIVE', { at: clock.now() });
    const paid = await ctx.api.put<{ result: string }>('/api/Payment/updatePayment', {
      token,
      providerSubscriptionId: paypalId,
    });
    expect(paid.body.data?.result, paid.raw).toBe('paid');
    await deliver(fake.saleEvent(fake.charges.find((c) => c.subscriptionId === paypalId)!));
    return { sub, paypalId };
  }

  const applyCoupon = (id: number, couponCode: string) =>
    admin.post<{ applied: boolean; approveUrl?: string | null; amount: number; code: string }>(
      `/api/subscription/applyCoupon/${id}`,
      { couponCode },
    );

  async function redemptionsOf(subscriptionId: number) {
    return ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, subscriptionId));
  }

  async function timesRedeemed(code: string) {
    const [c] = await ctx.db.select({ n: coupons.timesRedeemed }).from(coupons).where(eq(coupons.code, code));
    return c!.n;
  }

  async function invoicedCents(paymentId: number) {
    const [inv] = await ctx.db
      .select({ xml: invoices.xml })
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));
    expect(inv, `payment ${paymentId} is invoiced`).toBeDefined();
    return Math.round(Number(tagText(inv!.xml, 'ImportoPagamento')) * 100);
  }

  /** Each payment's amount, PayPal's charge of it and its invoice's ImportoPagamento, in order. */
  async function ledger(subscriptionId: number, paypalId: string) {
    const paid = [...(await getSub(subscriptionId)).payments].sort((a, b) => a.id - b.id);
    const charged = fake.charges.filter((c) => c.subscriptionId === paypalId).map((c) => cents(c.amount));
    const invoiced: number[] = [];
    for (const p of paid) invoiced.push(await invoicedCents(p.id));
    return { rinnova: paid.map((p) => Math.round(p.amountDue * 100)), charged, invoiced };
  }

  async function renewOn(paypalId: string, days: string[]) {
    for (const day of days) {
      clock.set(`${day}T09:05:00.000Z`);
      const { event } = fake.renew(paypalId, clock.now());
      expect((await deliver(event)).data.outcome).toBe('applied');
    }
  }

  async function customerCard(id: number) {
    const res = await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll', {
      query: { page: 1, pageSize: 50 },
    });
    expect(res.status, res.raw).toBe(200);
    return res.body.data!.items.find((s) => s.id === id)!;
  }

  return {
    state,
    getSub,
    cents,
    deliver,
    paidWithPayPal,
    applyCoupon,
    redemptionsOf,
    timesRedeemed,
    invoicedCents,
    ledger,
    renewOn,
    customerCard,
  };
}
