/**
 * 'Cambia piano' on a subscription PayPal charges (issue 30), through the real server with the
 * moved clock and the fake PayPal in its real mode (a revise waits for the buyer's approval):
 * - the revise's `approve` link is kept on the change, mailed to the customer once, shown on the
 *   customer's card and the Admin's GetById; PayPal's BILLING.SUBSCRIPTION.UPDATED (or the
 *   read-back on the customer's return) marks it approved once; the renewals then charge the new
 *   plan: each payment, PayPal's charge and the invoice's ImportoPagamento agree to the cent;
 * - a running coupon that stays on the new plan goes with the change: the coupon's own PayPal plan
 *   for the new plan's amounts (TRIAL = periods left, then the full price); a coupon not valid for
 *   the new plan: the plain plan, the full price;
 * - PayPal failing at the revise: 502, nothing changes.
 */
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  invoiceIssues,
  invoices,
  outbox,
  payments,
  planChanges,
  plans,
  providerWebhookEvents,
} from '../../../server/db/schema';
import { type FakePayPal } from '../../../server/providers/fake-paypal';
import { create } from '../helpers/entity-checks';
import { DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { addPlan, movableClock } from './helpers';
import { paypalCouponFixture } from './paypal-coupon-fixture';

const clock = movableClock('2026-01-15T09:00:00.000Z');
const WEBHOOK_ID = 'WH-PLAN-CHANGE-APPROVAL-01';
const paypal = paypalCouponFixture({
  clock,
  webhookId: WEBHOOK_ID,
  planName: 'Mensile PayPal cambio',
  prefix: 'PC',
});
let fake: FakePayPal;
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let plus: Plan;
let plusAtPayPal: string;
beforeAll(async () => {
  ({ fake, ctx, admin, cliente } = paypal.state);
  // The new plan: 39 € + 22 % = 47,58 € a month, synced at PayPal.
  plus = await addPlan(admin, 'Mensile PayPal plus', 39, 1, true);
  const synced = await admin.post(`/api/plan/syncPaypal/${plus.id}`);
  expect(synced.status, synced.raw).toBe(200);
  const [row] = await ctx.db.select({ id: plans.paypalPlanId }).from(plans).where(eq(plans.id, plus.id));
  plusAtPayPal = row!.id!;
  await create(admin, 'coupon', {
    code: 'PCSOLOBASE',
    percentOff: 20,
    duration: 'repeating',
    durationPeriods: 3,
    planIds: [paypal.state.monthly.id],
  });
}, 60_000);
const { getSub, deliver, paidWithPayPal, applyCoupon, invoicedCents, renewOn, customerCard, cents } = paypal;

type Approval = Subscription['paypalPlanChangeApproval'];
const changePlan = (id: number) =>
  admin.post<{ status: string; planChangeId: number; paypalApproveUrl?: string | null }>(
    `/api/subscription/changePlan/${id}`,
    {
      planId: plus.id,
      when: 'now',
    },
  );
const changesOf = (subscriptionId: number) =>
  ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, subscriptionId));

/** The period payments (not the proration's): Rinnova's amount, PayPal's charge, ImportoPagamento. */
async function periodLedger(subscriptionId: number, paypalId: string) {
  const rows = await ctx.db
    .select({ id: payments.id, due: payments.amountDueCents })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscriptionId), isNull(payments.planChangeId)))
    .orderBy(asc(payments.id));
  const charged = fake.charges.filter((c) => c.subscriptionId === paypalId).map((c) => cents(c.amount));
  const invoiced: number[] = [];
  for (const p of rows) invoiced.push(await invoicedCents(p.id));
  return { rinnova: rows.map((p) => p.due), charged, invoiced };
}

/** A coupon applied at PayPal and approved by the customer (redeemed). */
async function couponApproved(subscriptionId: number, paypalId: string, code: string) {
  const res = await applyCoupon(subscriptionId, code);
  expect(res.status, res.raw).toBe(200);
  expect((await deliver(fake.approveRevision(paypalId, clock.now()))).data.outcome).toBe('applied');
  expect((await getSub(subscriptionId)).coupon).toMatchObject({ code });
}

describe('Cambia piano on a subscription PayPal charges: the customer approves the revise', () => {
  it('the link kept, mailed once and shown; the UPDATED event confirms it once; renewals at the new price', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-01-15T09:00:00.000Z');
    const oldPlanAtPayPal = fake.subscriptions.get(paypalId)!.plan_id;
    clock.set('2026-01-20T10:00:00.000Z');
    const res = await changePlan(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'applied' });
    expect(res.body.message).toBe(
      'Piano cambiato: ora «Mensile PayPal plus». Su PayPal il nuovo piano vale solo dopo che il cliente lo approva: gli è stato inviato il link per e-mail e lo trova nella sua area clienti.',
    );
    // Revised at PayPal to the new plan, waiting for the buyer: PayPal still bills the old plan.
    expect(fake.revisions.at(-1)).toMatchObject({ subscriptionId: paypalId, planId: plusAtPayPal });
    expect(fake.subscriptions.get(paypalId)).toMatchObject({
      plan_id: oldPlanAtPayPal,
      pending_plan_id: plusAtPayPal,
    });
    const [change] = await changesOf(sub.id);
    expect(change).toMatchObject({
      paypalSubscriptionId: paypalId,
      paypalPlanId: plusAtPayPal,
      paypalAmountCents: 4758,
      paypalApprovedAt: null,
    });
    const approveUrl = change!.paypalApproveUrl!;
    expect(res.body.data!.paypalApproveUrl).toBe(approveUrl);
    expect(approveUrl).toContain(`/fake/revise-approve/${paypalId}`);
    expect(decodeURIComponent(approveUrl)).toContain(`/?paypalPlanChange=${sub.id}`);
    const expected: Approval = {
      planChangeId: change!.id,
      planName: 'Mensile PayPal plus',
      approveUrl,
      amount: 47.58,
      fullAmount: 47.58,
    };
    expect((await getSub(sub.id)).paypalPlanChangeApproval).toEqual(expected);
    expect((await customerCard(sub.id)).paypalPlanChangeApproval).toEqual(expected);
    const mails = (await ctx.outbox()).filter(
      (m) => m.to === DEMO.cliente && m.subject.includes('approva il nuovo piano su PayPal'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(approveUrl);
    expect(mails[0]!.text).toContain('Mensile PayPal plus');
    expect(mails[0]!.text).toContain('47,58');
    expect(mails[0]!.text).toContain(
      'Finché non lo approvi, PayPal continua ad addebitare il piano precedente.',
    );
    // The e-mail is the after-commit consumer's of the change's event: delivered again (a crash
    // before the row was marked), no second e-mail.
    const deliveries = () =>
      ctx.db
        .select()
        .from(outbox)
        .where(
          and(
            eq(outbox.kind, 'event'),
            sql`${outbox.payload}->>'consumer' = 'billing.paypalPlanChangeMail'`,
            sql`(${outbox.payload}->'payload'->>'subscriptionId')::int = ${sub.id}`,
          ),
        );
    const [delivery, ...more] = await deliveries();
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ sentAt: expect.any(Date), lastError: null });
    expect((await changesOf(sub.id))[0]!.paypalMailedAt).toEqual(clock.now());
    await ctx.db.update(outbox).set({ sentAt: null }).where(eq(outbox.id, delivery!.id));
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect((await deliveries())[0]!.sentAt).not.toBeNull();
    expect(
      (await ctx.outbox()).filter(
        (m) => m.to === DEMO.cliente && m.subject.includes('approva il nuovo piano su PayPal'),
      ),
    ).toHaveLength(1);

    // The buyer approves: PayPal's UPDATED event confirms it, once.
    const updated = fake.approveRevision(paypalId, clock.now());
    expect((await deliver(updated)).data.outcome).toBe('applied');
    expect((await deliver(updated)).data.outcome).toBe('duplicate');
    expect(
      (await deliver(fake.event('BILLING.SUBSCRIPTION.UPDATED', updated.resource as Record<string, unknown>)))
        .data.outcome,
    ).toBe('unchanged');
    const [approved] = await changesOf(sub.id);
    expect(approved!.paypalApprovedAt).toEqual(clock.now());
    expect((await getSub(sub.id)).paypalPlanChangeApproval).toBeNull();
    expect((await customerCard(sub.id)).paypalPlanChangeApproval).toBeNull();

    await renewOn(paypalId, ['2026-02-15', '2026-03-15']);
    const { rinnova, charged, invoiced } = await periodLedger(sub.id, paypalId);
    expect(charged).toEqual([3538, 4758, 4758]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });

  it('PayPal failing at the revise: 502, nothing changes; then the read-back on the customer’s return confirms once', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-04-07T09:00:00.000Z');
    clock.set('2026-04-10T10:00:00.000Z');
    const before = await getSub(sub.id);
    const revisionsBefore = fake.revisions.length;
    fake.failNext(`POST /v1/billing/subscriptions/${paypalId}/revise`, 500);
    const failed = await changePlan(sub.id);
    expect(failed.status, failed.raw).toBe(502);
    expect(failed.body.message).toBe(
      'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    fake.failNext(`POST /v1/billing/subscriptions/${paypalId}/revise`, 422);
    expect((await changePlan(sub.id)).status).toBe(502);
    expect(fake.revisions).toHaveLength(revisionsBefore);
    expect(fake.subscriptions.get(paypalId)!.pending_plan_id).toBeUndefined();
    expect(await changesOf(sub.id)).toEqual([]);
    expect(await getSub(sub.id)).toEqual(before);

    const ok = await changePlan(sub.id);
    expect(ok.status, ok.raw).toBe(200);
    const check = () =>
      cliente.post<{ approved: boolean }>(`/api/user/me/subscriptions/${sub.id}/paypalPlanChange`);
    // Back from PayPal without approving: nothing.
    expect((await check()).body.data).toEqual({ approved: false });
    expect((await customerCard(sub.id)).paypalPlanChangeApproval).toMatchObject({ amount: 47.58 });
    fake.approveRevision(paypalId, clock.now());
    expect((await check()).body.data).toEqual({ approved: true });
    expect((await check()).body.data).toEqual({ approved: false });
    expect((await customerCard(sub.id)).paypalPlanChangeApproval).toBeNull();
    // PayPal's webhook arriving after the read-back: the same news, nothing more.
    const late = fake.event('BILLING.SUBSCRIPTION.UPDATED', { ...fake.subscriptions.get(paypalId)! });
    expect((await deliver(late)).data.outcome).toBe('unchanged');
    // Another customer's subscription: 404.
    const foreign = await ctx.as('superadmin', await ctx.tenantId('Studio Rossi'));
    const list = await foreign.get<{ items: Subscription[] }>('/api/subscription/getAll', {
      query: { page: 1, pageSize: 1 },
    });
    const other = list.body.data!.items[0]!;
    const res = await cliente.post(`/api/user/me/subscriptions/${other.id}/paypalPlanChange`);
    expect(res.status, res.raw).toBe(404);
  });
});

describe('a PayPal renewal of another amount than Rinnova asks', () => {
  it('never approved: PayPal charges the old plan; the payment records the money taken, its invoice is blocked, the Admin is told', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-02-03T09:00:00.000Z');
    clock.set('2026-02-05T10:00:00.000Z');
    expect((await changePlan(sub.id)).status).toBe(200);
    clock.set('2026-03-03T09:05:00.000Z');
    const { event } = fake.renew(paypalId, clock.now());
    expect((await deliver(event)).data.outcome).toBe('applied');
    const told =
      'PayPal ha addebitato 35,38 € invece di 47,58 € per il rinnovo dal 03/03/2026 (per esempio il cliente non ha ancora approvato su PayPal il nuovo piano)';
    // The provider events' detail (the Admin's 'Eventi dei fornitori') says it.
    const [received] = await ctx.db
      .select({ detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, String(event.id)));
    const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
    expect(plain(received!.detail)).toContain(told);
    const [renewal] = await ctx.db
      .select({ id: payments.id, due: payments.amountDueCents, paidAt: payments.paidAt })
      .from(payments)
      .where(and(eq(payments.subscriptionId, sub.id), isNull(payments.planChangeId)))
      .orderBy(desc(payments.id))
      .limit(1);
    expect(renewal).toMatchObject({ due: 3538 });
    expect(renewal!.paidAt).not.toBeNull();
    // No invoice states an ImportoPagamento PayPal did not take: blocked by the amount check.
    expect(
      await ctx.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.paymentId, renewal!.id), eq(invoices.documentType, 'TD01'))),
    ).toEqual([]);
    const [issue] = await ctx.db
      .select({ messages: invoiceIssues.messages })
      .from(invoiceIssues)
      .where(eq(invoiceIssues.paymentId, renewal!.id));
    expect(JSON.stringify(issue?.messages)).toContain('non corrisponde al prezzo concordato');
    const history = (await getSub(sub.id)).history ?? [];
    expect(history.some((h) => plain(h.reason).includes(told))).toBe(true);
    // Approved later: the next renewal is the new plan's, charged, paid and invoiced alike.
    expect((await deliver(fake.approveRevision(paypalId, clock.now()))).data.outcome).toBe('applied');
    await renewOn(paypalId, ['2026-04-03']);
    const last = fake.charges.filter((c) => c.subscriptionId === paypalId).at(-1)!;
    expect(cents(last.amount)).toBe(4758);
    const [next] = await ctx.db
      .select({ id: payments.id, due: payments.amountDueCents })
      .from(payments)
      .where(and(eq(payments.subscriptionId, sub.id), isNull(payments.planChangeId)))
      .orderBy(desc(payments.id))
      .limit(1);
    expect(next!.due).toBe(4758);
    expect(await invoicedCents(next!.id)).toBe(4758);
  });
});

describe('a PayPal retry of another amount than the overdue payment asks', () => {
  it('never approved, the first charge failed: the retry of the old price pays it as taken, no invoice, told', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-03-09T09:00:00.000Z');
    clock.set('2026-03-10T10:00:00.000Z');
    expect((await changePlan(sub.id)).status).toBe(200);
    // PayPal fails the period's charge at the billing date: the payment (47,58) is overdue.
    clock.set('2026-04-09T09:05:00.000Z');
    const failed = fake.event('BILLING.SUBSCRIPTION.PAYMENT.FAILED', {
      id: paypalId,
      status: 'ACTIVE',
      billing_info: { failed_payments_count: 1 },
    });
    expect((await deliver(failed)).data.outcome).toBe('applied');
    const overdue = async () =>
      (
        await ctx.db
          .select({ id: payments.id, due: payments.amountDueCents, paidAt: payments.paidAt })
          .from(payments)
          .where(and(eq(payments.subscriptionId, sub.id), isNull(payments.planChangeId)))
          .orderBy(desc(payments.id))
          .limit(1)
      )[0]!;
    const asked = await overdue();
    expect(asked).toMatchObject({ due: 4758, paidAt: null });
    // PayPal's retry two days later charges the old plan's price.
    clock.set('2026-04-11T09:05:00.000Z');
    const { event } = fake.renew(paypalId, clock.now());
    expect((await deliver(event)).data.outcome).toBe('applied');
    const paid = await overdue();
    expect(paid).toMatchObject({ id: asked.id, due: 3538 });
    expect(paid.paidAt).not.toBeNull();
    expect(
      await ctx.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.paymentId, paid.id), eq(invoices.documentType, 'TD01'))),
    ).toEqual([]);
    const [received] = await ctx.db
      .select({ detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventId, String(event.id)));
    expect((received!.detail ?? '').replace(/\s/g, ' ')).toContain(
      `pagamento in ritardo ${paid.id} incassato (PayPal ha addebitato 35.38); PayPal ha addebitato 35,38 € invece di 47,58 € per il rinnovo dal 09/04/2026`,
    );
  });
});

describe('a running coupon at the plan change', () => {
  it('stays on the new plan: the coupon’s own PayPal plan for the new amounts; PayPal, Rinnova and the invoices agree', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-05-15T09:00:00.000Z');
    clock.set('2026-05-18T10:00:00.000Z');
    await couponApproved(sub.id, paypalId, 'PCTRIMESTRE');
    await renewOn(paypalId, ['2026-06-15']);
    expect((await getSub(sub.id)).coupon).toMatchObject({ periodsLeft: 2 });
    clock.set('2026-06-20T10:00:00.000Z');
    const plansBefore = fake.plans.size;
    const res = await changePlan(sub.id);
    expect(res.status, res.raw).toBe(200);
    const revision = fake.revisions.at(-1)!;
    expect(revision.subscriptionId).toBe(paypalId);
    expect(revision.planId).not.toBe(plusAtPayPal);
    // 20 % of 39 € = 31,20 € + 22 % = 38,06 € for the 2 periods left, then 47,58 €.
    expect(fake.plans.get(revision.planId)!.cycles).toEqual([
      { tenure: 'TRIAL', totalCycles: 2, price: '38.06' },
      { tenure: 'REGULAR', totalCycles: 0, price: '47.58' },
    ]);
    expect(fake.plans.size).toBe(plansBefore + 1);
    expect(await getSub(sub.id)).toMatchObject({ amountDue: 38.06, coupon: { periodsLeft: 2 } });
    expect((await customerCard(sub.id)).paypalPlanChangeApproval).toMatchObject({
      amount: 38.06,
      fullAmount: 47.58,
    });
    const mail = (await ctx.outbox()).filter(
      (m) => m.to === DEMO.cliente && m.subject.includes('approva il nuovo piano su PayPal'),
    );
    expect(mail.at(-1)!.text).toContain('38,06');
    expect((await deliver(fake.approveRevision(paypalId, clock.now()))).data.outcome).toBe('applied');

    await renewOn(paypalId, ['2026-07-15', '2026-08-15', '2026-09-15']);
    const { rinnova, charged, invoiced } = await periodLedger(sub.id, paypalId);
    expect(charged).toEqual([3538, 2830, 3806, 3806, 4758]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });

  it('not valid for the new plan: ended, the plain plan at the full price', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-10-05T09:00:00.000Z');
    clock.set('2026-10-06T10:00:00.000Z');
    await couponApproved(sub.id, paypalId, 'PCSOLOBASE');
    clock.set('2026-10-08T10:00:00.000Z');
    const res = await changePlan(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(fake.revisions.at(-1)).toMatchObject({ subscriptionId: paypalId, planId: plusAtPayPal });
    expect(await getSub(sub.id)).toMatchObject({ amountDue: 47.58 });
    expect((await deliver(fake.approveRevision(paypalId, clock.now()))).data.outcome).toBe('applied');
    await renewOn(paypalId, ['2026-11-05', '2026-12-05']);
    const { rinnova, charged, invoiced } = await periodLedger(sub.id, paypalId);
    expect(charged).toEqual([3538, 4758, 4758]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });
});
