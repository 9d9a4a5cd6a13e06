/**
 * Issue 29, bank-transfer subscriptions renew for real, with the moved clock over whole periods: 7
 * days before the next billing date the renewal reminder makes the next period's payment (method
 * 'bankTransfer', due on the billing date) and e-mails its instructions with a card link beside
 * them, once (two runs the same day, a crash mid-way: nothing half-done); at the billing date the
 * subscription stays ActiveNoRenewal and the entitlement answers pastDue through the grace; the
 * ladder's reminders go out once per step; the transfer recorded mid-ladder recovers the payment
 * (invoiced once) and the next period renews again; a transfer that never comes ends at the
 * ladder's final day through the state machine; the card link paid at the provider recovers it
 * too; a customer who turned the renewal off gets no renewal payment; the customer of a renewal
 * by transfer turns it off and on from their area ('Disattiva il rinnovo').
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  collectionEvents,
  invoiceIssues,
  invoices,
  payments,
  subscriptionEvents,
  subscriptionReminders,
  webhookDeliveries,
} from '../../../server/db/schema';
import { JOB_NAMES, renewalFaults } from '../../../server/modules/billing/billing-jobs';
import { addDays, romeDay } from '../../../server/modules/billing/collection.service';
import { dunningFaults } from '../../../server/modules/billing/dunning';
import { formatEur } from '../../../server/modules/billing/subscription.service';
import { entitlementsOf } from '../../../server/modules/integrations/entitlements.service';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import type { JobEngine } from '../../../server/jobs/engine';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  approveWholeAmount,
  createSubscription,
  DEMO_IBAN,
  giveIban,
  movableClock,
  planId,
  userId,
  customersWithoutLiveSubscription,
  pointStripeAt,
  subscriptionOf,
} from '../billing/helpers';

const clock = movableClock('2026-01-05T10:00:00.000Z');
const DAY = 86_400_000;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
let demoId: number;
let basic: number;
let customers: { id: number; email: string }[];
/** This scenario's customer (paidByTransfer picks the next one). */
let customer: number;
let customerEmail: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  jobs = ctx.app.jobs!;
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  expect((await admin.post(`/api/plan/syncStripe/${basic}`)).status).toBe(200);
  // Customers of Demo Srl with no live subscription, one per scenario: the entitlements (one entry
  // per feature: the paid-up subscription wins) and the e-mails are each scenario's own.
  customers = await customersWithoutLiveSubscription(ctx, demoId, 4);
  // The subscription's moves reach the tenant's product (issue 15): an endpoint for the end.
  const hook = await admin.post('/api/webhook/create', {
    url: 'https://prodotto.example.com/rinnova/webhook',
    events: ['subscription.renewal_failed'],
  });
  expect(hook.status, hook.raw).toBe(200);
}, 60_000);
afterAll(async () => {
  renewalFaults.afterTransferMail = null;
  dunningFaults.afterReminderMail = null;
  await ctx?.close();
  await stripe?.close();
});
beforeEach(() => {
  renewalFaults.afterTransferMail = null;
});

const getSub = (id: number) => subscriptionOf(admin, id);

/** A Basic subscription whose first payment was confirmed by bank transfer: ActiveNoRenewal. */
async function paidByTransfer(start: string) {
  const next = customers.shift()!;
  customer = next.id;
  customerEmail = next.email;
  clock.set(start);
  const sub = await createSubscription(admin, { userId: customer, planId: basic });
  expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
  const first = (await getSub(sub.id)).payments[0]!;
  expect((await approveWholeAmount(admin, first, start)).status).toBe(200);
  const confirmed = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
  expect(confirmed.status, confirmed.raw).toBe(200);
  const after = await getSub(sub.id);
  expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
  return after;
}

async function run(job: string) {
  const processed = await jobs.runJobNow(job, { tenantId: demoId });
  return processed.find((p) => p.data.tenantId === demoId)!;
}
const renewalReminders = () => run(JOB_NAMES.renewalReminders);
const dunning = () => run(JOB_NAMES.dunning);
const expire = () => run(JOB_NAMES.expireSubscriptions);

async function paymentsOf(subscriptionId: number) {
  return ctx.db
    .select()
    .from(payments)
    .where(eq(payments.subscriptionId, subscriptionId))
    .orderBy(asc(payments.id));
}

/** The renewal-by-transfer e-mails of this causale. */
async function renewalMailsOf(causale: string) {
  return (await ctx.outbox()).filter(
    (m) => m.subject.includes('istruzioni per il bonifico') && m.text.includes(`Causale: ${causale}`),
  );
}

/** The ladder's reminders (e-mails in the outbox) that name this causale. */
async function remindersOf(causale: string) {
  return (await ctx.outbox()).filter(
    (m) =>
      m.subject.includes('pagamento in sospeso') && m.text.includes(`Riferimento del pagamento: ${causale}`),
  );
}

async function eventsOf(paymentId: number) {
  return ctx.db
    .select({ kind: collectionEvents.kind, step: collectionEvents.step })
    .from(collectionEvents)
    .where(eq(collectionEvents.paymentId, paymentId))
    .orderBy(asc(collectionEvents.id));
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

async function entitlementOf(subscriptionId: number) {
  const list = await entitlementsOf(ctx.db, demoId, customer, clock.now());
  return list.filter((e) => e.subscriptionId === subscriptionId);
}

/** 10:00 in Rome (09:00 UTC in winter) of the day `n` days after `day`. */
const at = (day: string, n: number) => `${addDays(day, n)}T09:00:00.000Z`;
const linkIn = (text: string) => /\/payment\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

/**
 * The reminder 7 days before the next billing date, checked: one payment of the next period by
 * bank transfer, due on the billing date, and one e-mail with its instructions and a card link.
 */
async function renewalReminded(sub: Subscription) {
  const next = Date.parse(sub.nextBillingDate);
  clock.set(new Date(next - 7 * DAY).toISOString());
  const before = (await paymentsOf(sub.id)).length;
  expect((await renewalReminders()).outcome).toBe('succeeded');
  const list = await paymentsOf(sub.id);
  expect(list).toHaveLength(before + 1);
  const payment = list.at(-1)!;
  expect(payment).toMatchObject({
    method: 'bankTransfer',
    paidAt: null,
    collectionStatus: 'due',
    dueDate: romeDay(new Date(next)),
    amountDueCents: sub.payments[0]!.amountDue * 100,
  });
  expect(payment.periodStart.toISOString()).toBe(sub.nextBillingDate);
  const mails = await renewalMailsOf(payment.causale);
  expect(mails).toHaveLength(1);
  return { payment, mail: mails[0]! };
}

describe('a bank-transfer subscription over a whole period', () => {
  it('reminded once with its payment and instructions, pastDue at the billing date, reminders per step, the transfer recorded mid-ladder recovers it, and the next period renews again', async () => {
    const sub = await paidByTransfer('2026-01-05T10:00:00.000Z');
    const next = Date.parse(sub.nextBillingDate);

    // 7 days before: the unit throws right after the e-mail; nothing of it stays.
    clock.set(new Date(next - 7 * DAY).toISOString());
    renewalFaults.afterTransferMail = (id) => {
      if (id === sub.id) throw new Error('crash simulato dopo l’e-mail');
    };
    const crashed = await renewalReminders();
    expect(crashed.outcome).not.toBe('succeeded');
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect(
      await ctx.db
        .select()
        .from(subscriptionReminders)
        .where(eq(subscriptionReminders.subscriptionId, sub.id)),
    ).toEqual([]);
    renewalFaults.afterTransferMail = null;

    const { payment, mail } = await renewalReminded(sub);
    expect(mail.to).toBe(customerEmail);
    expect(mail.subject).toBe(
      `Demo Srl: rinnovo di «Basic» del ${new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(next))}, istruzioni per il bonifico`,
    );
    expect(mail.text).toContain(`IBAN: ${DEMO_IBAN}`);
    expect(mail.text).toContain('Beneficiario: Demo Srl (conto demo)');
    expect(mail.text).toContain(`Importo: ${formatEur(payment.amountDueCents)}`);
    expect(mail.text).toContain(`Causale: ${payment.causale}`);
    expect(mail.text).toMatch(/\/login\/link\?token=/);
    expect(linkIn(mail.text)).not.toBeNull();
    expect(mail.text).toContain(`resta attivo fino al`);
    // Two runs the same day: nothing more.
    await renewalReminders();
    expect(await paymentsOf(sub.id)).toHaveLength(2);
    expect(await renewalMailsOf(payment.causale)).toHaveLength(1);

    // Still in the paid period: access, not past due.
    clock.set(new Date(next - 60_000).toISOString());
    expect((await entitlementOf(sub.id))[0]).toMatchObject({ pastDue: false, graceEndsOn: null });

    // The billing date has passed: the expire job leaves it alone, access goes on past due.
    const due = payment.dueDate;
    clock.set(new Date(next + 3_600_000).toISOString());
    expect((await expire()).outcome).toBe('succeeded');
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    const [ent] = await entitlementOf(sub.id);
    expect(ent).toMatchObject({ pastDue: true, graceEndsOn: addDays(due, 14), until: sub.nextBillingDate });

    for (const [day, count] of [
      [0, 1],
      [3, 2],
    ] as const) {
      clock.set(at(due, day));
      expect((await dunning()).outcome).toBe('succeeded');
      expect(await remindersOf(payment.causale)).toHaveLength(count);
      await dunning();
      await expire();
      expect(await remindersOf(payment.causale)).toHaveLength(count);
      expect((await entitlementOf(sub.id))[0]).toMatchObject({
        pastDue: true,
        graceEndsOn: addDays(due, 14),
      });
    }
    const reminder = (await remindersOf(payment.causale))[1]!;
    expect(reminder.text).toContain(DEMO_IBAN);
    expect(reminder.text).toContain('Preferisci pagare con carta o PayPal?');
    expect(linkIn(reminder.text)).not.toBeNull();
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);

    // Day 5: the Admin records the transfer ('Segna come pagato').
    clock.set(at(due, 5));
    const paid = await admin.post<{ collectionStatus: string }>(`/api/collection/markPaid/${payment.id}`, {
      amount: payment.amountDueCents / 100,
      approvalDate: clock.now().toISOString(),
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data!.collectionStatus).toBe('recovered');
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(after.nextBillingDate).toBe(payment.periodEnd.toISOString());
    expect(after.payments.at(-1)).toMatchObject({ method: 'bankTransfer', collectionStatus: 'recovered' });
    expect(await invoiceAttempts(payment.id)).toBe(1);
    expect((await entitlementOf(sub.id))[0]).toMatchObject({ pastDue: false, graceEndsOn: null });
    for (const day of [7, 14, 21]) {
      clock.set(at(due, day));
      await dunning();
      await expire();
    }
    expect(await remindersOf(payment.causale)).toHaveLength(2);
    expect(await invoiceAttempts(payment.id)).toBe(1);
    expect((await eventsOf(payment.id)).map((e) => [e.kind, e.step])).toEqual([
      ['due', null],
      ['reminder', 0],
      ['reminder', 1],
      ['markedPaid', null],
      ['recovered', null],
    ]);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);

    // The next period renews by bank transfer again.
    const { payment: third } = await renewalReminded(after);
    expect(third.periodStart.toISOString()).toBe(payment.periodEnd.toISOString());
  }, 60_000);
});

describe('a transfer that never comes', () => {
  it('reminders once per step, no access after the grace, NotActive at the final day through the state machine', async () => {
    const sub = await paidByTransfer('2026-01-12T10:00:00.000Z');
    const { payment } = await renewalReminded(sub);
    const due = payment.dueDate;
    for (const [day, count] of [
      [0, 1],
      [3, 2],
      [7, 3],
      [14, 4],
    ] as const) {
      clock.set(at(due, day));
      await dunning();
      await dunning();
      await expire();
      expect(await remindersOf(payment.causale)).toHaveLength(count);
      expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
      expect((await entitlementOf(sub.id))[0], `day ${day}`).toMatchObject({
        pastDue: true,
        graceEndsOn: addDays(due, 14),
      });
    }
    // Past the grace: still ActiveNoRenewal (the end is day 21), but no access.
    clock.set(at(due, 15));
    await dunning();
    await expire();
    expect(await entitlementOf(sub.id)).toEqual([]);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);

    clock.set(at(due, 21));
    expect((await dunning()).outcome).toBe('succeeded');
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.NotActive);
    expect(after.payments.at(-1)!.collectionStatus).toBe('exhausted');
    const moves = await ctx.db
      .select({
        event: subscriptionEvents.event,
        fromStatus: subscriptionEvents.fromStatus,
        toStatus: subscriptionEvents.toStatus,
        actorKind: subscriptionEvents.actorKind,
      })
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, sub.id))
      .orderBy(asc(subscriptionEvents.id));
    expect(moves.at(-1)).toEqual({
      event: 'collectionExhausted',
      fromStatus: SubscriptionStatus.ActiveNoRenewal,
      toStatus: SubscriptionStatus.NotActive,
      actorKind: 'system',
    });
    expect(moves.some((m) => m.event === 'expire')).toBe(false);
    const hooks = await ctx.db
      .select({ body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventType, 'subscription.renewal_failed'));
    const ours = hooks
      .map((h) => JSON.parse(h.body) as { data: { subscription: { id: number; status: unknown } } })
      .filter((h) => h.data.subscription.id === sub.id);
    expect(ours).toHaveLength(1);
    const told = (await ctx.outbox()).filter(
      (m) => m.to === customerEmail && m.subject.includes('sospeso per mancato pagamento'),
    );
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(await entitlementOf(sub.id)).toEqual([]);
    // Another run: nothing more.
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(4);
    expect((await eventsOf(payment.id)).filter((e) => e.kind === 'exhausted')).toHaveLength(1);
  }, 60_000);
});

describe('the card link beside the instructions', () => {
  it('paid at the provider mid-ladder recovers the payment once, with its collection event and one invoice', async () => {
    const sub = await paidByTransfer('2026-01-20T10:00:00.000Z');
    const { payment } = await renewalReminded(sub);
    const due = payment.dueDate;
    clock.set(at(due, 3));
    await dunning();
    const [reminder] = await remindersOf(payment.causale);
    const token = linkIn(reminder!.text);
    expect(token).not.toBeNull();
    // Within the link's hour: paid by card on (fake) Stripe Checkout.
    clock.set(new Date(Date.parse(at(due, 3)) + 10 * 60_000).toISOString());
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(checkout.status, checkout.raw).toBe(200);
    const sessionId = checkout.body.data!.sessionId;
    stripe.completeSession(sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(confirmed.status, confirmed.raw).toBe(200);
    const again = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(again.status, again.raw).toBe(200);
    const after = await getSub(sub.id);
    // Paid by card: automatic renewal from now on.
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.Active);
    expect(after.nextBillingDate).toBe(payment.periodEnd.toISOString());
    expect(after.payments.at(-1)).toMatchObject({
      id: payment.id,
      method: 'stripe',
      collectionStatus: 'recovered',
    });
    expect((await eventsOf(payment.id)).filter((e) => e.kind === 'recovered')).toHaveLength(1);
    expect(await invoiceAttempts(payment.id)).toBe(1);
    expect((await entitlementOf(sub.id))[0]).toMatchObject({ pastDue: false });
    clock.set(at(due, 7));
    await dunning();
    expect(await remindersOf(payment.causale)).toHaveLength(1);
  }, 60_000);
});

describe('the renewal e-mail’s own card link', () => {
  it('paid within its hour, before the due date: paid by card, Active, never overdue, no reminder', async () => {
    const sub = await paidByTransfer('2026-01-22T10:00:00.000Z');
    const { payment, mail } = await renewalReminded(sub);
    const token = linkIn(mail.text);
    expect(token).not.toBeNull();
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', { token });
    expect(checkout.status, checkout.raw).toBe(200);
    stripe.completeSession(checkout.body.data!.sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: checkout.body.data!.sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);
    const after = await getSub(sub.id);
    expect(after.subscriptionStatus).toBe(SubscriptionStatus.Active);
    expect(after.nextBillingDate).toBe(payment.periodEnd.toISOString());
    expect(after.payments.at(-1)).toMatchObject({
      id: payment.id,
      method: 'stripe',
      collectionStatus: 'due',
    });
    expect(await invoiceAttempts(payment.id)).toBe(1);
    for (const day of [0, 3]) {
      clock.set(at(payment.dueDate, day));
      await dunning();
    }
    expect(await remindersOf(payment.causale)).toEqual([]);
    expect(await eventsOf(payment.id)).toEqual([]);
  }, 60_000);
});

describe('a renewal its customer turned off', () => {
  it('gets no renewal payment nor e-mail, and ends at its billing date', async () => {
    clock.set('2026-01-26T10:00:00.000Z');
    const me = await userId(ctx, DEMO.cliente);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    const created = await createSubscription(admin, { userId: me, planId: basic });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: created.payments[0]!.id,
    });
    const checkout = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(checkout.status, checkout.raw).toBe(200);
    stripe.completeSession(checkout.body.data!.sessionId);
    expect(
      (
        await ctx.api.put('/api/Payment/stripe/confirm', {
          sessionId: checkout.body.data!.sessionId,
          tenantId: demoId,
        })
      ).status,
    ).toBe(200);
    const stopped = await cliente.post(`/api/user/me/subscriptions/${created.id}/cancelRenewal`, {
      reason: 'tooExpensive',
    });
    expect(stopped.status, stopped.raw).toBe(200);
    // Even were its current period paid by bank transfer, the customer's stop wins.
    await ctx.db
      .update(payments)
      .set({ method: 'bankTransfer' })
      .where(eq(payments.id, created.payments[0]!.id));
    const sub = await getSub(created.id);
    expect(sub.subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    const next = Date.parse(sub.nextBillingDate);
    clock.set(new Date(next - 7 * DAY).toISOString());
    expect((await renewalReminders()).outcome).toBe('succeeded');
    expect(await paymentsOf(sub.id)).toHaveLength(1);
    expect(
      await ctx.db
        .select()
        .from(subscriptionReminders)
        .where(eq(subscriptionReminders.subscriptionId, sub.id)),
    ).toEqual([]);
    clock.set(new Date(next + 3_600_000).toISOString());
    await expire();
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.NotActive);
    expect(await entitlementsOf(ctx.db, demoId, me, clock.now())).not.toContainEqual(
      expect.objectContaining({ subscriptionId: sub.id }),
    );
  }, 60_000);
});

describe('a renewal by transfer its customer turns off and on', () => {
  it('off: no payment nor e-mail, the status unchanged; on: the payment and its e-mail; off again after it: ends at its date, never reminded', async () => {
    const me = await userId(ctx, DEMO.cliente);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    clock.set('2026-04-01T08:00:00.000Z');
    const created = await createSubscription(admin, { userId: me, planId: basic });
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${created.id}`)).status).toBe(200);
    expect((await approveWholeAmount(admin, created.payments[0]!, '2026-04-01T07:00:00.000Z')).status).toBe(
      200,
    );
    expect((await admin.put(`/api/subscription/setActiveNoRenewal/${created.id}`)).status).toBe(200);
    const sub = await getSub(created.id);
    const next = Date.parse(sub.nextBillingDate);
    type View = { subscriptionId: number; renewal: string; reason: string | null };
    const viewOf = async () =>
      (await cliente.get<{ items: View[] }>('/api/user/me/subscriptions/renewal')).body.data!.items.find(
        (i) => i.subscriptionId === sub.id,
      );
    const history = async () =>
      ctx.db
        .select({
          event: subscriptionEvents.event,
          from: subscriptionEvents.fromStatus,
          to: subscriptionEvents.toStatus,
          actor: subscriptionEvents.actorKind,
          reason: subscriptionEvents.reason,
        })
        .from(subscriptionEvents)
        .where(eq(subscriptionEvents.subscriptionId, sub.id))
        .orderBy(asc(subscriptionEvents.id));
    expect((await viewOf())?.renewal).toBe('on');

    // Off, twelve days before its date: the status stays, the reason is in the history.
    clock.set(new Date(next - 12 * DAY).toISOString());
    const off = await cliente.post<View>(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, {
      reason: 'tooExpensive',
    });
    expect(off.status, off.raw).toBe(200);
    expect(off.body.data).toMatchObject({ renewal: 'stopped', reason: 'Troppo costoso' });
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect((await history()).at(-1)).toEqual({
      event: 'stopRenewal',
      from: SubscriptionStatus.ActiveNoRenewal,
      to: SubscriptionStatus.ActiveNoRenewal,
      actor: 'user',
      reason: 'Troppo costoso',
    });
    // Twice is once.
    const again = await cliente.post(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, {
      reason: 'tooExpensive',
    });
    expect(again.status).toBe(200);
    expect((await history()).filter((h) => h.event === 'stopRenewal')).toHaveLength(1);

    // Seven days before: nothing is made for a renewal turned off.
    clock.set(new Date(next - 7 * DAY).toISOString());
    expect((await renewalReminders()).outcome).toBe('succeeded');
    expect(await paymentsOf(sub.id)).toHaveLength(1);

    // On again: the renewal by transfer resumes (its status unchanged) and the next run makes the
    // payment and its e-mail.
    const on = await cliente.post<View>(`/api/user/me/subscriptions/${sub.id}/resumeRenewal`);
    expect(on.status, on.raw).toBe(200);
    expect(on.body.data?.renewal).toBe('on');
    expect((await history()).at(-1)).toMatchObject({
      event: 'resumeTransferRenewal',
      from: SubscriptionStatus.ActiveNoRenewal,
      to: SubscriptionStatus.ActiveNoRenewal,
    });
    expect((await renewalReminders()).outcome).toBe('succeeded');
    const renewal = (await paymentsOf(sub.id))[1]!;
    expect(renewal).toMatchObject({ method: 'bankTransfer', paidAt: null });
    expect(await renewalMailsOf(renewal.causale)).toHaveLength(1);

    // Off again, with the payment already made: at its date it ends, and the payment of a period
    // it never entered is not collected.
    clock.set(new Date(next - 2 * DAY).toISOString());
    expect(
      (await cliente.post(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, { reason: 'tooExpensive' }))
        .status,
    ).toBe(200);
    clock.set(new Date(next + 3_600_000).toISOString());
    await expire();
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.NotActive);
    expect((await history()).at(-1)).toMatchObject({ event: 'expire', to: SubscriptionStatus.NotActive });
    for (const day of [0, 3, 7]) {
      clock.set(at(romeDay(new Date(next)), day));
      expect((await dunning()).outcome).toBe('succeeded');
    }
    expect(await remindersOf(renewal.causale)).toEqual([]);
    expect(await eventsOf(renewal.id)).toEqual([]);
    expect(await entitlementOf(sub.id)).toEqual([]);
  }, 60_000);
});
