import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, SelectResult } from '../../contract/envelope';
import { messages, serverMessages } from '../../contract/messages';
import type { User, UserWizardPayload } from '../../contract/schemas/user';
import { validationMessages } from '../../contract/validation/italian';
import { addresses, users, userTenants } from '../../server/db/schema';
import { create, dataOf, expectOtherTenantUnreachable, placeOf } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, ApiResponse, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let superadmin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let milano: Awaited<ReturnType<typeof placeOf>>;
let roma: Awaited<ReturnType<typeof placeOf>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  milano = await placeOf(ctx.db, 'Milano', 'MI');
  roma = await placeOf(ctx.db, 'Roma', 'RM');
});
afterAll(() => ctx.close());

const userCount = async () => (await ctx.db.select({ n: count() }).from(users))[0]?.n;
const memberCount = async () => (await ctx.db.select({ n: count() }).from(userTenants))[0]?.n;
const byEmail = async (email: string) =>
  (
    await ctx.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
  )[0];

/** The edit form's body (flat camelCase) for a valid user. */
const formBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Paolo Gialli',
  email: 'paolo.gialli@example.com',
  pec: '',
  phone: '',
  sdi: '',
  vatCode: '',
  isCompany: false,
  isActive: true,
  roleId: 3,
  street: '',
  zip: '',
  region: null,
  province: null,
  municipality: null,
  ...overrides,
});

/** Nothing secret in an answer: no hash, no password field, no token. */
function expectNoSecrets(res: ApiResponse): void {
  expect(res.raw).not.toMatch(/password|hash|scrypt|token/i);
}

describe('Create (wizard and form)', () => {
  it('accepts the wizard payload as sent (PascalCase, Role {Id, Name}, RoleId) and answers the nested billing address', async () => {
    const payload: UserWizardPayload = {
      Name: 'Giulia Neri',
      Email: 'Giulia.Neri@Example.com',
      Pec: 'giulia.neri@pec.example.com',
      IsCompany: true,
      IsActive: true,
      SDI: 'abc1234',
      VATCode: '01234567897',
      Phone: '+39 02 1234567',
      Street: 'Via Manzoni 3',
      ZIP: '20121',
      Region: milano.regionId,
      Province: milano.provinceId,
      Municipality: milano.municipalityId,
      Role: { Id: 3, Name: 'User' },
      RoleId: 3,
    };
    const res = await admin.post<User>('/api/user/Create', payload);
    expectNoSecrets(res);
    const user = dataOf(res);
    expect(res.body.message).toBe(messages.http.created);
    expect(user).toEqual({
      id: expect.any(Number),
      name: 'Giulia Neri',
      email: 'giulia.neri@example.com',
      pec: 'giulia.neri@pec.example.com',
      phone: '+39 02 1234567',
      sdi: 'ABC1234',
      vatCode: '01234567897',
      fiscalCode: null,
      countryCode: 'IT',
      billingCity: null,
      paOfficeCode: null,
      publicAdministration: false,
      cig: null,
      withholdingAgent: true,
      isCompany: true,
      isActive: true,
      roleId: 3,
      roleName: 'User',
      billingAddress: {
        street: 'Via Manzoni 3',
        zip: '20121',
        regionId: milano.regionId,
        region: { id: milano.regionId, name: 'Lombardia' },
        provinceId: milano.provinceId,
        province: { id: milano.provinceId, name: 'Milano', abbreviation: 'MI' },
        municipalityId: milano.municipalityId,
        municipality: { id: milano.municipalityId, name: 'Milano' },
      },
    });
    const fetched = await admin.get<User>(`/api/user/GetById/${user.id}`);
    expectNoSecrets(fetched);
    expect(dataOf(fetched)).toEqual(user);
    const row = await byEmail('giulia.neri@example.com');
    expect(row).toMatchObject({ passwordHash: null, roleId: 3, defaultTenantId: demoId });
  });

  it('a municipality alone records its province and region; no address at all answers billingAddress null', async () => {
    const withMunicipality = await create<User>(
      admin,
      'user',
      formBody({
        email: 'solo.comune@example.com',
        street: 'Via del Corso 1',
        municipality: roma.municipalityId,
      }),
    );
    expect(withMunicipality.billingAddress).toMatchObject({
      regionId: roma.regionId,
      provinceId: roma.provinceId,
      municipalityId: roma.municipalityId,
      region: { name: 'Lazio' },
    });
    const without = await create<User>(admin, 'user', formBody({ email: 'senza.indirizzo@example.com' }));
    expect(without.billingAddress).toBeNull();
  });

  it('bad input is a 400 with every Italian message, and nothing is written', async () => {
    const users0 = await userCount();
    const members0 = await memberCount();
    const res = await admin.post('/api/user/Create', {
      Name: '  ',
      Email: 'non-una-email',
      Pec: 'pec@',
      Phone: '12ab',
      SDI: '123456',
      VATCode: '01234567890',
      RoleId: 7,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(serverMessages.validation);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        `name: ${messages.wizard.nameRequired}`,
        `email: ${messages.wizard.emailInvalid}`,
        `pec: ${validationMessages.pecInvalid}`,
        `phone: ${validationMessages.phoneInvalid}`,
        `sdi: ${validationMessages.sdiInvalid}`,
        `vatCode: ${validationMessages.vatInvalid}`,
        `roleId: ${validationMessages.roleInvalid}`,
      ]),
    );
    const missing = await admin.post('/api/user/Create', { roleId: 3, name: 'X' });
    expect(missing.body.errors).toEqual([`email: ${messages.wizard.emailRequired}`]);
    expect(await userCount()).toBe(users0);
    expect(await memberCount()).toBe(members0);
  });

  it('Partita IVA needs the right check digit; SDI exactly 7 letters or digits', async () => {
    for (const vatCode of ['12345678901', '1234567890', '123456789012', '00000000000']) {
      const res = await admin.post(
        '/api/user/Create',
        formBody({ email: `piva${vatCode}@example.com`, vatCode }),
      );
      expect(res.status, vatCode).toBe(400);
      expect(res.body.errors).toEqual([`vatCode: ${validationMessages.vatInvalid}`]);
    }
    for (const sdi of ['ABC123', 'ABC12345', 'ABC-123']) {
      const res = await admin.post('/api/user/Create', formBody({ email: 'sdi@example.com', sdi }));
      expect(res.body.errors, sdi).toEqual([`sdi: ${validationMessages.sdiInvalid}`]);
    }
    expect(await byEmail('sdi@example.com')).toBeUndefined();
    const ok = await create<User>(
      admin,
      'user',
      formBody({ email: 'piva.ok@example.com', vatCode: '123 456 789 03', sdi: '0000000', isCompany: true }),
    );
    expect(ok).toMatchObject({ vatCode: '12345678903', sdi: '0000000' });
  });

  it('a province outside the region or a municipality outside the province is a 400 (Italian), nothing written', async () => {
    const before = await userCount();
    const wrongProvince = await admin.post(
      '/api/user/Create',
      formBody({ email: 'incoerente@example.com', region: roma.regionId, province: milano.provinceId }),
    );
    expect(wrongProvince.status).toBe(400);
    expect(wrongProvince.body.errors).toEqual([`province: ${validationMessages.provinceNotInRegion}`]);
    const wrongMunicipality = await admin.post(
      '/api/user/Create',
      formBody({
        email: 'incoerente@example.com',
        region: milano.regionId,
        province: milano.provinceId,
        municipality: roma.municipalityId,
      }),
    );
    expect(wrongMunicipality.body.errors).toEqual([
      `municipality: ${validationMessages.municipalityNotInProvince}`,
    ]);
    const unknown = await admin.post(
      '/api/user/Create',
      formBody({ email: 'incoerente@example.com', municipality: 99_999_999 }),
    );
    expect(unknown.body.errors).toEqual([`municipality: ${serverMessages.unknownReference}`]);
    expect(await userCount()).toBe(before);
  });

  it('an e-mail already used in the tenant is a 409 (any case), nothing written', async () => {
    const before = await userCount();
    for (const email of ['cliente@demo.rinnova.it', 'CLIENTE@Demo.Rinnova.it']) {
      const res = await admin.post('/api/user/Create', formBody({ email }));
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(serverMessages.emailTaken);
    }
    expect(await userCount()).toBe(before);
    const unique = await admin.get<boolean>(
      `/api/user/isEmailUnique/${encodeURIComponent('Cliente@demo.rinnova.it')}`,
    );
    expect(unique.body.data).toBe(false);
  });
});

describe('roles', () => {
  it('an Admin may not create or promote a SuperAdmin (403, nothing written); a SuperAdmin may', async () => {
    const before = await userCount();
    const res = await admin.post('/api/user/Create', formBody({ email: 'capo@example.com', roleId: 1 }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(serverMessages.superAdminOnly);
    expect(await userCount()).toBe(before);

    const target = await create<User>(admin, 'user', formBody({ email: 'da.promuovere@example.com' }));
    const promote = await admin.put('/api/user/Update', {
      ...formBody({ email: target.email, roleId: 1 }),
      id: target.id,
    });
    expect(promote.status).toBe(403);
    expect((await byEmail(target.email))?.roleId).toBe(3);
    const toAdmin = await admin.put<User>('/api/user/Update', {
      ...formBody({ email: target.email, roleId: 2 }),
      id: target.id,
    });
    expect(dataOf(toAdmin)).toMatchObject({ roleId: 2, roleName: 'Admin' });

    const boss = await create<User>(superadmin, 'user', formBody({ email: 'capo@example.com', roleId: 1 }));
    expect(boss.roleName).toBe('SuperAdmin');
    // Nor may an Admin change or remove a SuperAdmin.
    expect(
      (
        await admin.put('/api/user/Update', {
          ...formBody({ email: boss.email, roleId: 1, name: 'X' }),
          id: boss.id,
        })
      ).status,
    ).toBe(403);
    expect((await admin.delete(`/api/user/Delete/${boss.id}`)).status).toBe(403);
    expect((await byEmail(boss.email))?.name).toBe('Paolo Gialli');
  });

  it('a User may neither read nor write users (403)', async () => {
    const [someone] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'admin@demo.rinnova.it'));
    const before = await userCount();
    expect((await cliente.get('/api/user/getAll')).status).toBe(403);
    expect((await cliente.get(`/api/user/GetById/${someone?.id}`)).status).toBe(403);
    expect((await cliente.post('/api/user/Create', formBody({ email: 'nuovo@example.com' }))).status).toBe(
      403,
    );
    expect((await cliente.put('/api/user/Update', { ...formBody(), id: someone?.id })).status).toBe(403);
    expect((await cliente.delete(`/api/user/Delete/${someone?.id}`)).status).toBe(403);
    expect(await userCount()).toBe(before);
  });

  it('nobody changes their own role, deactivates or deletes themselves (409)', async () => {
    const me = await byEmail('admin@demo.rinnova.it');
    const body = {
      ...formBody({ email: 'admin@demo.rinnova.it', name: 'Admin Demo', roleId: 2 }),
      id: me?.id,
    };
    expect((await admin.put('/api/user/Update', { ...body, roleId: 3 })).status).toBe(409);
    const off = await admin.put('/api/user/Update', { ...body, isActive: false });
    expect(off.status).toBe(409);
    expect(off.body.message).toBe(serverMessages.selfChange);
    expect((await admin.delete(`/api/user/Delete/${me?.id}`)).status).toBe(409);
    expect(
      dataOf(await admin.put<User>('/api/user/Update', { ...body, phone: '+39 06 555 1234' })).phone,
    ).toBe('+39 06 555 1234');
  });
});

describe('Update', () => {
  it('the edit form body (flat camelCase) replaces the data and the billing address', async () => {
    const user = await create<User>(
      admin,
      'user',
      formBody({
        email: 'da.modificare@example.com',
        street: 'Via Vecchia 1',
        municipality: milano.municipalityId,
      }),
    );
    const res = await admin.put<User>('/api/user/Update', {
      ...formBody({
        email: 'Modificato@Example.com',
        name: 'Nome Nuovo',
        pec: 'nuovo@pec.example.com',
        isCompany: true,
        street: 'Via Nuova 2',
        zip: '00118',
        region: roma.regionId,
        province: roma.provinceId,
        municipality: roma.municipalityId,
      }),
      id: user.id,
    });
    expectNoSecrets(res);
    expect(dataOf(res)).toMatchObject({
      id: user.id,
      email: 'modificato@example.com',
      name: 'Nome Nuovo',
      pec: 'nuovo@pec.example.com',
      isCompany: true,
      billingAddress: { street: 'Via Nuova 2', zip: '00118', municipality: { name: 'Roma' } },
    });
    expect(res.body.message).toBe(messages.http.updated);
    expect((await byEmail('modificato@example.com'))?.name).toBe('Nome Nuovo');
  });

  it('changing the e-mail to one of another user is a 409 and changes nothing', async () => {
    const user = await create<User>(admin, 'user', formBody({ email: 'primo@example.com' }));
    const res = await admin.put('/api/user/Update', {
      ...formBody({ email: 'cliente@demo.rinnova.it', name: 'Cambiato' }),
      id: user.id,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(serverMessages.emailTaken);
    expect(dataOf(await admin.get<User>(`/api/user/GetById/${user.id}`))).toMatchObject({
      email: 'primo@example.com',
      name: 'Paolo Gialli',
    });
  });

  it('an unknown id is a 404; bad input a 400 and nothing changes', async () => {
    expect((await admin.put('/api/user/Update', { ...formBody(), id: 99_999 })).status).toBe(404);
    const user = await create<User>(admin, 'user', formBody({ email: 'intatto@example.com' }));
    const res = await admin.put('/api/user/Update', {
      ...formBody({ email: 'intatto@example.com', vatCode: '1' }),
      id: user.id,
    });
    expect(res.status).toBe(400);
    expect(dataOf(await admin.get<User>(`/api/user/GetById/${user.id}`)).vatCode).toBeNull();
  });
});

describe('Delete', () => {
  it('a user other rows still point to is a 409 and nothing is deleted; once free, the account goes', async () => {
    const user = await create<User>(admin, 'user', formBody({ email: 'con.indirizzo@example.com' }));
    const address = dataOf(
      await admin.post<{ id: number }>('/api/address/Create', {
        street: 'Via Legata 1',
        zip: milano.zip,
        municipalityId: milano.municipalityId,
        userId: user.id,
      }),
    );
    const res = await admin.delete(`/api/user/Delete/${user.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(serverMessages.inUse);
    expect(await byEmail('con.indirizzo@example.com')).toBeDefined();
    expect(
      await ctx.db
        .select()
        .from(userTenants)
        .where(and(eq(userTenants.userId, user.id), eq(userTenants.tenantId, demoId))),
    ).toHaveLength(1);

    expect((await admin.delete(`/api/address/Delete/${address.id}`)).status).toBe(200);
    const removed = await admin.delete(`/api/user/Delete/${user.id}`);
    expectNoSecrets(removed);
    expect(removed.status).toBe(200);
    expect(await byEmail('con.indirizzo@example.com')).toBeUndefined();
    expect((await admin.get(`/api/user/GetById/${user.id}`)).status).toBe(404);
    expect(await ctx.db.select().from(addresses).where(eq(addresses.userId, user.id))).toHaveLength(0);
  });

  it('an unknown id is a 404', async () => {
    expect((await admin.delete('/api/user/Delete/99999')).status).toBe(404);
  });
});

describe('getAll, search, filters', () => {
  beforeAll(async () => {
    for (const [name, email, extra] of [
      [
        'Zeta Azienda Srl',
        'zeta@example.com',
        { isCompany: true, vatCode: '07654321012', sdi: 'ZZZ9999', pec: 'zeta@pec.example.com' },
      ],
      ['Alfa Privato', 'alfa@example.com', { phone: '+39 347 7654321', isActive: false }],
    ] as const) {
      await create<User>(admin, 'user', formBody({ name, email, ...extra }));
    }
  });

  const list = (query: Record<string, string | number>) =>
    admin.get<Paged<User>>('/api/user/getAll', { query: { pageSize: 100, ...query } });
  const names = async (query: Record<string, string | number>) =>
    dataOf(await list(query)).items.map((u) => u.name);

  it('lists the tenant members in name order with roleName and the total count, no hash', async () => {
    const res = await list({});
    expectNoSecrets(res);
    const page = dataOf(res);
    const all = page.items.map((u) => u.name ?? '');
    expect(all).toEqual([...all].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(page.totalCount).toBe(page.items.length);
    expect(page.items.find((u) => u.email === 'admin@demo.rinnova.it')).toMatchObject({
      roleId: 2,
      roleName: 'Admin',
    });
    const paged = dataOf(
      await admin.get<Paged<User>>('/api/user/getAll', { query: { page: 2, pageSize: 3 } }),
    );
    expect(paged.items).toHaveLength(3);
    expect(paged.totalCount).toBe(page.totalCount);
    expect(paged.items.map((u) => u.id)).toEqual(page.items.slice(3, 6).map((u) => u.id));
  });

  it('searchTerm looks in name, e-mail, PEC, phone, SDI and Partita IVA', async () => {
    expect(await names({ searchTerm: 'ZETA AZ' })).toEqual(['Zeta Azienda Srl']);
    expect(await names({ searchTerm: 'alfa@exam' })).toEqual(['Alfa Privato']);
    expect(await names({ searchTerm: 'zeta@pec' })).toEqual(['Zeta Azienda Srl']);
    expect(await names({ searchTerm: '7654321' })).toEqual(['Zeta Azienda Srl', 'Alfa Privato'].sort());
    expect(await names({ searchTerm: 'zzz9' })).toEqual(['Zeta Azienda Srl']);
    expect(await names({ searchTerm: '0765432' })).toEqual(['Zeta Azienda Srl']);
    expect(dataOf(await list({ searchTerm: 'nessuno-così' })).totalCount).toBe(0);
  });

  it('text and boolean filters; the count follows them', async () => {
    const companies = dataOf(await list({ 'filters[isCompany]': 'true' }));
    expect(companies.items.every((u) => u.isCompany)).toBe(true);
    expect(companies.items.map((u) => u.name)).toContain('Zeta Azienda Srl');
    expect(companies.totalCount).toBe(companies.items.length);
    const inactive = dataOf(await list({ 'filters[isActive]': 'false' }));
    expect(inactive.items.map((u) => u.name)).toEqual(['Alfa Privato']);
    expect(await names({ 'filters[email]': 'ZETA@', 'filters[isCompany]': 'true' })).toEqual([
      'Zeta Azienda Srl',
    ]);
    expect(await names({ 'filters[name]': 'alfa', 'filters[isActive]': 'true' })).toEqual([]);
    expect(await names({ 'filters[vatCode]': '0765', 'filters[sdi]': 'zzz', 'filters[pec]': 'pec' })).toEqual(
      ['Zeta Azienda Srl'],
    );
    const admins = dataOf(await list({ 'filters[roleId]': 2 })).items;
    expect(admins.map((u) => u.name)).toContain('Admin Demo');
    expect(admins.every((u) => u.roleName === 'Admin')).toBe(true);
    const bad = await list({ 'filters[password]': 'x' });
    expect(bad.status).toBe(400);
  });

  it('getAllForSelect labels users by name and e-mail', async () => {
    const res = await admin.get<SelectResult>('/api/user/getAllForSelect', { query: { searchTerm: 'zeta' } });
    expectNoSecrets(res);
    expect(dataOf(res).options).toEqual([
      { value: expect.any(Number), label: 'Zeta Azienda Srl (zeta@example.com)' },
    ]);
  });
});

it('a user of another tenant is out of reach (404) and unchanged', async () => {
  const rossi = await ctx.as('superadmin', 'Studio Rossi');
  const foreign = await create<User>(
    rossi,
    'user',
    formBody({ email: 'di.rossi@example.com', name: 'Di Rossi' }),
  );
  await expectOtherTenantUnreachable(
    ctx,
    'user',
    foreign.id,
    formBody({ email: 'di.rossi@example.com', name: 'Preso' }),
    async () => (await rossi.get(`/api/user/GetById/${foreign.id}`)).body.data,
  );
});
