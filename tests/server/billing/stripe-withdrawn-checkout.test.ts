/**
 * A Stripe Checkout opened from a payment link whose payment Rinnova then withdraws (issue 30: a
 * plan change, a pause), moved clock, real server and database, the fake Stripe on loopback:
 * - the renewal link's session opened, the payment withdrawn by a plan change: the session is
 *   expired at Stripe after commit, once (the outbox delivered again calls nothing); it can no
 *   longer be paid;
 * - withdrawn by a pause with Stripe failing the expiry: nothing in Rinnova changes, the outbox
 *   retries and expires it once;
 * - completed in the race (after the withdrawal, before the expiry reached Stripe): nothing is
 *   recorded as paid, no invoice number is used, the subscription's history says it; after commit
 *   Stripe refunds what it took, once, and the Stripe subscription the session made is cancelled;
 *   the customer is e-mailed once that it was refunded; the webhook again (same event) is the
 *   inbox's duplicate; the outbox again refunds (and mails) nothing more;
 * - Stripe failing the refund: nothing changes, the outbox retries and refunds once;
 * - an extra payment's payment-mode session (a one-off charge's link): expired, or refunded once
 *   when paid in the race (no Stripe subscription to cancel);
 * - the payment paid another way (the Admin's transfer, another session of the link): the other
 *   open sessions expired once (never the paying one); one completed in the race refunded once like
 *   a withdrawn one (its own history row and e-mail), nothing recorded twice; the paying session's
 *   webhook after its return page 'unchanged', never refunded.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import {
  invoices,
  outbox,
  payments,
  providerWebhookEvents,
  stripeCheckoutSessions,
  subscriptionEvents,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { withdrawUnpaidPayments } from '../../../server/modules/billing/subscription.service';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { addPlan, giveIban, movableClock, pointStripeAt, subscriptionOf, userId } from './helpers';

const clock = movableClock('2026-05-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_withdrawn_checkout';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let monthly: Plan;
let yearly: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  monthly = await addPlan(admin, 'Mensile link ritirato', 29, 1);
  yearly = await addPlan(admin, 'Annuale link ritirato', 290, 12);
  for (const p of [monthly, yearly])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});
beforeEach(() => stripe.clearFailures());

const runJob = (name: string) => ctx.app.jobs!.runJobNow(name, { tenantId: demoId });
const outboxSweep = () => ctx.app.jobs!.runJobNow('outbox-sweep', {});
const paymentRows = (subscriptionId: number) =>
  ctx.db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(asc(payments.id));
const expireCalls = (sessionId: string) =>
  stripe.calls.filter((c) => c === `POST /v1/checkout/sessions/${sessionId}/expire`);
const sessionRow = async (sessionId: string) =>
  (
    await ctx.db.select().from(stripeCheckoutSessions).where(eq(stripeCheckoutSessions.sessionId, sessionId))
  )[0];
const historyOf = (subscriptionId: number, event: string) =>
  ctx.db
    .select({ reason: subscriptionEvents.reason })
    .from(subscriptionEvents)
    .where(and(eq(subscriptionEvents.subscriptionId, subscriptionId), eq(subscriptionEvents.event, event)));
const invoiceIds = async () =>
  (await ctx.db.select({ id: invoices.id }).from(invoices).orderBy(asc(invoices.id))).map((r) => r.id);
/** The outbox's deliveries to `consumer` sent again (as after a crash), then the sweep. */
async function redeliver(consumer: string) {
  await ctx.db
    .update(outbox)
    .set({ sentAt: null })
    .where(and(eq(outbox.kind, 'event'), sql`${outbox.payload}->>'consumer' = ${consumer}`));
  await outboxSweep();
}

async function hook(event: Record<string, unknown>) {
  const signed = stripe.signWebhook(event, STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const outcomesOf = (eventId: string) =>
  ctx.db
    .select({ outcome: providerWebhookEvents.outcome, detail: providerWebhookEvents.detail })
    .from(providerWebhookEvents)
    .where(eq(providerWebhookEvents.eventId, eventId));

/**
 * A monthly subscription paid by transfer, the renewal asked 7 days before its billing date with
 * its payment link, and the customer's card Checkout opened from that link (not paid).
 */
async function checkoutOpened(start: string) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: monthly.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  const billing = (await subscriptionOf(admin, sub.id)).nextBillingDate;
  clock.set(new Date(Date.parse(billing) - 7 * 86_400_000).toISOString());
  await runJob(JOB_NAMES.renewalReminders);
  const renewal = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
  expect(renewal).toMatchObject({ amountDueCents: 3538, paidAt: null });
  const mail = (await ctx.outbox()).filter((m) => m.text.includes(renewal.causale)).at(-1)!;
  const token = /\/payment\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  const opened = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
  expect(opened.status, opened.raw).toBe(200);
  const sessionId = opened.body.data!.sessionId;
  expect(stripe.sessions.get(sessionId)!.status).toBe('open');
  expect(await sessionRow(sessionId)).toMatchObject({
    tenantId: demoId,
    subscriptionId: sub.id,
    paymentId: renewal.id,
    mode: 'subscription',
    expiredAt: null,
  });
  return { sub, renewal, token, sessionId };
}

const CUSTOMER = 'amministrazione@bianchi-consulting.example.com';
/** The customer's e-mails saying this session's card payment was refunded. */
const refundMails = async () =>
  (await ctx.outbox()).filter(
    (m) => m.subject === 'Demo Srl: pagamento con carta rimborsato' && m.to === CUSTOMER,
  );

const toYearly = (id: number) =>
  admin.post(`/api/subscription/changePlan/${id}`, { planId: yearly.id, when: 'now' });

/**
 * A monthly subscription paid by transfer on `start`, a one-off charge 'Subito' of `quantity` ×
 * 45,50 made at `chargeAt`, its payment link and the Checkout Session opened from it.
 */
async function extraChargeCheckout(start: string, chargeAt: string, description: string, quantity: number) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: monthly.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  clock.set(chargeAt);
  const made = await admin.post<{ id: number; paymentId: number }>(`/api/subscription/charges/${sub.id}`, {
    description,
    quantity,
    unitPrice: '45,50',
    collect: 'now',
  });
  expect(made.status, made.raw).toBe(200);
  const paymentId = made.body.data!.paymentId;
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', { paymentId });
  expect(link.status, link.raw).toBe(200);
  const opened = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
    token: link.body.data!.token,
  });
  expect(opened.status, opened.raw).toBe(200);
  return { sub, paymentId, sessionId: opened.body.data!.sessionId };
}

describe('a Checkout opened from a link whose payment is withdrawn', () => {
  it('a plan change: the session is expired at Stripe after commit, once; it can no longer be paid', async () => {
    const { sub, renewal, sessionId } = await checkoutOpened('2026-05-01T09:00:00.000Z');
    const made = await toYearly(sub.id);
    expect(made.status, made.raw).toBe(200);
    expect((await paymentRows(sub.id)).some((p) => p.id === renewal.id)).toBe(false);

    expect(expireCalls(sessionId)).toHaveLength(1);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect((await sessionRow(sessionId))!.expiredAt).not.toBeNull();
    // The outbox delivered again: Stripe is not asked again.
    await redeliver('billing.expireCheckout');
    expect(expireCalls(sessionId)).toHaveLength(1);

    // The customer's Checkout page can no longer take the card.
    expect(() => stripe.completeSession(sessionId)).toThrow(/expired/);
    const page = await fetch(`${stripe.url}/checkout/${sessionId}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(page.status).toBe(410);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
  });

  it('a pause, Stripe failing the expiry: the pause holds, the outbox retries and expires it once', async () => {
    const { sub, renewal, sessionId } = await checkoutOpened('2026-06-01T09:00:00.000Z');
    stripe.failNext(`POST /v1/checkout/sessions/${sessionId}/expire`, 503);
    const paused = await admin.post(`/api/subscription/pause/${sub.id}`, {
      periods: 1,
      entitlements: 'keep',
    });
    expect(paused.status, paused.raw).toBe(200);
    expect((await paymentRows(sub.id)).some((p) => p.id === renewal.id)).toBe(false);
    expect(expireCalls(sessionId)).toHaveLength(1);
    expect(stripe.sessions.get(sessionId)!.status).toBe('open');
    expect((await sessionRow(sessionId))!.expiredAt).toBeNull();

    await outboxSweep();
    expect(expireCalls(sessionId)).toHaveLength(2);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect((await sessionRow(sessionId))!.expiredAt).not.toBeNull();
    await redeliver('billing.expireCheckout');
    expect(expireCalls(sessionId)).toHaveLength(2);
  });
});

describe('a Checkout completed on a withdrawn payment (in the race)', () => {
  /** Withdrawn by a plan change while Stripe fails the expiry; the customer then pays the session. */
  async function paidInTheRace(start: string) {
    const opened = await checkoutOpened(start);
    stripe.failNext(`POST /v1/checkout/sessions/${opened.sessionId}/expire`, 503);
    const made = await toYearly(opened.sub.id);
    expect(made.status, made.raw).toBe(200);
    expect(stripe.sessions.get(opened.sessionId)!.status).toBe('open');
    const invoicesBefore = await invoiceIds();
    const providerId = stripe.completeSession(opened.sessionId);
    const taken = stripe.checkoutInvoice(providerId);
    expect(taken.amount_paid).toBe(3538);
    const completed = stripe.event('checkout.session.completed', {
      ...stripe.sessions.get(opened.sessionId)!,
    });
    return { ...opened, providerId, completed, invoicesBefore };
  }

  /** Nothing of the card payment is recorded: no payment paid by Stripe, no invoice, no number. */
  async function expectNothingRecorded(subscriptionId: number, providerId: string, invoicesBefore: number[]) {
    const rows = await paymentRows(subscriptionId);
    expect(rows.filter((p) => p.providerSubscriptionId === providerId || p.method === 'stripe')).toEqual([]);
    expect(await invoiceIds()).toEqual(invoicesBefore);
  }

  it('refunded once after commit, the Stripe subscription cancelled, nothing recorded as paid, the history says it; the webhook again and the outbox again do nothing more', async () => {
    const { sub, sessionId, providerId, completed, invoicesBefore } =
      await paidInTheRace('2026-07-01T09:00:00.000Z');
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;
    await hook(completed);

    // After commit: Stripe refunded the whole first invoice, once, keyed by the session.
    const refunds = stripe.refunds.slice(refundsBefore);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: 3538,
      idempotencyKey: `rinnova-withdrawn-refund-${demoId}-${sessionId}`,
    });
    expect(stripe.subscriptions.get(providerId)!.status).toBe('canceled');
    expect((await sessionRow(sessionId))!.refundRef).toBe(refunds[0]!.id);
    expect(await outcomesOf(completed.id as string)).toEqual([
      {
        outcome: 'applied',
        detail: expect.stringContaining(`sessione ${sessionId} pagata su un link ritirato`),
      },
    ]);
    expect(await historyOf(sub.id, 'withdrawnCheckoutRefunded')).toEqual([
      {
        reason: `Pagamento con carta su un link ritirato: rimborsato 35,38\u00a0€ (sessione Stripe ${sessionId}); sottoscrizione Stripe ${providerId} annullata`,
      },
    ]);
    await expectNothingRecorded(sub.id, providerId, invoicesBefore);
    // The customer is told, once.
    const mails = (await refundMails()).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(
      'Gentile Bianchi Consulting Srl,\n\nhai pagato con carta 35,38\u00a0€ da un link di pagamento del tuo abbonamento che Demo Srl aveva nel frattempo ritirato, perché quel pagamento non era più dovuto.',
    );
    expect(mails[0]!.text).toContain('L’importo ti è stato rimborsato per intero sulla stessa carta');
    expect(mails[0]!.text).toContain('non ti sarà addebitato altro');
    // The return page cannot record it either.
    const confirm = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(confirm.status, confirm.raw).toBe(400);

    // Stripe's own events about that subscription name none of Rinnova's.
    const invoicePaid = stripe.event('invoice.paid', stripe.checkoutInvoice(providerId));
    await hook(invoicePaid);
    expect((await outcomesOf(invoicePaid.id as string))[0]!.outcome).toBe('unknownSubscription');

    // The expiry retried: Stripe says the session is complete, the delivery ends.
    await outboxSweep();
    expect((await sessionRow(sessionId))!.expiredAt).not.toBeNull();

    // The same event again: the inbox's duplicate; the outbox again: nothing refunded twice.
    await hook(completed);
    await redeliver('billing.refundWithdrawnCheckout');
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect(await historyOf(sub.id, 'withdrawnCheckoutRefunded')).toHaveLength(1);
    expect(await outcomesOf(completed.id as string)).toHaveLength(1);
    expect((await refundMails()).slice(mailsBefore)).toHaveLength(1);
    await expectNothingRecorded(sub.id, providerId, invoicesBefore);
  });

  it('Stripe failing the refund: nothing changes in Rinnova; the outbox retries and refunds once', async () => {
    const { sub, sessionId, providerId, completed, invoicesBefore } =
      await paidInTheRace('2026-08-01T09:00:00.000Z');
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;
    stripe.failNext('POST /v1/refunds', 500);
    await hook(completed);
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(0);
    expect(stripe.subscriptions.get(providerId)!.status).toBe('active');
    expect((await sessionRow(sessionId))!.refundRef).toBeNull();
    expect((await refundMails()).slice(mailsBefore)).toHaveLength(0);
    expect(await historyOf(sub.id, 'withdrawnCheckoutRefunded')).toHaveLength(1);
    await expectNothingRecorded(sub.id, providerId, invoicesBefore);

    await outboxSweep();
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect(stripe.subscriptions.get(providerId)!.status).toBe('canceled');
    await redeliver('billing.refundWithdrawnCheckout');
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect((await refundMails()).slice(mailsBefore)).toHaveLength(1);
    expect(await historyOf(sub.id, 'withdrawnCheckoutRefunded')).toHaveLength(1);
    await expectNothingRecorded(sub.id, providerId, invoicesBefore);
  });
});

describe('a payment-mode Checkout (an extra payment’s) on a withdrawn payment', () => {
  // No route withdraws an extra payment today (a pause and a plan change leave them; a 'Subito'
  // charge with a link cannot be deleted): the withdrawal itself is called in a unit of work.
  it('the session is expired after commit; paid in the race it is refunded once, nothing recorded', async () => {
    const { sub, paymentId, sessionId } = await extraChargeCheckout(
      '2026-09-01T09:00:00.000Z',
      '2026-09-10T10:00:00.000Z',
      'Configurazione dominio',
      2,
    );
    expect(await sessionRow(sessionId)).toMatchObject({ paymentId, mode: 'payment', expiredAt: null });

    // Withdrawn while Stripe fails the expiry; the customer pays in the race.
    stripe.failNext(`POST /v1/checkout/sessions/${sessionId}/expire`, 503);
    await ctx.app.unitOfWork.run({ tenantId: demoId, actor: { kind: 'system', job: 'test' } }, (w) =>
      withdrawUnpaidPayments(w, [paymentId]),
    );
    expect((await paymentRows(sub.id)).some((p) => p.id === paymentId)).toBe(false);
    expect(expireCalls(sessionId)).toHaveLength(1);
    const invoicesBefore = await invoiceIds();
    const intent = stripe.completeSession(sessionId);
    const completed = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;
    await hook(completed);

    expect(stripe.refunds.slice(refundsBefore)).toMatchObject([{ payment_intent: intent, amount: 11102 }]);
    const mails = (await refundMails()).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('hai pagato con carta 111,02\u00a0€ da un link di pagamento');
    expect(mails[0]!.text).not.toContain('addebito automatico');
    expect(await outcomesOf(completed.id as string)).toEqual([
      { outcome: 'applied', detail: expect.stringContaining(`pagamento ${paymentId} ritirato`) },
    ]);
    expect(await historyOf(sub.id, 'withdrawnCheckoutRefunded')).toEqual([
      {
        reason: `Pagamento con carta su un link ritirato: rimborsato 111,02\u00a0€ (sessione Stripe ${sessionId})`,
      },
    ]);
    expect((await paymentRows(sub.id)).filter((p) => p.method === 'stripe')).toEqual([]);
    expect(await invoiceIds()).toEqual(invoicesBefore);
    await outboxSweep();
    expect(expireCalls(sessionId)).toHaveLength(2);
    expect((await sessionRow(sessionId))!.expiredAt).not.toBeNull();
    await hook(completed);
    await redeliver('billing.refundWithdrawnCheckout');
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
  });
});

describe('a Checkout on a payment paid another way', () => {
  const markPaid = (paymentId: number) =>
    admin.post(`/api/collection/markPaid/${paymentId}`, {
      amount: 35.38,
      approvalDate: clock.now().toISOString(),
      note: 'Bonifico visto in banca',
    });

  it('the Admin records the bank transfer: the open session is expired at Stripe after commit, once', async () => {
    const { renewal, sessionId } = await checkoutOpened('2026-10-01T09:00:00.000Z');
    const paid = await markPaid(renewal.id);
    expect(paid.status, paid.raw).toBe(200);
    expect(expireCalls(sessionId)).toHaveLength(1);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect((await sessionRow(sessionId))!.expiredAt).not.toBeNull();
    await redeliver('billing.expireCheckout');
    expect(expireCalls(sessionId)).toHaveLength(1);
  });

  it('two sessions of one link, the first paid (return page, then its webhook: unchanged, never refunded): the second is expired; completed in the race it is refunded once, its Stripe subscription cancelled, one payment, one invoice, one e-mail', async () => {
    const { sub, renewal, token, sessionId: first } = await checkoutOpened('2026-11-01T09:00:00.000Z');
    const again = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(again.status, again.raw).toBe(200);
    const second = again.body.data!.sessionId;
    expect(second).not.toBe(first);
    const invoicesBefore = await invoiceIds();
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;

    // The first session paid: the return page records it; the second's expiry fails at Stripe.
    stripe.failNext(`POST /v1/checkout/sessions/${second}/expire`, 503);
    const firstSub = stripe.completeSession(first);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: first,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    expect(expireCalls(first)).toHaveLength(0);
    expect(expireCalls(second)).toHaveLength(1);
    expect(stripe.sessions.get(second)!.status).toBe('open');
    // The first session's own webhook after its return page: unchanged, nothing refunded.
    const firstCompleted = stripe.event('checkout.session.completed', { ...stripe.sessions.get(first)! });
    await hook(firstCompleted);
    expect(await outcomesOf(firstCompleted.id as string)).toEqual([
      { outcome: 'unchanged', detail: `sottoscrizione ${sub.id}` },
    ]);
    const paidOnce = await invoiceIds();
    expect(paidOnce).toHaveLength(invoicesBefore.length + 1);

    // The customer pays the second session in the race.
    const secondSub = stripe.completeSession(second);
    const secondCompleted = stripe.event('checkout.session.completed', { ...stripe.sessions.get(second)! });
    await hook(secondCompleted);
    const refunds = stripe.refunds.slice(refundsBefore);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: 3538,
      idempotencyKey: `rinnova-withdrawn-refund-${demoId}-${second}`,
    });
    expect(stripe.subscriptions.get(secondSub)!.status).toBe('canceled');
    expect(stripe.subscriptions.get(firstSub)!.status).toBe('active');
    expect(await outcomesOf(secondCompleted.id as string)).toEqual([
      { outcome: 'applied', detail: expect.stringContaining(`pagamento ${renewal.id} già pagato`) },
    ]);
    expect(await historyOf(sub.id, 'paidCheckoutRefunded')).toEqual([
      {
        reason: `Pagamento con carta su un pagamento già saldato: rimborsato 35,38\u00a0€ (sessione Stripe ${second}); sottoscrizione Stripe ${secondSub} annullata`,
      },
    ]);
    const rows = (await paymentRows(sub.id)).filter((p) => p.id === renewal.id);
    expect(rows).toMatchObject([{ method: 'stripe', providerSubscriptionId: firstSub }]);
    expect(await invoiceIds()).toEqual(paidOnce);
    const mails = (await refundMails()).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(
      'Gentile Bianchi Consulting Srl,\n\nhai pagato con carta 35,38\u00a0€ da un link di pagamento del tuo abbonamento che era già stato saldato.',
    );
    expect(mails[0]!.text).toContain('non ti sarà addebitato altro');
    // Its return page records nothing either.
    const late = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId: second, tenantId: demoId });
    expect(late.status, late.raw).toBe(400);

    // The expiry retried: Stripe says complete; the webhook again, the outbox again: nothing more.
    await outboxSweep();
    await hook(secondCompleted);
    await hook(firstCompleted);
    await redeliver('billing.refundWithdrawnCheckout');
    await redeliver('billing.expireCheckout');
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect((await refundMails()).slice(mailsBefore)).toHaveLength(1);
    expect(await historyOf(sub.id, 'paidCheckoutRefunded')).toHaveLength(1);
    expect(await invoiceIds()).toEqual(paidOnce);
    expect(expireCalls(first)).toHaveLength(0);
  });

  it('the bank transfer recorded while Stripe fails the expiry, the session then paid: refunded once, the transfer stays the payment', async () => {
    const { sub, renewal, sessionId } = await checkoutOpened('2026-12-01T09:00:00.000Z');
    stripe.failNext(`POST /v1/checkout/sessions/${sessionId}/expire`, 503);
    const paid = await markPaid(renewal.id);
    expect(paid.status, paid.raw).toBe(200);
    const invoicesAfter = await invoiceIds();
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;
    const providerId = stripe.completeSession(sessionId);
    // Its return page first: the payment is paid already, nothing is recorded (409).
    const confirm = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(confirm.status, confirm.raw).toBe(409);
    expect((await paymentRows(sub.id)).find((p) => p.id === renewal.id)!.method).toBe('bankTransfer');
    const completed = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    await hook(completed);
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect(stripe.subscriptions.get(providerId)!.status).toBe('canceled');
    expect((await paymentRows(sub.id)).find((p) => p.id === renewal.id)).toMatchObject({
      method: 'bankTransfer',
      providerSubscriptionId: null,
    });
    expect(await invoiceIds()).toEqual(invoicesAfter);
    expect(await historyOf(sub.id, 'paidCheckoutRefunded')).toHaveLength(1);
    const mails = (await refundMails()).slice(mailsBefore);
    expect(mails.map((m) => m.text.includes('che era già stato saldato'))).toEqual([true]);
  });

  it('an extra payment’s payment-mode session, the transfer recorded while Stripe fails the expiry, then paid: refunded once, no subscription to cancel', async () => {
    const { sub, paymentId, sessionId } = await extraChargeCheckout(
      '2027-01-05T09:00:00.000Z',
      '2027-01-05T09:00:00.000Z',
      'Migrazione dati',
      1,
    );
    const due = (await paymentRows(sub.id)).find((p) => p.id === paymentId)!;
    stripe.failNext(`POST /v1/checkout/sessions/${sessionId}/expire`, 503);
    const paid = await admin.post(`/api/collection/markPaid/${paymentId}`, {
      amount: due.amountDueCents / 100,
      approvalDate: clock.now().toISOString(),
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(expireCalls(sessionId)).toHaveLength(1);
    const invoicesAfter = await invoiceIds();
    const refundsBefore = stripe.refunds.length;
    const mailsBefore = (await refundMails()).length;
    const intent = stripe.completeSession(sessionId);
    const completed = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)! });
    await hook(completed);
    expect(stripe.refunds.slice(refundsBefore)).toMatchObject([
      { payment_intent: intent, amount: due.amountDueCents },
    ]);
    expect(await outcomesOf(completed.id as string)).toEqual([
      { outcome: 'applied', detail: expect.stringContaining(`pagamento ${paymentId} già pagato`) },
    ]);
    const mails = (await refundMails()).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('che era già stato saldato');
    expect(mails[0]!.text).not.toContain('addebito automatico');
    expect((await paymentRows(sub.id)).find((p) => p.id === paymentId)).toMatchObject({
      method: 'bankTransfer',
      providerPaymentId: null,
    });
    expect(await invoiceIds()).toEqual(invoicesAfter);
    await hook(completed);
    await redeliver('billing.refundWithdrawnCheckout');
    expect(stripe.refunds.slice(refundsBefore)).toHaveLength(1);
    expect((await refundMails()).slice(mailsBefore)).toHaveLength(1);
  });
});
