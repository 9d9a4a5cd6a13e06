/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30), through the real server with the
 * moved clock and the fake PayPal in its real mode (a revise waits for the buyer's approval):
 * - the coupon's own PayPal plan is made and the subscription revised to it; the Admin is told the
 *   customer must approve it (the approve link in `data`), the customer sees the link in their
 *   area and gets it by e-mail; nothing is redeemed yet;
 * - PayPal's BILLING.SUBSCRIPTION.UPDATED on that plan redeems it once (a replay does nothing);
 *   the next renewals are discounted for the coupon's periods, then at full price: each payment,
 *   PayPal's charge and the invoice's ImportoPagamento agree to the cent;
 * - never approved: nothing redeemed, renewals at full price;
 * - PayPal failing at the plan or at the revise: 502, nothing changes;
 * - another tenant's subscription: 404.
 */
import { and, eq, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import { paypalCouponRevisions, subscriptions } from '../../../server/db/schema';
import { type FakePayPal } from '../../../server/providers/fake-paypal';
import { DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { movableClock } from './helpers';
import { paypalCouponFixture } from './paypal-coupon-fixture';

const clock = movableClock('2026-01-15T09:00:00.000Z');
const WEBHOOK_ID = 'WH-COUPON-REVISE-01';
const paypal = paypalCouponFixture({
  clock,
  webhookId: WEBHOOK_ID,
  planName: 'Mensile PayPal revise',
  prefix: 'RV',
});
let fake: FakePayPal;
let ctx: TestContext;
let cliente: ApiClient;
beforeAll(() => {
  ({ fake, ctx, cliente } = paypal.state);
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

describe('Applica coupon on a subscription PayPal charges', () => {
  it('revised at PayPal, approved by the customer: redeemed once, 3 discounted renewals, then full price', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-01-15T09:00:00.000Z');
    clock.set('2026-01-20T10:00:00.000Z');
    const res = await applyCoupon(sub.id, 'RVTRIMESTRE');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.message).toContain('il cliente lo approva su PayPal');
    expect(res.body.data).toMatchObject({ applied: false, code: 'RVTRIMESTRE', amount: 28.3 });
    const approveUrl = res.body.data!.approveUrl!;
    expect(approveUrl).toContain(`/fake/revise-approve/${paypalId}`);
    // The coupon's own plan (TRIAL 3 × 28,30 then 35,38), the subscription revised to it, pending.
    const revision = fake.revisions.at(-1)!;
    expect(revision.subscriptionId).toBe(paypalId);
    expect(fake.plans.get(revision.planId)!.cycles).toEqual([
      { tenure: 'TRIAL', totalCycles: 3, price: '28.30' },
      { tenure: 'REGULAR', totalCycles: 0, price: '35.38' },
    ]);
    expect(fake.subscriptions.get(paypalId)!.plan_id).not.toBe(revision.planId);
    // Nothing redeemed yet, the amount due is the full price.
    expect(await redemptionsOf(sub.id)).toEqual([]);
    expect(await getSub(sub.id)).toMatchObject({ amountDue: 35.38, coupon: null });
    // The same click again: no second plan, no second revise at PayPal.
    const plansBefore = fake.plans.size;
    const again = await applyCoupon(sub.id, 'RVTRIMESTRE');
    expect(again.status, again.raw).toBe(200);
    expect(fake.plans.size).toBe(plansBefore);
    expect(fake.revisions.filter((r) => r.subscriptionId === paypalId)).toHaveLength(1);
    // The customer's area shows the link; the e-mail carries it.
    expect((await customerCard(sub.id)).paypalCouponApproval).toMatchObject({
      code: 'RVTRIMESTRE',
      approveUrl,
      amount: 28.3,
      fullAmount: 35.38,
      periods: 3,
    });
    const mails = (await ctx.outbox()).filter(
      (m) => m.to === DEMO.cliente && m.subject.includes('approva lo sconto su PayPal'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(approveUrl);

    // The buyer approves on PayPal: its UPDATED event redeems the coupon, once.
    const used = await timesRedeemed('RVTRIMESTRE');
    const updated = fake.approveRevision(paypalId, clock.now());
    expect((await deliver(updated)).data.outcome).toBe('applied');
    expect((await deliver(updated)).data.outcome).toBe('duplicate');
    // The same news in another delivery (a new event id): nothing more.
    expect(
      (await deliver(fake.event('BILLING.SUBSCRIPTION.UPDATED', updated.resource as Record<string, unknown>)))
        .data.outcome,
    ).toBe('unchanged');
    expect(await redemptionsOf(sub.id)).toHaveLength(1);
    expect(await timesRedeemed('RVTRIMESTRE')).toBe(used + 1);
    expect((await customerCard(sub.id)).paypalCouponApproval).toBeNull();
    expect((await getSub(sub.id)).coupon).toMatchObject({ code: 'RVTRIMESTRE', periodsLeft: 3 });

    await renewOn(paypalId, ['2026-02-15', '2026-03-15', '2026-04-15', '2026-05-15']);
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([3538, 2830, 2830, 2830, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
    const [row] = await ctx.db
      .select({ due: subscriptions.amountDueCents })
      .from(subscriptions)
      .where(eq(subscriptions.id, sub.id));
    expect(row!.due).toBe(3538);
  });

  it('never approved: nothing redeemed, the renewals at full price', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-06-03T09:00:00.000Z');
    const res = await applyCoupon(sub.id, 'RVUNA');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data!.approveUrl).toBeTruthy();
    await renewOn(paypalId, ['2026-07-03', '2026-08-03']);
    expect(await redemptionsOf(sub.id)).toEqual([]);
    const { rinnova, charged, invoiced } = await ledger(sub.id, paypalId);
    expect(charged).toEqual([3538, 3538, 3538]);
    expect(rinnova).toEqual(charged);
    expect(invoiced).toEqual(charged);
    // An UPDATED event of another plan (not the coupon's) changes nothing.
    const other = fake.event('BILLING.SUBSCRIPTION.UPDATED', { ...fake.subscriptions.get(paypalId)! });
    expect((await deliver(other)).data.outcome).toBe('unchanged');
    expect(await redemptionsOf(sub.id)).toEqual([]);
  });

  it('PayPal failing at the plan or at the revise: 502, nothing changes; then the read-back on the customer’s return redeems it once', async () => {
    const { sub, paypalId } = await paidWithPayPal('2026-09-07T09:00:00.000Z');
    const pendingRows = () =>
      ctx.db
        .select()
        .from(paypalCouponRevisions)
        .where(and(eq(paypalCouponRevisions.subscriptionId, sub.id), ne(paypalCouponRevisions.status, 'x')));
    const before = await getSub(sub.id);
    fake.failNext('POST /v1/billing/plans', 500);
    const planFailed = await applyCoupon(sub.id, 'RVUNA');
    expect(planFailed.status, planFailed.raw).toBe(502);
    expect(planFailed.body.message).toBe(
      'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    fake.failNext(`POST /v1/billing/subscriptions/${paypalId}/revise`, 422);
    const reviseFailed = await applyCoupon(sub.id, 'RVUNA');
    expect(reviseFailed.status, reviseFailed.raw).toBe(502);
    expect(fake.subscriptions.get(paypalId)!.pending_plan_id).toBeUndefined();
    expect(await pendingRows()).toEqual([]);
    expect(await redemptionsOf(sub.id)).toEqual([]);
    expect(await getSub(sub.id)).toEqual(before);
    // Then it works: one plan (the same key as the failed revise's attempt).
    const ok = await applyCoupon(sub.id, 'RVUNA');
    expect(ok.status, ok.raw).toBe(200);
    expect(await pendingRows()).toHaveLength(1);
    // The customer back from PayPal before approving: nothing; after approving (the webhook not
    // yet delivered), the read-back redeems it, once.
    const check = () =>
      cliente.post<{ redeemed: boolean }>(`/api/user/me/subscriptions/${sub.id}/paypalCoupon`);
    expect((await check()).body.data).toEqual({ redeemed: false });
    expect(await redemptionsOf(sub.id)).toEqual([]);
    fake.approveRevision(paypalId, clock.now());
    expect((await check()).body.data).toEqual({ redeemed: true });
    expect((await check()).body.data).toEqual({ redeemed: false });
    expect(await redemptionsOf(sub.id)).toHaveLength(1);
    expect(await getSub(sub.id)).toMatchObject({ amountDue: 31.84, coupon: { code: 'RVUNA' } });
  });
});

describe('scope and validation', () => {
  it('the same 400 field errors; another tenant’s subscription 404', async () => {
    const { sub } = await paidWithPayPal('2026-10-05T09:00:00.000Z');
    const bad = await applyCoupon(sub.id, 'NONESISTE');
    expect(bad.status, bad.raw).toBe(400);
    expect(bad.body.errors).toEqual(['couponCode: Coupon non valido']);
    // A subscription of Studio Rossi, seen by its SuperAdmin: from Demo Srl's Admin, 404.
    const rossi = await ctx.as('superadmin', await ctx.tenantId('Studio Rossi'));
    const list = await rossi.get<{ items: Subscription[] }>('/api/subscription/getAll', {
      query: { page: 1, pageSize: 1 },
    });
    const foreign = list.body.data!.items[0]!;
    expect(foreign).toBeDefined();
    const res = await applyCoupon(foreign.id, 'RVUNA');
    expect(res.status, res.raw).toBe(404);
  });
});
