/**
 * 'Cambia piano' between recurrences (issue 30) when the renewal payment of the old plan's next
 * period was already made (the renewal by transfer 7 days before, with its payment link), moved
 * clock, real server and database:
 * - monthly → yearly now: that payment is withdrawn in the change's unit (row, link, collection
 *   history), its link answers as not valid, no invoice number is used for it (numbers stay
 *   1…n), and the next renewal is made by the normal job for the yearly plan at the new date;
 * - monthly → yearly at the renewal: the payment is withdrawn when the change is scheduled and the
 *   renewal job makes it again, the yearly plan's, and mails it; the job applies the change on the
 *   date and the paid year moves the billing date a year on;
 * - monthly → yearly on a chosen day, the renewal asked meanwhile: the plan-changes job withdraws
 *   it when it applies the change on its day;
 * - the renewal asked used a residual credit: withdrawn, the credit goes back to the ledger and the
 *   year's renewal sets it off;
 * - a change at the renewal cancelled after the renewal payment asked its terms: that payment and
 *   its link withdrawn, the renewal job asks the current plan's month again;
 * - refused (409, nothing written): a transfer recorded for that payment; the next period already
 *   paid (before, a 500: the proration of a period not yet begun); the renewal payment used a
 *   credit Stripe's balance already gave back (Stripe not called).
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  bankTransfers,
  collectionEvents,
  invoices,
  paymentTokens,
  payments,
  planChanges,
  subscriptionCredits,
  subscriptionEvents,
  subscriptions,
} from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import {
  addPlan,
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  pointStripeAt,
  subscriptionOf,
  userId,
} from './helpers';

const clock = movableClock('2026-03-01T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_recpend';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let monthly: Plan;
let yearly: Plan;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  // A provider, so the renewal e-mail carries a payment link.
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: 'WH-DEMO-RECPEND' });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  monthly = await addPlan(admin, 'Mensile rinnovo fatto', 29, 1);
  yearly = await addPlan(admin, 'Annuale rinnovo fatto', 290, 12);
  for (const p of [monthly, yearly])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await Promise.all([paypal?.close(), stripe?.close()]);
});

const getSub = (id: number) => subscriptionOf(admin, id);
const change = (id: number, body: Record<string, unknown>) =>
  admin.post<{ status: string; prorationPaymentId: number | null; nextBillingDate: string }>(
    `/api/subscription/changePlan/${id}`,
    body,
  );
const runJob = (name: string) => ctx.app.jobs!.runJobNow(name, { tenantId: demoId });

const paymentRows = (subscriptionId: number) =>
  ctx.db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(asc(payments.id));

/** Everything a refused change must leave as it was. */
async function snapshot(subscriptionId: number) {
  return {
    subscription: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await paymentRows(subscriptionId),
    events: await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionEvents.id)),
    changes: await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, subscriptionId)),
    invoices: await ctx.db.select({ id: invoices.id }).from(invoices).orderBy(asc(invoices.id)),
  };
}

/** The public validate call of a payment link: the token view, or success false. */
async function validate(token: string) {
  const res = await ctx.api.get<{ paymentId: number }>(
    `/api/PaymentToken/validate?token=${encodeURIComponent(token)}`,
  );
  expect(res.status, res.raw).toBe(200);
  return res.body;
}

const linkIn = (text: string) => /\/payment\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

/** The renewal e-mails (transfer instructions) that name this causale. */
const mailsOf = async (causale: string) => (await ctx.outbox()).filter((m) => m.text.includes(causale));

/** The invoice numbers of the year: 1…n, no gap, no duplicate. */
async function expectNumbersWithoutGaps(year: number) {
  const rows = await ctx.db
    .select({ number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.tenantId, demoId), eq(invoices.year, year)))
    .orderBy(asc(invoices.number));
  expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => i + 1));
}

/**
 * A monthly subscription paid by transfer on `start`, and the renewal by transfer 7 days before its
 * billing date: the next month's payment (the old plan's), its e-mail and a live payment link.
 */
async function renewalAsked(start: string) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: company, planId: monthly.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  const billing = (await getSub(sub.id)).nextBillingDate;
  clock.set(new Date(Date.parse(billing) - 7 * 86_400_000).toISOString());
  await runJob(JOB_NAMES.renewalReminders);
  const renewal = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
  expect(renewal, 'the renewal payment').toBeDefined();
  expect(renewal).toMatchObject({ amountDueCents: 3538, method: 'bankTransfer', paidAt: null });
  const [mail] = await mailsOf(renewal.causale);
  const token = linkIn(mail!.text)!;
  expect(token, 'the e-mail carries a payment link').not.toBeNull();
  expect((await validate(token)).data).toMatchObject({ paymentId: renewal.id });
  return { sub, billing, renewal, token };
}

describe('monthly → yearly now, the next month’s renewal by transfer already asked', () => {
  it('withdraws that payment and its link in the change’s unit; no number used; the next renewal is the year’s, by the job', async () => {
    const { sub, billing, renewal, token } = await renewalAsked('2026-03-01T09:00:00.000Z');
    // Within the link's hour: it still answers until the change.
    clock.set('2026-03-25T08:30:00.000Z');
    const made = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'applied', nextBillingDate: '2027-03-25' });

    // The old plan's next month is gone: its row, its link (the page says the link is not valid),
    // its collection history; only the first month and the year's proration are left.
    const rows = await paymentRows(sub.id);
    expect(rows.map((p) => p.id)).toEqual([sub.payments[0]!.id, made.body.data!.prorationPaymentId]);
    expect(rows.find((p) => p.periodStart.toISOString() === billing)).toBeUndefined();
    const invalid = await validate(token);
    expect(invalid).toMatchObject({ success: false, data: null });
    expect(await ctx.db.select().from(paymentTokens).where(eq(paymentTokens.paymentId, renewal.id))).toEqual(
      [],
    );
    expect(
      await ctx.db.select().from(collectionEvents).where(eq(collectionEvents.paymentId, renewal.id)),
    ).toEqual([]);
    const [history] = await ctx.db
      .select({ reason: subscriptionEvents.reason })
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, sub.id), eq(subscriptionEvents.event, 'changePlan')));
    expect(history!.reason).toBe(
      'Piano cambiato da «Mensile rinnovo fatto» a «Annuale rinnovo fatto»; ritirato il pagamento del rinnovo dal 01/04/2026, non più dovuto',
    );

    // The old billing date passes: nothing to chase, the subscription stays live.
    clock.set('2026-04-02T09:00:00.000Z');
    await runJob(JOB_NAMES.expireSubscriptions);
    await runJob(JOB_NAMES.dunning);
    expect((await ctx.outbox()).filter((m) => m.text.includes(renewal.causale))).toHaveLength(1);
    expect((await getSub(sub.id)).subscriptionStatus).toBe(SubscriptionStatus.ActiveNoRenewal);

    // The year paid: March's TD01, the change's TD04 and the year's TD01 are numbered 1…n.
    const paid = await admin.post(`/api/collection/markPaid/${made.body.data!.prorationPaymentId}`, {
      amount: rows.at(-1)!.amountDueCents / 100,
      approvalDate: '2026-04-02T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(await ctx.db.select().from(invoices).where(eq(invoices.paymentId, renewal.id))).toEqual([]);
    await expectNumbersWithoutGaps(2026);

    // A week before the new billing date the normal job makes the next renewal: the yearly plan's.
    const next = (await getSub(sub.id)).nextBillingDate;
    expect(next).toBe('2027-03-25T08:30:00.000Z');
    clock.set('2027-03-18T08:30:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const year = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === next);
    expect(year, 'the next renewal payment').toBeDefined();
    expect(year).toMatchObject({ amountDueCents: 35380, method: 'bankTransfer', paidAt: null });
    expect(year!.periodEnd.toISOString()).toBe('2028-03-25T08:30:00.000Z');
    expect(await mailsOf(year!.causale)).toHaveLength(1);
  });
});

describe('an upgrade now within the recurrence, the next month’s renewal by transfer already asked', () => {
  it('withdraws the old plan’s renewal and its link; the job asks the new plan’s month; both paid and invoiced at their amounts', async () => {
    const plus = await addPlan(admin, 'Mensile plus rinnovo fatto', 49, 1);
    expect((await admin.post(`/api/plan/syncStripe/${plus.id}`)).status).toBe(200);
    const { sub, billing, renewal, token } = await renewalAsked('2026-06-01T09:00:00.000Z');
    clock.set('2026-06-25T09:00:00.000Z');
    const made = await change(sub.id, { planId: plus.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'applied', nextBillingDate: '2026-07-01' });
    // The month from 1 July at 35,38 € (the old plan's) is gone, its link with it.
    expect((await paymentRows(sub.id)).find((p) => p.id === renewal.id)).toBeUndefined();
    expect(await validate(token)).toMatchObject({ success: false, data: null });
    const [history] = await ctx.db
      .select({ reason: subscriptionEvents.reason })
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, sub.id), eq(subscriptionEvents.event, 'changePlan')));
    expect(history!.reason).toBe(
      'Piano cambiato da «Mensile rinnovo fatto» a «Mensile plus rinnovo fatto»; ritirato il pagamento del rinnovo dal 01/07/2026 chiesto col piano precedente: sarà chiesto di nuovo col piano nuovo',
    );
    // The renewal job's next run asks the month at the new plan's 59,78 € and mails its link.
    clock.set('2026-06-25T10:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const again = (await paymentRows(sub.id)).find(
      (p) => p.periodStart.toISOString() === billing && p.planChangeId === null,
    );
    expect(again, 'the month asked again').toBeDefined();
    expect(again).toMatchObject({ amountDueCents: 5978, paidAt: null });
    expect(again!.id).not.toBe(renewal.id);
    const [mail] = await mailsOf(again!.causale);
    expect(linkIn(mail!.text), 'its e-mail carries a payment link').not.toBeNull();

    // The proration and the month paid by transfer: each invoiced (not blocked), numbers 1…n.
    const proration = (await paymentRows(sub.id)).find((p) => p.id === made.body.data!.prorationPaymentId)!;
    for (const [p, day] of [
      [proration, '2026-06-26T09:00:00.000Z'],
      [again!, '2026-07-01T09:00:00.000Z'],
    ] as const) {
      clock.set(day);
      const paid = await admin.post(`/api/collection/markPaid/${p.id}`, {
        amount: p.amountDueCents / 100,
        approvalDate: day,
      });
      expect(paid.status, paid.raw).toBe(200);
    }
    const [td01] = await ctx.db
      .select({ taxableCents: invoices.taxableCents, totalCents: invoices.totalCents })
      .from(invoices)
      .where(and(eq(invoices.paymentId, again!.id), eq(invoices.documentType, 'TD01')));
    expect(td01, 'the new month is invoiced').toEqual({ taxableCents: 4900, totalCents: 5978 });
    await expectNumbersWithoutGaps(2026);
  });
});

describe('monthly → yearly at the renewal, the next month’s renewal by transfer already asked', () => {
  it('withdraws it when scheduled; the renewal job asks the year instead; the change applies on the date', async () => {
    const { sub, billing, renewal, token } = await renewalAsked('2026-05-01T08:00:00.000Z');
    clock.set('2026-05-25T08:30:00.000Z');
    const made = await change(sub.id, { planId: yearly.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'scheduled', nextBillingDate: '2026-06-01' });
    expect((await paymentRows(sub.id)).find((p) => p.id === renewal.id)).toBeUndefined();
    expect(await validate(token)).toMatchObject({ success: false, data: null });

    // The renewal job (its next run) makes the period's payment again: the yearly plan's, mailed.
    clock.set('2026-05-25T09:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const year = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing);
    expect(year, 'the renewal payment, made again').toBeDefined();
    expect(year).toMatchObject({ amountDueCents: 35380, method: 'bankTransfer', paidAt: null });
    expect(year!.periodEnd.toISOString()).toBe('2027-06-01T08:00:00.000Z');
    const mails = await mailsOf(year!.causale);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('353,80');
    // Once: a second run makes nothing more.
    await runJob(JOB_NAMES.renewalReminders);
    expect(await paymentRows(sub.id)).toHaveLength(2);

    // On the date the change applies; the year paid moves the billing date a year on.
    clock.set('2026-06-01T09:00:00.000Z');
    await runJob(JOB_NAMES.planChanges);
    expect(await getSub(sub.id)).toMatchObject({ planID: yearly.id, amountDue: 353.8 });
    const paid = await admin.post(`/api/collection/markPaid/${year!.id}`, {
      amount: 353.8,
      approvalDate: '2026-06-01T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    expect((await getSub(sub.id)).nextBillingDate).toBe('2027-06-01T08:00:00.000Z');
    expect(await ctx.db.select().from(invoices).where(eq(invoices.paymentId, renewal.id))).toEqual([]);
    await expectNumbersWithoutGaps(2026);
  });
});

describe('monthly → yearly on a chosen day, the renewal asked meanwhile', () => {
  it('the plan-changes job withdraws that payment when it applies the change on its day', async () => {
    clock.set('2026-11-02T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: monthly.id },
      '2026-11-02T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    const billing = (await getSub(sub.id)).nextBillingDate;
    clock.set('2026-11-10T09:00:00.000Z');
    const made = await change(sub.id, { planId: yearly.id, when: '2026-11-28' });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'scheduled' });
    clock.set('2026-11-25T09:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const asked = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing);
    expect(asked, 'the renewal asked before the change’s day').toBeDefined();

    clock.set('2026-11-28T09:00:00.000Z');
    await runJob(JOB_NAMES.planChanges);
    const [applied] = await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, sub.id));
    expect(applied).toMatchObject({ status: 'applied' });
    const rows = await paymentRows(sub.id);
    expect(rows.find((p) => p.id === asked!.id)).toBeUndefined();
    expect(rows.map((p) => p.id)).toEqual([sub.payments[0]!.id, applied!.prorationPaymentId]);
    expect(await getSub(sub.id)).toMatchObject({
      planID: yearly.id,
      // The chosen day's start in Rome + 12 months.
      nextBillingDate: '2027-11-27T23:00:00.000Z',
    });
  });
});

describe('the renewal asked used the customer’s residual credit', () => {
  it('withdrawn at a change of recurrence, the credit goes back to the ledger and the year’s renewal sets it off', async () => {
    const base = await addPlan(admin, 'Mensile ridotto rinnovo', 19, 1);
    clock.set('2027-01-01T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: monthly.id },
      '2027-01-01T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    // A downgrade now: the unused days' credit exceeds the new days' charge: a residual credit.
    clock.set('2027-01-11T09:00:00.000Z');
    const down = await change(sub.id, { planId: base.id, when: 'now' });
    expect(down.status, down.raw).toBe(200);
    const ledger = () =>
      ctx.db
        .select({ amountCents: subscriptionCredits.amountCents, paymentId: subscriptionCredits.paymentId })
        .from(subscriptionCredits)
        .where(eq(subscriptionCredits.subscriptionId, sub.id))
        .orderBy(asc(subscriptionCredits.id));
    const [credit] = await ledger();
    expect(credit!.amountCents).toBeGreaterThan(0);
    expect(credit!.amountCents).toBeLessThan(2318);
    // The renewal asked a week before sets it off: it asks the rest of the month.
    const billing = (await getSub(sub.id)).nextBillingDate;
    clock.set('2027-01-25T09:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const asked = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
    expect(asked).toMatchObject({ amountDueCents: 2318 - credit!.amountCents, paidAt: null });
    expect(await ledger()).toEqual([
      { amountCents: credit!.amountCents, paymentId: null },
      { amountCents: -credit!.amountCents, paymentId: asked.id },
    ]);

    // Monthly → yearly at the renewal: the month withdrawn, its use of the credit with it.
    clock.set('2027-01-25T10:00:00.000Z');
    const made = await change(sub.id, { planId: yearly.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    expect((await paymentRows(sub.id)).find((p) => p.id === asked.id)).toBeUndefined();
    expect(await ledger()).toEqual([{ amountCents: credit!.amountCents, paymentId: null }]);
    // The job asks the year, the credit set off from it.
    clock.set('2027-01-25T11:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const year = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
    expect(year).toMatchObject({ amountDueCents: 35380 - credit!.amountCents, paidAt: null });
    expect(await ledger()).toEqual([
      { amountCents: credit!.amountCents, paymentId: null },
      { amountCents: -credit!.amountCents, paymentId: year.id },
    ]);
  });

  it('withdrawn by a pause, the credit goes back to the ledger (it was a database error)', async () => {
    const base = await addPlan(admin, 'Mensile ridotto pausa', 19, 1);
    expect((await admin.post(`/api/plan/syncStripe/${base.id}`)).status).toBe(200);
    clock.set('2027-04-01T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: monthly.id },
      '2027-04-01T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    clock.set('2027-04-11T09:00:00.000Z');
    const down = await change(sub.id, { planId: base.id, when: 'now' });
    expect(down.status, down.raw).toBe(200);
    const ledger = () =>
      ctx.db
        .select({ amountCents: subscriptionCredits.amountCents, paymentId: subscriptionCredits.paymentId })
        .from(subscriptionCredits)
        .where(eq(subscriptionCredits.subscriptionId, sub.id))
        .orderBy(asc(subscriptionCredits.id));
    const [credit] = await ledger();
    expect(credit!.amountCents).toBeGreaterThan(0);
    const billing = (await getSub(sub.id)).nextBillingDate;
    clock.set('2027-04-25T09:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const asked = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
    expect(await ledger()).toEqual([
      { amountCents: credit!.amountCents, paymentId: null },
      { amountCents: -credit!.amountCents, paymentId: asked.id },
    ]);
    // Its link's page is told the credit it sets off (the VAT line stays the whole month's).
    const [mail] = await mailsOf(asked.causale);
    const view = await validate(linkIn(mail!.text)!);
    expect(view.data).toMatchObject({
      paymentId: asked.id,
      amount: (2318 - credit!.amountCents) / 100,
      costBeforeVAT: 19,
      creditUsed: credit!.amountCents / 100,
    });

    const paused = await admin.post(`/api/subscription/pause/${sub.id}`, {
      periods: 1,
      entitlements: 'keep',
    });
    expect(paused.status, paused.raw).toBe(200);
    expect((await paymentRows(sub.id)).find((p) => p.id === asked.id)).toBeUndefined();
    expect(await ledger()).toEqual([{ amountCents: credit!.amountCents, paymentId: null }]);
    expect((await getSub(sub.id)).creditBalance).toBe(credit!.amountCents / 100);
  });
});

describe('a change at the renewal cancelled after the renewal was asked at its terms', () => {
  it('withdraws the year’s payment and its link; the renewal job asks the month again', async () => {
    clock.set('2026-10-01T08:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: monthly.id },
      '2026-10-01T08:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    const billing = (await getSub(sub.id)).nextBillingDate;
    clock.set('2026-10-20T08:00:00.000Z');
    const made = await change(sub.id, { planId: yearly.id, when: 'renewal' });
    expect(made.status, made.raw).toBe(200);
    // A week before, the renewal asks the year (the scheduled change's terms), with its link.
    clock.set(new Date(Date.parse(billing) - 7 * 86_400_000).toISOString());
    await runJob(JOB_NAMES.renewalReminders);
    const year = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing)!;
    expect(year).toMatchObject({ amountDueCents: 35380, paidAt: null });
    const token = linkIn((await mailsOf(year.causale))[0]!.text)!;
    expect((await validate(token)).data).toMatchObject({ paymentId: year.id });

    const canceled = await admin.post(`/api/subscription/cancelPlanChange/${sub.id}`);
    expect(canceled.status, canceled.raw).toBe(200);
    expect((await paymentRows(sub.id)).find((p) => p.id === year.id)).toBeUndefined();
    expect(await validate(token)).toMatchObject({ success: false, data: null });

    clock.set(new Date(Date.parse(billing) - 7 * 86_400_000 + 3_600_000).toISOString());
    await runJob(JOB_NAMES.renewalReminders);
    const month = (await paymentRows(sub.id)).find((p) => p.periodStart.toISOString() === billing);
    expect(month, 'the month asked again').toBeDefined();
    expect(month).toMatchObject({ amountDueCents: 3538, method: 'bankTransfer', paidAt: null });
    expect(month!.periodEnd.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(await mailsOf(month!.causale)).toHaveLength(1);
  });
});

describe('refused, nothing written', () => {
  it('a transfer recorded for the renewal payment: 409 now and at the renewal', async () => {
    const { sub, renewal, token } = await renewalAsked('2026-07-01T08:00:00.000Z');
    await ctx.db.insert(bankTransfers).values({
      tenantId: demoId,
      paymentId: renewal.id,
      amountCents: 1000,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    clock.set('2026-07-25T08:30:00.000Z');
    const before = await snapshot(sub.id);
    for (const when of ['now', 'renewal']) {
      const res = await change(sub.id, { planId: yearly.id, when });
      expect(res.status, res.raw).toBe(409);
      expect(res.body.message).toBe(
        'È già registrato un bonifico per il rinnovo dal 01/08/2026: il piano si può cambiare dopo averlo gestito (confermato o eliminato).',
      );
    }
    expect(await snapshot(sub.id)).toEqual(before);
    expect((await validate(token)).data).toMatchObject({ paymentId: renewal.id });
  });

  it('the renewal link’s payment used a credit Stripe’s balance already gave back: 409, Stripe not called', async () => {
    const cliente = await ctx.as('cliente', 'Demo Srl');
    const me = await userId(ctx, DEMO.cliente);
    const pro = await addPlan(admin, 'Pro rinnovo fatto', 49, 1);
    expect((await admin.post(`/api/plan/syncStripe/${pro.id}`)).status).toBe(200);
    // Paid by card at Stripe, its renewal turned off by the customer, then a downgrade now (a credit).
    clock.set('2027-02-01T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: me, planId: pro.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    expect(link.status, link.raw).toBe(200);
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    const providerId = stripe.completeSession(sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(confirmed.status, confirmed.raw).toBe(200);
    const signed = stripe.signWebhook(
      stripe.event('invoice.paid', stripe.checkoutInvoice(providerId)),
      STRIPE_WHSEC,
    );
    const hook = await ctx.app.inject({
      method: 'POST',
      url: `/api/webhooks/stripe/${demoId}`,
      headers: signed.headers,
      payload: signed.body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const stopped = await cliente.post(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, {
      reason: 'tooExpensive',
    });
    expect(stopped.status, stopped.raw).toBe(200);
    clock.set('2027-02-15T09:00:00.000Z');
    const down = await change(sub.id, { planId: monthly.id, when: 'now' });
    expect(down.status, down.raw).toBe(200);
    // The card renewal reminder's payment sets the credit off (Stripe's balance gives it back).
    clock.set('2027-02-22T09:00:00.000Z');
    await runJob(JOB_NAMES.renewalReminders);
    const asked = (await paymentRows(sub.id)).find(
      (p) => p.periodStart.toISOString() === '2027-03-01T09:00:00.000Z',
    )!;
    expect(asked.amountDueCents).toBeLessThan(3538);

    clock.set('2027-02-22T10:00:00.000Z');
    const before = await snapshot(sub.id);
    const updates = stripe.updates.length;
    const refused = await change(sub.id, { planId: yearly.id, when: 'renewal' });
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.message).toBe(
      'Il pagamento del rinnovo dal 01/03/2027 ha già usato il credito del cliente presso Stripe: il piano si può cambiare dopo averlo incassato.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    expect(stripe.updates).toHaveLength(updates);

    // A pause of that period: refused the same way (its credit would be counted twice).
    const pause = await admin.post(`/api/subscription/pause/${sub.id}`, { periods: 1, entitlements: 'keep' });
    expect(pause.status, pause.raw).toBe(409);
    expect(pause.body.message).toBe(
      'Il pagamento del prossimo periodo ha già usato il credito del cliente presso Stripe: sospendi l’incasso dopo averlo incassato.',
    );
    expect(await snapshot(sub.id)).toEqual(before);

    // The customer turning the card renewal back on: Stripe would charge the whole month and the
    // credit the link's payment used be lost: refused, Stripe not called.
    const resumed = await cliente.post(`/api/user/me/subscriptions/${sub.id}/resumeRenewal`);
    expect(resumed.status, resumed.raw).toBe(409);
    expect(resumed.body.message).toBe(
      'Il pagamento del rinnovo dal 01/03/2027 è già stato chiesto con un link e usa il tuo credito residuo: pagalo con quel link; il rinnovo automatico si potrà riattivare dopo.',
    );
    expect(await snapshot(sub.id)).toEqual(before);
    expect(stripe.updates).toHaveLength(updates);
  });

  it('the next month already paid: 409 now (it was a 500), the paid payment untouched', async () => {
    const { sub, renewal } = await renewalAsked('2026-09-01T08:00:00.000Z');
    clock.set('2026-09-25T09:00:00.000Z');
    const paid = await admin.post(`/api/collection/markPaid/${renewal.id}`, {
      amount: 35.38,
      approvalDate: '2026-09-25T08:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    clock.set('2026-09-27T08:00:00.000Z');
    const before = await snapshot(sub.id);
    const res = await change(sub.id, { planId: yearly.id, when: 'now' });
    expect(res.status, res.raw).toBe(409);
    expect(res.body.message).toBe(
      'Il rinnovo dal 01/10/2026 è già pagato: il piano si può cambiare alla scadenza di quel periodo («Al prossimo rinnovo»).',
    );
    expect(await snapshot(sub.id)).toEqual(before);
  });
});
