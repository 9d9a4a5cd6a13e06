/**
 * The customer's own view of a subscription after its first payment (issue 30), on the real server
 * with the moved clock and the fake Stripe:
 * - `GET api/user/me/subscriptions/{id}/charges`: the one-off charges of their own subscription
 *   (deleted ones left out, status, amount with VAT, invoice once paid, `payable`); another
 *   customer's subscription 404, staff 403;
 * - 'Paga ora' of an extra payment (`POST …/pay {paymentId}`): a 'Subito' charge's and a
 *   proration's payment by card through their own payment-mode link when the tenant has Stripe
 *   (paid once, invoiced once), the bank transfer without Stripe; another subscription's payment 404;
 * - a running trial's first payment: 'Paga ora' answers its payment link; expired, still payable.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAreaMessages } from '../../../contract/messages';
import type { OneOffCharge, OwnOneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import type { PayNow, Subscription } from '../../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { invoices, paymentProviders, payments, userTenants } from '../../../server/db/schema';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { createSubscription, giveIban, movableClock, userId, pointStripeAt } from './helpers';

const clock = movableClock('2026-03-02T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let me: number;
let mario: number;
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
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
  // The demo customer gets a complete customer's invoice data (copied), so their payments are invoiced.
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
  await pointStripeAt(admin, { url: stripe.url });
  const plan = (name: string, cost: number, trialDays?: number) =>
    create<Plan>(admin, 'plan', {
      name,
      recurringCostBeforeVAT: cost,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
      ...(trialDays ? { trialDays } : {}),
    });
  base = await plan('Base area extra', 31);
  pro = await plan('Pro area extra', 62);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const chargesOf = (api: ApiClient, id: number) =>
  api.get<OwnOneOffCharge[]>(`/api/user/me/subscriptions/${id}/charges`);
const pay = (id: number, body?: { paymentId: number }) =>
  cliente.post<PayNow>(`/api/user/me/subscriptions/${id}/pay`, body);
const paymentRow = async (id: number) =>
  (await ctx.db.select().from(payments).where(eq(payments.id, id)))[0]!;
const tokenOf = (url: string) => decodeURIComponent(new URL(url).searchParams.get('token')!);

async function ownPaidSub(start: string, userIdOf = me) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: userIdOf, planId: base.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  return sub;
}

async function charge(subId: number, description: string, collect: 'now' | 'nextPayment') {
  const made = await admin.post<OneOffCharge>(`/api/subscription/charges/${subId}`, {
    description,
    quantity: 2,
    unitPrice: '45,50',
    collect,
  });
  expect(made.status, made.raw).toBe(200);
  return made.body.data!;
}

/** Pays a card link of the fake Stripe through the public checkout and the return page. */
async function payByCard(url: string) {
  const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
    token: tokenOf(url),
  });
  expect(checkout.status, checkout.raw).toBe(200);
  const sessionId = checkout.body.data!.sessionId;
  expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'payment', subscription: null });
  stripe.completeSession(sessionId);
  const confirmed = await ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', {
    sessionId,
    tenantId: demoId,
  });
  expect(confirmed.status, confirmed.raw).toBe(200);
  expect(confirmed.body.data!.result).toBe('paid');
}

describe('GET api/user/me/subscriptions/{id}/charges', () => {
  it('answers the customer’s own charges, newest first, without the deleted ones', async () => {
    const sub = await ownPaidSub('2026-03-02T09:00:00.000Z');
    clock.set('2026-03-10T10:00:00.000Z');
    const now = await charge(sub.id, 'Configurazione dominio', 'now');
    const next = await charge(sub.id, 'Formazione', 'nextPayment');
    const gone = await charge(sub.id, 'Errore', 'now');
    expect((await admin.delete(`/api/subscription/charges/${sub.id}/${gone.id}`)).status).toBe(200);

    const res = await chargesOf(cliente, sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: next.id,
        description: 'Formazione',
        quantity: 2,
        collect: 'nextPayment',
        status: 'pending',
        amountDue: 111.02,
        paymentId: null,
        invoice: null,
        payable: false,
      }),
      expect.objectContaining({
        id: now.id,
        description: 'Configurazione dominio',
        collect: 'now',
        status: 'pending',
        amountDue: 111.02,
        paymentId: now.paymentId,
        invoice: null,
        payable: true,
      }),
    ]);
    // The subscription's answer tells the area which payment is a one-off charge's.
    const listed = (await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll')).body.data!
      .items;
    const own = listed.find((s) => s.id === sub.id)!;
    expect(own.payments.find((p) => p.id === now.paymentId)?.extra).toBe('oneOff');
    expect(own.payments[0]?.extra).toBeNull();
  });

  it('another customer’s or an unknown subscription is a 404; the staff get a 403', async () => {
    const other = await ownPaidSub('2026-03-03T09:00:00.000Z', mario);
    await charge(other.id, 'Di Mario', 'now');
    const res = await chargesOf(cliente, other.id);
    expect(res.status, res.raw).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('Di Mario');
    expect((await chargesOf(cliente, 2_000_000)).status).toBe(404);
    expect((await chargesOf(admin, other.id)).status).toBe(403);
    expect((await chargesOf(await ctx.as('superadmin', 'Demo Srl'), other.id)).status).toBe(403);
    expect((await ctx.api.get(`/api/user/me/subscriptions/${other.id}/charges`)).status).toBe(401);
  });
});

describe('Paga ora of an extra payment', () => {
  it('a Subito charge: a card link of its own payment; paid once, invoiced once; the area shows it paid', async () => {
    const sub = await ownPaidSub('2026-04-01T09:00:00.000Z');
    clock.set('2026-04-05T10:00:00.000Z');
    const made = await charge(sub.id, 'Migrazione dati', 'now');
    const paymentId = made.paymentId!;
    const before = await paymentRow(paymentId);

    // Without paymentId the period is paid: nothing is due.
    const nothing = await pay(sub.id);
    expect(nothing.status, nothing.raw).toBe(409);
    expect(nothing.body.message).toBe(customerAreaMessages.nothingDue);

    const res = await pay(sub.id, { paymentId });
    expect(res.status, res.raw).toBe(200);
    const link = res.body.data!;
    if (link.method !== 'link') throw new Error(`a link was expected: ${res.raw}`);
    expect(link.paymentId).toBe(paymentId);
    const view = await ctx.api.get<{ amount: number; extra: unknown }>('/api/PaymentToken/validate', {
      query: { token: tokenOf(link.url) },
    });
    expect(view.body.data).toMatchObject({
      amount: 111.02,
      extra: { kind: 'oneOff', description: 'Migrazione dati' },
    });

    clock.set('2026-04-05T10:05:00.000Z');
    await payByCard(link.url);
    const paid = await paymentRow(paymentId);
    expect(paid).toMatchObject({ method: 'stripe', paidAt: new Date('2026-04-05T10:05:00.000Z') });
    expect(paid.periodStart).toEqual(before.periodStart);
    const issued = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));
    expect(issued).toHaveLength(1);

    const after = (await chargesOf(cliente, sub.id)).body.data!;
    expect(after[0]).toMatchObject({
      id: made.id,
      status: 'paid',
      payable: false,
      invoice: { id: issued[0]!.id, number: issued[0]!.numberText, documentType: 'TD01' },
    });
    // Paid: 'Paga ora' of it again is a 409 and makes no link.
    const again = await pay(sub.id, { paymentId });
    expect(again.status).toBe(409);
  });

  it('a proration: a card link with Stripe, the bank transfer without', async () => {
    const sub = await ownPaidSub('2026-05-01T09:00:00.000Z');
    clock.set('2026-05-20T14:00:00.000Z');
    const changed = await admin.post<{ prorationPaymentId: number }>(
      `/api/subscription/changePlan/${sub.id}`,
      {
        planId: pro.id,
        when: 'now',
      },
    );
    expect(changed.status, changed.raw).toBe(200);
    const paymentId = changed.body.data!.prorationPaymentId;
    const amount = (await paymentRow(paymentId)).amountDueCents;

    // Without Stripe (turned off): the transfer's instructions of that payment.
    await ctx.db.update(paymentProviders).set({ isActive: false }).where(eq(paymentProviders.kind, 'stripe'));
    try {
      const transfer = await pay(sub.id, { paymentId });
      expect(transfer.status, transfer.raw).toBe(200);
      expect(transfer.body.data).toMatchObject({ method: 'bankTransfer', paymentId, netToPay: amount / 100 });
      const plain = await pay(sub.id);
      expect(plain.body.data).toMatchObject({ method: 'bankTransfer', paymentId });
    } finally {
      await ctx.db
        .update(paymentProviders)
        .set({ isActive: true })
        .where(eq(paymentProviders.kind, 'stripe'));
    }

    // With Stripe: 'Paga ora' (named or not) answers the card link; paid once.
    const plain = await pay(sub.id);
    expect(plain.body.data).toMatchObject({ method: 'link', paymentId });
    const res = await pay(sub.id, { paymentId });
    expect(res.status, res.raw).toBe(200);
    if (res.body.data?.method !== 'link') throw new Error(`a link was expected: ${res.raw}`);
    await payByCard(res.body.data.url);
    expect((await paymentRow(paymentId)).paidAt).not.toBeNull();
    expect((await pay(sub.id, { paymentId })).status).toBe(409);
  });

  it('another subscription’s payment is a 404; a malformed paymentId a 400', async () => {
    const mine = await ownPaidSub('2026-06-01T09:00:00.000Z');
    const other = await ownPaidSub('2026-06-01T09:00:00.000Z', mario);
    const theirs = await charge(other.id, 'Di Mario', 'now');
    const res = await pay(mine.id, { paymentId: theirs.paymentId! });
    expect(res.status, res.raw).toBe(404);
    const bad = await pay(mine.id, { paymentId: -1 } as { paymentId: number });
    expect(bad.status).toBe(400);
  });
});

describe('Paga ora of a trial', () => {
  it('a running trial: the link of its first payment; expired unpaid: still payable', async () => {
    clock.set('2026-07-01T09:00:00.000Z');
    const trialPlan = await create<Plan>(admin, 'plan', {
      name: 'Prova area extra',
      recurringCostBeforeVAT: 30,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
      trialDays: 14,
    });
    expect((await admin.post(`/api/plan/syncStripe/${trialPlan.id}`)).status).toBe(200);
    const sub = await createSubscription(admin, { userId: me, planId: trialPlan.id });
    const listed = (await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll')).body.data!
      .items;
    const own = listed.find((s) => s.id === sub.id)!;
    expect(own).toMatchObject({
      subscriptionStatus: SubscriptionStatus.ActiveNoRenewal,
      trialState: 'running',
      trialEndsAt: '2026-07-15T09:00:00.000Z',
    });

    const res = await pay(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ method: 'link', paymentId: sub.payments[0]!.id });

    // The trial ends unpaid (the daily job): NotActive, still payable by the customer.
    clock.set('2026-07-16T09:30:00.000Z');
    const processed = await ctx.app.jobs!.runJobNow(JOB_NAMES.trials, { tenantId: demoId });
    expect(processed.find((p) => p.data.tenantId === demoId)?.outcome).toBe('succeeded');
    const expired = (
      await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll')
    ).body.data!.items.find((s) => s.id === sub.id)!;
    expect(expired).toMatchObject({
      subscriptionStatus: SubscriptionStatus.NotActive,
      trialState: 'expired',
    });
    const late = await pay(sub.id);
    expect(late.status, late.raw).toBe(200);
    expect(late.body.data).toMatchObject({ method: 'link', paymentId: sub.payments[0]!.id });
  });
});
