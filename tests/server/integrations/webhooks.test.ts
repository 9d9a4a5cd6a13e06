/**
 * Outbound webhooks (issue 15) with a loopback receiver and a moved clock: deliveries written in
 * the unit of work of the change and sent by the job after commit (nothing for a rolled-back
 * change), signatures that verify with the documented recipe, the back-off schedule over 24 hours,
 * the endpoint disabled with an e-mail to the Admins, manual re-send, the tenant bound, the SSRF
 * guard.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  WebhookDeliveryItem,
  WebhookEndpointCreated,
  WebhookEndpointItem,
} from '../../../contract/integrations';
import type { Subscription } from '../../../contract/schemas/subscription';
import { subscriptions, webhookDeliveries, webhookEndpoints } from '../../../server/db/schema';
import type { JobEngine } from '../../../server/jobs/engine';
import { changeStatus } from '../../../server/modules/billing/subscription.service';
import { WEBHOOK_JOB, postJson, retryDelayMs } from '../../../server/modules/integrations/webhook-transport';
import {
  approveWholeAmount,
  createSubscription,
  giveIban,
  movableClock,
  planId,
  userId,
} from '../billing/helpers';
import { dataOf } from '../helpers/entity-checks';
import { client, createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { integrationMessages } from '../../../contract/messages';
import { createOutbound, type Outbound } from '../../../server/lib/outbound';

const MINUTE = 60_000;
const clock = movableClock('2026-05-04T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
let demo: number;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let answer = 200;
let receiver: http.Server;
let receiverUrl: string;

/** The documented recipe (api/webhook docs): HMAC-SHA256 of `${t}.${rawBody}`, hex, constant-time compare. */
function verify(header: string | undefined, rawBody: string, secret: string): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest('hex');
  const v1 = Buffer.from(parts.v1 ?? '', 'hex');
  return v1.length === 32 && timingSafeEqual(v1, Buffer.from(expected, 'hex'));
}

/** Runs the jobs a commit enqueued (manual mode: nothing runs by itself). */
const send = () => jobs.drain({ names: [WEBHOOK_JOB] });
/** The job's run of its every-minute schedule (retries that are due). */
const cronRun = () => jobs.runJobNow(WEBHOOK_JOB);
const eventsReceived = () => received.map((r) => (JSON.parse(r.body) as { type: string }).type);

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/rinnova`;
  ctx = await createTestContext({ app: { now: clock.now } });
  if (!ctx.app.jobs) throw new Error('job engine missing');
  jobs = ctx.app.jobs;
  admin = await ctx.as('admin', 'Demo Srl');
  demo = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
});
/** The door as production has it (guard on), for the sender's helper. */
const guardedDoor: Outbound = createOutbound({ allowPrivate: false });
afterAll(async () => {
  guardedDoor.close();
  await ctx?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

let endpoint: WebhookEndpointCreated;

describe('outbound webhooks', () => {
  it('creates an endpoint (secret shown once, stored encrypted) and validates it', async () => {
    const user = await ctx.as('cliente', 'Demo Srl');
    expect((await user.get('/api/webhook/list')).status).toBe(403);
    const bad = await admin.post('/api/webhook/create', { url: 'ftp://x', events: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^events: /)]));
    expect(
      (await admin.post('/api/webhook/create', { url: 'non un url', events: ['payment.succeeded'] })).status,
    ).toBe(400);

    endpoint = dataOf(
      await admin.post<WebhookEndpointCreated>('/api/webhook/create', {
        url: receiverUrl,
        events: [
          'subscription.created',
          'subscription.activated',
          'subscription.canceled',
          'payment.succeeded',
          'bank_transfer.approved',
        ],
      }),
    );
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(JSON.stringify(row)).not.toContain(endpoint.secret);
    expect(JSON.stringify(dataOf(await admin.get<WebhookEndpointItem[]>('/api/webhook/list')))).not.toContain(
      endpoint.secret,
    );
  });

  it('writes deliveries in the unit of work, sends them after commit signed, logs each attempt, never twice', async () => {
    const customer = await userId(ctx, 'mario.rossi@example.com');
    const sub = await createSubscription(admin, {
      userId: customer,
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    // Written with the change, not yet sent: the job sends it.
    const [pending] = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(pending?.status).toBe('pending');
    expect(received).toEqual([]);
    await send();
    expect(eventsReceived()).toEqual(['subscription.created']);
    const first = received[0]!;
    expect(verify(first.headers['rinnova-signature'] as string, first.body, endpoint.secret)).toBe(true);
    expect(verify(first.headers['rinnova-signature'] as string, first.body + ' ', endpoint.secret)).toBe(
      false,
    );
    expect(first.headers['rinnova-signature']).toMatch(
      new RegExp(`^t=${Math.floor(clock.now().getTime() / 1000)},v1=[0-9a-f]{64}$`),
    );
    expect(first.headers['rinnova-event']).toBe('subscription.created');
    const body = JSON.parse(first.body) as {
      id: string;
      type: string;
      data: { subscription: { id: number; status: string; customerEmail: string } };
    };
    expect(body.data.subscription).toMatchObject({
      id: sub.id,
      status: 'NotActive',
      customerEmail: 'mario.rossi@example.com',
    });
    expect(first.headers['rinnova-delivery']).toBe(body.id);

    // Bank transfer: approved transfer, activation, payment, each once.
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const payment = sub.payments[0]!;
    expect((await approveWholeAmount(admin, payment, clock.now().toISOString())).status).toBe(200);
    expect((await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${sub.id}`)).status).toBe(
      200,
    );
    await send();
    await send();
    expect(eventsReceived()).toEqual([
      'subscription.created',
      'bank_transfer.approved',
      'subscription.activated',
      'payment.succeeded',
    ]);
    expect(
      received.every((r) => verify(r.headers['rinnova-signature'] as string, r.body, endpoint.secret)),
    ).toBe(true);

    const deliveries = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    expect(deliveries).toHaveLength(4);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    expect(deliveries[0]?.attemptList).toEqual([
      expect.objectContaining({ statusCode: 200, succeeded: true, manual: false }),
    ]);
  });

  it('sends nothing for a change that rolled back', async () => {
    const customer = await userId(ctx, 'mario.rossi@example.com');
    const sub = await createSubscription(admin, {
      userId: customer,
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    await send();
    const before = received.length;
    const [{ n: deliveriesBefore } = { n: 0 }] = await ctx.db.select({ n: count() }).from(webhookDeliveries);
    await expect(
      ctx.app.unitOfWork.run({ tenantId: demo, actor: { kind: 'provider', provider: 'test' } }, async (w) => {
        await changeStatus(w, { id: sub.id, status: 2 }, 'providerActivated');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await send();
    expect(received.length).toBe(before);
    const [{ n: deliveriesAfter } = { n: 0 }] = await ctx.db.select({ n: count() }).from(webhookDeliveries);
    expect(deliveriesAfter).toBe(deliveriesBefore);
    const [row] = await ctx.db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.id, sub.id));
    expect(row?.status).toBe(2);
  });

  it('retries with exponential back-off for 24 hours, then disables the endpoint and tells the Admins; re-send works', async () => {
    const customer = await userId(ctx, 'mario.rossi@example.com');
    const sub = await createSubscription(admin, {
      userId: customer,
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    await send();
    answer = 500;
    await ctx.app.unitOfWork.run({ tenantId: demo, actor: { kind: 'provider', provider: 'test' } }, (w) =>
      changeStatus(w, { id: sub.id, status: 2 }, 'providerActivated'),
    );
    const start = clock.now().getTime();
    const tries: number[] = [];
    for (let i = 0; i < 12; i++) {
      const before = received.length;
      await (i === 0 ? send() : cronRun());
      if (received.length > before) tries.push(Math.round((clock.now().getTime() - start) / MINUTE));
      // Nothing more before the next attempt is due.
      const again = received.length;
      await cronRun();
      expect(received.length).toBe(again);
      const last = (
        await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))
      ).sort((a, b) => b.id - a.id)[0]!;
      if (last.status !== 'pending' || !last.nextAttemptAt) break;
      clock.set(last.nextAttemptAt.toISOString());
    }
    // 1, 4, 16, 64, 256 minutes, then every 8 hours, while within 24 hours of the event.
    expect(tries).toEqual([0, 1, 5, 21, 85, 341, 821, 1301]);
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs).map((ms) => ms / MINUTE)).toEqual([
      1, 4, 16, 64, 256, 480, 480,
    ]);
    const deliveries = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    const failed = deliveries[0]!;
    expect(failed).toMatchObject({
      eventType: 'subscription.activated',
      status: 'failed',
      attempts: 8,
      lastStatusCode: 500,
    });
    expect(failed.attemptList.map((a) => a.statusCode)).toEqual(Array(8).fill(500));
    const ep = dataOf(await admin.get<WebhookEndpointItem>(`/api/webhook/${endpoint.id}`));
    expect(ep.isEnabled).toBe(false);
    const mail = (await ctx.outbox()).find(
      (m) => m.to === DEMO.admin && m.subject.includes('Webhook disattivato'),
    );
    expect(mail?.text).toContain(receiverUrl);

    // A disabled endpoint gets no new deliveries.
    const n = (
      await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))
    ).length;
    await ctx.app.unitOfWork.run({ tenantId: demo, actor: { kind: 'provider', provider: 'test' } }, (w) =>
      changeStatus(w, { id: sub.id, status: 1 }, 'providerCanceled'),
    );
    expect(
      (await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)))
        .length,
    ).toBe(n);

    // Re-send by hand once the receiver is back.
    answer = 200;
    const before = received.length;
    const resent = await admin.post<{ succeeded: boolean; manual: boolean; statusCode: number }>(
      `/api/webhook/deliveries/${failed.id}/resend`,
    );
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ succeeded: true, manual: true, statusCode: 200 });
    expect(received.length).toBe(before + 1);
    expect(
      verify(received.at(-1)?.headers['rinnova-signature'] as string, received.at(-1)!.body, endpoint.secret),
    ).toBe(true);
    const after = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    )[0]!;
    expect(after.status).toBe('succeeded');
    expect(after.attemptList).toHaveLength(9);

    // Re-enabled by the Admin.
    const enabled = await admin.put<WebhookEndpointItem>(`/api/webhook/${endpoint.id}`, {
      url: receiverUrl,
      events: ['subscription.created'],
      isEnabled: true,
    });
    expect(enabled.body.data).toMatchObject({ isEnabled: true, consecutiveFailures: 0 });
  });

  it('keeps each tenant’s endpoints and deliveries to itself', async () => {
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const deliveries = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    expect((await rossi.get(`/api/webhook/${endpoint.id}`)).status).toBe(404);
    expect((await rossi.get(`/api/webhook/${endpoint.id}/deliveries`)).status).toBe(404);
    expect(
      (await rossi.put(`/api/webhook/${endpoint.id}`, { url: receiverUrl, events: ['payment.succeeded'] }))
        .status,
    ).toBe(404);
    expect((await rossi.post(`/api/webhook/deliveries/${deliveries[0]!.id}/resend`)).status).toBe(404);
    expect((await rossi.delete(`/api/webhook/${endpoint.id}`)).status).toBe(404);
    expect(
      dataOf(await rossi.get<WebhookEndpointItem[]>('/api/webhook/list')).map((e) => e.id),
    ).not.toContain(endpoint.id);
  });

  it('with the outbound guard on (OUTBOUND_ALLOW_PRIVATE=false, always in production), refuses private targets in every spelling', async () => {
    // The same database, an app with the guard on; the test app above runs with it off (the default
    // outside production), which is why its deliveries reach the loopback receiver.
    const guarded = await ctx.buildAnotherApp({ OUTBOUND_ALLOW_PRIVATE: 'false' }, { now: clock.now });
    const token = await ctx.login(DEMO.admin, DEMO.password);
    const guardedAdmin = client(guarded, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) });
    for (const url of [
      'https://[::ffff:a9fe:a9fe]/latest/meta-data',
      'https://[::ffff:169.254.169.254]/',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/x',
      'https://[::127.0.0.1]/x',
      'https://[64:ff9b::a9fe:a9fe]/x',
      'https://[::]/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://0/x',
      'https://2130706433/x',
      'https://0x7f000001/x',
      'https://127.1/x',
      'https://10.0.0.1/x',
      'https://100.64.0.1/x',
      'https://localhost/x',
      'https://api.localhost./x',
    ]) {
      const res = await guardedAdmin.post('/api/webhook/create', { url, events: ['payment.succeeded'] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors, url).toEqual([`url: ${integrationMessages.urlPrivate}`]);
    }
    const plain = await guardedAdmin.post('/api/webhook/create', {
      url: 'http://hooks.example.com/x',
      events: ['payment.succeeded'],
    });
    expect(plain.body.errors).toEqual([`url: ${integrationMessages.urlHttpsRequired}`]);
    // The permissive app takes a loopback URL (development); the guarded one takes public names.
    expect(
      (await admin.post('/api/webhook/create', { url: receiverUrl, events: ['payment.succeeded'] })).status,
    ).toBe(200);
    expect(
      (
        await guardedAdmin.post('/api/webhook/create', {
          url: 'https://hooks.example.com/x',
          events: ['payment.succeeded'],
        })
      ).status,
    ).toBe(200);

    // A delivery to an endpoint stored before (loopback), re-sent by the guarded app: refused, nothing received.
    const [delivery] = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    const before = received.length;
    const attempt = await guardedAdmin.post<{ succeeded: boolean; error: string | null }>(
      `/api/webhook/deliveries/${delivery!.id}/resend`,
    );
    expect(attempt.body.data).toMatchObject({ succeeded: false, error: integrationMessages.urlPrivate });
    expect(received.length).toBe(before);
    // The same through the sender's helper, by literal and by a name resolving to loopback.
    for (const url of [receiverUrl, receiverUrl.replace('127.0.0.1', 'localhost')]) {
      const result = await postJson(guardedDoor, url, '{}', {}, 2000);
      expect(result, url).toMatchObject({ statusCode: null, error: integrationMessages.urlPrivate });
    }
    expect(received.length).toBe(before);
  });

  it('checks the delivery’s socket at connect time: a name that re-resolves to loopback gets nothing', async () => {
    const rebinding: LookupFunction = (_host, options, callback) => {
      const cb = callback as (e: null, a: unknown, f?: number) => void;
      if ((options as { all?: boolean }).all) return cb(null, [{ address: '127.0.0.1', family: 4 }]);
      cb(null, '127.0.0.1', 4);
    };
    const rebound = createOutbound({ allowPrivate: false, lookup: rebinding });
    const guarded = await ctx.buildAnotherApp(
      { OUTBOUND_ALLOW_PRIVATE: 'false' },
      { now: clock.now, outbound: rebound },
    );
    try {
      const token = await ctx.login(DEMO.admin, DEMO.password);
      const guardedAdmin = client(guarded, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) });
      const port = (receiver.address() as AddressInfo).port;
      // A public-looking name: accepted when saved (names are judged when they are resolved).
      const created = dataOf(
        await guardedAdmin.post<WebhookEndpointCreated>('/api/webhook/create', {
          url: `https://rebind.example.com:${port}/hooks/rinnova`,
          events: ['subscription.created'],
        }),
      );
      const before = received.length;
      // An event for it: the guarded app's sender delivers.
      await createSubscription(guardedAdmin, {
        userId: await userId(ctx, 'amministrazione@bianchi-consulting.example.com'),
        planId: await planId(ctx, 'Demo Srl', 'Basic'),
      });
      const run = await guarded.integrations.webhooks.deliverDue();
      expect(run.tried).toBeGreaterThan(0);
      const deliveries = dataOf(
        await guardedAdmin.get<WebhookDeliveryItem[]>(`/api/webhook/${created.id}/deliveries`),
      );
      expect(deliveries[0]?.attemptList[0]).toMatchObject({
        succeeded: false,
        statusCode: null,
        error: integrationMessages.urlPrivate,
      });
      expect(received.length).toBe(before);
      await guardedAdmin.delete(`/api/webhook/${created.id}`);
    } finally {
      rebound.close();
    }
  });
});
