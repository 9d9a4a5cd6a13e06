/**
 * 'Paga ora' of the customer area (issue 28): `POST api/user/me/subscriptions/{id}/pay` answers,
 * for the payment one of the caller's OWN subscriptions waits for, a fresh payment link (never a
 * second payment) or, by bank transfer, exactly the instructions the Admin's
 * `bankTransferInstructions` gives; nothing due is a 409; another customer's or tenant's id a 404.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAreaMessages } from '../../contract/messages';
import { PaymentTokenStatus } from '../../contract/schemas/payment';
import type { BankTransferInstructions, PayNow, Subscription } from '../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../contract/subscription-status';
import { paymentTokens, payments, subscriptions, userTenants, users } from '../../server/db/schema';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import { createTestContext, DEMO, type ApiClient, type TestContext } from './helpers/test-app';
import {
  approveWholeAmount,
  createSubscription,
  DEMO_IBAN,
  giveIban,
  movableClock,
  planId,
  userId,
  pointStripeAt,
} from './billing/helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let me: number;
let mario: number;
let basic: number;

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  await pointStripeAt(admin, { url: stripe.url });
  const synced = await admin.post(`/api/plan/syncStripe/${basic}`);
  expect(synced.status, synced.raw).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await stripe.close();
});

const pay = (api: ApiClient, id: number) => api.post<PayNow>(`/api/user/me/subscriptions/${id}/pay`);

async function paymentsOf(subscriptionId: number) {
  return ctx.db
    .select()
    .from(payments)
    .where(eq(payments.subscriptionId, subscriptionId))
    .orderBy(asc(payments.id));
}

async function tokensOf(paymentId: number) {
  return ctx.db
    .select({ status: paymentTokens.status })
    .from(paymentTokens)
    .where(eq(paymentTokens.paymentId, paymentId))
    .orderBy(asc(paymentTokens.id));
}

describe('POST api/user/me/subscriptions/{id}/pay: a payment link', () => {
  it('answers a fresh link of the payment due; twice: two links, still one payment, the older link retired', async () => {
    const sub = await createSubscription(admin, { userId: me, planId: basic });
    const paymentId = sub.payments[0]!.id;

    const first = await pay(cliente, sub.id);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.message).toBe(customerAreaMessages.payLinkReady);
    const link = first.body.data!;
    expect(link).toMatchObject({ method: 'link', paymentId });
    if (link.method !== 'link') throw new Error('a link was expected');
    expect(link.url).toMatch(/\/payment\?token=[^&]+&bypassTenant=true$/);
    expect(Date.parse(link.expiryDate) - clock.now().getTime()).toBe(3_600_000);
    // The link opens the payment page: the public check knows its token.
    const token = decodeURIComponent(new URL(link.url).searchParams.get('token')!);
    const valid = await ctx.api.get<{ paymentId: number }>('/api/PaymentToken/validate', {
      query: { token },
    });
    expect(valid.body.data).toMatchObject({ paymentId });

    const second = await pay(cliente, sub.id);
    expect(second.status, second.raw).toBe(200);
    if (second.body.data?.method !== 'link') throw new Error('a link was expected');
    expect(second.body.data.url).not.toBe(link.url);
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect((await tokensOf(paymentId)).map((t) => t.status)).toEqual([
      PaymentTokenStatus.Expired,
      PaymentTokenStatus.Active,
    ]);
    const row = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row[0]?.status).toBe(SubscriptionStatus.NotActive);
  });

  it('a plan that cannot be paid online answers 409 in the customer’s words, nothing written', async () => {
    // Pro is on neither Stripe nor PayPal (its PayPal row is the demo's placeholder).
    const pro = await planId(ctx, 'Demo Srl', 'Pro');
    const sub = await createSubscription(admin, { userId: me, planId: pro });
    const res = await pay(cliente, sub.id);
    expect(res.status, res.raw).toBe(409);
    expect(res.body.message).not.toMatch(/Sincronizza|Gestisci piani/);
    expect(await tokensOf(sub.payments[0]!.id)).toHaveLength(0);
  });
});

describe('POST api/user/me/subscriptions/{id}/pay: bank transfer', () => {
  it('answers beneficiary, IBAN, netToPay and causale exactly as the Admin’s instructions, and creates nothing', async () => {
    const sub = await createSubscription(admin, { userId: me, planId: basic });
    const set = await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
    expect(set.status, set.raw).toBe(200);
    const adminView = await admin.get<BankTransferInstructions>(
      `/api/subscription/bankTransferInstructions/${sub.id}`,
    );
    expect(adminView.status, adminView.raw).toBe(200);

    const res = await pay(cliente, sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.message).toBe(customerAreaMessages.transferInstructions);
    const i = adminView.body.data!;
    expect(res.body.data).toEqual({
      method: 'bankTransfer',
      paymentId: sub.payments[0]!.id,
      beneficiary: i.beneficiary,
      iban: DEMO_IBAN,
      netToPay: i.amountDue,
      currency: 'EUR',
      causale: i.causale,
    });
    expect(i.causale).toBe(sub.payments[0]!.causale);
    expect(res.body.data).toMatchObject({ netToPay: sub.payments[0]!.amountDue });
    expect((await pay(cliente, sub.id)).body.data).toEqual(res.body.data);
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect(await tokensOf(sub.payments[0]!.id)).toHaveLength(0);
  });

  it('409 once nothing is due (the transfer approved and confirmed), with the Italian message', async () => {
    const sub = await createSubscription(admin, { userId: me, planId: basic });
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const approved = await approveWholeAmount(admin, sub.payments[0]!, clock.now().toISOString());
    expect(approved.status, approved.raw).toBe(200);
    const confirmed = await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(confirmed.status, confirmed.raw).toBe(200);

    const res = await pay(cliente, sub.id);
    expect(res.status, res.raw).toBe(409);
    expect(res.body.message).toBe(customerAreaMessages.nothingDue);
  });
});

describe('POST api/user/me/subscriptions/{id}/pay: own rows only', () => {
  it('another customer’s subscription and another tenant’s are 404, alike to a missing id, and get no link', async () => {
    const marios = await createSubscription(admin, { userId: mario, planId: basic });
    const res = await pay(cliente, marios.id);
    expect(res.status, res.raw).toBe(404);
    expect(await tokensOf(marios.payments[0]!.id)).toHaveLength(0);

    const rossiId = await ctx.tenantId('Studio Rossi');
    const [rossiCustomer] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(userTenants, eq(userTenants.userId, users.id))
      .where(and(eq(userTenants.tenantId, rossiId), eq(users.roleId, 3)))
      .limit(1);
    const rossiAdmin = await ctx.as('superadmin', 'Studio Rossi');
    const rossi = await createSubscription(rossiAdmin, {
      userId: rossiCustomer!.id,
      planId: await planId(ctx, 'Studio Rossi', 'Consulenza mensile'),
    });
    const other = await pay(cliente, rossi.id);
    expect(other.status, other.raw).toBe(404);
    expect(other.body.message).toBe((await pay(cliente, 2_000_000_000)).body.message);
    // And the customer cannot enter the other tenant at all.
    expect((await pay(await ctx.as('cliente', 'Studio Rossi'), rossi.id)).status).toBe(403);
  });

  it('is the customer’s: staff get 403, nobody signed in 401, hostile ids 400', async () => {
    const sub = await createSubscription(admin, { userId: me, planId: basic });
    expect((await pay(admin, sub.id)).status).toBe(403);
    expect((await ctx.api.post(`/api/user/me/subscriptions/${sub.id}/pay`)).status).toBe(401);
    for (const id of ['abc', '-1', '0x10', '99999999999'])
      expect((await cliente.post(`/api/user/me/subscriptions/${id}/pay`)).status).toBe(400);
    expect(await tokensOf(sub.payments[0]!.id)).toHaveLength(0);
  });
});
