/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30), what follows the application, through
 * the real server with the moved clock and the fake PayPal in its real mode (a revise waits for the
 * buyer's approval):
 * - unapproved for 30 days, the application expires (the paypal-coupon-expiry job, once): nothing
 *   redeemed, no approval link for the customer or the Admin, and the Admin may apply again;
 * - approved at PayPal all the same after it expired (an old e-mail's link): PayPal charges the
 *   discounted plan, so Rinnova redeems it once and asks what PayPal takes;
 * - the approval e-mail is the after-commit consumer's of the application's domain event, once
 *   even when the outbox delivers the event again;
 * - the customer's cards read their coupons and approvals in a fixed number of queries.
 */
import type { Logger } from 'drizzle-orm';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import { outbox, paypalCouponRevisions } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { type FakePayPal } from '../../../server/providers/fake-paypal';
import { DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { movableClock } from './helpers';
import { paypalCouponFixture } from './paypal-coupon-fixture';

/** The statements the server sends while `recording` (the batched reads of the customer's cards). */
let recording = false;
const recorded: string[] = [];
const logger: Logger = {
  logQuery(query) {
    if (recording) recorded.push(query);
  },
};

const clock = movableClock('2026-01-15T09:00:00.000Z');
const WEBHOOK_ID = 'WH-COUPON-EXPIRY-01';
const paypal = paypalCouponFixture({
  clock,
  webhookId: WEBHOOK_ID,
  planName: 'Mensile PayPal scadenza',
  prefix: 'XP',
  logger,
});
let fake: FakePayPal;
let ctx: TestContext;
let cliente: ApiClient;
let demoId: number;
beforeAll(() => {
  ({ fake, ctx, cliente, demoId } = paypal.state);
});
const {
  getSub,
  deliver,
  paidWithPayPal,
  applyCoupon,
  redemptionsOf,
  timesRedeemed,
  ledger,
  renewOn,
  customerCard,
} = paypal;

const revisionsOf = (subscriptionId: number) =>
  ctx.db
    .select()
    .from(paypalCouponRevisions)
    .where(eq(paypalCouponRevisions.subscriptionId, subscriptionId))
    .orderBy(paypalCouponRevisions.id);

const approvalMails = async () =>
  (await ctx.outbox()).filter(
    (m) => m.to === DEMO.cliente && m.subject.includes('approva lo sconto su PayPal'),
  );

/** The paypal-coupon-expiry job for Demo Srl: how many applications it expired. */
async function expiryJob(): Promise<number> {
  const done = await ctx.app.jobs!.runJobNow(JOB_NAMES.paypalCouponExpiry, { tenantId: demoId });
  const mine = done.find(
    (j) => j.name === JOB_NAMES.paypalCouponExpiry && Number(j.data.tenantId) === demoId,
  );
  expect(mine?.outcome, JSON.stringify(done)).toBe('succeeded');
  return Number((mine!.output as { expired: number }).expired);
}

describe('a PayPal coupon application unapproved at its deadline', () => {
  it('expires after 30 days (the job, once): nothing redeemed, no approval link, the Admin may apply again', async () => {
    const { sub } = await paidWithPayPal('2027-01-11T09:00:00.000Z');
    clock.set('2027-01-12T10:00:00.000Z');
    const used = await timesRedeemed('XPTRIMESTRE');
    const res = await applyCoupon(sub.id, 'XPTRIMESTRE');
    expect(res.status, res.raw).toBe(200);
    const approveUrl = res.body.data!.approveUrl!;
    expect(approveUrl).toBeTruthy();
    expect((await revisionsOf(sub.id)).map((r) => [r.status, r.expiresAt.toISOString()])).toEqual([
      ['pending', '2027-02-11T10:00:00.000Z'],
    ]);
    // The day before its deadline: still waiting, for the customer and the Admin; the job expires nothing.
    clock.set('2027-02-10T10:00:00.000Z');
    expect(await expiryJob()).toBe(0);
    const waiting = { approveUrl, expiresAt: '2027-02-11T10:00:00.000Z' };
    expect((await customerCard(sub.id)).paypalCouponApproval).toMatchObject(waiting);
    expect((await getSub(sub.id)).paypalCouponApproval).toMatchObject(waiting);

    // Past it: the job expires it, once.
    clock.set('2027-02-11T10:11:00.000Z');
    expect(await expiryJob()).toBe(1);
    expect(await expiryJob()).toBe(0);
    expect((await revisionsOf(sub.id)).map((r) => r.status)).toEqual(['expired']);
    expect((await customerCard(sub.id)).paypalCouponApproval).toBeNull();
    expect(await getSub(sub.id)).toMatchObject({
      paypalCouponApproval: null,
      coupon: null,
      amountDue: 35.38,
    });
    expect(await redemptionsOf(sub.id)).toEqual([]);
    expect(await timesRedeemed('XPTRIMESTRE')).toBe(used);
    // The customer back from PayPal without approving: nothing.
    const check = () =>
      cliente.post<{ redeemed: boolean }>(`/api/user/me/subscriptions/${sub.id}/paypalCoupon`);
    expect((await check()).body.data).toEqual({ redeemed: false });

    // The Admin applies a coupon again: a new application, a new e-mail.
    const mails = (await approvalMails()).length;
    const other = await applyCoupon(sub.id, 'XPUNA');
    expect(other.status, other.raw).toBe(200);
    expect((await customerCard(sub.id)).paypalCouponApproval).toMatchObject({ code: 'XPUNA' });
    expect(await approvalMails()).toHaveLength(mails + 1);
    // The expired coupon again: its application waits again, for 30 days from now, told once more.
    const same = await applyCoupon(sub.id, 'XPTRIMESTRE');
    expect(same.status, same.raw).toBe(200);
    expect((await revisionsOf(sub.id)).map((r) => [r.status, r.expiresAt.toISOString()])).toEqual([
      ['pending', '2027-03-13T10:11:00.000Z'],
      ['replaced', '2027-03-13T10:11:00.000Z'],
    ]);
    expect((await customerCard(sub.id)).paypalCouponApproval).toMatchObject({ code: 'XPTRIMESTRE' });
    expect(await approvalMails()).toHaveLength(mails + 2);
    expect(await redemptionsOf(sub.id)).toEqual([]);
  });

  it('approved at PayPal all the same after it expired: redeemed once, Rinnova asks what PayPal charges', async () => {
    const { sub, paypalId } = await paidWithPayPal('2027-03-02T09:00:00.000Z');
    const res = await applyCoupon(sub.id, 'XPTRIMESTRE');
    expect(res.status, res.raw).toBe(200);
    // Unapproved: the next renewal at full price, then the application expires.
    await renewOn(paypalId, ['2027-04-02']);
    expect(await expiryJob()).toBeGreaterThanOrEqual(1);
    expect((await revisionsOf(sub.id)).map((r) => r.status)).toEqual(['expired']);
    expect((await customerCard(sub.id)).paypalCouponApproval).toBeNull();
    // The customer opens the old e-mail's link and approves: PayPal now bills the coupon's plan.
    const used = await timesRedeemed('XPTRIMESTRE');
    clock.set('2027-04-03T18:00:00.000Z');
    const updated = fake.approveRevision(paypalId, clock.now());
    expect((await deliver(updated)).data.outcome).toBe('applied');
    expect((await deliver(updated)).data.outcome).toBe('duplicate');
    expect(
      (await deliver(fake.event('BILLING.SUBSCRIPTION.UPDATED', updated.resource as Record<string, unknown>)))
        .data.outcome,
    ).toBe('unchanged');
    const check = await cliente.post<{ redeemed: boolean }>(
      `/api/user/me/subscriptions/${sub.id}/paypalCoupon`,
    );
    expect(check.body.data).toEqual({ redeemed: false });
    // The job again: the redeemed application stays so.
    expect(await expiryJob()).toBe(0);
    expect((await revisionsOf(sub.id)).map((r) => r.status)).toEqual(['redeemed']);
    expect(await redemptionsOf(sub.id)).toHaveLength(1);
    expect(await timesRedeemed('XPTRIMESTRE')).toBe(used + 1);
    expect(await getSub(sub.id)).toMatchObject({
      amountDue: 28.3,
      coupon: { code: 'XPTRIMESTRE', periodsLeft: 3 },
      paypalCouponApproval: null,
    });

    await renewOn(paypalId, ['2027-05-02', '2027-06-02', '2027-07-02', '2027-08-02']);
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([3538, 3538, 2830, 2830, 2830, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
  });
});

describe('PayPal’s news of an expired application', () => {
  /** PayPal's BILLING.SUBSCRIPTION.UPDATED of `paypalId` billing `planId` (an old link approved). */
  const updatedOn = (paypalId: string, planId: string) =>
    fake.event('BILLING.SUBSCRIPTION.UPDATED', { ...fake.subscriptions.get(paypalId)!, plan_id: planId });

  it('approved while a later application waits: the expired one is redeemed, the later one replaced', async () => {
    const { sub, paypalId } = await paidWithPayPal('2027-09-01T09:00:00.000Z');
    expect((await applyCoupon(sub.id, 'XPUNA')).status).toBe(200);
    clock.set('2027-10-01T09:30:00.000Z');
    expect(await expiryJob()).toBeGreaterThanOrEqual(1);
    expect((await applyCoupon(sub.id, 'XPTRIMESTRE')).status).toBe(200);
    const [first, second] = await revisionsOf(sub.id);
    expect([first!.status, second!.status]).toEqual(['expired', 'pending']);
    const used = await timesRedeemed('XPUNA');
    expect((await deliver(updatedOn(paypalId, first!.paypalPlanId))).data.outcome).toBe('applied');
    expect((await deliver(updatedOn(paypalId, first!.paypalPlanId))).data.outcome).toBe('unchanged');
    expect((await revisionsOf(sub.id)).map((r) => r.status)).toEqual(['redeemed', 'replaced']);
    expect(await redemptionsOf(sub.id)).toHaveLength(1);
    expect(await timesRedeemed('XPUNA')).toBe(used + 1);
    expect(await getSub(sub.id)).toMatchObject({
      amountDue: 31.84,
      coupon: { code: 'XPUNA' },
      paypalCouponApproval: null,
    });
  });

  it('approved after another coupon was redeemed: nothing more, the expired one never waits again', async () => {
    const { sub, paypalId } = await paidWithPayPal('2027-09-02T09:00:00.000Z');
    expect((await applyCoupon(sub.id, 'XPUNA')).status).toBe(200);
    clock.set('2027-10-02T09:30:00.000Z');
    expect(await expiryJob()).toBeGreaterThanOrEqual(1);
    expect((await applyCoupon(sub.id, 'XPTRIMESTRE')).status).toBe(200);
    expect((await deliver(fake.approveRevision(paypalId, clock.now()))).data.outcome).toBe('applied');
    const [first] = await revisionsOf(sub.id);
    const used = await timesRedeemed('XPUNA');
    expect((await deliver(updatedOn(paypalId, first!.paypalPlanId))).data.outcome).toBe('unchanged');
    expect((await revisionsOf(sub.id)).map((r) => r.status)).toEqual(['replaced', 'redeemed']);
    expect(await expiryJob()).toBe(0);
    expect(await redemptionsOf(sub.id)).toHaveLength(1);
    expect(await timesRedeemed('XPUNA')).toBe(used);
    expect(await getSub(sub.id)).toMatchObject({
      amountDue: 28.3,
      coupon: { code: 'XPTRIMESTRE' },
      paypalCouponApproval: null,
    });
  });
});

describe('the approval e-mail', () => {
  it('is written by the consumer of the application’s domain event after commit, once even when delivered again', async () => {
    const { sub } = await paidWithPayPal('2027-09-06T09:00:00.000Z');
    const mails = (await approvalMails()).length;
    const res = await applyCoupon(sub.id, 'XPUNA');
    expect(res.status, res.raw).toBe(200);
    const approveUrl = res.body.data!.approveUrl!;
    const deliveries = () =>
      ctx.db
        .select()
        .from(outbox)
        .where(
          and(
            eq(outbox.kind, 'event'),
            sql`${outbox.payload}->>'consumer' = 'billing.paypalCouponMail'`,
            sql`(${outbox.payload}->'payload'->>'subscriptionId')::int = ${sub.id}`,
          ),
        );
    const [delivery, ...more] = await deliveries();
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ sentAt: expect.any(Date), lastError: null });
    expect(delivery!.payload).toMatchObject({ event: 'paypalCoupon.approvalRequested' });
    const sent = await approvalMails();
    expect(sent).toHaveLength(mails + 1);
    const mail = sent.at(-1)!;
    expect(mail.text).toContain('ti ha applicato il coupon XPUNA sull’abbonamento Mensile PayPal scadenza');
    expect(mail.text).toContain('per il prossimo periodo.');
    expect(mail.text).toContain(
      'Il tuo abbonamento si rinnova con PayPal: perché lo sconto valga devi approvarlo su PayPal da questo link. ' +
        'Finché non lo approvi, PayPal continua ad addebitare il prezzo pieno.',
    );
    expect(mail.text).toContain(`Approva lo sconto su PayPal: ${approveUrl}\n`);
    expect((await revisionsOf(sub.id))[0]!.mailedAt).toEqual(clock.now());

    // The outbox delivers the event again (a crash before the row was marked): no second e-mail.
    await ctx.db.update(outbox).set({ sentAt: null }).where(eq(outbox.id, delivery!.id));
    await ctx.app.jobs!.runJobNow('outbox-sweep', {});
    expect((await deliveries())[0]!.sentAt).not.toBeNull();
    expect(await approvalMails()).toHaveLength(mails + 1);
    // A second click: the same application, no event, no e-mail.
    expect((await applyCoupon(sub.id, 'XPUNA')).status).toBe(200);
    expect(await deliveries()).toHaveLength(1);
    expect(await approvalMails()).toHaveLength(mails + 1);
  });
});

describe('the customer’s cards', () => {
  async function cardsRead() {
    recorded.length = 0;
    recording = true;
    const res = await cliente.get<{ items: Subscription[] }>('/api/subscription/getAll', {
      query: { page: 1, pageSize: 50 },
    });
    recording = false;
    expect(res.status, res.raw).toBe(200);
    const touching = (table: string) => recorded.filter((q) => q.includes(`"${table}"`)).length;
    return {
      items: res.body.data!.items,
      queries: recorded.length,
      redemptions: touching('coupon_redemptions'),
      revisions: touching('paypal_coupon_revisions'),
    };
  }

  it('read their coupons and PayPal approvals in a fixed number of queries, the same as each GetById', async () => {
    // A card with a coupon in effect (approved) and one waiting for the approval.
    const a = await paidWithPayPal('2027-10-04T09:00:00.000Z');
    expect((await applyCoupon(a.sub.id, 'XPTRIMESTRE')).status).toBe(200);
    expect((await deliver(fake.approveRevision(a.paypalId, clock.now()))).data.outcome).toBe('applied');
    const b = await paidWithPayPal('2027-10-04T10:00:00.000Z');
    expect((await applyCoupon(b.sub.id, 'XPUNA')).status).toBe(200);
    const before = await cardsRead();
    expect(before.items.filter((s) => s.coupon).length).toBeGreaterThan(0);
    expect(before.items.filter((s) => s.paypalCouponApproval).length).toBeGreaterThan(0);

    // Two cards more of each kind (the same days: every card's application still waits).
    for (const day of ['2027-10-04', '2027-10-05']) {
      const c = await paidWithPayPal(`${day}T11:00:00.000Z`);
      expect((await applyCoupon(c.sub.id, 'XPTRIMESTRE')).status).toBe(200);
      expect((await deliver(fake.approveRevision(c.paypalId, clock.now()))).data.outcome).toBe('applied');
      const d = await paidWithPayPal(`${day}T12:00:00.000Z`);
      expect((await applyCoupon(d.sub.id, 'XPUNA')).status).toBe(200);
    }
    const after = await cardsRead();
    expect(after.items).toHaveLength(before.items.length + 4);
    expect(after.items.filter((s) => s.coupon).length).toBe(before.items.filter((s) => s.coupon).length + 2);
    expect(after.items.filter((s) => s.paypalCouponApproval).length).toBe(
      before.items.filter((s) => s.paypalCouponApproval).length + 2,
    );
    expect([after.redemptions, after.revisions]).toEqual([1, 1]);
    expect(after.queries).toBe(before.queries);
    // The same answer as each subscription's own read.
    for (const item of after.items) {
      const one = await getSub(item.id);
      expect([item.id, item.coupon ?? null, item.paypalCouponApproval ?? null]).toEqual([
        one.id,
        one.coupon ?? null,
        one.paypalCouponApproval ?? null,
      ]);
    }
    expect(after.items.find((s) => s.id === a.sub.id)!.coupon).toMatchObject({
      code: 'XPTRIMESTRE',
      amount: 28.3,
      fullAmount: 35.38,
      periodsLeft: 3,
    });
    expect(after.items.find((s) => s.id === b.sub.id)!.paypalCouponApproval).toMatchObject({
      code: 'XPUNA',
      amount: 31.84,
      fullAmount: 35.38,
      periods: 1,
    });
  });
});
