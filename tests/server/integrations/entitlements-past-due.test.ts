/**
 * Issue 29 through the entitlement API over HTTP (a tenant API key, the real app): a card
 * subscription whose Stripe renewal failed (the signed webhook of the fake Stripe) answers allowed
 * with `pastDue: true` and its `graceEndsOn` (YYYY-MM-DD) through the grace, its last day included
 * (Europe/Rome, late evening), not allowed the day after (moved clock, no job run needed), and
 * allowed with `pastDue: false` again once Stripe's retry is paid. Every answer keeps its
 * X-RateLimit-* headers.
 */
import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../../contract/integrations';
import type { Subscription } from '../../../contract/schemas/subscription';
import { addDays, romeDay } from '../../../server/modules/billing/collection.service';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import {
  createSubscription,
  customersWithoutLiveSubscription,
  giveIban,
  movableClock,
  planId,
  pointStripeAt,
} from '../billing/helpers';
import { client, createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';

const clock = movableClock('2026-01-31T10:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_test_secret';
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let withKey: ApiClient;
let demoId: number;
let basic: number;
let customer: { id: number; email: string };

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  expect((await admin.post(`/api/plan/syncStripe/${basic}`)).status).toBe(200);
  const key = await admin.post<{ secret: string }>('/api/apikey/create', {
    name: 'Backend',
    scopes: ['entitlements'],
  });
  expect(key.status, key.raw).toBe(200);
  withKey = client(ctx.app, { authorization: `Bearer ${key.body.data!.secret}` }, null);
  // A customer of Demo Srl with no live subscription: every entitlement answered is this test's.
  const free = (await customersWithoutLiveSubscription(ctx, demoId, 1))[0]!;
  customer = free;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const deliverStripe = async (event: Record<string, unknown>) => {
  const signed = stripe.signWebhook(event, STRIPE_WHSEC);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/stripe/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  return JSON.parse(res.body) as { data?: { outcome: string } };
};

const invoicePaid = (providerId: string, chargeId: string, at: Date) =>
  stripe.event('invoice.paid', {
    id: chargeId,
    object: 'invoice',
    amount_paid: 1208,
    currency: 'eur',
    status_transitions: { paid_at: Math.floor(at.getTime() / 1000) },
    parent: { type: 'subscription_details', subscription_details: { subscription: providerId } },
  });

/** hh:mm in Rome of a YYYY-MM-DD day, as the instant the clock is set to. */
const romeTime = (day: string, hour: number, minute: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, minute, 'Europe/Rome').getTime()).toISOString();
};

/** GET api/v1/entitlements and …/check for the Basic plan's first feature, with the rate headers. */
async function ask(feature: string | null) {
  const list = await withKey.get<{ customer: { id: number }; features: Entitlement[] }>(
    '/api/v1/entitlements',
    { query: { customerEmail: customer.email } },
  );
  expect(list.status, list.raw).toBe(200);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(list.headers[h], h).toMatch(/^\d+$/);
  const features = list.body.data!.features;
  const key = feature ?? features[0]?.key ?? '';
  const check = await withKey.get<{
    allowed: boolean;
    pastDue: boolean;
    graceEndsOn: string | null;
    until: string | null;
  }>('/api/v1/entitlements/check', { query: { customerEmail: customer.email, feature: key } });
  expect(check.status, check.raw).toBe(200);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(check.headers[h], h).toMatch(/^\d+$/);
  return { features, key, check: check.body.data! };
}

describe('entitlements over HTTP: a failed Stripe renewal', () => {
  it('answers pastDue with graceEndsOn through the grace (last day included), nothing the day after, pastDue false after a paid retry', async () => {
    // A Basic subscription paid by card on the payment page (fake Stripe Checkout).
    const sub = await createSubscription(admin, { userId: customer.id, planId: basic });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(res.status, res.raw).toBe(200);
    const sessionId = res.body.data!.sessionId;
    const providerId = stripe.completeSession(sessionId);
    const paid = await ctx.api.put('/api/Payment/stripe/confirm', { sessionId, tenantId: demoId });
    expect(paid.status, paid.raw).toBe(200);
    await deliverStripe(invoicePaid(providerId, `in_first_${sub.id}`, clock.now()));
    const active = (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
    expect(active.subscriptionStatus).toBe(1);

    const before = await ask(null);
    const feature = before.key;
    expect(feature).not.toBe('');
    expect(before.features.filter((f) => f.subscriptionId === sub.id)).not.toHaveLength(0);
    expect(before.check).toMatchObject({ allowed: true, pastDue: false, graceEndsOn: null });

    // Stripe fails the renewal on the next billing date.
    clock.set(new Date(Date.parse(active.nextBillingDate) + 3_600_000).toISOString());
    const failed = await deliverStripe(
      stripe.event('invoice.payment_failed', {
        id: `in_renew_${sub.id}`,
        object: 'invoice',
        attempt_count: 1,
        parent: { subscription_details: { subscription: providerId } },
      }),
    );
    expect(failed.data?.outcome).toBe('applied');
    const due = romeDay(new Date(active.nextBillingDate));
    const graceEndsOn = addDays(due, 14);
    expect(graceEndsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const during = await ask(feature);
    expect(during.check).toEqual({
      allowed: true,
      feature,
      until: active.nextBillingDate,
      planName: 'Basic',
      pastDue: true,
      graceEndsOn,
      paused: false,
      pausedUntil: null,
      trial: false,
      trialEndsAt: null,
    });
    expect(during.features.find((f) => f.key === feature)).toMatchObject({
      subscriptionId: sub.id,
      pastDue: true,
      graceEndsOn,
    });

    // The grace's last day, late in the evening in Rome: still allowed, still past due.
    clock.set(romeTime(graceEndsOn, 23, 50));
    expect(romeDay(clock.now())).toBe(graceEndsOn);
    const lastDay = await ask(feature);
    expect(lastDay.check).toMatchObject({ allowed: true, pastDue: true, graceEndsOn });
    expect(lastDay.features.find((f) => f.key === feature)).toMatchObject({ pastDue: true, graceEndsOn });

    // Just after midnight in Rome, the day after: no access (the subscription itself still Active).
    clock.set(romeTime(addDays(graceEndsOn, 1), 0, 10));
    const after = await ask(feature);
    expect(after.check).toEqual({
      allowed: false,
      feature,
      until: null,
      planName: null,
      pastDue: false,
      graceEndsOn: null,
      paused: false,
      pausedUntil: null,
      trial: false,
      trialEndsAt: null,
    });
    expect(after.features.filter((f) => f.subscriptionId === sub.id)).toEqual([]);
    expect((await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!).toMatchObject({
      subscriptionStatus: 1,
    });

    // Stripe's retry is paid: the payment recovered, access back, not past due.
    const retried = await deliverStripe(invoicePaid(providerId, `in_renew_${sub.id}_retry`, clock.now()));
    expect(retried.data?.outcome).toBe('applied');
    const recovered = await ask(feature);
    expect(recovered.check).toMatchObject({ allowed: true, pastDue: false, graceEndsOn: null });
    expect(recovered.features.find((f) => f.key === feature)).toMatchObject({
      subscriptionId: sub.id,
      pastDue: false,
      graceEndsOn: null,
    });
  }, 30_000);
});
