/**
 * The write surface of tenant API keys (issue 15): `POST api/v1/subscriptions/{id}/cancel` with
 * the `write` scope, through the unit of work with an `apiKey` actor, the state machine and the
 * provider-first cancel of an Admin (against the fake PayPal on loopback); and the `read` list
 * `GET api/v1/subscriptions?customerEmail=`. Scope enforced, tenant bound, refusals in Italian
 * and writing nothing, a replay harmless.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyCreated } from '../../../contract/integrations';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  apiRequestLogs,
  payments,
  subscriptionEvents,
  subscriptions,
  webhookDeliveries,
} from '../../../server/db/schema';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { createSubscription, movableClock, planId, pointPayPalAt, userId } from '../billing/helpers';
import type { ApiSubscription } from '../../../server/modules/billing/api-v1.service';
import { dataOf } from '../helpers/entity-checks';
import { client, createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';

const clock = movableClock('2026-02-02T10:00:00.000Z');
/** A customer made here, with no other subscription (the demo's customers have their own). */
const CUSTOMER = 'api.v1.cliente@example.com';
let fake: FakePayPal;
let ctx: TestContext;
let admin: ApiClient;
let basic: number;
let basicPaypalPlan: string;

const withKey = (secret: string) => client(ctx.app, { authorization: `Bearer ${secret}` }, null);

async function newKey(as: ApiClient, scopes: string[]): Promise<ApiKeyCreated> {
  return dataOf(await as.post<ApiKeyCreated>('/api/apikey/create', { name: `Backend ${scopes}`, scopes }));
}

/** Rows a refused call must leave as they were. */
async function snapshot() {
  return {
    subscriptions: await ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id)),
    payments: await ctx.db.select().from(payments).orderBy(asc(payments.id)),
    events: await ctx.db.select().from(subscriptionEvents).orderBy(asc(subscriptionEvents.id)),
    deliveries: await ctx.db.select().from(webhookDeliveries).orderBy(asc(webhookDeliveries.id)),
  };
}

/** A subscription paid on the payment page: Active, with its PayPal id. */
async function paidSubscription(): Promise<{ sub: Subscription; paypalId: string }> {
  const sub = await createSubscription(admin, { userId: await userId(ctx, CUSTOMER), planId: basic });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  const paypalId = fake.approve(basicPaypalPlan);
  fake.setStatus(paypalId, 'ACTIVE');
  const paid = await ctx.api.put('/api/Payment/updatePayment', {
    token: dataOf(link).token,
    providerSubscriptionId: paypalId,
  });
  expect(paid.status, paid.raw).toBe(200);
  return { sub, paypalId };
}

beforeAll(async () => {
  fake = await startFakePayPal();
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: fake.url, webhookId: 'WH-DEMO-0001' });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  const synced = await admin.post<{ paypalPlanId: string }>(`/api/plan/syncPaypal/${basic}`);
  basicPaypalPlan = dataOf(synced).paypalPlanId;
  const created = await admin.post('/api/user/Create', {
    name: 'Giorgio Conti',
    email: CUSTOMER,
    isCompany: false,
    isActive: true,
    roleId: 3,
  });
  expect(created.status, created.raw).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.clearFailures());

describe('POST api/v1/subscriptions/{id}/cancel (write scope)', () => {
  it('cancels at the provider first, then through the state machine as the key; scope, tenant, provider failure, refusal and replay change nothing', async () => {
    const { sub, paypalId } = await paidSubscription();
    const writer = await newKey(admin, ['write', 'read']);
    const reader = await newKey(admin, ['read', 'entitlements']);
    const rossiWriter = await newKey(await ctx.as('superadmin', 'Studio Rossi'), ['write']);
    const cancelUrl = `/api/v1/subscriptions/${sub.id}/cancel`;

    // The read scope lists the customer's subscriptions, and may not write.
    const listed = await withKey(reader.secret).get<ApiSubscription[]>('/api/v1/subscriptions', {
      query: { customerEmail: CUSTOMER },
    });
    expect(dataOf(listed).find((s) => s.id === sub.id)).toMatchObject({
      status: 'Active',
      planName: 'Basic',
    });
    const feature = { query: { customerEmail: CUSTOMER, feature: 'contenuti_base' } };
    const allowed = await withKey(reader.secret).get<{ allowed: boolean }>(
      '/api/v1/entitlements/check',
      feature,
    );
    expect(dataOf(allowed).allowed).toBe(true);
    const before = await snapshot();
    const calls = fake.calls.length;
    const readOnly = await withKey(reader.secret).post(cancelUrl);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toBe('Questa chiave API non ha l’ambito «write».');
    // Another tenant's key: the subscription does not exist for it, and PayPal is not called.
    expect((await withKey(rossiWriter.secret).post(cancelUrl)).status).toBe(404);
    const badId = await withKey(writer.secret).post('/api/v1/subscriptions/abc/cancel');
    expect(badId.status).toBe(400);
    expect(badId.body.errors?.[0]).toMatch(/^id: /);
    expect(fake.calls.length).toBe(calls);
    // PayPal failing: 502 in Italian, nothing changes here nor there.
    fake.failNext(`POST /v1/billing/subscriptions/${paypalId}/cancel`, 500);
    const failed = await withKey(writer.secret).post(cancelUrl);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain('in Rinnova non è cambiato nulla');
    expect(fake.subscriptions.get(paypalId)?.status).toBe('ACTIVE');
    expect(await snapshot()).toEqual(before);

    const canceled = await withKey(writer.secret).post<ApiSubscription>(cancelUrl);
    expect(canceled.status, canceled.raw).toBe(200);
    expect(canceled.body.message).toBe('Sottoscrizione cancellata.');
    expect(dataOf(canceled)).toMatchObject({ id: sub.id, status: 'Canceled' });
    expect(fake.subscriptions.get(paypalId)?.status).toBe('CANCELLED');
    const events = await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, sub.id))
      .orderBy(asc(subscriptionEvents.id));
    expect(events.at(-1)).toMatchObject({
      event: 'cancel',
      fromStatus: 1,
      toStatus: 5,
      actorKind: 'apiKey',
      actorId: String(writer.id),
    });
    // The Admin sees the move in the subscription's history; the features are gone at once.
    const seen = dataOf(await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`));
    expect(seen.subscriptionStatus).toBe(5);
    const check = await withKey(reader.secret).get<{ allowed: boolean }>(
      '/api/v1/entitlements/check',
      feature,
    );
    expect(dataOf(check).allowed).toBe(false);

    // A replay answers the same, writes nothing and calls no provider.
    const afterCancel = await snapshot();
    const callsAfter = fake.calls.length;
    const replay = await withKey(writer.secret).post<ApiSubscription>(cancelUrl);
    expect(replay.status).toBe(200);
    expect(dataOf(replay)).toEqual(dataOf(canceled));
    expect(fake.calls.length).toBe(callsAfter);
    expect(await snapshot()).toEqual(afterCancel);
    // Each call is in the key's request log.
    const lines = await ctx.db
      .select({ method: apiRequestLogs.method, status: apiRequestLogs.status })
      .from(apiRequestLogs)
      .where(eq(apiRequestLogs.apiKeyId, writer.id));
    expect(lines.map((l) => `${l.method} ${l.status}`).sort()).toEqual(
      ['POST 200', 'POST 200', 'POST 400', 'POST 502'].sort(),
    );
  });

  it('refuses, in Italian and writing nothing, a subscription the state machine may not cancel', async () => {
    const writer = await newKey(admin, ['write']);
    const unpaid = await createSubscription(admin, { userId: await userId(ctx, CUSTOMER), planId: basic });
    const before = await snapshot();
    const calls = fake.calls.length;
    const refused = await withKey(writer.secret).post(`/api/v1/subscriptions/${unpaid.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Operazione non consentita: una sottoscrizione nello stato «Sottoscrizione non attiva» non può passare a «Sottoscrizione cancellata».',
    );
    expect(fake.calls.length).toBe(calls);
    expect(await snapshot()).toEqual(before);
  });
});
