/**
 * The SuperAdmin's calls on one tenant's database (issue 25, operations): the servers, a backup
 * downloaded and uploaded back (the tenant's rows restored), an export (zip) downloaded, refusals
 * in Italian, an Admin refused; on PostgreSQL a move, after which the tenant answers through the API.
 */
import { readFile, rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyMessages } from '../../../contract/messages';
import type { Tenant } from '../../../contract/schemas/tenant';
import { plans } from '../../../server/db/schema';
import { createTenantOperations } from '../../../server/db/tenancy/operations';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { client, createTestContext, DEMO } from '../helpers/test-app';
import type { ApiClient, TestContext } from '../helpers/test-app';
import type { FastifyInstance } from 'fastify';

const adminUrl = process.env.DATABASE_URL;
let ctx: TestContext;
let tenancy: TenantDatabases;
let app: FastifyInstance;
let token: string;
let superAdmin: (tenantId?: number) => ApiClient;
let own: number;

beforeAll(async () => {
  ctx = await createTestContext();
  tenancy = createTenantDatabases({
    control: ctx.database.handle,
    servers: adminUrl ? { second: adminUrl } : {},
    directoryTtlMs: 0,
  });
  app = await ctx.buildAnotherApp(
    {},
    { tenancy, tenantOperations: createTenantOperations({ tenancy, directoryTtlMs: 0 }) },
  );
  token = await ctx.login(DEMO.superadmin, DEMO.password);
  superAdmin = (tenantId) =>
    client(app, {
      authorization: `Bearer ${token}`,
      ...(tenantId === undefined ? {} : { 'x-tenant-id': String(tenantId) }),
    });
  const res = await superAdmin().post<Tenant>('/api/tenant/Create', { name: 'Studio con backup' });
  own = res.body.data?.id ?? 0;
  await tenancy.create(own, adminUrl ? 'control' : undefined);
  await tenancy
    .connectionFor(own)
    .insert(plans)
    .values({ tenantId: own, name: 'Piano del backup', recurringCostBeforeVat: '5.00', recurrenceType: 1 })
    .execute();
}, 120_000);

afterAll(async () => {
  await tenancy?.drop(own).catch(() => undefined);
  await tenancy?.close();
  await ctx?.close();
});

const planNames = async () =>
  (
    await tenancy.connectionFor(own).select({ name: plans.name }).from(plans).where(eq(plans.tenantId, own))
  ).map((r) => r.name);

const headers = () => ({ authorization: `Bearer ${token}`, 'x-api-key': 'test-api-key' });

describe('tenant database calls', () => {
  it('lists the servers; an Admin is refused', async () => {
    const res = await superAdmin().get<string[]>('/api/tenant/database/servers');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(adminUrl ? ['control', 'second'] : ['embedded']);
    const admin = await ctx.as('admin');
    expect((await admin.get(`/api/tenant/${own}/database/backup`)).status).toBe(403);
  });

  it('a backup downloaded and uploaded back restores the tenant’s rows', { timeout: 60_000 }, async () => {
    const backup = await app.inject({
      method: 'GET',
      url: `/api/tenant/${own}/database/backup`,
      headers: headers(),
    });
    expect(backup.statusCode).toBe(200);
    expect(backup.headers['content-disposition']).toMatch(/attachment; filename="tenant-\d+-[\d-]+\.backup"/);
    expect(backup.rawPayload.subarray(0, 21).toString()).toBe('RINNOVA-TENANT-BACKUP');

    await tenancy
      .connectionFor(own)
      .update(plans)
      .set({ name: 'Cambiato' })
      .where(eq(plans.tenantId, own))
      .execute();
    const restored = await app.inject({
      method: 'POST',
      url: `/api/tenant/${own}/database/restore`,
      headers: { ...headers(), 'content-type': 'application/octet-stream' },
      payload: backup.rawPayload,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ success: true, message: tenancyMessages.restored });
    expect(await planNames()).toEqual(['Piano del backup']);

    // Onto another tenant: refused, in Italian.
    const seeded = await ctx.tenantId('Demo Srl');
    const refused = await app.inject({
      method: 'POST',
      url: `/api/tenant/${seeded}/database/restore`,
      headers: { ...headers(), 'content-type': 'application/octet-stream' },
      payload: backup.rawPayload,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      success: false,
      message: tenancyMessages.backupOfAnotherTenant(own, seeded),
    });
  });

  it(
    'an export downloads as a zip; a tenant without its own database is refused',
    { timeout: 60_000 },
    async () => {
      const exported = await app.inject({
        method: 'POST',
        url: `/api/tenant/${own}/database/export`,
        headers: headers(),
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toBe('application/zip');
      expect(exported.rawPayload.subarray(0, 2).toString()).toBe('PK');
      const seeded = await ctx.tenantId('Demo Srl');
      const refused = await superAdmin().get(`/api/tenant/${seeded}/database/backup`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(tenancyMessages.noOwnDatabase);
    },
  );

  it.runIf(Boolean(adminUrl))(
    'moves the tenant; it answers through the API afterwards',
    { timeout: 60_000 },
    async () => {
      const moved = await superAdmin().post<{ server: string }>(`/api/tenant/${own}/database/move`, {
        server: 'second',
      });
      expect(moved.status, moved.raw).toBe(200);
      expect(moved.body).toMatchObject({
        message: tenancyMessages.moved('second'),
        data: { server: 'second' },
      });
      const list = await superAdmin(own).get('/api/plan/getAll', { query: { page: 1 } });
      expect(list.status).toBe(200);
      expect(list.raw).toContain('Piano del backup');
      const unknown = await superAdmin().post(`/api/tenant/${own}/database/move`, { server: 'altrove' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe(tenancyMessages.unknownServer('altrove'));
    },
  );

  it(
    'deletes a tenant once its name is typed: an export is kept on the server first, then nothing of it remains',
    { timeout: 60_000 },
    async () => {
      const res = await superAdmin().post<Tenant>('/api/tenant/Create', { name: 'Bottega da chiudere' });
      const gone = res.body.data?.id ?? 0;
      await tenancy.create(gone, adminUrl ? 'control' : undefined);
      const wrong = await superAdmin().post(`/api/tenant/${gone}/database/delete`, { name: 'Bottega' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        message: tenancyMessages.deleteConfirmName,
        fieldErrors: { name: tenancyMessages.deleteConfirmName },
      });
      expect((await tenancy.placementOf(gone)).database).not.toBeNull();

      const admin = await ctx.as('admin');
      expect(
        (await admin.post(`/api/tenant/${gone}/database/delete`, { name: 'Bottega da chiudere' })).status,
      ).toBe(403);

      const deleted = await superAdmin().post<{ exportFile: string }>(`/api/tenant/${gone}/database/delete`, {
        name: 'Bottega da chiudere',
      });
      expect(deleted.status, deleted.raw).toBe(200);
      expect(deleted.body.message).toBe(tenancyMessages.deletedWithExport('Bottega da chiudere'));
      const exportFile = deleted.body.data?.exportFile ?? '';
      expect((await readFile(exportFile)).subarray(0, 2).toString()).toBe('PK');
      await rm(exportFile, { force: true });
      expect((await tenancy.placementOf(gone)).database).toBeNull();
      expect((await superAdmin().get(`/api/tenant/GetById/${gone}`)).status).toBe(404);
      // The other tenant still answers.
      expect((await superAdmin(own).get('/api/plan/getAll')).status).toBe(200);
    },
  );
});
