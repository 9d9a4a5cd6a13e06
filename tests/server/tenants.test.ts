import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, SelectResult } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { Tenant } from '../../contract/schemas/tenant';
import { validationMessages } from '../../contract/validation/italian';
import { tenants, userTenants, users } from '../../server/db/schema';
import { createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
let demoId: number;
let rossiId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
});
afterAll(() => ctx.close());

const names = (res: { body: { data: Paged<Tenant> | null } }) => res.body.data?.items.map((t) => t.name);

describe('X-Tenant-Id resolution', () => {
  it('a tenant the caller does not belong to is a 403, on any signed-in call', async () => {
    const admin = await ctx.as('admin', 'Studio Rossi');
    for (const url of ['/api/region/getAll', '/api/tenant/getAll', '/api/user/isEmailUnique/a%40b.it']) {
      const res = await admin.get(url);
      expect(res.status, url).toBe(403);
      expect(res.body).toEqual({ success: false, message: serverMessages.tenantForbidden, data: null });
    }
    expect((await (await ctx.as('cliente', rossiId)).get('/api/region/getAll')).status).toBe(403);
  });

  it('a member passes with its tenant; a SuperAdmin passes with any existing tenant', async () => {
    expect((await (await ctx.as('admin', demoId)).get('/api/region/getAll')).status).toBe(200);
    expect((await (await ctx.as('superadmin', rossiId)).get('/api/region/getAll')).status).toBe(200);
  });

  it('an unknown tenant is a 403 even for a SuperAdmin; a malformed one is a 400', async () => {
    expect((await (await ctx.as('superadmin', 999999)).get('/api/region/getAll')).status).toBe(403);
    const malformed = await (
      await ctx.as('superadmin')
    ).get('/api/region/getAll', { headers: { 'x-tenant-id': 'uno' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(serverMessages.invalidId);
  });

  it('public calls ignore the header', async () => {
    const res = await ctx.api.post(
      '/api/user/Login',
      { email: DEMO.admin, password: DEMO.password },
      { headers: { 'x-tenant-id': String(rossiId) } },
    );
    expect(res.status).toBe(200);
  });
});

describe('tenant list (read by the tenant selector before a tenant is chosen)', () => {
  it('a SuperAdmin sees every tenant in name order, without X-Tenant-Id', async () => {
    const res = await (
      await ctx.as('superadmin')
    ).get<Paged<Tenant>>('/api/tenant/getAll', { query: { page: 1, pageSize: 100 } });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Demo Srl', 'Sofia Bellini Illustrazioni', 'Studio Rossi']);
    expect(res.body.data?.totalCount).toBe(3);
  });

  it('an Admin and a User see only the tenants they belong to, and count only those', async () => {
    for (const role of ['admin', 'cliente'] as const) {
      const res = await (
        await ctx.as(role)
      ).get<Paged<Tenant>>('/api/tenant/getAll', { query: { pageSize: 100 } });
      expect(names(res)).toEqual(['Demo Srl']);
      expect(res.body.data?.totalCount).toBe(1);
      const select = await (
        await ctx.as(role)
      ).get<SelectResult>('/api/tenant/getAllForSelect', { query: { selectedIds: String(rossiId) } });
      // selectedIds never reveal a tenant outside the caller's reach.
      expect(select.body.data?.options).toEqual([{ value: demoId, label: 'Demo Srl' }]);
    }
  });

  it('another tenant by id is a 404 (not a 403: its existence is not revealed)', async () => {
    const admin = await ctx.as('admin');
    expect((await admin.get(`/api/tenant/GetById/${rossiId}`)).status).toBe(404);
    expect((await admin.get<Tenant>(`/api/tenant/GetById/${demoId}`)).body.data).toMatchObject({
      id: demoId,
      name: 'Demo Srl',
      configuration: null,
    });
  });

  it('searchTerm and filters[name] apply', async () => {
    const sa = await ctx.as('superadmin');
    expect(
      names(await sa.get<Paged<Tenant>>('/api/tenant/getAll', { query: { searchTerm: 'ROSSI' } })),
    ).toEqual(['Studio Rossi']);
    expect(
      names(await sa.get<Paged<Tenant>>('/api/tenant/getAll', { query: { 'filters[name]': 'demo' } })),
    ).toEqual(['Demo Srl']);
  });
});

describe('tenant writes', () => {
  it('only a SuperAdmin creates and deletes', async () => {
    const admin = await ctx.as('admin');
    const before = (await ctx.db.select({ n: count() }).from(tenants))[0]?.n;
    expect((await admin.post('/api/tenant/Create', { name: 'Nuovo' })).status).toBe(403);
    expect((await admin.delete(`/api/tenant/Delete/${demoId}`)).status).toBe(403);
    expect((await ctx.db.select({ n: count() }).from(tenants))[0]?.n).toBe(before);

    const sa = await ctx.as('superadmin');
    const created = await sa.post<Tenant>('/api/tenant/Create', {
      Name: 'Bianchi & Figli',
      configuration: '{"tema":"blu"}',
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Bianchi & Figli', configuration: '{"tema":"blu"}' });
    expect((await sa.delete(`/api/tenant/Delete/${created.body.data?.id}`)).status).toBe(200);
  });

  it('an Admin updates its own tenant but not another (404); a User updates none (403)', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const own = await admin.put<Tenant>('/api/tenant/Update', {
      id: demoId,
      name: 'Demo Srl',
      configuration: 'x',
    });
    expect(own.status).toBe(200);
    expect(own.body.data?.configuration).toBe('x');
    const other = await admin.put('/api/tenant/Update', { id: rossiId, name: 'Preso!' });
    expect(other.status).toBe(404);
    expect((await ctx.db.select().from(tenants).where(eq(tenants.id, rossiId)))[0]?.name).toBe(
      'Studio Rossi',
    );
    expect(
      (await (await ctx.as('cliente')).put('/api/tenant/Update', { id: demoId, name: 'X' })).status,
    ).toBe(403);
  });

  it('deleting a tenant that still has members is a 409 and deletes nothing', async () => {
    const sa = await ctx.as('superadmin');
    const res = await sa.delete(`/api/tenant/Delete/${demoId}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(serverMessages.inUse);
    expect(await ctx.db.select().from(tenants).where(eq(tenants.id, demoId))).toHaveLength(1);
  });

  it('an empty name is a 400', async () => {
    const res = await (await ctx.as('superadmin')).post('/api/tenant/Create', { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`name: ${validationMessages.tenantNameRequired}`]);
  });
});

it('the seeded memberships: SuperAdmin none, Admin and User in Demo Srl', async () => {
  const rows = await ctx.db
    .select({ email: users.email, tenantId: userTenants.tenantId })
    .from(users)
    .leftJoin(userTenants, eq(userTenants.userId, users.id));
  const byEmail = Object.fromEntries(rows.map((r) => [r.email, r.tenantId]));
  expect(byEmail[DEMO.superadmin]).toBeNull();
  expect(byEmail[DEMO.admin]).toBe(demoId);
  expect(byEmail[DEMO.cliente]).toBe(demoId);
});
