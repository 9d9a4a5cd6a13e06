/**
 * 'Hai un codice sconto?' on the plan widget (issue 30), on the real server with the moved clock
 * and the fake Stripe: `POST api/subscription/subscribe {…, couponCode}` checks the code with the
 * rules of subscription Create (400 on `couponCode` in Italian, nothing written, no e-mail); a good
 * code is kept on the request, and the confirmation applies it to the payment link it makes, so
 * the payment page (`PaymentToken/validate`) shows the discount; the coupon is redeemed once,
 * whatever the link is opened again. A coupon used up or expired between the request and the
 * confirmation leaves the full price, and the confirmation's answer says why (`coupon.error`).
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponMessages } from '../../../contract/messages';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import { coupons, widgetRequests } from '../../../server/db/schema';
import type { OutboxEntry } from '../../../server/mail/mailer';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { movableClock, pointStripeAt, addPlan } from './helpers';

const clock = movableClock('2026-04-14T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let monthly: Plan;
let other: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: clock.now });
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url });
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  monthly = await plan('Mensile widget coupon', 29);
  other = await plan('Altro widget coupon', 10);
  for (const p of [monthly, other])
    expect((await admin.post(`/api/plan/syncStripe/${p.id}`)).status).toBe(200);
  await create(admin, 'coupon', { code: 'WIDGET10', percentOff: 10, duration: 'once' });
  await create(admin, 'coupon', {
    code: 'SOLOALTRO',
    percentOff: 10,
    duration: 'once',
    planIds: [other.id],
  });
  await create(admin, 'coupon', {
    code: 'SCADUTO',
    percentOff: 30,
    duration: 'once',
    expiresAt: '2026-01-31',
  });
  await create(admin, 'coupon', { code: 'ULTIMO', amountOff: 3, duration: 'once', maxRedemptions: 1 });
  await create(admin, 'coupon', {
    code: 'MEZZANOTTE',
    percentOff: 20,
    duration: 'once',
    expiresAt: '2026-04-14',
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const subscribe = (body: unknown) =>
  ctx.api.post<{ confirmationSent: boolean }>('/api/subscription/subscribe', body);
const confirm = (token: string) =>
  ctx.api.post<{
    paymentUrl: string;
    result: string;
    trialEndsAt: string | null;
    amount: number;
    coupon: { code: string; error: string | null } | null;
  }>('/api/subscription/subscribe/confirm', { token });
const requestsOf = (email: string) =>
  ctx.db.select().from(widgetRequests).where(eq(widgetRequests.email, email)).orderBy(asc(widgetRequests.id));
const timesRedeemed = async (code: string) =>
  (await ctx.db.select({ n: coupons.timesRedeemed }).from(coupons).where(eq(coupons.code, code)))[0]!.n;

function tokenIn(mail: OutboxEntry | undefined): string {
  const match = /\/widget\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in ${JSON.stringify(mail)}`);
  return match[1];
}

async function requestLink(body: Record<string, unknown>): Promise<string> {
  const before = (await ctx.outbox()).length;
  const res = await subscribe(body);
  expect(res.status, res.raw).toBe(200);
  const sent = (await ctx.outbox()).slice(before);
  expect(sent).toHaveLength(1);
  return tokenIn(sent[0]);
}

const viewOf = async (paymentUrl: string) => {
  const token = new URL(paymentUrl).searchParams.get('token')!;
  const res = await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', { query: { token } });
  expect(res.status, res.raw).toBe(200);
  return res.body.data!;
};

describe('the widget’s coupon code', () => {
  it('a wrong code is a 400 on couponCode in Italian, as on Create; nothing written, no e-mail', async () => {
    const cases: [string, string, number][] = [
      ['NONESISTE', couponMessages.invalid, monthly.id],
      ['SCADUTO', couponMessages.expired, monthly.id],
      ['SOLOALTRO', couponMessages.notForPlan, monthly.id],
      ['x'.repeat(41), couponMessages.invalid, monthly.id],
    ];
    for (const [couponCode, message, planId] of cases) {
      const email = `errore.${couponCode.length}.${couponCode.slice(0, 5).toLowerCase()}@example.it`;
      const before = (await ctx.outbox()).length;
      const res = await subscribe({ planId, email, couponCode });
      expect(res.status, res.raw).toBe(400);
      expect(res.body.errors).toEqual([`couponCode: ${message}`]);
      expect(await requestsOf(email)).toEqual([]);
      expect((await ctx.outbox()).length).toBe(before);
    }
  });

  it('a good code (any case) is applied to the confirmed link: the payment page shows the discount; once', async () => {
    const email = 'sconto.widget@example.it';
    const token = await requestLink({ planId: monthly.id, email, couponCode: ' widget10 ' });
    expect((await requestsOf(email))[0]).toMatchObject({ couponCode: 'WIDGET10' });
    expect(await timesRedeemed('WIDGET10')).toBe(0);

    const done = await confirm(token);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      result: 'created',
      trialEndsAt: null,
      amount: 31.84,
      coupon: { code: 'WIDGET10', error: null },
    });
    const view = await viewOf(done.body.data!.paymentUrl);
    // 29,00 + 22 % = 35,38; 10 % off the net before VAT: 26,10 + 22 % = 31,84.
    expect(view.coupon).toMatchObject({ code: 'WIDGET10', fullAmount: 35.38, amount: 31.84, applied: true });
    expect(view.amount).toBe(31.84);
    expect(await timesRedeemed('WIDGET10')).toBe(1);

    // Opening the link again: the same page, nothing redeemed again.
    const again = await confirm(token);
    expect(again.body.data).toEqual({
      paymentUrl: done.body.data!.paymentUrl,
      result: 'replayed',
      trialEndsAt: null,
      amount: 31.84,
      coupon: { code: 'WIDGET10', error: null },
    });
    expect(await timesRedeemed('WIDGET10')).toBe(1);
  });

  it('without a code, as before: the full price and the field left to the payment page', async () => {
    const token = await requestLink({ planId: monthly.id, email: 'senza.sconto@example.it', couponCode: '' });
    const done = await confirm(token);
    expect(done.body.data).toMatchObject({ amount: 35.38, coupon: null });
    const view = await viewOf(done.body.data!.paymentUrl);
    expect(view.coupon).toBeNull();
    expect(view.amount).toBe(35.38);
  });

  it('a coupon used up before the confirmation leaves the full price; the subscription is still made', async () => {
    const first = await requestLink({ planId: monthly.id, email: 'primo@example.it', couponCode: 'ULTIMO' });
    const second = await requestLink({
      planId: monthly.id,
      email: 'secondo@example.it',
      couponCode: 'ULTIMO',
    });
    const won = await confirm(first);
    // 29,00 − 3,00 = 26,00 + 22 % = 31,72.
    expect(won.body.data).toMatchObject({ amount: 31.72, coupon: { code: 'ULTIMO', error: null } });
    expect((await viewOf(won.body.data!.paymentUrl)).coupon).toMatchObject({ code: 'ULTIMO' });
    const lost = await confirm(second);
    expect(lost.status, lost.raw).toBe(200);
    // Told, with Create's field error, and the full price: nothing else asked or redeemed.
    expect(lost.body.data).toMatchObject({
      result: 'created',
      amount: 35.38,
      coupon: { code: 'ULTIMO', error: couponMessages.exhausted },
    });
    const view = await viewOf(lost.body.data!.paymentUrl);
    expect(view.coupon).toBeNull();
    expect(view.amount).toBe(35.38);
    expect(await timesRedeemed('ULTIMO')).toBe(1);

    // Opened again: the same answer, still nothing redeemed; the winner's link still says applied.
    const lostAgain = await confirm(second);
    expect(lostAgain.body.data).toEqual({ ...lost.body.data!, result: 'replayed' });
    const wonAgain = await confirm(first);
    expect(wonAgain.body.data).toEqual({ ...won.body.data!, result: 'replayed' });
    expect(await timesRedeemed('ULTIMO')).toBe(1);
  });

  it('a coupon expired between the request and the confirmation: told «Coupon scaduto», full price', async () => {
    clock.set('2026-04-14T21:40:00.000Z'); // 23:40 in Rome, the coupon's last day
    try {
      const token = await requestLink({
        planId: monthly.id,
        email: 'mezzanotte@example.it',
        couponCode: 'MEZZANOTTE',
      });
      clock.set('2026-04-14T22:10:00.000Z'); // 00:10 in Rome, the next day; the link still valid
      const done = await confirm(token);
      expect(done.status, done.raw).toBe(200);
      expect(done.body.data).toMatchObject({
        result: 'created',
        amount: 35.38,
        coupon: { code: 'MEZZANOTTE', error: couponMessages.expired },
      });
      expect((await viewOf(done.body.data!.paymentUrl)).amount).toBe(35.38);
      expect(await timesRedeemed('MEZZANOTTE')).toBe(0);
    } finally {
      clock.set('2026-04-14T08:00:00.000Z');
    }
  });
});
