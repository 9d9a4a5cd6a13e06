/**
 * Counts (issues 8 and 31): a list counts exactly up to 10,000 matching rows (and on a deeper page
 * up to that page plus 1,000 rows); past that it says so (`totalCountCapped`) instead of scanning
 * the whole table, and the rows are the same.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, SelectResult } from '../../contract/envelope';
import { createTestContext, type ApiClient, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
});
afterAll(() => ctx.close());

const list = (query: Record<string, string | number>) =>
  admin.get<Paged<{ id: number; name: string }>>('/api/municipality/getAll', { query });

describe('counts', () => {
  it('page 1 of ~7,900 comuni: counted exactly (under 10,000 rows), so pages = ceil(count / size)', async () => {
    const res = await list({ page: 1, pageSize: 5 });
    const data = res.body.data!;
    expect(data.totalCountCapped).toBeUndefined();
    expect(data.totalCount).toBeGreaterThan(7800);
    expect(data.items).toHaveLength(5);
    const lastPage = await list({ page: Math.ceil(data.totalCount / 5), pageSize: 5 });
    expect(lastPage.body.data?.items.length).toBeGreaterThan(0);
    expect((await list({ page: Math.ceil(data.totalCount / 5) + 1, pageSize: 5 })).body.data?.items).toEqual(
      [],
    );
  });

  it('is exact on every page, to the last one', async () => {
    const last = await list({ page: 350, pageSize: 20 });
    const exact = last.body.data!;
    expect(exact.totalCountCapped).toBeUndefined();
    expect(exact.totalCount).toBeGreaterThan(7800);
    expect(exact.totalCount).toBeLessThan(8100);
    const beyond = await list({ page: Math.ceil(exact.totalCount / 20), pageSize: 20 });
    expect(beyond.body.data?.items.length).toBe(
      exact.totalCount - (Math.ceil(exact.totalCount / 20) - 1) * 20,
    );
    const filtered = await list({ page: 1, pageSize: 5, 'filters[provinceId]': 28 });
    expect(filtered.body.data?.totalCountCapped).toBeUndefined();
    expect(filtered.body.data?.totalCount).toBeLessThan(1000);
  });

  it('selects count the same way, with the selected ids always among the options', async () => {
    const res = await admin.get<SelectResult & { totalCountCapped?: boolean }>(
      '/api/municipality/getAllForSelect',
      {
        query: { page: 1, pageSize: 20, selectedIds: '7000' },
      },
    );
    expect(res.body.data?.totalCountCapped).toBeUndefined();
    expect(res.body.data?.totalCount).toBeGreaterThan(7800);
    expect(res.body.data?.options.map((o) => o.value)).toContain(7000);
  });

  it('user search looks in one search column: name, e-mail, PEC, phone, SDI and Partita IVA', async () => {
    const find = async (term: string) =>
      (
        await admin.get<Paged<{ id: number; email: string }>>('/api/user/getAll', {
          query: { pageSize: 100, searchTerm: term },
        })
      ).body.data!.items.map((u) => u.email);
    expect(await find('BIANCHI CONSULTING')).toContain('amministrazione@bianchi-consulting.example.com');
    expect(await find('m5uxcr1')).toContain('amministrazione@bianchi-consulting.example.com'); // SDI
    expect(await find('12345678903')).toContain('amministrazione@bianchi-consulting.example.com'); // P.IVA
    expect(await find('333 1234567')).toContain('mario.rossi@example.com'); // phone
    expect(await find('mario.rossi@')).toEqual(['mario.rossi@example.com']);
    expect(await find('%')).toEqual([]); // a literal percent sign, not a wildcard
  });
});

describe('past 10,000 matching rows', () => {
  it('the count stops at 10,000 with the flag; a deeper page counts 1,000 rows past itself', async () => {
    const tenantId = await ctx.tenantId('Studio Rossi');
    await ctx.db.execute(sql`
      insert into addresses (tenant_id, street, zip, municipality_id)
      select ${tenantId}, 'Via Numero ' || g, '00100', (select min(id) from municipalities)
      from generate_series(1, 10050) g`);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const addresses = (query: Record<string, number>) =>
      rossi.get<Paged<{ id: number }> & { totalCountCapped?: true }>('/api/address/getAll', { query });
    const first = (await addresses({ page: 1, pageSize: 20 })).body.data!;
    expect(first).toMatchObject({ totalCount: 10_000, totalCountCapped: true });
    const deep = (await addresses({ page: 560, pageSize: 20 })).body.data!;
    expect(deep.totalCountCapped).toBeUndefined();
    expect(deep.totalCount).toBeGreaterThanOrEqual(10_050);
  });
});
