import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import type { Plan } from '../../contract/schemas/plan';
import type { Region } from '../../contract/schemas/geography';
import type { User } from '../../contract/schemas/user';
import { serverMessages } from '../../contract/messages';
import { validationMessages } from '../../contract/validation/italian';
import { plans, regions, users } from '../../server/db/schema';
import { dataOf } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let rossi: ApiClient;
let superadmin: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin', 'Demo Srl');
  rossi = await ctx.as('superadmin', 'Studio Rossi');
});
afterAll(() => ctx.close());

const planBody = (name: string, cost = 10) => ({
  name,
  recurringCostBeforeVAT: cost,
  vatPercentage: 22,
  recurrenceType: 1,
  isActive: true,
});
const names = (res: { body: { data: unknown } }) =>
  (res.body.data as Paged<{ name: string }>).items.map((i) => i.name);

describe('sort=field / sort=-field on lists (allow-listed per entity)', () => {
  it('sorts regions by name both ways, and by code', async () => {
    const asc = names(await admin.get('/api/region/getAll?pageSize=100&sort=name'));
    const desc = names(await admin.get('/api/region/getAll?pageSize=100&sort=-name'));
    expect(asc).toHaveLength(20);
    const collator = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
    expect(asc).toEqual([...asc].sort(collator));
    expect(desc).toEqual([...asc].reverse());
    const byCode = dataOf(await admin.get<Paged<Region>>('/api/region/getAll?pageSize=100&sort=-code')).items;
    const codes = byCode.map((r) => r.code.toLowerCase());
    expect(codes).toEqual([...codes].sort().reverse());
  });

  it('pages stay consistent under a sort (page 2 continues page 1)', async () => {
    const all = names(await admin.get('/api/province/getAll?pageSize=20&sort=-abbreviation'));
    const p1 = names(await admin.get('/api/province/getAll?pageSize=10&page=1&sort=-abbreviation'));
    const p2 = names(await admin.get('/api/province/getAll?pageSize=10&page=2&sort=-abbreviation'));
    expect([...p1, ...p2]).toEqual(all);
  });

  it('sorts the tenant’s plans by cost, with the tenant scope kept', async () => {
    await admin.post('/api/plan/Create', planBody('Zeta economico', 1));
    await admin.post('/api/plan/Create', planBody('Alfa costoso', 9999));
    const items = dataOf(
      await admin.get<Paged<Plan>>('/api/plan/getAll?pageSize=100&sort=recurringCostBeforeVAT'),
    ).items;
    const costs = items.map((p) => p.recurringCostBeforeVAT);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(items[0]?.name).toBe('Zeta economico');
    expect(items.at(-1)?.name).toBe('Alfa costoso');
    const other = dataOf(
      await rossi.get<Paged<Plan>>('/api/plan/getAll?pageSize=100&sort=-recurringCostBeforeVAT'),
    );
    expect(other.items.map((p) => p.name)).not.toContain('Alfa costoso');
  });

  it('sorts users by e-mail descending', async () => {
    const emails = dataOf(
      await admin.get<Paged<User>>('/api/user/getAll?pageSize=100&sort=-email'),
    ).items.map((u) => u.email.toLowerCase());
    expect(emails.length).toBeGreaterThan(1);
    expect(emails).toEqual([...emails].sort().reverse());
  });

  it('sorts and filters by the e-mail the account has now (the membership keeps a copy, migration 0015)', async () => {
    const list = async (query: string) =>
      dataOf(await admin.get<Paged<User>>(`/api/user/getAll?pageSize=100&${query}`)).items.map(
        (u) => u.email,
      );
    const first = (await list('sort=email'))[0]!;
    const [account] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, first));
    await ctx.db.update(users).set({ email: 'zzz.ultimo@example.it' }).where(eq(users.id, account!.id));
    const sorted = await list('sort=email');
    expect(sorted.at(-1)).toBe('zzz.ultimo@example.it');
    expect(sorted).not.toContain(first);
    expect(await list('filters[email]=zzz.ultimo')).toEqual(['zzz.ultimo@example.it']);
    expect(await list(`filters[email]=${encodeURIComponent(first)}`)).toEqual([]);
  });

  it('answers 400 on a column that is not sortable, naming the sort field', async () => {
    const res = await admin.get('/api/region/getAll?sort=id;drop');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`sort: ${validationMessages.sortUnsupported}`]);
    expect(res.body.fieldErrors).toEqual({ sort: validationMessages.sortUnsupported });
    expect((await admin.get('/api/user/getAll?sort=pec')).status).toBe(400);
  });
});

describe('field errors: `errors` as before, plus `fieldErrors` keyed by field', () => {
  it('a bad user body names each field once in fieldErrors', async () => {
    const res = await admin.post('/api/user/Create', {
      name: 'Prova Campi',
      email: 'campi@example.it',
      roleId: 3,
      vatCode: '12345678901',
      sdi: 'ABC',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        `vatCode: ${validationMessages.vatInvalid}`,
        `sdi: ${validationMessages.sdiInvalid}`,
      ]),
    );
    expect(res.body.fieldErrors).toMatchObject({
      vatCode: validationMessages.vatInvalid,
      sdi: validationMessages.sdiInvalid,
    });
  });

  it('the Partita IVA message says which formats are expected', () => {
    expect(validationMessages.vatInvalid).toContain('11 cifre');
    expect(validationMessages.vatInvalid).toContain('DE123456789');
  });

  it('accepts an Italian Partita IVA and a foreign EU VAT number with its prefix; refuses a bad check digit', async () => {
    const it1 = await admin.post<User>('/api/user/Create', {
      name: 'Cliente italiano',
      email: 'piva-it@example.it',
      roleId: 3,
      vatCode: '01234567897',
    });
    expect(it1.status).toBe(200);
    const de = await admin.post<User>('/api/user/Create', {
      name: 'Kunde GmbH',
      email: 'piva-de@example.de',
      roleId: 3,
      vatCode: 'de 123456789',
    });
    expect(de.status).toBe(200);
    expect(dataOf(de).vatCode).toBe('DE123456789');
    const bad = await admin.post('/api/user/Create', {
      name: 'Cifra sbagliata',
      email: 'piva-bad@example.it',
      roleId: 3,
      vatCode: '01234567890',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ vatCode: validationMessages.vatInvalid });
  });
});

describe('duplicates are said on their field (409)', () => {
  it('a region code already used: 409 with code: … and nothing written', async () => {
    const before = (await ctx.db.select({ n: count() }).from(regions))[0]?.n;
    const res = await superadmin.post('/api/region/Create', { name: 'Lazio bis', code: '12' });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([`code: ${validationMessages.regionCodeTaken}`]);
    expect(res.body.fieldErrors).toEqual({ code: validationMessages.regionCodeTaken });
    expect((await ctx.db.select({ n: count() }).from(regions))[0]?.n).toBe(before);
  });

  it('a plan name already used in the tenant (any case): 409 on name; another tenant may use it', async () => {
    const first = await admin.post<Plan>('/api/plan/Create', planBody('Piano Unico'));
    expect(first.status).toBe(200);
    const again = await admin.post('/api/plan/Create', planBody('piano unico'));
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([`name: ${validationMessages.planNameTaken}`]);
    expect(again.body.message).toBe(validationMessages.planNameTaken);
    const rows = await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'piano unico'));
    expect(rows).toHaveLength(0);
    // Renaming another plan to the taken name is the same 409.
    const second = dataOf(await admin.post<Plan>('/api/plan/Create', planBody('Piano Secondo')));
    const rename = await admin.put('/api/plan/Update', { ...planBody('PIANO UNICO'), id: second.id });
    expect(rename.status).toBe(409);
    expect(rename.body.fieldErrors).toEqual({ name: validationMessages.planNameTaken });
    // Studio Rossi is another business: the same name is free there.
    expect((await rossi.post('/api/plan/Create', planBody('Piano Unico'))).status).toBe(200);
  });

  it('an e-mail already in the tenant is said on the email field', async () => {
    const body = { name: 'Doppio', email: 'doppio@example.it', roleId: 3 };
    expect((await admin.post('/api/user/Create', body)).status).toBe(200);
    const again = await admin.post('/api/user/Create', body);
    expect(again.status).toBe(409);
    expect(again.body.fieldErrors).toEqual({ email: serverMessages.emailTaken });
  });
});
