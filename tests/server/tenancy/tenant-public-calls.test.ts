/**
 * Public calls that name no tenant, for a tenant with its own database (issue 25): the plan widget
 * names a plan by id, the confirmation and payment links carry a token. A plan made in a tenant's
 * database takes an id unique across databases and is listed in the control database's
 * `public_ids`; a link's token starts with its tenant (`t<id>_`). Everything the widget and the
 * payment page write lands in the tenant's database; the customer's identity and membership in the
 * control database.
 */
import { and, eq, sql } from 'drizzle-orm';
import { executeRows } from '../../../server/db/rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Plan } from '../../../contract/schemas/plan';
import type { Tenant } from '../../../contract/schemas/tenant';
import {
  paymentTokens,
  plans,
  publicIds,
  subscriptions,
  users,
  userTenants,
  widgetRequests,
} from '../../../server/db/schema';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { client, createTestContext, DEMO } from '../helpers/test-app';
import type { ApiClient, TestContext } from '../helpers/test-app';

let fake: FakePayPal;
let ctx: TestContext;
let tenancy: TenantDatabases;
let seller: number;
let admin: ApiClient;
let publicApi: ApiClient;
let planId = 0;

beforeAll(async () => {
  fake = await startFakePayPal();
  ctx = await createTestContext({ env: { PAYPAL_TIMEOUT: '2s' } });
  tenancy = createTenantDatabases({ control: ctx.database.handle });
  const app = await ctx.buildAnotherApp({ PAYPAL_TIMEOUT: '2s' }, { tenancy });
  const token = await ctx.login(DEMO.superadmin, DEMO.password);
  const created = await client(app, { authorization: `Bearer ${token}` }).post<Tenant>('/api/tenant/Create', {
    name: 'Palestra Pubblica',
  });
  expect(created.status).toBe(200);
  seller = created.body.data?.id ?? 0;
  await tenancy.create(seller);
  admin = client(app, { authorization: `Bearer ${token}`, 'x-tenant-id': String(seller) });
  publicApi = client(app, {});
  const provider = await admin.post('/api/paymentprovider/Create', {
    name: 'PayPal',
    apiUrl: fake.url,
    apiKey: 'fake-client-id-palestra',
    apiSecret: 'fake-secret',
    webhookId: 'WH-PALESTRA',
  });
  expect(provider.status, provider.raw).toBe(200);
}, 120_000);

afterAll(async () => {
  await tenancy.drop(seller).catch(() => undefined);
  await tenancy.close();
  await ctx.close();
  await fake.close();
});

describe('the plan widget and the payment page of a tenant with its own database', () => {
  it('a plan made there takes an id no plan of the control database has, listed in public_ids', async () => {
    const res = await admin.post<Plan>('/api/plan/Create', {
      name: 'Ingresso mensile',
      recurringCostBeforeVAT: 40,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(res.status, res.raw).toBe(200);
    planId = res.body.data?.id ?? 0;
    expect(await ctx.db.select().from(plans).where(eq(plans.id, planId))).toEqual([]);
    const [own] = await tenancy.connectionFor(seller).select().from(plans).where(eq(plans.id, planId));
    expect(own?.name).toBe('Ingresso mensile');
    expect(await ctx.db.select().from(publicIds).where(eq(publicIds.id, planId))).toEqual([
      { kind: 'plan', id: planId, tenantId: seller },
    ]);
    // The control database's sequence moved past it: a plan made there later gets another id.
    const [next] = await executeRows<{ id: number }>(
      ctx.db,
      sql`select nextval(pg_get_serial_sequence('plans', 'id'))::int as id`,
    );
    expect(next?.id).toBeGreaterThan(planId);
    expect((await admin.post(`/api/plan/syncPaypal/${planId}`)).status).toBe(200);
  });

  it('the widget reads the plan, and subscribing writes the request in the tenant’s database', async () => {
    const widget = await publicApi.get<{ id: number; name: string }>(`/api/plan/widget?planId=${planId}`);
    expect(widget.status, widget.raw).toBe(200);
    expect(widget.body.data).toMatchObject({ id: planId, name: 'Ingresso mensile' });

    const before = await ctx.outbox();
    const res = await publicApi.post('/api/subscription/subscribe', {
      planId,
      email: 'luca.marino@example.com',
      name: 'Luca Marino',
    });
    expect(res.status, res.raw).toBe(200);
    const own = tenancy.connectionFor(seller);
    expect(await own.select().from(widgetRequests)).toHaveLength(1);
    expect(await ctx.db.select().from(widgetRequests).where(eq(widgetRequests.tenantId, seller))).toEqual([]);

    const mail = (await ctx.outbox()).slice(before.length).at(0);
    const token = /\/widget\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(token.startsWith(`t${seller}_`)).toBe(true);

    const confirmed = await publicApi.post<{ paymentUrl: string; result: string }>(
      '/api/subscription/subscribe/confirm',
      { token },
    );
    expect(confirmed.status, confirmed.raw).toBe(200);
    expect(confirmed.body.data?.result).toBe('created');

    // The customer: identity and membership in control, the record and the subscription here.
    const [identity] = await ctx.db.select().from(users).where(eq(users.email, 'luca.marino@example.com'));
    expect(identity).toBeDefined();
    const userId = identity?.id ?? 0;
    const [membership] = await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, seller)));
    expect(membership).toMatchObject({ isActive: true, name: null });
    const [record] = await own.select().from(userTenants).where(eq(userTenants.userId, userId));
    expect(record?.name).toBe('Luca Marino');
    expect(await own.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(1);
    expect(await ctx.db.select().from(subscriptions).where(eq(subscriptions.tenantId, seller))).toEqual([]);

    // The payment page finds the link in the tenant's database.
    const paymentToken = new URL(confirmed.body.data?.paymentUrl ?? '').searchParams.get('token') ?? '';
    expect(paymentToken.startsWith(`t${seller}_`)).toBe(true);
    const view = await publicApi.get<PaymentTokenView>(
      `/api/PaymentToken/validate?token=${encodeURIComponent(paymentToken)}`,
    );
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({ planId, tenantID: seller, amount: 48.8 });
    expect(await own.select().from(paymentTokens)).toHaveLength(1);
    expect(await ctx.db.select().from(paymentTokens).where(eq(paymentTokens.tenantId, seller))).toEqual([]);
  });

  it('a token naming another tenant finds nothing there', async () => {
    const forged = `t1_${'A'.repeat(43)}`;
    const view = await publicApi.get(`/api/PaymentToken/validate?token=${forged}`);
    expect(view.body).toMatchObject({ success: false, message: 'Token non valido.' });
  });
});
