/**
 * Keyset cursors on the generic lists (issue 8): `afterId` = the previous answer's `nextAfterId`
 * reads the rows after that one in the list's own order (the asked sort or the natural one),
 * without OFFSET. Walking a list that way gives exactly the rows of its numbered pages, in the same
 * order, for sorts in both directions, search and filters; a cursor of another tenant's row, or one
 * that is not an id, is a 400 on `afterId`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { createTestContext, type ApiClient, type TestContext } from './helpers/test-app';

type Page = { items: { id: number }[]; totalCount: number; nextAfterId: number | null };
type Query = Record<string, string | number>;

let ctx: TestContext;
let admin: ApiClient;
let superadmin: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin');
});
afterAll(() => ctx?.close());

async function pages(api: ApiClient, entity: string, query: Query): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await api.get<Page>(`/api/${entity}/getAll`, { query: { ...query, page, pageSize: 9 } });
    expect(res.status, res.raw).toBe(200);
    ids.push(...res.body.data!.items.map((r) => r.id));
    if (res.body.data!.items.length < 9) return ids;
  }
  throw new Error('too many pages');
}

async function walk(api: ApiClient, entity: string, query: Query, between?: () => Promise<void>) {
  const ids: number[] = [];
  let after: number | null = null;
  for (let step = 0; step < 100; step++) {
    const cursor: Query = after !== null ? { afterId: after } : {};
    const res = await api.get<Page>(`/api/${entity}/getAll`, { query: { ...query, pageSize: 9, ...cursor } });
    expect(res.status, res.raw).toBe(200);
    const data: Page = res.body.data!;
    ids.push(...data.items.map((r) => r.id));
    after = data.nextAfterId;
    if (after === null) return ids;
    await between?.();
  }
  throw new Error('the walk did not end');
}

describe('generic list cursors', () => {
  const cases: Array<[string, 'admin' | 'superadmin', string, Query]> = [
    ['customers, natural order (name)', 'admin', 'user', {}],
    ['customers by e-mail, descending', 'admin', 'user', { sort: '-email' }],
    ['customers by a boolean (ties by id)', 'admin', 'user', { sort: 'isCompany' }],
    ['customers, searched', 'admin', 'user', { searchTerm: 'ar' }],
    ['regions, natural order', 'superadmin', 'region', {}],
    ['provinces by name, descending', 'superadmin', 'province', { sort: '-name' }],
    [
      'comuni of a province by CAP, descending',
      'superadmin',
      'municipality',
      { 'filters[provinceId]': 1, sort: '-zip' },
    ],
    // A joined key (the province's name), every row tied on it: ordered by id.
    [
      'comuni by their province (joined key, all tied)',
      'superadmin',
      'municipality',
      { 'filters[provinceId]': 2, sort: 'province' },
    ],
  ];
  it.each(cases)(
    '%s: the walk reads the numbered pages’ rows in their order',
    async (_name, role, entity, query) => {
      const api = role === 'admin' ? admin : superadmin;
      const expected = await pages(api, entity, query);
      expect(expected.length).toBeGreaterThan(9);
      expect(await walk(api, entity, query)).toEqual(expected);
    },
  );

  it('read every older row once while rows are added during the walk', async () => {
    const before = await pages(admin, 'user', {});
    let n = 0;
    const walked = await walk(admin, 'user', {}, async () => {
      if (n >= 2) return;
      n++;
      const res = await admin.post('/api/user/Create', {
        email: `cursore${n}@example.com`,
        name: n === 1 ? 'Aaron Primo' : 'Zeno Ultimo',
        roleId: 3,
        isCompany: false,
      });
      expect(res.status, res.raw).toBe(200);
    });
    expect(n).toBe(2);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.filter((id) => before.includes(id))).toEqual(before);
  });

  it('refuses a cursor that is not an id, or names a row the list cannot reach, on its field', async () => {
    for (const bad of ['abc', '0', '-3', '99999999999']) {
      const res = await admin.get('/api/user/getAll', { query: { afterId: bad } });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body)).toContain('afterId');
    }
    // A customer of Studio Rossi only: positions nothing in Demo Srl's list.
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const theirs = await rossi.get<Page>('/api/user/getAll', { query: { pageSize: 100 } });
    const ours = new Set(await pages(admin, 'user', {}));
    const outside = theirs.body.data!.items.map((r) => r.id).find((id) => !ours.has(id));
    expect(outside).toBeDefined();
    const res = await admin.get('/api/user/getAll', { query: { afterId: outside! } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`afterId: ${serverMessages.cursorNotFound}`]);
  });
});
