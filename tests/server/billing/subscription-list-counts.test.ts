/**
 * The subscription list's pages and counts (issues 8 and 31): the count is exact up to 10,000
 * matching rows, and on a deeper page up to that page plus 1,000 rows; past that it is capped
 * (with the flag). Against the plain queries: every page holds the rows the list's order gives at
 * that offset, a page past the end is empty with the exact count, and a filter or another tenant
 * changes nothing of that.
 * The list's statements are prepared once per filter shape: every shape, asked in either order,
 * answers its own rows (a statement reused for another shape would not). A search's statements
 * stay unnamed, so that PostgreSQL plans each with its pattern instead of a generic plan.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Paged } from '../../../contract/envelope';
import type { Subscription } from '../../../contract/schemas/subscription';
import { executeRows } from '../../../server/db/rows';
import { clientOf } from '../../../server/jobs/pg-boss-db';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';

type Page = Paged<Subscription> & { totalCountCapped?: true };

let ctx: TestContext;
let admin: ApiClient;
let tenantId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  tenantId = await ctx.tenantId('Demo Srl');
  // 10,100 more subscriptions of the tenant's customers and plans (statuses 1–5 in turn), so the
  // list is longer than the 10,000 rows counted exactly.
  await ctx.db.execute(sql`
    insert into subscriptions (tenant_id, user_id, plan_id, status, start_date, next_billing_date,
                               cost_before_vat_cents, vat_hundredths, amount_due_cents)
    select ${tenantId}, u.user_id, p.id, 1 + g % 5, now(), now() + interval '1 month', 1000, 2200, 1220
    from generate_series(1, 10100) g
    cross join lateral (select user_id from user_tenants where tenant_id = ${tenantId} order by user_id
                        offset g % 3 limit 1) u
    cross join lateral (select id from plans where tenant_id = ${tenantId} order by id limit 1) p`);
});
afterAll(() => ctx?.close());

async function expectedIds(status?: number): Promise<number[]> {
  const rows = await executeRows<{ id: number }>(
    ctx.db,
    sql`select id from subscriptions where tenant_id = ${tenantId}
        ${status === undefined ? sql`` : sql`and status = ${status}`} order by id desc`,
  );
  return rows.map((r) => r.id);
}

async function page(query: Record<string, number>) {
  const res = await admin.get<Page>('/api/subscription/getAll', { query });
  expect(res.status, res.raw).toBe(200);
  return res.body.data!;
}

describe('subscription list: pages and counts exact up to 10,000 rows', () => {
  it('each page holds the rows at its offset; past 10,000 matching rows the count is capped', async () => {
    const all = await expectedIds();
    expect(all.length).toBeGreaterThan(10_100);
    for (const [n, size] of [
      [1, 20],
      [2, 20],
      [7, 13],
    ] as const) {
      const data = await page({ page: n, pageSize: size });
      expect(data.items.map((s) => s.id)).toEqual(all.slice((n - 1) * size, n * size));
      expect(data.totalCount).toBe(10_000);
      expect(data.totalCountCapped).toBe(true);
    }
  });

  it('exact without the flag once the rows end within the window; a page past the end is empty', async () => {
    const all = await expectedIds();
    // A deep page counts 1,000 rows past itself: here the end of the list.
    const near = await page({ page: 200, pageSize: 50 });
    expect(near.items.map((s) => s.id)).toEqual(all.slice(9950, 10_000));
    expect(near.totalCount).toBe(all.length);
    expect(near.totalCountCapped).toBeUndefined();
    const lastPage = Math.ceil(all.length / 50);
    const last = await page({ page: lastPage, pageSize: 50 });
    expect(last.items.map((s) => s.id)).toEqual(all.slice((lastPage - 1) * 50));
    expect(last.totalCount).toBe(all.length);
    const beyond = await page({ page: lastPage + 3, pageSize: 50 });
    expect(beyond.items).toEqual([]);
    expect(beyond.totalCount).toBe(all.length);
    expect(beyond.totalCountCapped).toBeUndefined();
  });

  it('a filter counts and pages its own rows', async () => {
    const active = await expectedIds(1);
    const data = await page({ page: 3, pageSize: 25, 'filters[status]': 1 });
    expect(data.items.map((s) => s.id)).toEqual(active.slice(50, 75));
    expect(data.items.every((s) => s.subscriptionStatus === 1)).toBe(true);
    // Under 10,000 matching rows: exact.
    expect(data.totalCount).toBe(active.length);
    expect(data.totalCountCapped).toBeUndefined();
    // Past the end of a shorter list, near it and far past it.
    const paused = await expectedIds(2);
    expect(paused.length).toBeLessThan(2100);
    for (const n of [Math.ceil(paused.length / 100) + 1, 130]) {
      const beyond = await page({ page: n, pageSize: 100, 'filters[status]': 2 });
      expect(beyond.items).toEqual([]);
      expect(beyond.totalCount).toBe(paused.length);
    }
    const other = await ctx.as('superadmin', 'Studio Rossi');
    const res = await other.get<Page>('/api/subscription/getAll', { query: { page: 1, pageSize: 100 } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data!.items.length).toBeGreaterThan(0);
    expect(res.body.data!.items.some((s) => active.includes(s.id))).toBe(false);
  });

  it('every combination of filters, prepared once per shape, answers its own rows in either order', async () => {
    const rows = await executeRows<{
      id: number;
      status: number;
      plan_id: number;
      user_id: number;
      search_text: string;
    }>(
      ctx.db,
      sql`select id, status, plan_id, user_id, search_text from subscriptions
          where tenant_id = ${tenantId} order by id desc`,
    );
    const first = rows.find((r) => r.status === 1)!;
    const term = first.search_text.slice(0, 4);
    const filters = {
      'filters[status]': 1,
      'filters[planId]': first.plan_id,
      'filters[userId]': first.user_id,
      searchTerm: term,
    } as const;
    const keys = Object.keys(filters) as (keyof typeof filters)[];
    const combinations = Array.from({ length: 2 ** keys.length }, (_, bits) =>
      keys.filter((_, i) => bits & (1 << i)),
    );
    const matches = (set: readonly (keyof typeof filters)[]) =>
      rows
        .filter(
          (r) =>
            (!set.includes('filters[status]') || r.status === 1) &&
            (!set.includes('filters[planId]') || r.plan_id === first.plan_id) &&
            (!set.includes('filters[userId]') || r.user_id === first.user_id) &&
            (!set.includes('searchTerm') || r.search_text.includes(term.toLowerCase())),
        )
        .map((r) => r.id);
    for (const order of [combinations, [...combinations].reverse()]) {
      for (const set of order) {
        const query = Object.fromEntries(set.map((k) => [k, filters[k]]));
        const expected = matches(set);
        expect(expected.length, set.join()).toBeGreaterThan(0);
        const data = await page({ ...query, page: 2, pageSize: 5 } as Record<string, number>);
        expect(
          data.items.map((s) => s.id),
          set.join(),
        ).toEqual(expected.slice(5, 10));
        expect(data.totalCount, set.join()).toBe(Math.min(expected.length, 10_000));
        // The cursor's statements (afterId: one more condition in the name).
        const after = expected[2]!;
        const next = await page({ ...query, afterId: after, pageSize: 5 } as Record<string, number>);
        expect(
          next.items.map((s) => s.id),
          set.join(),
        ).toEqual(expected.slice(3, 8));
      }
    }
  });

  it('names the statements of every shape but a search, which PostgreSQL plans with its pattern', async () => {
    const pool = clientOf(ctx.db) as { query: (...args: unknown[]) => unknown };
    const spy = vi.spyOn(pool, 'query');
    try {
      const sent = async (query: Record<string, string | number>) => {
        spy.mockClear();
        await page({ ...query, page: 1, pageSize: 5 } as Record<string, number>);
        return spy.mock.calls
          .map(([config]) => config as { name?: string; text?: string })
          .filter((c) => typeof c.text === 'string' && /from "subscriptions"/.test(c.text))
          .map((c) => c.name ?? '');
      };
      const byStatus = await sent({ 'filters[status]': 1 });
      expect(byStatus.length).toBeGreaterThan(0);
      expect(byStatus.every((name) => name.startsWith('subscription_'))).toBe(true);
      const searches: Record<string, string | number>[] = [
        { searchTerm: 'rossi' },
        { 'filters[status]': 1, searchTerm: 'ro' },
      ];
      for (const query of searches) {
        const names = await sent(query);
        // The page (and count) with the pattern: unnamed; the rows and payments by id: named.
        expect(names.filter((name) => name === '').length, JSON.stringify(query)).toBeGreaterThan(0);
      }
    } finally {
      spy.mockRestore();
    }
  });
});
