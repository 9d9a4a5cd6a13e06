/**
 * Integrations of tenants with a database of their own (issue 25): API keys live in the tenant's
 * database with their digest listed in the control database's directory; a /api/v1 call finds its
 * tenant there and its key row in the tenant's database; the request log and last use are written
 * there, and purged there; webhook endpoints, deliveries and attempts are the tenant database's
 * and sent from it once; the secrets rewrap covers tenant databases. A tenant still in the control
 * database keeps working on the same app.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiKeyCreated,
  ApiKeyItem,
  ApiRequestLogItem,
  WebhookDeliveryItem,
  WebhookEndpointCreated,
} from '../../../contract/integrations';
import type { Tenant } from '../../../contract/schemas/tenant';
import type { Database } from '../../../server/db/client';
import { migrationsFolder } from '../../../server/db/client';
import {
  apiKeyDirectory,
  apiKeys,
  apiRequestLogs,
  apiSettings,
  paymentProviders,
  tenants,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../../server/db/schema';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { createSecretBox } from '../../../server/lib/secret-box';
import { countStale, rewrapSecrets } from '../../../server/lib/secret-rewrap';
import { sha256 } from '../../../server/lib/secrets';
import { INTEGRATION_JOB_NAMES } from '../../../server/modules/integrations/jobs';
import { emitWebhook } from '../../../server/modules/integrations/webhook-emit';
import { WEBHOOK_JOB } from '../../../server/modules/integrations/webhook-transport';
import { movableClock } from '../billing/helpers';
import { dataOf } from '../helpers/entity-checks';
import { client, createTestContext, DEMO, JWT_SECRET } from '../helpers/test-app';
import type { ApiClient, TestContext } from '../helpers/test-app';
import { openEmptyDatabase } from '../helpers/test-database';

const clock = movableClock('2026-06-01T08:00:00.000Z');
let ctx: TestContext;
let app: FastifyInstance;
let tenancy: TenantDatabases;
let superAdmin: (tenantId?: number) => ApiClient;
let own: number;
let other: number;
let demo: number;

const received: { signature: string; body: string }[] = [];
let receiver: http.Server;
let receiverUrl: string;

/** A caller with a tenant key only (no app key, no session). */
const withKey = (secret: string, headers: Record<string, string> = {}) =>
  client(app, { authorization: `Bearer ${secret}`, ...headers }, null);
const check = { query: { customerEmail: 'nessuno@example.com', feature: 'report' } };

async function countIn(db: Database, table: typeof apiKeys | typeof apiRequestLogs, tenantId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.tenantId, tenantId));
  return row?.n ?? 0;
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ signature: String(req.headers['rinnova-signature']), body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  ctx = await createTestContext();
  tenancy = createTenantDatabases({ control: ctx.database.handle });
  app = await ctx.buildAnotherApp({}, { tenancy, now: clock.now });
  const token = await ctx.login(DEMO.superadmin, DEMO.password);
  superAdmin = (tenantId) =>
    client(app, {
      authorization: `Bearer ${token}`,
      ...(tenantId === undefined ? {} : { 'x-tenant-id': String(tenantId) }),
    });
  const ids: number[] = [];
  for (const name of ['Integrazioni Proprie Uno', 'Integrazioni Proprie Due']) {
    const res = await superAdmin().post<Tenant>('/api/tenant/Create', { name });
    expect(res.status).toBe(200);
    ids.push(res.body.data?.id ?? 0);
  }
  [own, other] = ids as [number, number];
  for (const id of ids) await tenancy.create(id);
  demo = await ctx.tenantId('Demo Srl');
}, 120_000);

afterAll(async () => {
  for (const id of [own, other]) await tenancy?.drop(id).catch(() => undefined);
  await tenancy?.close();
  await ctx?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('API keys of a tenant with its own database', () => {
  let key: ApiKeyCreated;

  it('are created in the tenant’s database, listed by digest in the control directory, and answer /api/v1', async () => {
    key = dataOf(
      await superAdmin(own).post<ApiKeyCreated>('/api/apikey/create', {
        name: 'Gestionale',
        scopes: ['entitlements'],
      }),
    );
    const ownDb = tenancy.connectionFor(own);
    expect(await countIn(ownDb, apiKeys, own)).toBe(1);
    expect(await countIn(ctx.db, apiKeys, own)).toBe(0);
    expect(await countIn(tenancy.connectionFor(other), apiKeys, own)).toBe(0);
    const listed = await ctx.db
      .select()
      .from(apiKeyDirectory)
      .where(eq(apiKeyDirectory.secretHash, sha256(key.secret)));
    expect(listed).toEqual([{ secretHash: sha256(key.secret), tenantId: own }]);

    const res = await withKey(key.secret).get<{ allowed: boolean }>('/api/v1/entitlements/check', check);
    expect(res.status).toBe(200);
    expect(res.body.data?.allowed).toBe(false);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    // A second call: the digest's tenant is known to this process, one read in the tenant's database.
    expect((await withKey(key.secret).get('/api/v1/entitlements/check', check)).status).toBe(200);

    const keys = dataOf(await superAdmin(own).get<ApiKeyItem[]>('/api/apikey/list'));
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    expect(keys[0]?.lastUsedAt).toBe(clock.now().toISOString());
  });

  it('log each call in the tenant’s database (not the control database), read back through the API', async () => {
    await app.integrations.requestLog.flush();
    const ownDb = tenancy.connectionFor(own);
    expect(await countIn(ownDb, apiRequestLogs, own)).toBe(2);
    expect(await countIn(ctx.db, apiRequestLogs, own)).toBe(0);
    const [stamped] = await ownDb.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(stamped?.lastUsedAt?.toISOString()).toBe(clock.now().toISOString());

    const log = dataOf(
      await superAdmin(own).get<{ items: ApiRequestLogItem[] }>(`/api/apikey/${key.id}/logs`),
    );
    expect(log.items.map((i) => [i.method, i.path, i.status])).toEqual([
      ['GET', '/api/v1/entitlements/check', 200],
      ['GET', '/api/v1/entitlements/check', 200],
    ]);
  });

  it('never reach another tenant: X-Tenant-Id is ignored, a directory entry naming the wrong tenant is a 401', async () => {
    const asOther = await withKey(key.secret, { 'x-tenant-id': String(other) }).get(
      '/api/v1/entitlements/check',
      check,
    );
    expect(asOther.status).toBe(200);
    await app.integrations.requestLog.flush();
    expect(await countIn(tenancy.connectionFor(own), apiRequestLogs, own)).toBe(3);
    expect(await countIn(tenancy.connectionFor(other), apiRequestLogs, other)).toBe(0);

    // The other tenant's key list and log know nothing of it.
    expect(dataOf(await superAdmin(other).get<ApiKeyItem[]>('/api/apikey/list'))).toEqual([]);

    // A key of the other tenant, and a digest listed for the wrong tenant (its row is not there).
    const second = dataOf(
      await superAdmin(other).post<ApiKeyCreated>('/api/apikey/create', {
        name: 'Altro',
        scopes: ['entitlements'],
      }),
    );
    expect((await withKey(second.secret).get('/api/v1/entitlements/check', check)).status).toBe(200);
    const forged = `rnv_live_${'B'.repeat(43)}`;
    await ctx.db.insert(apiKeyDirectory).values({ secretHash: sha256(forged), tenantId: own });
    await tenancy
      .connectionFor(other)
      .insert(apiKeys)
      .values({
        tenantId: other,
        name: 'Solo nel database dell’altro',
        mode: 'live',
        secretHash: sha256(forged),
        lastFour: forged.slice(-4),
        scopes: ['entitlements'],
        createdAt: clock.now(),
      });
    const refused = await withKey(forged).get('/api/v1/entitlements/check', check);
    expect(refused.status).toBe(401);
    // A digest not in the directory at all answers the very same.
    const unknown = await withKey(`rnv_live_${'C'.repeat(43)}`).get('/api/v1/entitlements/check', check);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(refused.body);
  });

  it('are revoked in the tenant’s database: the next call is a 401', async () => {
    const revoked = await superAdmin(own).post<ApiKeyItem>(`/api/apikey/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data?.state).toBe('revoked');
    expect((await withKey(key.secret).get('/api/v1/entitlements/check', check)).status).toBe(401);
    const [row] = await tenancy.connectionFor(own).select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.revokedAt).not.toBeNull();
  });

  it('rotate into a new key listed in the directory, the old one valid for its grace period', async () => {
    const first = dataOf(
      await superAdmin(own).post<ApiKeyCreated>('/api/apikey/create', {
        name: 'Da ruotare',
        scopes: ['read'],
      }),
    );
    const rotated = dataOf(
      await superAdmin(own).post<{ created: ApiKeyCreated; previous: ApiKeyItem }>(
        `/api/apikey/${first.id}/rotate`,
        { graceHours: 1 },
      ),
    );
    const [entry] = await ctx.db
      .select()
      .from(apiKeyDirectory)
      .where(eq(apiKeyDirectory.secretHash, sha256(rotated.created.secret)));
    expect(entry?.tenantId).toBe(own);
    // Scope 'read' only: the entitlement check is a 403 for both keys, which proves both are live.
    expect((await withKey(rotated.created.secret).get('/api/v1/entitlements/check', check)).status).toBe(403);
    expect((await withKey(first.secret).get('/api/v1/entitlements/check', check)).status).toBe(403);
  });

  it('of a tenant still in the control database keep working there, on the same app', async () => {
    const created = dataOf(
      await superAdmin(demo).post<ApiKeyCreated>('/api/apikey/create', {
        name: 'Demo',
        scopes: ['entitlements'],
      }),
    );
    expect(await countIn(ctx.db, apiKeys, demo)).toBeGreaterThan(0);
    expect((await withKey(created.secret).get('/api/v1/entitlements/check', check)).status).toBe(200);
    await app.integrations.requestLog.flush();
    const [line] = await ctx.db.select().from(apiRequestLogs).where(eq(apiRequestLogs.apiKeyId, created.id));
    expect(line?.tenantId).toBe(demo);
  });

  it('count against limits named by tenant and key: the same key id in two tenant databases is two counters', async () => {
    const limited = await ctx.buildAnotherApp({ API_RATE_PER_KEY: '2' }, { tenancy, now: clock.now });
    const secrets = { [own]: `rnv_live_${'D'.repeat(43)}`, [other]: `rnv_live_${'E'.repeat(43)}` };
    for (const tenantId of [own, other]) {
      const secret = secrets[tenantId] ?? '';
      // Id 500 in both tenants' databases (each database numbers its own keys).
      await tenancy
        .connectionFor(tenantId)
        .insert(apiKeys)
        .values({
          id: 500,
          tenantId,
          name: 'Stesso id',
          mode: 'live',
          secretHash: sha256(secret),
          lastFour: secret.slice(-4),
          scopes: ['entitlements'],
          createdAt: clock.now(),
        });
      await ctx.db.insert(apiKeyDirectory).values({ secretHash: sha256(secret), tenantId });
    }
    const call = (secret: string) =>
      client(limited, { authorization: `Bearer ${secret}` }, null).get('/api/v1/entitlements/check', check);
    expect((await call(secrets[own] ?? '')).status).toBe(200);
    expect((await call(secrets[own] ?? '')).status).toBe(200);
    expect((await call(secrets[own] ?? '')).status).toBe(429);
    const second = await call(secrets[other] ?? '');
    expect(second.status).toBe(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('take their limits from the tenant’s database (api_settings)', async () => {
    const saved = await superAdmin(own).put<{ perKeyPerMinute: number }>('/api/apikey/settings', {
      perKeyPerMinute: 77,
      perTenantPerMinute: 777,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ perKeyPerMinute: 77, perTenantPerMinute: 777 });
    const rows = await tenancy.connectionFor(own).select().from(apiSettings);
    expect(rows.map((r) => [r.tenantId, r.perKeyPerMinute])).toEqual([[own, 77]]);
    expect(await ctx.db.select().from(apiSettings).where(eq(apiSettings.tenantId, own))).toEqual([]);
    const otherSettings = dataOf(
      await superAdmin(other).get<{ perKeyPerMinute: number }>('/api/apikey/settings'),
    );
    expect(otherSettings.perKeyPerMinute).not.toBe(77);
  });

  it('the 30-day purge sweeps the tenant databases too', async () => {
    clock.advanceDays(31);
    try {
      const [run] = await app.jobs!.runJobNow(INTEGRATION_JOB_NAMES.requestLogPurge);
      expect(run?.outcome).toBe('succeeded');
      expect(await countIn(tenancy.connectionFor(own), apiRequestLogs, own)).toBe(0);
      expect(await countIn(tenancy.connectionFor(other), apiRequestLogs, other)).toBe(0);
      expect(await countIn(ctx.db, apiRequestLogs, demo)).toBe(0);
    } finally {
      clock.advanceDays(-31);
    }
  });
});

it('migration 0023 lists the keys of tenants still in the control database in the directory', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-migrations-'));
  const database = await openEmptyDatabase();
  try {
    await cp(migrationsFolder, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const upTo = journal.entries.findIndex((e) => e.tag === '0022_tenant-split');
    await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
    await database.handle.migrate(dir);
    const db = database.handle.db;
    await db.execute(sql`insert into tenants (id, name) values (1, 'Vecchio'), (2, 'Altro')`);
    await db.execute(
      sql`insert into api_keys (tenant_id, name, mode, secret_hash, last_four, scopes)
          values (1, 'a', 'live', 'digest-uno', 'abcd', '{read}'), (2, 'b', 'test', 'digest-due', 'efgh', '{read}')`,
    );
    await database.handle.migrate();
    const listed = await db.select().from(apiKeyDirectory).orderBy(apiKeyDirectory.secretHash);
    expect(listed).toEqual([
      { secretHash: 'digest-due', tenantId: 2 },
      { secretHash: 'digest-uno', tenantId: 1 },
    ]);
  } finally {
    await database.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

describe('webhooks of a tenant with its own database', () => {
  let endpoint: WebhookEndpointCreated;

  it('keep the endpoint there; a delivery written in the tenant’s unit is sent from its database once', async () => {
    endpoint = dataOf(
      await superAdmin(own).post<WebhookEndpointCreated>('/api/webhook/create', {
        url: receiverUrl,
        events: ['payment.succeeded'],
      }),
    );
    const ownDb = tenancy.connectionFor(own);
    expect((await ownDb.select().from(webhookEndpoints)).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, own))).toEqual(
      [],
    );

    await app.unitOfWork.run({ tenantId: own, actor: { kind: 'system', job: 'test' } }, (w) =>
      emitWebhook(w, 'payment.succeeded', { payment: { id: 1 } }),
    );
    const [pending] = await ownDb.select().from(webhookDeliveries);
    expect(pending?.status).toBe('pending');
    expect(await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, own))).toEqual(
      [],
    );

    // Two senders at once (two workers, two instances): one POST.
    received.length = 0;
    const runs = await Promise.all([
      app.integrations.webhooks.deliverDue(),
      app.integrations.webhooks.deliverDue(),
    ]);
    expect(runs.reduce((n, r) => n + r.tried, 0)).toBe(1);
    expect(await app.integrations.webhooks.deliverDue()).toEqual({ tried: 0, succeeded: 0 });
    expect(received).toHaveLength(1);
    const [sent] = received;
    const parts = Object.fromEntries(
      (sent?.signature ?? '').split(',').map((p) => p.split('=') as [string, string]),
    );
    const expected = createHmac('sha256', endpoint.secret).update(`${parts.t}.${sent?.body}`).digest();
    expect(timingSafeEqual(Buffer.from(parts.v1 ?? '', 'hex'), expected)).toBe(true);

    const [done] = await ownDb.select().from(webhookDeliveries);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await ownDb.select().from(webhookAttempts)).toHaveLength(1);
    const listed = dataOf(
      await superAdmin(own).get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    expect(listed.map((d) => [d.status, d.attemptList.length])).toEqual([['succeeded', 1]]);
    // The other tenant with its own database sees none of it.
    expect(dataOf(await superAdmin(other).get<unknown[]>('/api/webhook/list'))).toEqual([]);

    // Re-send by hand, from the tenant's database.
    const resent = await superAdmin(own).post<{ manual: boolean; succeeded: boolean }>(
      `/api/webhook/deliveries/${done?.id}/resend`,
    );
    expect(resent.body.data).toMatchObject({ manual: true, succeeded: true });
    expect(received).toHaveLength(2);
    expect(await ownDb.select().from(webhookAttempts)).toHaveLength(2);

    // The job a commit enqueues sends its tenant's deliveries, from its database.
    await app.unitOfWork.run({ tenantId: own, actor: { kind: 'system', job: 'test' } }, (w) =>
      emitWebhook(w, 'payment.succeeded', { payment: { id: 2 } }),
    );
    const jobs = await app.jobs!.drain({ names: [WEBHOOK_JOB] });
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job).toMatchObject({ outcome: 'succeeded', data: { tenantId: own } });
    expect(jobs.reduce((n, j) => n + (j.output as { tried: number }).tried, 0)).toBe(1);
    expect(received).toHaveLength(3);
    expect(JSON.parse(received[2]?.body ?? '{}')).toMatchObject({ data: { payment: { id: 2 } } });
  });

  it('have their secrets (and payment providers’) rewrapped in the tenant’s database', async () => {
    const provider = await superAdmin(own).post('/api/paymentprovider/Create', {
      name: 'PayPal',
      apiUrl: 'https://api-m.sandbox.paypal.com',
      apiKey: 'client-id-proprio',
      ApiSecret: 'segreto-proprio-123',
      isActive: true,
    });
    expect(provider.status).toBe(200);
    // The tenant's PEC password, sealed with the old key in its row and in its database's copy.
    const sealed = createSecretBox(JWT_SECRET).seal(
      'pec-segreta',
      'tenants.pec_smtp_password_encrypted',
      own,
    );
    for (const db of [ctx.db, tenancy.connectionFor(own)])
      await db.update(tenants).set({ pecSmtpPasswordEncrypted: sealed }).where(eq(tenants.id, own));
    const box = createSecretBox({ current: 'a-new-encryption-key-0123456789abcdef', previous: JWT_SECRET });
    const deps = {
      shared: ctx.db,
      connectionFor: (id: number) => tenancy.connectionFor(id),
      tenantDatabases: () => tenancy.ownDatabases(),
      box,
      log: app.log,
    };
    expect(await countStale(deps)).toBeGreaterThanOrEqual(2);
    const result = await rewrapSecrets(deps);
    expect(result).toMatchObject({ unreadable: 0, remaining: 0 });
    expect(result).not.toHaveProperty('skippedDatabases');
    const ownDb = tenancy.connectionFor(own);
    const [ep] = await ownDb.select().from(webhookEndpoints);
    expect(ep?.secretEncrypted.startsWith(`v2.${box.keyId}.`)).toBe(true);
    expect(box.open(ep?.secretEncrypted ?? '', 'webhook_endpoints.secret_encrypted', ep?.id ?? 0)).toBe(
      endpoint.secret,
    );
    for (const db of [ctx.db, ownDb]) {
      const [row] = await db.select().from(tenants).where(eq(tenants.id, own));
      expect(row?.pecSmtpPasswordEncrypted?.startsWith(`v2.${box.keyId}.`)).toBe(true);
      expect(box.open(row?.pecSmtpPasswordEncrypted ?? '', 'tenants.pec_smtp_password_encrypted', own)).toBe(
        'pec-segreta',
      );
    }
    const [pp] = await ownDb.select().from(paymentProviders);
    expect(pp?.apiSecretEncrypted?.startsWith(`v2.${box.keyId}.`)).toBe(true);
    expect(
      box.open(pp?.apiSecretEncrypted ?? '', 'payment_providers.api_secret_encrypted', pp?.id ?? 0),
    ).toBe('segreto-proprio-123');

    // A tenant database that cannot be reached is skipped and reported; the others are done.
    await tenancy.setState(other, 'unavailable');
    try {
      const withOneDown = await rewrapSecrets({
        ...deps,
        // ownDatabases lists ready ones only: the unavailable one is named here as a sweep would meet it.
        tenantDatabases: async () => [...(await tenancy.ownDatabases()), tenancy.connectionFor(other)],
      });
      expect(withOneDown).toMatchObject({ remaining: 0, skippedDatabases: 1 });
    } finally {
      await tenancy.setState(other, 'ready');
    }
  });
});

describe('/api/v1 of a tenant with its own database', () => {
  it('finds the key’s tenant’s customer and their subscriptions there', async () => {
    const admin = superAdmin(own);
    const plan = dataOf(
      await admin.post<{ id: number }>('/api/plan/Create', {
        name: 'Piano API',
        recurringCostBeforeVAT: 12,
        vatPercentage: 22,
        recurrenceType: 1,
      }),
    );
    const customer = dataOf(
      await admin.post<{ id: number }>('/api/user/Create', {
        name: 'Giorgio Conti',
        email: 'giorgio.conti@example.com',
        isCompany: false,
        isActive: true,
        roleId: 3,
      }),
    );
    const subscription = dataOf(
      await admin.post<{ id: number }>('/api/subscription/Create', { userId: customer.id, planId: plan.id }),
    );
    const readKey = dataOf(
      await admin.post<ApiKeyCreated>('/api/apikey/create', {
        name: 'Sito',
        scopes: ['read', 'entitlements'],
      }),
    );
    const query = { query: { customerEmail: 'giorgio.conti@example.com' } };
    const list = await withKey(readKey.secret).get<{ id: number; planName: string }[]>(
      '/api/v1/subscriptions',
      query,
    );
    expect(list.status, list.raw).toBe(200);
    expect(list.body.data?.map((s) => [s.id, s.planName])).toEqual([[subscription.id, 'Piano API']]);
    const entitlements = await withKey(readKey.secret).get<{ customer: { id: number } }>(
      '/api/v1/entitlements',
      query,
    );
    expect(entitlements.status, entitlements.raw).toBe(200);
    expect(entitlements.body.data?.customer.id).toBe(customer.id);
  });
});
