/**
 * Tenant databases as an API client sees them (issue 25; contract 'Tenancy'): a SuperAdmin reads
 * where a tenant's database lives and its size; a tenant whose database is unavailable answers 503
 * with the Italian message on its own calls, while another tenant's calls answer as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { tenancyMessages } from '../../../contract/messages';
import type { Database } from '../../../server/db/client';
import { features, paymentProviders, planFeatures, plans, tenants } from '../../../server/db/schema';
import type { Tenant } from '../../../contract/schemas/tenant';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { client, createTestContext, DEMO } from '../helpers/test-app';
import type { ApiClient, TestContext } from '../helpers/test-app';

let ctx: TestContext;
let tenancy: TenantDatabases;
let superAdmin: (tenantId?: number) => ApiClient;
const created: number[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  tenancy = createTenantDatabases({ control: ctx.database.handle });
  const app = await ctx.buildAnotherApp({}, { tenancy });
  const token = await ctx.login(DEMO.superadmin, DEMO.password);
  superAdmin = (tenantId) =>
    client(app, {
      authorization: `Bearer ${token}`,
      ...(tenantId === undefined ? {} : { 'x-tenant-id': String(tenantId) }),
    });
  for (const name of ['Studio Isolato Uno', 'Bottega Isolata Due']) {
    const res = await superAdmin().post<Tenant>('/api/tenant/Create', { name });
    expect(res.status).toBe(200);
    created.push(res.body.data?.id ?? 0);
  }
  for (const id of created) await tenancy.create(id);
}, 120_000);

afterAll(async () => {
  for (const id of created) await tenancy.drop(id).catch(() => undefined);
  await tenancy.close();
  await ctx.close();
});

describe('tenant databases through the API', () => {
  it('a SuperAdmin reads where each tenant’s database lives and its size; an Admin does not', async () => {
    const [own] = created as [number];
    const res = await superAdmin().get<Tenant>(`/api/tenant/GetById/${own}`);
    expect(res.status).toBe(200);
    expect(res.body.data?.database).toEqual({
      server: process.env.DATABASE_URL ? 'control' : 'embedded',
      name: expect.stringMatching(new RegExp(`_t${own}$`)),
      sizeBytes: expect.any(Number),
    });
    expect(res.body.data?.database?.sizeBytes).toBeGreaterThan(1_000_000);

    const seeded = await ctx.tenantId('Demo Srl');
    const inControl = await superAdmin().get<Tenant>(`/api/tenant/GetById/${seeded}`);
    expect(inControl.body.data?.database).toEqual({
      server: 'control',
      name: expect.any(String),
      sizeBytes: null,
    });

    const admin = await ctx.as('admin');
    const asAdmin = await admin.get<Tenant>(`/api/tenant/GetById/${seeded}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data).not.toHaveProperty('database');
  });

  it('a tenant whose database is unavailable answers 503 in Italian on its calls only', async () => {
    const [down, up] = created as [number, number];
    expect((await superAdmin(down).get('/api/dashboard/summary')).status).toBe(200);
    await tenancy.setState(down, 'unavailable');
    try {
      const refused = await superAdmin(down).get('/api/dashboard/summary');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ success: false, message: tenancyMessages.unavailable });
      expect((await superAdmin(up).get('/api/dashboard/summary')).status).toBe(200);
      // Calls that are not the tenant's (the tenant list, geography) still answer.
      expect((await superAdmin().get(`/api/tenant/GetById/${up}`)).status).toBe(200);
    } finally {
      await tenancy.setState(down, 'ready');
    }
    expect((await superAdmin(down).get('/api/dashboard/summary')).status).toBe(200);
  });

  it('plans, features and payment providers of a tenant with its own database live there only', async () => {
    const [own, other] = created as [number, number];
    const api = superAdmin(own);
    const plan = await api.post<{ id: number }>('/api/plan/Create', {
      name: 'Piano isolato',
      recurringCostBeforeVAT: 30,
      vatPercentage: 22,
      recurrenceType: 1,
      paypalPlanId: '',
      stripePlanId: '',
      isActive: true,
    });
    expect(plan.status).toBe(200);
    const planId = plan.body.data?.id ?? 0;
    const feature = await api.post<{ id: number }>('/api/feature/Create', { featureName: 'Report avanzati' });
    expect(feature.status).toBe(200);
    const linked = await api.post(`/api/plan/associateFeatures/${planId}`, [
      { featureName: 'Report avanzati' },
    ]);
    expect(linked.status).toBe(200);
    const provider = await api.post('/api/paymentprovider/Create', {
      name: 'PayPal',
      apiUrl: 'https://api-m.sandbox.paypal.com',
      apiKey: 'client-id-isolato',
      ApiSecret: 'segreto-isolato-123',
      isActive: true,
    });
    expect(provider.status).toBe(200);

    // Read back through the API: lists, detail, the widget's code, the payment page's settings.
    const list = await api.get<{ items: { name: string }[] }>('/api/plan/getAll', {
      query: { PageNumber: 1, PageSize: 10 },
    });
    expect(list.body.data?.items.map((p) => p.name)).toEqual(['Piano isolato']);
    expect((await api.get(`/api/plan/GetById/${planId}`)).status).toBe(200);
    expect((await api.get('/api/plan/iframe', { query: { planId } })).status).toBe(200);
    const settings = await superAdmin().get<{ apiKey: string }>(
      `/api/paymentprovider/GetPayPalSettingsByTenant/${own}`,
    );
    expect(settings.body.data?.apiKey).toBe('client-id-isolato');

    // Where the rows are: the tenant's database, not the control database, not the other tenant's.
    const inOwn = tenancy.connectionFor(own);
    const count = async (db: Database, table: typeof plans | typeof features | typeof paymentProviders) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(table)
          .where(eq(table.tenantId, own))
      )[0]?.n;
    for (const table of [plans, features, paymentProviders]) {
      expect(await count(inOwn, table)).toBeGreaterThan(0);
      expect(await count(ctx.db, table)).toBe(0);
      expect(await count(tenancy.connectionFor(other), table)).toBe(0);
    }
    expect((await inOwn.select().from(planFeatures)).length).toBe(1);

    // The other tenant with its own database lists nothing of it.
    const otherList = await superAdmin(other).get<{ items: unknown[] }>('/api/plan/getAll', {
      query: { PageNumber: 1, PageSize: 10 },
    });
    expect(otherList.body.data?.items).toEqual([]);
    expect((await superAdmin(other).get(`/api/plan/GetById/${planId}`)).status).toBe(404);
  });

  it(
    'with new tenant databases on (npm start), a tenant is born in its own; an update reaches its copy there',
    { timeout: 60_000 },
    async () => {
      const started = await ctx.buildAnotherApp({}, { tenancy, newTenantDatabases: true });
      const token = await ctx.login(DEMO.superadmin, DEMO.password);
      const api = client(started, { authorization: `Bearer ${token}` });
      const res = await api.post<Tenant>('/api/tenant/Create', { name: 'Nato Isolato' });
      expect(res.status, res.raw).toBe(200);
      const id = res.body.data?.id ?? 0;
      created.push(id);
      expect((await tenancy.placementOf(id)).database).toMatch(new RegExp(`_t${id}$`));
      expect(
        (await api.get<Tenant>(`/api/tenant/GetById/${id}`)).body.data?.database?.sizeBytes,
      ).toBeGreaterThan(0);

      const renamed = await api.put<Tenant>('/api/tenant/Update', {
        ...res.body.data,
        name: 'Nato Isolato Srl',
      });
      expect(renamed.status, renamed.raw).toBe(200);
      const [copy] = await tenancy
        .connectionFor(id)
        .select({ name: tenants.name })
        .from(tenants)
        .where(eq(tenants.id, id));
      expect(copy?.name).toBe('Nato Isolato Srl');
    },
  );
});
