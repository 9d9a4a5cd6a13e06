import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { messages, serverMessages } from '../../contract/messages';
import type { Address } from '../../contract/schemas/address';
import type { User } from '../../contract/schemas/user';
import { validationMessages } from '../../contract/validation/italian';
import { addresses, users } from '../../server/db/schema';
import { create, dataOf, expectOtherTenantUnreachable, placeOf } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let clienteId: number;
let milano: Awaited<ReturnType<typeof placeOf>>;
let torino: Awaited<ReturnType<typeof placeOf>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'cliente@demo.rinnova.it'));
  clienteId = row?.id ?? 0;
  milano = await placeOf(ctx.db, 'Milano', 'MI');
  torino = await placeOf(ctx.db, 'Torino', 'TO');
});
afterAll(() => ctx.close());

const addressCount = async () => (await ctx.db.select({ n: count() }).from(addresses))[0]?.n;
const rowOf = async (id: number) => (await ctx.db.select().from(addresses).where(eq(addresses.id, id)))[0];

describe('Admin CRUD', () => {
  it('creates, reads, updates and deletes an address, answered with its municipality and province', async () => {
    const created = await admin.post<Address>('/api/address/Create', {
      Street: 'Via Garibaldi 8',
      ZIP: '10122',
      MunicipalityId: String(torino.municipalityId),
    });
    const address = dataOf(created);
    expect(created.body.message).toBe(messages.http.created);
    expect(address).toEqual({
      id: expect.any(Number),
      street: 'Via Garibaldi 8',
      zip: '10122',
      municipalityId: torino.municipalityId,
      municipality: {
        id: torino.municipalityId,
        name: 'Torino',
        zip: torino.zip,
        province: { id: torino.provinceId, name: 'Torino', abbreviation: 'TO' },
      },
      userId: null,
    });
    expect(dataOf(await admin.get<Address>(`/api/address/GetById/${address.id}`))).toEqual(address);

    const updated = dataOf(
      await admin.put<Address>('/api/address/Update', {
        id: address.id,
        street: 'Via Garibaldi 10',
        zip: milano.zip,
        municipalityId: milano.municipalityId,
      }),
    );
    expect(updated).toMatchObject({ street: 'Via Garibaldi 10', municipality: { name: 'Milano' } });
    expect(await rowOf(address.id)).toMatchObject({
      street: 'Via Garibaldi 10',
      municipalityId: milano.municipalityId,
    });

    expect((await admin.delete(`/api/address/Delete/${address.id}`)).status).toBe(200);
    expect(await rowOf(address.id)).toBeUndefined();
  });

  it('bad input is a 400 with the Italian messages, and nothing is written', async () => {
    const before = await addressCount();
    const res = await admin.post('/api/address/Create', { street: ' ', zip: '', municipalityId: null });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      `street: ${messages.wizard.streetRequired}`,
      `zip: ${validationMessages.zipRequired}`,
      `municipalityId: ${messages.wizard.municipalityRequired}`,
    ]);
    const unknown = await admin.post('/api/address/Create', {
      street: 'Via X',
      zip: '00100',
      municipalityId: 99_999_999,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([serverMessages.unknownReference]);
    expect(await addressCount()).toBe(before);
  });

  it('an owner must be a member of the tenant; an Update without userId keeps the owner, null clears it', async () => {
    const rossiUser = await create<User>(await ctx.as('superadmin', 'Studio Rossi'), 'user', {
      name: 'Di Rossi',
      email: 'solo.rossi@example.com',
      roleId: 3,
    });
    const before = await addressCount();
    const foreignOwner = await admin.post('/api/address/Create', {
      street: 'Via Altrui 1',
      zip: milano.zip,
      municipalityId: milano.municipalityId,
      userId: rossiUser.id,
    });
    expect(foreignOwner.status).toBe(400);
    expect(await addressCount()).toBe(before);

    const owned = await create<Address>(admin, 'address', {
      street: 'Via Propria 2',
      zip: milano.zip,
      municipalityId: milano.municipalityId,
      userId: clienteId,
    });
    expect(owned.userId).toBe(clienteId);
    const kept = dataOf(
      await admin.put<Address>('/api/address/Update', {
        id: owned.id,
        street: 'Via Propria 3',
        zip: milano.zip,
        municipalityId: milano.municipalityId,
      }),
    );
    expect(kept.userId).toBe(clienteId);
    const cleared = dataOf(
      await admin.put<Address>('/api/address/Update', {
        id: owned.id,
        street: 'Via Propria 3',
        zip: milano.zip,
        municipalityId: milano.municipalityId,
        userId: null,
      }),
    );
    expect(cleared.userId).toBeNull();
  });
});

describe('a User', () => {
  it('sees only their own addresses, and counts only those', async () => {
    const all = dataOf(await admin.get<Paged<Address>>('/api/address/getAll', { query: { pageSize: 100 } }));
    const own = all.items.filter((a) => a.userId === clienteId);
    expect(own.length).toBeGreaterThan(0);
    expect(all.items.length).toBeGreaterThan(own.length);

    const mine = dataOf(
      await cliente.get<Paged<Address>>('/api/address/getAll', { query: { pageSize: 100 } }),
    );
    expect(mine.items.map((a) => a.id).sort()).toEqual(own.map((a) => a.id).sort());
    expect(mine.totalCount).toBe(own.length);

    const notMine = all.items.find((a) => a.userId !== clienteId);
    expect((await cliente.get(`/api/address/GetById/${notMine?.id}`)).status).toBe(404);
    expect((await cliente.get(`/api/address/GetById/${own[0]?.id}`)).status).toBe(200);
  });

  it('may not write addresses, not even their own (403), and nothing changes', async () => {
    const before = await addressCount();
    const [own] = await ctx.db.select().from(addresses).where(eq(addresses.userId, clienteId));
    expect(
      (
        await cliente.post('/api/address/Create', {
          street: 'Via Mia',
          zip: milano.zip,
          municipalityId: milano.municipalityId,
        })
      ).status,
    ).toBe(403);
    expect((await cliente.put('/api/address/Update', { ...own, street: 'Cambiata' })).status).toBe(403);
    expect((await cliente.delete(`/api/address/Delete/${own?.id}`)).status).toBe(403);
    expect(await addressCount()).toBe(before);
    expect(await rowOf(own?.id ?? 0)).toEqual(own);
  });
});

describe('getAll', () => {
  it('searchTerm finds street, CAP and municipality name; filters street and zip; stable order by street', async () => {
    for (const street of ['Viale Alfa 1', 'Viale Beta 2', 'Viale Gamma 3']) {
      await create<Address>(admin, 'address', {
        street,
        zip: torino.zip,
        municipalityId: torino.municipalityId,
      });
    }
    const list = async (query: Record<string, string | number>) =>
      dataOf(await admin.get<Paged<Address>>('/api/address/getAll', { query: { pageSize: 100, ...query } }));
    expect((await list({ searchTerm: 'viale' })).items.map((a) => a.street)).toEqual([
      'Viale Alfa 1',
      'Viale Beta 2',
      'Viale Gamma 3',
    ]);
    expect((await list({ searchTerm: 'TORINO' })).items.map((a) => a.street)).toEqual(
      expect.arrayContaining(['Viale Alfa 1', 'Viale Beta 2', 'Viale Gamma 3']),
    );
    const byZip = await list({ 'filters[zip]': torino.zip, 'filters[street]': 'beta' });
    expect(byZip.items.map((a) => a.street)).toEqual(['Viale Beta 2']);
    expect(byZip.totalCount).toBe(1);
    const page2 = dataOf(
      await admin.get<Paged<Address>>('/api/address/getAll', {
        query: { page: 2, pageSize: 1, searchTerm: 'viale' },
      }),
    );
    expect(page2).toMatchObject({ totalCount: 3, items: [{ street: 'Viale Beta 2' }] });
  });
});

it('an address of another tenant is out of reach (404) and unchanged', async () => {
  const rossi = await ctx.as('superadmin', 'Studio Rossi');
  const foreign = await create<Address>(rossi, 'address', {
    street: 'Via di Rossi 5',
    zip: milano.zip,
    municipalityId: milano.municipalityId,
  });
  await expectOtherTenantUnreachable(
    ctx,
    'address',
    foreign.id,
    { street: 'Presa', zip: milano.zip, municipalityId: milano.municipalityId },
    () => rowOf(foreign.id),
  );
  // A User of Demo Srl cannot reach it either.
  expect((await cliente.get(`/api/address/GetById/${foreign.id}`)).status).toBe(404);
});
