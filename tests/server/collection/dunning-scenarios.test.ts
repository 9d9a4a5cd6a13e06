/**
 * Issue 29, collection of payments, with the moved clock over a whole ladder (default: reminders
 * on days 0, 3, 7, 14 after the due date, grace to day 14, the end on day 21) for a card (fake
 * Stripe), PayPal (fake) and a bank transfer: each step's e-mail exactly once, two runs the same
 * day send nothing new, a payment recovered mid-ladder gets no further reminder, the end moves the
 * subscription to NotActive and stops it at the provider, the entitlement answers pastDue through
 * the grace and nothing after it, and a crash between the e-mail and its record sends nothing
 * until the next run, which sends once.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectionEvents,
  invoiceIssues,
  invoices,
  payments,
  subscriptionEvents,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { addDays, romeDay } from '../../../server/modules/billing/collection.service';
import { dunningFaults } from '../../../server/modules/billing/dunning';
import { entitlementsOf } from '../../../server/modules/integrations/entitlements.service';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import type { JobEngine } from '../../../server/jobs/engine';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  approveWholeAmount,
  createSubscription,
  giveIban,
  movableClock,
  planId,
  pointPayPalAt,
  userId,
  customersWithoutLiveSubscription,
  pointStripeAt,
  subscriptionOf,
} from '../billing/helpers';

const clock = movableClock('2026-01-31T10:00:00.000Z');
const WEBHOOK_ID = 'WH-DEMO-0001';
const STRIPE_WHSEC = 'whsec_rinnova_test_secret';
let paypal: FakePayPal;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
let demoId: number;
let basic: number;
let mario: number;
let paypalPlan: string;
let marioEmail: string;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  jobs = ctx.app.jobs!;
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  const synced = await admin.post<{ paypalPlanId: string }>(`/api/plan/syncPaypal/${basic}`);
  expect(synced.status).toBe(200);
  paypalPlan = synced.body.data!.paypalPlanId;
  expect((await admin.post(`/api/plan/syncStripe/${basic}`)).status).toBe(200);
  mario = await userId(ctx, 'mario.rossi@example.com');
  // A customer of Demo Srl with no live subscription: the entitlement answers are this scenario's.
  const free = (await customersWithoutLiveSubscription(ctx, demoId, 1))[0]!;
  mario = free.id;
  marioEmail = free.email;
}, 60_000);
afterAll(async () => {
  dunningFaults.afterReminderMail = null;
  await ctx?.close();
  await Promise.all([paypal?.close(), stripe?.close()]);
});

const getSub = (id: number) => subscriptionOf(admin, id);

async function inject(path: string, signed: { headers: Record<string, string>; body: string }) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: path,
    headers: signed.headers,
    payload: signed.body,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as { data?: { outcome: string } } };
}

/** The dunning pass of Demo Srl now (the clock's day); its output. */
async function dunning() {
  const processed = await jobs.runJobNow(JOB_NAMES.dunning, { tenantId: demoId });
  return processed.find((p) => p.data.tenantId === demoId)!;
}

/** The reminders (e-mails in the outbox) that name this payment's causale. */
async function remindersOf(causale: string) {
  return (await ctx.outbox()).filter(
    (m) =>
      m.subject.includes('pagamento in sospeso') && m.text.includes(`Riferimento del pagamento: ${causale}`),
  );
}

async function eventsOf(paymentId: number) {
  return ctx.db
    .select({
      kind: collectionEvents.kind,
      step: collectionEvents.step,
      actorKind: collectionEvents.actorKind,
    })
    .from(collectionEvents)
    .where(eq(collectionEvents.paymentId, paymentId))
    .orderBy(asc(collectionEvents.id));
}

async function paymentRow(id: number) {
  const [row] = await ctx.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

async function invoiceAttempts(paymentId: number) {
  const issued = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.paymentId, paymentId));
  const blocked = await ctx.db
    .select({ id: invoiceIssues.paymentId })
    .from(invoiceIssues)
    .where(eq(invoiceIssues.paymentId, paymentId));
  return issued.length + blocked.length;
}

/** The entitlements this subscription gives mario now. */
async function entitlementOf(subscriptionId: number) {
  const list = await entitlementsOf(ctx.db, demoId, mario, clock.now());
  return list.filter((e) => e.subscriptionId === subscriptionId);
}

/** 10:00 in Rome (09:00 UTC in winter) of the day `n` days after `day`. */
const at = (day: string, n: number) => `${addDays(day, n)}T09:00:00.000Z`;

/** A Basic subscription paid on the payment page with `kind`; Active with the provider's id. */
async function paidWith(kind: 'paypal' | 'stripe') {
  const sub = await createSubscription(admin, { userId: mario, planId: basic });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  const token = link.body.data!.token;
  let providerId: string;
  if (kind === 'paypal') {
    providerId = paypal.approve(paypalPlan);
    paypal.setStatus(providerId, 'ACTIVE');
    const res = await ctx.api.put('/api/Payment/updatePayment', {
      token,
      providerSubscriptionId: providerId,
    });
    expect(res.status, res.raw).toBe(200);
  } else {
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    providerId = stripe.completeSession(sessionId);
    const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(paid.status, paid.raw).toBe(200);
    // Its first invoice.paid names the first payment's charge.
    await deliverStripe(stripeCharge(providerId, `in_first_${sub.id}`, clock.now().toISOString()));
  }
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(1);
  return { sub: after, providerId };
}

const deliverStripe = (event: Record<string, unknown>) =>
  inject(`/api/webhooks/stripe/${demoId}`, stripe.signWebhook(event, STRIPE_WHSEC));
const deliverPaypal = (event: Record<string, unknown>) =>
  inject(`/api/webhooks/paypal/${demoId}`, paypal.signWebhook(event, WEBHOOK_ID));

const stripeCharge = (id: string, chargeId: string, time: string) =>
  stripe.event('invoice.paid', {
    id: chargeId,
    object: 'invoice',
    amount_paid: 1208,
    currency: 'eur',
    status_transitions: { paid_at: Math.floor(Date.parse(time) / 1000) },
    parent: { type: 'subscription_details', subscription_details: { subscription: id } },
  });

describe('card (Stripe): a failed renewal over the whole ladder', () => {
  it('stays Active and pastDue through the grace, one e-mail per step, then NotActive and cancelled at Stripe', async () => {
    clock.set('2026-01-31T10:00:00.000Z');
    const { sub, providerId } = await paidWith('stripe');
    // Stripe fails the renewal on the next billing date.
    clock.set(new Date(Date.parse(sub.nextBillingDate) + 3_600_000).toISOString());
    const failed = await deliverStripe(
      stripe.event('invoice.payment_failed', {
        id: `in_renew_${sub.id}`,
        object: 'invoice',
        attempt_count: 1,
        parent: { subscription_details: { subscription: providerId } },
      }),
    );
    expect(failed.body.data?.outcome).toBe('applied');
    const during = await getSub(sub.id);
    expect(during.subscriptionStatus).toBe(1);
    const overdue = during.payments.at(-1)!;
    expect(overdue).toMatchObject({ paidAt: null, collectionStatus: 'overdue', method: 'stripe' });
    const due = overdue.dueDate;
    expect(due).toBe(romeDay(new Date(sub.nextBillingDate)));
    // Stripe retries and fails again: a 'retry' in the history, still one payment.
    await deliverStripe(
      stripe.event('invoice.payment_failed', {
        id: `in_renew_${sub.id}`,
        object: 'invoice',
        attempt_count: 2,
        parent: { subscription_details: { subscription: providerId } },
      }),
    );
    expect((await getSub(sub.id)).payments).toHaveLength(during.payments.length);
    expect((await eventsOf(overdue.id)).map((e) => e.kind)).toEqual(['failed', 'retry']);

    for (const [day, count] of [
      [0, 1],
      [3, 2],
      [7, 3],
      [14, 4],
    ] as const) {
      clock.set(at(due, day));
      const run = await dunning();
      expect(run.outcome).toBe('succeeded');
      expect(await remindersOf(overdue.causale)).toHaveLength(count);
      // The same day again: nothing new.
      await dunning();
      expect(await remindersOf(overdue.causale)).toHaveLength(count);
      const [ent] = await entitlementOf(sub.id);
      expect(ent, `day ${day}`).toMatchObject({ pastDue: true, graceEndsOn: addDays(due, 14) });
    }
    const mail = (await remindersOf(overdue.causale))[0]!;
    expect(mail.text).toContain('Stripe non è riuscito ad addebitare');
    expect(mail.text).toContain('area clienti');
    // Past the grace: still Active (the end is day 21), but no access.
    clock.set(at(due, 15));
    await dunning();
    expect(await entitlementOf(sub.id)).toEqual([]);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);

    clock.set(at(due, 21));
    const end = await dunning();
    expect(end.outcome).toBe('succeeded');
    expect(end.output).toMatchObject({ exhausted: expect.any(Number), providerStopped: expect.any(Number) });
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(2);
    expect(after.payments.at(-1)!.collectionStatus).toBe('exhausted');
    expect(stripe.subscriptions.get(providerId)?.status).toBe('canceled');
    expect((await paymentRow(overdue.id)).providerStoppedAt).not.toBeNull();
    const moves = await ctx.db
      .select({ event: subscriptionEvents.event, actorKind: subscriptionEvents.actorKind })
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, sub.id));
    expect(moves.at(-1)).toEqual({ event: 'collectionExhausted', actorKind: 'system' });
    const told = (await ctx.outbox()).filter((m) => m.subject.includes('sospeso per mancato pagamento'));
    expect(told.some((m) => m.to === marioEmail)).toBe(true);
    expect((await eventsOf(overdue.id)).map((e) => [e.kind, e.step])).toEqual([
      ['failed', null],
      ['retry', null],
      ['reminder', 0],
      ['reminder', 1],
      ['reminder', 2],
      ['reminder', 3],
      ['exhausted', null],
    ]);
    // Another run: no second e-mail, no second provider call.
    await dunning();
    expect(await remindersOf(overdue.causale)).toHaveLength(4);
  }, 30_000);
});

describe('the ladder’s end when the provider fails', () => {
  it('moves NotActive at once; the provider call is retried on the next run until it succeeds', async () => {
    clock.set('2026-01-31T10:00:00.000Z');
    const { sub, providerId } = await paidWith('stripe');
    clock.set(new Date(Date.parse(sub.nextBillingDate) + 3_600_000).toISOString());
    await deliverStripe(
      stripe.event('invoice.payment_failed', {
        id: `in_end_${sub.id}`,
        object: 'invoice',
        parent: { subscription_details: { subscription: providerId } },
      }),
    );
    const overdue = (await getSub(sub.id)).payments.at(-1)!;
    clock.set(at(overdue.dueDate, 21));
    stripe.failNext(`DELETE /v1/subscriptions/${providerId}`, 503);
    const failed = await dunning();
    expect(failed.outcome).not.toBe('succeeded');
    expect((await getSub(sub.id)).subscriptionStatus).toBe(2);
    expect(stripe.subscriptions.get(providerId)?.status).not.toBe('canceled');
    expect((await paymentRow(overdue.id)).providerStoppedAt).toBeNull();
    const next = await dunning();
    expect(next.outcome).toBe('succeeded');
    expect(stripe.subscriptions.get(providerId)?.status).toBe('canceled');
    expect((await paymentRow(overdue.id)).providerStoppedAt).not.toBeNull();
    // Exhausted once: one e-mail telling the customer, one 'exhausted' event.
    expect((await eventsOf(overdue.id)).filter((e) => e.kind === 'exhausted')).toHaveLength(1);
  }, 30_000);
});

describe('PayPal: a failed renewal recovered mid-ladder', () => {
  it('marks the payment overdue (failed, then retry), the later sale recovers it, invoiced once, no further reminder', async () => {
    clock.set('2026-01-31T10:00:00.000Z');
    const { sub, providerId } = await paidWith('paypal');
    clock.set(new Date(Date.parse(sub.nextBillingDate) + 3_600_000).toISOString());
    for (const n of [1, 2]) {
      const res = await deliverPaypal(
        paypal.event('BILLING.SUBSCRIPTION.PAYMENT.FAILED', {
          id: providerId,
          status: 'ACTIVE',
          billing_info: { failed_payments_count: n },
        }),
      );
      expect(res.body.data?.outcome).toBe('applied');
    }
    const during = await getSub(sub.id);
    expect(during.subscriptionStatus).toBe(1);
    const overdue = during.payments.at(-1)!;
    expect(overdue).toMatchObject({ collectionStatus: 'overdue', method: 'paypal', paidAt: null });
    expect((await eventsOf(overdue.id)).map((e) => e.kind)).toEqual(['failed', 'retry']);
    const due = overdue.dueDate;
    clock.set(at(due, 0));
    await dunning();
    expect(await remindersOf(overdue.causale)).toHaveLength(1);
    expect((await entitlementOf(sub.id))[0]).toMatchObject({ pastDue: true });

    // PayPal's retry succeeds on day 4.
    clock.set(at(due, 4));
    const sale = await deliverPaypal(
      paypal.event(
        'PAYMENT.SALE.COMPLETED',
        {
          id: `SALE-RETRY-${sub.id}`,
          billing_agreement_id: providerId,
          amount: { total: '12.08', currency: 'EUR' },
        },
        clock.now().toISOString(),
      ),
    );
    expect(sale.body.data?.outcome).toBe('applied');
    const after = await getSub(sub.id);
    expect(after.payments).toHaveLength(during.payments.length);
    expect(after.payments.at(-1)).toMatchObject({ collectionStatus: 'recovered', method: 'paypal' });
    expect(after.payments.at(-1)!.paidAt).not.toBeNull();
    expect(after.subscriptionStatus).toBe(1);
    expect(await invoiceAttempts(overdue.id)).toBe(1);
    const [ent] = await entitlementOf(sub.id);
    expect(ent).toMatchObject({ pastDue: false, graceEndsOn: null });
    for (const day of [7, 14, 21]) {
      clock.set(at(due, day));
      await dunning();
    }
    expect(await remindersOf(overdue.causale)).toHaveLength(1);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(1);
    expect((await eventsOf(overdue.id)).map((e) => e.kind)).toEqual([
      'failed',
      'retry',
      'reminder',
      'recovered',
    ]);
    expect(paypal.subscriptions.get(providerId)?.status).toBe('ACTIVE');
  }, 30_000);
});

describe('bank transfer: a transfer that does not arrive', () => {
  it('becomes overdue on its due date, a crash between the e-mail and its record sends nothing until the next run, the end moves NotActive', async () => {
    clock.set('2026-03-02T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: mario, planId: basic });
    const set = await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
    expect(set.status, set.raw).toBe(200);
    const payment = (await getSub(sub.id)).payments[0]!;
    expect(payment).toMatchObject({ method: 'bankTransfer', collectionStatus: 'due', dueDate: '2026-03-02' });
    const due = payment.dueDate;

    clock.set(at(due, 0));
    await dunning();
    const first = await remindersOf(payment.causale);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toContain('IBAN');
    expect(first[0]!.text).toContain(payment.causale);
    expect((await paymentRow(payment.id)).collectionStatus).toBe('overdue');

    // Day 3: the unit throws right after writing the e-mail to the outbox.
    clock.set(at(due, 3));
    dunningFaults.afterReminderMail = (id) => {
      if (id === payment.id) throw new Error('crash simulato dopo l’e-mail');
    };
    const crashed = await dunning();
    expect(crashed.outcome).not.toBe('succeeded');
    expect(await remindersOf(payment.causale)).toHaveLength(1);
    expect((await eventsOf(payment.id)).filter((e) => e.kind === 'reminder')).toHaveLength(1);
    dunningFaults.afterReminderMail = null;
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(2);
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(2);

    clock.set(at(due, 21));
    await dunning();
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(2);
    expect(after.payments[0]!.collectionStatus).toBe('exhausted');
    // Days 7 and 14 were never run: the end does not send them late.
    expect(await remindersOf(payment.causale)).toHaveLength(2);
  }, 30_000);

  it('a transfer approved mid-ladder recovers the payment; no reminder after it', async () => {
    clock.set('2026-04-01T08:00:00.000Z');
    const sub = await createSubscription(admin, { userId: mario, planId: basic });
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const payment = (await getSub(sub.id)).payments[0]!;
    const due = payment.dueDate;
    clock.set(at(due, 3));
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(1);
    clock.set(at(due, 5));
    expect((await approveWholeAmount(admin, payment, `${addDays(due, 5)}T08:00:00Z`)).status).toBe(200);
    const confirmed = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(confirmed.status, confirmed.raw).toBe(200);
    const after = await getSub(sub.id);
    expect(after.payments[0]!.collectionStatus).toBe('recovered');
    expect(await invoiceAttempts(payment.id)).toBe(1);
    clock.set(at(due, 7));
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(1);
    const rows = await ctx.db
      .select({ kind: collectionEvents.kind })
      .from(collectionEvents)
      .where(and(eq(collectionEvents.paymentId, payment.id), eq(collectionEvents.kind, 'recovered')));
    expect(rows).toHaveLength(1);
  }, 30_000);
});
