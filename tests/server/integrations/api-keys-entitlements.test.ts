/**
 * Tenant API keys (issue 15) on the real app and database with a moved clock: the secret is
 * shown once and stored as a hash; revoked, expired and rotated keys; scopes; the tenant bound;
 * rate-limit headers and 429; the request log and its purge; the entitlement API for every
 * subscription status and across the next billing date.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiKeyCreated,
  ApiKeyItem,
  ApiRequestLogItem,
  Entitlement,
} from '../../../contract/integrations';
import { TENANT_KEY_PATTERN } from '../../../contract/integrations';
import type { Subscription } from '../../../contract/schemas/subscription';
import { apiKeys, apiRequestLogs, subscriptions } from '../../../server/db/schema';
import { sha256 } from '../../../server/lib/secrets';
import { changeStatus } from '../../../server/modules/billing/subscription.service';
import { approveWholeAmount, createSubscription, giveIban, movableClock, userId } from '../billing/helpers';
import { create, dataOf } from '../helpers/entity-checks';
import {
  API_KEY,
  client,
  createTestContext,
  DEMO,
  type ApiClient,
  type TestContext,
} from '../helpers/test-app';

const HOUR = 3_600_000;
const clock = movableClock('2026-04-01T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let rossiAdmin: ApiClient;
let demo: number;

/** A caller with a tenant key only (no app key, no session). */
const withKey = (secret: string, how: 'bearer' | 'header' = 'bearer') =>
  client(ctx.app, how === 'bearer' ? { authorization: `Bearer ${secret}` } : { 'x-api-key': secret }, null);

async function newKey(body: Record<string, unknown>): Promise<ApiKeyCreated> {
  return dataOf(await admin.post<ApiKeyCreated>('/api/apikey/create', { name: 'Backend', ...body }));
}

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  rossiAdmin = await ctx.as('superadmin', 'Studio Rossi');
  demo = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
});
afterAll(() => ctx?.close());

describe('tenant API keys', () => {
  it('shows the secret once, stores only its hash, authenticates by Bearer or x-api-key, refuses revoked and expired keys at once', async () => {
    const user = await ctx.as('cliente', 'Demo Srl');
    expect((await user.post('/api/apikey/create', { name: 'x', scopes: ['read'] })).status).toBe(403);
    expect((await admin.post('/api/apikey/create', { name: '', scopes: [] })).status).toBe(400);

    const key = await newKey({ scopes: ['entitlements'], mode: 'test' });
    expect(key.secret).toMatch(TENANT_KEY_PATTERN);
    expect(key.secret.startsWith('rnv_test_')).toBe(true);
    expect(key.secret.length).toBeGreaterThanOrEqual('rnv_test_'.length + 43); // 256 bits, base64url
    expect(key.hint).toBe(`rnv_test_…${key.secret.slice(-4)}`);
    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.secretHash).toBe(sha256(key.secret));
    expect(JSON.stringify(row)).not.toContain(key.secret);
    const listed = dataOf(await admin.get<ApiKeyItem[]>('/api/apikey/list'));
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    expect(listed.find((k) => k.id === key.id)).toMatchObject({ state: 'active', lastUsedAt: null });
    expect(JSON.stringify(dataOf(await admin.get(`/api/apikey/${key.id}`)))).not.toContain(key.secret);

    const q = { query: { customerEmail: 'mario.rossi@example.com', feature: 'x' } };
    expect((await withKey(key.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
    expect((await withKey(key.secret, 'header').get('/api/v1/entitlements/check', q)).status).toBe(200);
    expect((await client(ctx.app, {}, null).get('/api/v1/entitlements/check', q)).status).toBe(401);
    const forged = `rnv_test_${'A'.repeat(43)}`;
    expect((await withKey(forged).get('/api/v1/entitlements/check', q)).status).toBe(401);
    // The app's own x-api-key is not a tenant key.
    expect((await client(ctx.app, {}).get('/api/v1/entitlements/check', q)).status).toBe(401);

    expect((await admin.post(`/api/apikey/${key.id}/revoke`)).status).toBe(200);
    const revoked = await withKey(key.secret).get('/api/v1/entitlements/check', q);
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('Chiave API non valida, revocata o scaduta.');
    expect((await admin.post(`/api/apikey/${key.id}/revoke`)).status).toBe(409);

    const expiring = await newKey({
      scopes: ['entitlements'],
      expiresAt: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    expect((await withKey(expiring.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
    clock.set(new Date(clock.now().getTime() + HOUR).toISOString());
    expect((await withKey(expiring.secret).get('/api/v1/entitlements/check', q)).status).toBe(401);
    expect(dataOf(await admin.get<ApiKeyItem>(`/api/apikey/${expiring.id}`)).state).toBe('expired');
    expect(
      (
        await admin.post('/api/apikey/create', {
          name: 'past',
          scopes: ['read'],
          expiresAt: '2020-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(400);
  });

  it('rotates with a grace period for the old key', async () => {
    const old = await newKey({ scopes: ['entitlements'] });
    const q = { query: { customerEmail: 'mario.rossi@example.com', feature: 'x' } };
    const rotated = dataOf(
      await admin.post<{ created: ApiKeyCreated; previous: ApiKeyItem }>(`/api/apikey/${old.id}/rotate`, {
        graceHours: 2,
      }),
    );
    expect(rotated.created.secret).not.toBe(old.secret);
    expect(rotated.created.rotatedFromId).toBe(old.id);
    expect(rotated.created.scopes).toEqual(['entitlements']);
    expect((await withKey(old.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
    expect((await withKey(rotated.created.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
    clock.set(new Date(clock.now().getTime() + 2 * HOUR + 1000).toISOString());
    expect((await withKey(old.secret).get('/api/v1/entitlements/check', q)).status).toBe(401);
    expect((await withKey(rotated.created.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
  });

  it('acts only with its scopes, in its tenant, never on admin calls or /api/hangfire', async () => {
    const ent = await newKey({ scopes: ['entitlements'] });
    const read = await newKey({ scopes: ['read'] });
    const q = { query: { customerEmail: 'mario.rossi@example.com' } };
    const refused = await withKey(ent.secret).get('/api/v1/subscriptions', q);
    expect(refused.status).toBe(403);
    expect(refused.headers['x-ratelimit-limit']).toBeDefined();
    expect((await withKey(read.secret).get('/api/v1/subscriptions', q)).status).toBe(200);
    expect((await withKey(read.secret).get('/api/v1/entitlements', q)).status).toBe(403);

    for (const secret of [ent.secret, read.secret]) {
      for (const path of [
        '/api/hangfire/stats',
        '/api/plan/getAll',
        '/api/apikey/list',
        '/api/user/getAll',
      ]) {
        expect((await withKey(secret).get(path, { headers: { 'x-tenant-id': String(demo) } })).status).toBe(
          401,
        );
        expect(
          (await withKey(secret, 'header').get(path, { headers: { 'x-tenant-id': String(demo) } })).status,
        ).toBe(401);
      }
      // With the app key beside it, the tenant key is still not a session.
      expect(
        (
          await client(ctx.app, { authorization: `Bearer ${secret}`, 'x-tenant-id': String(demo) }).get(
            '/api/plan/getAll',
          )
        ).status,
      ).toBe(401);
    }
    // A customer of Studio Rossi only is unknown to a Demo Srl key; an X-Tenant-Id changes nothing.
    const rossiCustomer = 'elena.marchetti@example.it';
    const rossiKey = dataOf(
      await rossiAdmin.post<ApiKeyCreated>('/api/apikey/create', { name: 'Rossi', scopes: ['entitlements'] }),
    );
    expect(
      (
        await withKey(rossiKey.secret).get('/api/v1/entitlements', {
          query: { customerEmail: rossiCustomer },
        })
      ).status,
    ).toBe(200);
    const other = await withKey(ent.secret).get('/api/v1/entitlements', {
      query: { customerEmail: rossiCustomer },
      headers: { 'x-tenant-id': String(await ctx.tenantId('Studio Rossi')) },
    });
    expect(other.status).toBe(404);
    // Another tenant's admin reaches none of the keys' calls.
    expect((await rossiAdmin.get(`/api/apikey/${ent.id}`)).status).toBe(404);
    expect((await rossiAdmin.post(`/api/apikey/${ent.id}/revoke`)).status).toBe(404);
    expect((await rossiAdmin.get(`/api/apikey/${ent.id}/logs`)).status).toBe(404);
    expect(dataOf(await rossiAdmin.get<ApiKeyItem[]>('/api/apikey/list')).map((k) => k.id)).not.toContain(
      ent.id,
    );
  });

  it('rate-limits per key with headers on every answer and 429 with Retry-After; limits are per tenant', async () => {
    expect(
      (await admin.put('/api/apikey/settings', { perKeyPerMinute: 3, perTenantPerMinute: 100 })).status,
    ).toBe(403);
    const superadmin = await ctx.as('superadmin', 'Demo Srl');
    const previous = dataOf(await admin.get('/api/apikey/settings'));
    const invalid = await superadmin.put('/api/apikey/settings', {
      perKeyPerMinute: 0,
      perTenantPerMinute: 2_000_000,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([
      'perKeyPerMinute: Inserisci un numero intero da 1 a 100.000.',
      'perTenantPerMinute: Inserisci un numero intero da 1 a 1.000.000.',
    ]);
    const over = await superadmin.put('/api/apikey/settings', {
      perKeyPerMinute: 50,
      perTenantPerMinute: 10,
    });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      'perKeyPerMinute: Il limite per chiave non può superare quello del tenant.',
    ]);
    expect(dataOf(await admin.get('/api/apikey/settings'))).toEqual(previous);
    const saved = await superadmin.put('/api/apikey/settings', {
      perKeyPerMinute: 3,
      perTenantPerMinute: 100,
    });
    expect(saved.status).toBe(200);
    const key = await newKey({ scopes: ['entitlements'] });
    const q = { query: { customerEmail: 'mario.rossi@example.com', feature: 'x' } };
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await withKey(key.secret).get('/api/v1/entitlements/check', q);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await withKey(key.secret).get('/api/v1/entitlements/check', q);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // Another key of the tenant has its own counter.
    const second = await newKey({ scopes: ['entitlements'] });
    expect((await withKey(second.secret).get('/api/v1/entitlements/check', q)).status).toBe(200);
    await superadmin.put('/api/apikey/settings', { perKeyPerMinute: 600, perTenantPerMinute: 1200 });
  });

  it('logs every call (no query string, no body), filters and exports it, and purges it after 30 days', async () => {
    const key = await newKey({ scopes: ['entitlements'] });
    const k = withKey(key.secret);
    await k.get('/api/v1/entitlements/check', {
      query: { customerEmail: 'mario.rossi@example.com', feature: 'report' },
    });
    await k.get('/api/v1/entitlements', { query: { customerEmail: 'nessuno@example.com' } });
    await k.get('/api/v1/subscriptions', { query: { customerEmail: 'mario.rossi@example.com' } });
    const log = dataOf(
      await admin.get<{ items: ApiRequestLogItem[]; hasMore: boolean }>(`/api/apikey/${key.id}/logs`),
    );
    expect(log.items.map((i) => [i.method, i.path, i.status])).toEqual([
      ['GET', '/api/v1/subscriptions', 403],
      ['GET', '/api/v1/entitlements', 404],
      ['GET', '/api/v1/entitlements/check', 200],
    ]);
    expect(JSON.stringify(log)).not.toContain('example.com');
    expect(log.items[0]?.ip).toBeTruthy();
    const errors = dataOf(
      await admin.get<{ items: ApiRequestLogItem[] }>(`/api/apikey/${key.id}/logs`, {
        query: { status: 'error' },
      }),
    );
    expect(errors.items.map((i) => i.status)).toEqual([403, 404]);
    const token = await ctx.login(DEMO.admin, DEMO.password);
    const csv = await ctx.app.inject({
      url: `/api/apikey/${key.id}/logs/export?status=error`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    // The list exports' CSV: UTF-8 with BOM, ';', CRLF, Italian headers, formulas neutralised.
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Data e ora;Metodo;Percorso;Stato;Durata (ms);IP');
    expect(lines.slice(1).map((l) => l.split(';').slice(1, 4).join(' '))).toEqual([
      'GET /api/v1/subscriptions 403',
      'GET /api/v1/entitlements 404',
    ]);
    expect(lines[1]?.split(';')[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    // A logged text a spreadsheet would run as a formula is written as text.
    await ctx.db.insert(apiRequestLogs).values({
      tenantId: demo,
      apiKeyId: key.id,
      at: clock.now(),
      method: 'GET',
      path: '=HYPERLINK("http://x.example","clic")',
      status: 500,
      durationMs: 1,
      ip: '@SUM(1)',
    });
    const injected = await ctx.app.inject({
      url: `/api/apikey/${key.id}/logs/export?status=error`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) },
    });
    expect(injected.body).toContain(`"'=HYPERLINK(""http://x.example"",""clic"")"`);
    expect(injected.body).toContain("'@SUM(1)");
    expect(dataOf(await admin.get<ApiKeyItem>(`/api/apikey/${key.id}`)).lastUsedAt).toBe(
      clock.now().toISOString(),
    );

    clock.set(new Date(clock.now().getTime() + 31 * 24 * HOUR).toISOString());
    await ctx.app.jobs?.runJobNow('api-request-log-purge');
    const left = await ctx.db.select().from(apiRequestLogs).where(eq(apiRequestLogs.apiKeyId, key.id));
    expect(left).toEqual([]);
  });

  it('writes each call’s log line before answering (no flush needed), so every call is logged after the app closes; a revocation reaches a process that saw the key live', async () => {
    const key = await newKey({ scopes: ['entitlements'] });
    // Another server process on the same database: its own key memory, limiter and log writer.
    const other = await ctx.buildAnotherApp({}, { now: clock.now });
    const k = client(other, { authorization: `Bearer ${key.secret}` }, null);
    const logged = async () =>
      (
        await ctx.db
          .select({ path: apiRequestLogs.path, status: apiRequestLogs.status })
          .from(apiRequestLogs)
          .where(eq(apiRequestLogs.apiKeyId, key.id))
          .orderBy(apiRequestLogs.id)
      ).map((r) => `${r.status} ${r.path}`);
    const q = { query: { customerEmail: 'mario.rossi@example.com', feature: 'x' } };
    expect((await k.get('/api/v1/entitlements/check', q)).status).toBe(200);
    // Read straight from the database, without the writer's flush: the line is already there.
    expect(await logged()).toEqual(['200 /api/v1/entitlements/check']);
    const answers = await Promise.all([
      k.get('/api/v1/entitlements/check', q),
      k.get('/api/v1/entitlements/check', { query: { customerEmail: 'mario.rossi@example.com' } }),
      k.get('/api/v1/subscriptions', q),
      k.get('/api/v1/entitlements', { query: { customerEmail: 'nessuno@example.com' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, 403, 404]);
    expect(answers[1]?.body.errors).toEqual(['feature: Indica la funzionalità (feature).']);
    expect((await admin.post(`/api/apikey/${key.id}/revoke`)).status).toBe(200);
    // The other process had seen the key live: the revocation is still refused there at once.
    expect((await k.get('/api/v1/entitlements/check', q)).status).toBe(401);
    await other.close();
    expect((await logged()).sort()).toEqual(
      [
        '200 /api/v1/entitlements/check',
        '200 /api/v1/entitlements/check',
        '400 /api/v1/entitlements/check',
        '403 /api/v1/subscriptions',
        '404 /api/v1/entitlements',
      ].sort(),
    );
    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.lastUsedAt?.toISOString()).toBe(clock.now().toISOString());
  });
});

describe('the entitlement API', () => {
  it('answers the live subscriptions’ features, for every status and across the next billing date', async () => {
    const superadmin = await ctx.as('superadmin', 'Demo Srl');
    await superadmin.put('/api/apikey/settings', { perKeyPerMinute: 1000, perTenantPerMinute: 1000 });
    const feature = await create<{ key: string }>(admin, 'feature', {
      featureName: 'Esportazione API',
      key: 'export_api',
    });
    expect(feature.key).toBe('export_api');
    expect(
      (await admin.post('/api/feature/Create', { featureName: 'Altro', key: 'export_api' })).status,
    ).toBe(409);
    const plan = await create<{ id: number }>(admin, 'plan', {
      name: 'Piano integrazioni',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
    });
    await admin.post(`/api/plan/associateFeatures/${plan.id}`, [
      { featureName: 'Esportazione API' },
      { featureName: 'Webhook dedicati' },
    ]);
    const key = await newKey({ scopes: ['entitlements'] });
    const k = withKey(key.secret);
    const email = 'mario.rossi@example.com';
    const customer = await userId(ctx, email);
    const check = async (f: string) =>
      dataOf(
        await k.get<{ allowed: boolean; until: string | null }>('/api/v1/entitlements/check', {
          query: { customerEmail: email, feature: f },
        }),
      );
    const mine = async () =>
      dataOf(
        await k.get<{ features: Entitlement[] }>('/api/v1/entitlements', { query: { customerId: customer } }),
      ).features.filter((f) => f.planId === plan.id);

    // NotActive: nothing.
    const sub = await createSubscription(admin, { userId: customer, planId: plan.id });
    expect(await check('export_api')).toMatchObject({ allowed: false, until: null });
    expect(await mine()).toEqual([]);
    // BankTransferPending: nothing yet.
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    expect((await check('export_api')).allowed).toBe(false);
    // ActiveNoRenewal: until the next billing date (exclusive).
    const payment = sub.payments[0]!;
    expect((await approveWholeAmount(admin, payment, clock.now().toISOString())).status).toBe(200);
    const active = dataOf(await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${sub.id}`));
    expect(active.subscriptionStatus).toBe(3);
    expect(await check('export_api')).toEqual({
      allowed: true,
      feature: 'export_api',
      until: active.nextBillingDate,
      planName: 'Piano integrazioni',
      pastDue: false,
      graceEndsOn: null,
      paused: false,
      pausedUntil: null,
      // Issue 30: not a trial.
      trial: false,
      trialEndsAt: null,
    });
    expect((await mine()).map((f) => [f.key, f.name, f.until])).toEqual([
      ['export_api', 'Esportazione API', active.nextBillingDate],
      ['webhook_dedicati', 'Webhook dedicati', active.nextBillingDate],
    ]);
    clock.set(new Date(new Date(active.nextBillingDate).getTime() - 1000).toISOString());
    expect((await check('export_api')).allowed).toBe(true);
    clock.set(active.nextBillingDate);
    expect((await check('export_api')).allowed).toBe(false);
    expect(await mine()).toEqual([]);

    // Active (a provider activated it), whatever the date; Canceled: nothing.
    const sub2 = await createSubscription(admin, { userId: customer, planId: plan.id });
    await ctx.app.unitOfWork.run(
      { tenantId: demo, actor: { kind: 'provider', provider: 'test' } },
      async (w) => {
        const [row] = await w.tx
          .select({ id: subscriptions.id, status: subscriptions.status })
          .from(subscriptions)
          .where(eq(subscriptions.id, sub2.id));
        await changeStatus(w, row as { id: number; status: 1 | 2 | 3 | 4 | 5 }, 'providerActivated');
      },
    );
    expect((await check('webhook_dedicati')).allowed).toBe(true);
    clock.set(new Date(clock.now().getTime() + 90 * 24 * HOUR).toISOString());
    expect((await check('webhook_dedicati')).allowed).toBe(true);
    await ctx.app.unitOfWork.run(
      { tenantId: demo, actor: { kind: 'provider', provider: 'test' } },
      async (w) => {
        await changeStatus(w, { id: sub2.id, status: 1 }, 'providerCanceled');
      },
    );
    expect((await check('webhook_dedicati')).allowed).toBe(false);
    expect(await mine()).toEqual([]);
    // Unknown customer: allowed false on check, 404 on the list; a missing customer is a 400.
    expect(
      (
        await k.get('/api/v1/entitlements/check', {
          query: { customerEmail: 'x@y.it', feature: 'export_api' },
        })
      ).body.data,
    ).toMatchObject({ allowed: false });
    expect((await k.get('/api/v1/entitlements', { query: { customerEmail: 'x@y.it' } })).status).toBe(404);
    expect((await k.get('/api/v1/entitlements', {})).status).toBe(400);
    expect((await k.get('/api/v1/entitlements/check', { query: { customerEmail: email } })).status).toBe(400);
  });
});
