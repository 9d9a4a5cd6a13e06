/**
 * A tenant's customers in its own database (issue 25): the identity and the membership stay in the
 * control database (who signs in, where), the tenant's record of the person (name, PEC, VAT,
 * billing address) lives in the tenant's database with a copy of the identity without secrets, so
 * its lists, subscriptions and invoices read it there. A person who is a customer of two sellers
 * signs in once and each seller keeps its own record in its own database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../contract/envelope';
import type { Tenant } from '../../../contract/schemas/tenant';
import type { User } from '../../../contract/schemas/user';
import type { Address } from '../../../contract/schemas/address';
import type { Invoice, InvoiceIssues } from '../../../contract/schemas/invoice';
import type { Subscription } from '../../../contract/schemas/subscription';
import type { Database } from '../../../server/db/client';
import { addresses, invoices, municipalities, users, userTenants } from '../../../server/db/schema';
import { hashPassword } from '../../../server/lib/passwords';
import { createTenantOperations } from '../../../server/db/tenancy/operations';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { placeOf } from '../helpers/entity-checks';
import { client, createTestContext, DEMO } from '../helpers/test-app';
import type { ApiClient, TestContext } from '../helpers/test-app';

let ctx: TestContext;
let tenancy: TenantDatabases;
let app: Awaited<ReturnType<TestContext['buildAnotherApp']>>;
let token: string;
const sellers: number[] = [];
let milano: Awaited<ReturnType<typeof placeOf>>;

const as = (tenantId: number, bearer = token): ApiClient =>
  client(app, { authorization: `Bearer ${bearer}`, 'x-tenant-id': String(tenantId) });
const own = (tenantId: number): Database => tenancy.connectionFor(tenantId);

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Chiara Esposito',
  email: 'chiara.esposito@example.com',
  pec: 'chiara.esposito@pec.example.com',
  phone: '',
  sdi: '',
  vatCode: '',
  fiscalCode: 'SPSCHR85M41F205O',
  isCompany: false,
  isActive: true,
  roleId: 3,
  street: 'Via Dante 7',
  zip: '20121',
  region: milano.regionId,
  province: milano.provinceId,
  municipality: milano.municipalityId,
  ...overrides,
});

beforeAll(async () => {
  ctx = await createTestContext();
  tenancy = createTenantDatabases({ control: ctx.database.handle });
  app = await ctx.buildAnotherApp({}, { tenancy });
  token = await ctx.login(DEMO.superadmin, DEMO.password);
  milano = await placeOf(ctx.db, 'Milano', 'MI');
  for (const name of ['Studio Clienti Uno', 'Bottega Clienti Due']) {
    const res = await client(app, { authorization: `Bearer ${token}` }).post<Tenant>('/api/tenant/Create', {
      name,
    });
    expect(res.status).toBe(200);
    sellers.push(res.body.data?.id ?? 0);
  }
  for (const id of sellers) await tenancy.create(id);
}, 120_000);

afterAll(async () => {
  for (const id of sellers) await tenancy.drop(id).catch(() => undefined);
  await tenancy.close();
  await ctx.close();
});

async function membership(db: Database, userId: number, tenantId: number) {
  const [row] = await db
    .select()
    .from(userTenants)
    .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)));
  return row;
}

describe('customers of a tenant with its own database', () => {
  let customerId = 0;

  it('Create keeps the identity and membership in control and the record in the tenant’s database', async () => {
    const [first] = sellers as [number];
    const res = await as(first).post<User>('/api/user/Create', form());
    expect(res.status, res.raw).toBe(200);
    customerId = res.body.data?.id ?? 0;
    expect(res.body.data).toMatchObject({
      name: 'Chiara Esposito',
      pec: 'chiara.esposito@pec.example.com',
      billingAddress: { municipality: { id: milano.municipalityId, name: 'Milano' } },
    });

    const control = await membership(ctx.db, customerId, first);
    expect(control).toMatchObject({
      isActive: true,
      name: null,
      pec: null,
      fiscalCode: null,
      billingStreet: null,
    });
    const record = await membership(own(first), customerId, first);
    expect(record).toMatchObject({
      name: 'Chiara Esposito',
      fiscalCode: 'SPSCHR85M41F205O',
      billingStreet: 'Via Dante 7',
      billingMunicipalityId: milano.municipalityId,
      email: 'chiara.esposito@example.com',
    });
    const [copy] = await own(first).select().from(users).where(eq(users.id, customerId));
    expect(copy).toMatchObject({ email: 'chiara.esposito@example.com', roleId: 3, passwordHash: null });
    const [identity] = await ctx.db.select().from(users).where(eq(users.id, customerId));
    expect(identity?.email).toBe('chiara.esposito@example.com');
  });

  it('lists, searches and reads the record from the tenant’s database', async () => {
    const [first] = sellers as [number];
    const list = await as(first).get<Paged<User>>('/api/user/getAll?searchTerm=esposito');
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((u) => [u.id, u.name, u.fiscalCode])).toEqual([
      [customerId, 'Chiara Esposito', 'SPSCHR85M41F205O'],
    ]);
    const one = await as(first).get<User>(`/api/user/GetById/${customerId}`);
    expect(one.body.data?.billingAddress?.province?.abbreviation).toBe('MI');
  });

  it('Update changes the record there, and deactivation reaches the membership in control', async () => {
    const [first] = sellers as [number];
    const res = await as(first).put<User>('/api/user/Update', {
      id: customerId,
      ...form({ name: 'Chiara Esposito Bianchi', isActive: false }),
    });
    expect(res.status).toBe(200);
    expect((await membership(own(first), customerId, first))?.name).toBe('Chiara Esposito Bianchi');
    expect(await membership(ctx.db, customerId, first)).toMatchObject({ isActive: false, name: null });
    const back = await as(first).put<User>('/api/user/Update', { id: customerId, ...form() });
    expect(back.status).toBe(200);
    expect((await membership(ctx.db, customerId, first))?.isActive).toBe(true);
  });

  it('a customer of two sellers signs in once; each seller keeps its own record in its own database', async () => {
    const [first, second] = sellers as [number, number];
    const attached = await as(second).post<User>(
      '/api/user/Create',
      form({
        name: 'Chiara E.',
        pec: '',
        fiscalCode: '',
        street: '',
        zip: '',
        region: null,
        province: null,
        municipality: null,
      }),
    );
    expect(attached.status).toBe(200);
    expect(attached.body.data?.id).toBe(customerId);
    expect((await membership(own(second), customerId, second))?.name).toBe('Chiara E.');
    expect((await membership(own(first), customerId, first))?.name).toBe('Chiara Esposito');
    expect(await membership(own(first), customerId, second)).toBeUndefined();

    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword('Cliente-Due-Negozi-1') })
      .where(eq(users.id, customerId));
    const customer = await ctx.login('chiara.esposito@example.com', 'Cliente-Due-Negozi-1');
    for (const tenantId of [first, second]) {
      const res = await as(tenantId, customer).get<Paged<Address>>('/api/address/getAll');
      expect(res.status).toBe(200);
    }
  });

  it('addresses live in the tenant’s database; a membership still referenced is not removed (409, nothing changed)', async () => {
    const [first] = sellers as [number];
    const created = await as(first).post<Address>('/api/address/Create', {
      street: 'Corso Magenta 12',
      zip: '20123',
      municipalityId: milano.municipalityId,
      userId: customerId,
    });
    expect(created.status).toBe(200);
    const [row] = await own(first)
      .select()
      .from(addresses)
      .where(eq(addresses.id, created.body.data?.id ?? 0));
    expect(row?.street).toBe('Corso Magenta 12');

    const refused = await as(first).delete(`/api/user/Delete/${customerId}`);
    expect(refused.status).toBe(409);
    expect(await membership(ctx.db, customerId, first)).toBeDefined();
    expect(await membership(own(first), customerId, first)).toBeDefined();

    expect((await as(first).delete(`/api/address/Delete/${created.body.data?.id ?? 0}`)).status).toBe(200);
    const removed = await as(first).delete(`/api/user/Delete/${customerId}`);
    expect(removed.status).toBe(200);
    expect(await membership(ctx.db, customerId, first)).toBeUndefined();
    expect(await membership(own(first), customerId, first)).toBeUndefined();
    expect(await own(first).select().from(users).where(eq(users.id, customerId))).toEqual([]);
    // Still a customer of the other seller: the identity stays.
    expect(await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, customerId))).toHaveLength(1);
  });

  it('the tenant’s database holds the geography its addresses reference', async () => {
    const [first] = sellers as [number];
    const [copy] = await own(first)
      .select({ name: municipalities.name })
      .from(municipalities)
      .where(eq(municipalities.id, milano.municipalityId));
    expect(copy?.name).toBe('Milano');
  });

  it('a restore keeps the members the control database knows now: one added since the backup comes back with an empty record', async () => {
    const [first] = sellers as [number];
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-members-restore-'));
    try {
      const ops = createTenantOperations({ tenancy, directoryTtlMs: 0 });
      const file = path.join(dir, 'prima.backup');
      await ops.backup(first, file);
      const added = await as(first).post<User>(
        '/api/user/Create',
        form({ name: 'Dopo il backup', email: 'dopo.backup@example.com', fiscalCode: '' }),
      );
      expect(added.status, added.raw).toBe(200);
      const id = added.body.data?.id ?? 0;
      await ops.restore(first, file);
      const back = await as(first).get<User>(`/api/user/GetById/${id}`);
      expect(back.status, back.raw).toBe(200);
      expect(back.body.data).toMatchObject({ email: 'dopo.backup@example.com', name: null, isActive: true });
      expect(await membership(ctx.db, id, first)).toMatchObject({ isActive: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // A backup and a restore of a whole database: seconds on a loaded 2-core machine, not 5.
  }, 60_000);
});

describe('invoices waiting in a tenant with its own database', () => {
  it('saving the customer, then the seller’s profile (copied into its database first), issues the waiting invoice there', async () => {
    const [, second] = sellers as [number, number];
    const api = as(second);
    const plan = await api.post<{ id: number }>('/api/plan/Create', {
      name: 'Piano isolato',
      recurringCostBeforeVAT: 100,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(plan.status, plan.raw).toBe(200);
    const customer = await api.post<User>('/api/user/Create', {
      name: 'Dario Ferri',
      email: 'dario.ferri@example.com',
      roleId: 3,
      isCompany: false,
    });
    expect(customer.status, customer.raw).toBe(200);
    const customerId = customer.body.data!.id;
    const iban = await api.put('/api/tenant/Update', {
      id: second,
      name: 'Bottega Clienti Due',
      iban: 'IT60X0542811101000000123456',
      accountHolder: 'Bottega Clienti Due',
    });
    expect(iban.status, iban.raw).toBe(200);
    const sub = await api.post<Subscription>('/api/subscription/Create', {
      userId: customerId,
      planId: plan.body.data!.id,
    });
    expect(sub.status, sub.raw).toBe(200);
    const payment = sub.body.data!.payments[0]!;
    expect((await api.put(`/api/subscription/setPaymentWithBankTransfer/${sub.body.data!.id}`)).status).toBe(
      200,
    );
    const transfer = await api.post('/api/BankTransfer/create', {
      paymentId: payment.id,
      amount: payment.amountDue,
      approvalDate: new Date().toISOString(),
    });
    expect(transfer.status, transfer.raw).toBe(200);
    expect((await api.put(`/api/subscription/setActiveNoRenewal/${sub.body.data!.id}`)).status).toBe(200);

    const waiting = async () => (await api.get<InvoiceIssues>('/api/invoice/issues')).body.data!;
    const first = await waiting();
    expect(first.seller.missing.map((m) => m.key)).toEqual([
      'legalName',
      'vatCode',
      'street',
      'zip',
      'municipalityId',
    ]);
    expect(first.customers.map((c) => [c.customer.id, c.missing.map((m) => m.key)])).toEqual([
      [customerId, ['fiscalCode', 'street', 'zip', 'municipality']],
    ]);

    // The customer's data, saved in the tenant's database: still waiting for the seller's.
    const saved = await api.put('/api/user/Update', {
      id: customerId,
      ...form({
        name: 'Dario Ferri',
        email: 'dario.ferri@example.com',
        pec: '',
        fiscalCode: 'FRRDRA80A01F205O',
      }),
    });
    expect(saved.status, saved.raw).toBe(200);
    expect((await waiting()).customers.map((c) => c.missing)).toEqual([[]]);

    const profile = await api.put('/api/tenant/Update', {
      id: second,
      name: 'Bottega Clienti Due',
      legalName: 'Bottega Clienti Due Srl',
      vatCode: '12345678903',
      street: 'Corso Como 1',
      zip: '20154',
      regionId: milano.regionId,
      provinceId: milano.provinceId,
      municipalityId: milano.municipalityId,
    });
    expect(profile.status, profile.raw).toBe(200);
    const list = await api.get<Paged<Invoice>>('/api/invoice/getAll');
    expect(list.body.data?.items.map((i) => [i.paymentId, i.number, i.customer.name])).toEqual([
      [payment.id, expect.stringMatching(/^\d{4}\/000001$/), 'Dario Ferri'],
    ]);
    const [stored] = await own(second).select({ n: invoices.id }).from(invoices);
    expect(stored).toBeDefined();
    expect(
      await ctx.db.select({ n: invoices.id }).from(invoices).where(eq(invoices.tenantId, second)),
    ).toEqual([]);
    expect((await waiting()).customers).toEqual([]);
  });
});
