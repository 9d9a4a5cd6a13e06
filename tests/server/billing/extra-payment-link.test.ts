/**
 * A payment link for a payment that is not a period's (issue 30) on a bank-transfer subscription,
 * with the moved clock and the fake Stripe: a one-off charge collected 'Subito' and a plan change's
 * proration. `PaymentToken/create` makes the link (the plan's price is not asked), the public
 * checkout is a payment-mode Stripe Checkout of the payment's amount with Rinnova's payment id in
 * its metadata; paid, the return page and `checkout.session.completed` delivered twice record the
 * payment once and issue one invoice (XSD-valid); the period's dates and the next billing date do
 * not move. A Stripe failure when opening the checkout changes nothing; a tenant without Stripe
 * gets a 409 in Italian.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import {
  invoices,
  paymentProviders,
  paymentTokens,
  payments,
  subscriptions,
} from '../../../server/db/schema';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, tagText, withoutDemoInvoices } from '../invoices/helpers';
import { giveIban, movableClock, userId, pointStripeAt, subscriptionOf, addPlan } from './helpers';

const clock = movableClock('2026-03-02T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_extra_link_secret';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  base = await plan('Base link extra', 31);
  pro = await plan('Pro link extra', 62);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const getSub = (id: number) => subscriptionOf(admin, id);
const invoicesOf = (paymentId: number) =>
  ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));
const paymentRow = async (id: number) =>
  (await ctx.db.select().from(payments).where(eq(payments.id, id)))[0]!;
const subRow = async (id: number) =>
  (await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

async function deliver(event: Record<string, unknown>) {
  const signed = stripe.signWebhook(event, STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function paidByTransfer(start: string, plan: Plan = base) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: plan.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  return getSub(sub.id);
}

describe('a one-off charge paid with its own link', () => {
  it('is paid by card in a payment-mode Checkout, recorded and invoiced once; the period does not move', async () => {
    const sub = await paidByTransfer('2026-03-02T09:00:00.000Z');
    clock.set('2026-03-10T10:00:00.000Z');
    const made = await admin.post<OneOffCharge>(`/api/subscription/charges/${sub.id}`, {
      description: 'Configurazione dominio',
      quantity: 2,
      unitPrice: '45,50',
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    const paymentId = made.body.data!.paymentId!;
    const before = { sub: await subRow(sub.id), payment: await paymentRow(paymentId) };

    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId });
    expect(link.status, link.raw).toBe(200);
    const token = link.body.data!.token;
    // The payment page is told what the link pays.
    const view = await ctx.api.get<{ extra: unknown; amount: number }>(
      `/api/PaymentToken/validate?token=${encodeURIComponent(token)}`,
    );
    expect(view.status, view.raw).toBe(200);
    expect(view.body.data).toMatchObject({
      amount: 111.02,
      extra: { kind: 'oneOff', description: 'Configurazione dominio' },
    });

    // Stripe fails when the checkout is opened: nothing changes, the link still works.
    stripe.failNext('POST /v1/checkout/sessions', 500);
    const failed = await ctx.api.post('/api/Payment/stripe/checkout', { token });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await subRow(sub.id)).toEqual(before.sub);
    expect(await paymentRow(paymentId)).toEqual(before.payment);

    const checkout = await ctx.api.post<{ sessionId: string; url: string }>('/api/Payment/stripe/checkout', {
      token,
    });
    expect(checkout.status, checkout.raw).toBe(200);
    const sessionId = checkout.body.data!.sessionId;
    // Twice on the button: the same session (keyed by the token).
    const again = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(again.body.data!.sessionId).toBe(sessionId);
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 11102,
      subscription: null,
      metadata: { rinnovaTenantId: String(demoId), rinnovaPaymentId: String(paymentId) },
    });
    expect(await paymentRow(paymentId)).toEqual(before.payment);

    clock.set('2026-03-10T10:05:00.000Z');
    const intent = stripe.completeSession(sessionId);
    const confirmed = await ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', {
      sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    expect(confirmed.body.data!.result).toBe('paid');
    // Stripe's webhook of the same session, delivered twice, and the return page again: nothing more.
    const completed = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    await deliver(completed);
    await deliver(stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! }));
    const replay = await ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', {
      sessionId,
      tenantId: demoId,
    });
    expect(replay.body.data!.result).toBe('replayed');

    const paid = await paymentRow(paymentId);
    expect(paid).toMatchObject({
      paidAt: new Date('2026-03-10T10:05:00.000Z'),
      method: 'stripe',
      providerPaymentId: intent,
      periodStart: before.payment.periodStart,
      periodEnd: before.payment.periodEnd,
      amountDueCents: 11102,
    });
    const after = await subRow(sub.id);
    expect(after.nextBillingDate).toEqual(before.sub.nextBillingDate);
    expect(after.status).toBe(before.sub.status);
    const [tokenRow] = await ctx.db
      .select({ status: paymentTokens.status })
      .from(paymentTokens)
      .where(eq(paymentTokens.paymentId, paymentId));
    expect(tokenRow!.status).toBe(1);
    const issued = await invoicesOf(paymentId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ taxableCents: 9100, vatCents: 2002, totalCents: 11102 });
    expect(await fatturaErrors(issued[0]!.xml)).toEqual([]);
    expect(tagText(issued[0]!.xml, 'Descrizione')).toBe('Configurazione dominio');
    expect(tagText(issued[0]!.xml, 'ImportoPagamento')).toBe('111.02');
    const charges = (await admin.get<OneOffCharge[]>(`/api/subscription/charges/${sub.id}`)).body.data!;
    expect(charges[0]).toMatchObject({ status: 'paid', paidAt: '2026-03-10T10:05:00.000Z' });

    // Paid: no new link.
    const late = await admin.post('/api/PaymentToken/create', { paymentId });
    expect(late.status).toBe(409);
  });

  it('webhook first: the payment is recorded once, the return page finds it done', async () => {
    const sub = await paidByTransfer('2026-04-01T09:00:00.000Z');
    clock.set('2026-04-03T09:00:00.000Z');
    const made = await admin.post<OneOffCharge>(`/api/subscription/charges/${sub.id}`, {
      description: 'Formazione',
      quantity: 1,
      unitPrice: 80,
      collect: 'now',
    });
    const paymentId = made.body.data!.paymentId!;
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId });
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    const sessionId = checkout.body.data!.sessionId;
    // An unpaid session's completion records nothing.
    await deliver(stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! }));
    expect((await paymentRow(paymentId)).paidAt).toBeNull();
    stripe.completeSession(sessionId);
    const event = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    await deliver(event);
    await deliver(event);
    const confirmed = await ctx.api.put<{ result: string }>('/api/Payment/stripe/confirm', {
      sessionId,
      tenantId: demoId,
    });
    expect(confirmed.body.data!.result).toBe('replayed');
    expect((await paymentRow(paymentId)).paidAt).toEqual(new Date('2026-04-03T09:00:00.000Z'));
    expect(await invoicesOf(paymentId)).toHaveLength(1);
    expect((await subRow(sub.id)).nextBillingDate).toEqual(new Date(sub.nextBillingDate!));
  });
});

describe('a plan change’s proration paid with its own link', () => {
  it('is paid by card once and invoiced once; the next billing date stays', async () => {
    const sub = await paidByTransfer('2026-05-01T09:00:00.000Z');
    clock.set('2026-05-20T14:00:00.000Z');
    const changed = await admin.post<{ prorationPaymentId: number; netToPay: number }>(
      `/api/subscription/changePlan/${sub.id}`,
      { planId: pro.id, when: 'now' },
    );
    expect(changed.status, changed.raw).toBe(200);
    const paymentId = changed.body.data!.prorationPaymentId;
    const before = await paymentRow(paymentId);
    expect(before.paidAt).toBeNull();
    const nextBilling = (await subRow(sub.id)).nextBillingDate;

    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId });
    expect(link.status, link.raw).toBe(200);
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(checkout.status, checkout.raw).toBe(200);
    const sessionId = checkout.body.data!.sessionId;
    expect(stripe.sessions.get(sessionId)).toMatchObject({
      mode: 'payment',
      amount_total: before.amountDueCents,
    });
    stripe.completeSession(sessionId);
    const event = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    await deliver(event);
    await deliver(event);
    const paid = await paymentRow(paymentId);
    expect(paid.paidAt).toEqual(new Date('2026-05-20T14:00:00.000Z'));
    expect(paid.method).toBe('stripe');
    expect((await subRow(sub.id)).nextBillingDate).toEqual(nextBilling);
    const issued = await invoicesOf(paymentId);
    expect(issued).toHaveLength(1);
    expect(await fatturaErrors(issued[0]!.xml)).toEqual([]);
    expect(tagText(issued[0]!.xml, 'ImportoPagamento')).toBe((before.amountDueCents / 100).toFixed(2));
  });
});

describe('rules', () => {
  it('a period’s payment of an Active subscription still gets no link; without Stripe a 409 in Italian', async () => {
    const sub = await paidByTransfer('2026-06-01T09:00:00.000Z');
    const periodPayment = (
      await ctx.db
        .select()
        .from(payments)
        .where(eq(payments.subscriptionId, sub.id))
        .orderBy(asc(payments.id))
    )[0]!;
    const period = await admin.post('/api/PaymentToken/create', { paymentId: periodPayment.id });
    expect(period.status).toBe(409);

    const made = await admin.post<OneOffCharge>(`/api/subscription/charges/${sub.id}`, {
      description: 'Extra',
      quantity: 1,
      unitPrice: 10,
      collect: 'now',
    });
    const stripeOf = and(eq(paymentProviders.tenantId, demoId), eq(paymentProviders.kind, 'stripe'));
    await ctx.db.update(paymentProviders).set({ isActive: false }).where(stripeOf);
    try {
      const refused = await admin.post('/api/PaymentToken/create', { paymentId: made.body.data!.paymentId });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        'Per pagare online questo importo serve Stripe (pagamento con carta): collegalo in «Metodi di pagamento», oppure chiedi un bonifico.',
      );
    } finally {
      await ctx.db.update(paymentProviders).set({ isActive: true }).where(stripeOf);
    }
  });
});
