/**
 * The customer select's search (issue 8): a bounded walk of the first 1,000 memberships in name
 * order, then, when it found less than a page, every match read by the trigram index and ordered.
 * Whatever the step that answers, the options are the ones the plain query gives (the tenant's
 * memberships whose search text holds the term, by name case-insensitively, rows without a name
 * last, ties by id), page after page; another tenant's matches never show.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelectResult } from '../../contract/envelope';
import { tenants } from '../../server/db/schema';
import { executeRows } from '../../server/db/rows';
import { createTestContext, type ApiClient, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let tenantId: number;

/** Memberships of `tenant` named by `name(g)` (NULL when it answers null), e-mails `prefix-g@…`. */
async function members(tenant: number, prefix: string, n: number, name: string): Promise<void> {
  await ctx.db.execute(sql`
    insert into users (email, role_id, name)
    select ${prefix} || '-' || g || '@example.it', 3, ${sql.raw(name)} from generate_series(1, ${n}) g`);
  await ctx.db.execute(sql`
    insert into user_tenants (user_id, tenant_id, name)
    select id, ${tenant}, name from users where email like ${prefix + '-%@example.it'}`);
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  tenantId = await ctx.tenantId('Demo Srl');
  const [other] = await ctx.db.insert(tenants).values({ name: 'Altra Srl' }).returning({ id: tenants.id });
  // 1,150 customers in the middle of the alphabet, every tenth "Frequente" (the walk finds a page);
  // "Tardivo" only at the end (the walk finds none); "Misto" five at the start and thirty at the
  // end (the walk finds five); three without a name whose e-mail says "tardivo" (they sort last).
  await members(
    tenantId,
    'cliente',
    1150,
    `'Cliente ' || lpad(g::text, 4, '0') || case when g % 10 = 0 then ' Frequente' else '' end`,
  );
  await members(tenantId, 'tardivo', 30, `'Zz Tardivo ' || g`);
  await members(tenantId, 'misto-a', 5, `'Aa Misto ' || g`);
  await members(tenantId, 'misto-z', 30, `'ZZ MISTO ' || g`);
  await members(tenantId, 'senza-nome-tardivo', 3, 'null');
  await members(other!.id, 'altro', 40, `'Zz Tardivo Misto Frequente altrui ' || g`);
});
afterAll(() => ctx?.close());

async function expected(term: string, page: number, pageSize: number) {
  const rows = await executeRows<{ id: number; name: string | null; email: string }>(
    ctx.db,
    sql`select ut.user_id as id, ut.name, u.email from user_tenants ut join users u on u.id = ut.user_id
        where ut.tenant_id = ${tenantId} and ut.search_text like ${'%' + term + '%'}
        order by lower(ut.name) nulls last, ut.user_id`,
  );
  return {
    total: rows.length,
    page: rows
      .slice((page - 1) * pageSize, page * pageSize)
      .map((r) => ({ value: r.id, label: r.name ? `${r.name} (${r.email})` : r.email })),
  };
}

describe('customer select search', () => {
  it.each([
    ['frequent in the first memberships', 'frequente', [1, 2, 6], 20],
    ['only past the walk', 'tardivo', [1, 2], 20],
    ['a few in the walk, the rest past it', 'misto', [1, 2], 20],
    ['a small page deep in the matches', 'misto', [5], 7],
  ])('%s ("%s"): the plain query’s options, page by page', async (_name, term, pageList, pageSize) => {
    for (const page of pageList) {
      const res = await admin.get<SelectResult>('/api/user/getAllForSelect', {
        query: { searchTerm: term.toUpperCase(), page, pageSize },
      });
      expect(res.status, res.raw).toBe(200);
      const want = await expected(term, page, pageSize);
      expect(want.page.length).toBeGreaterThan(0);
      expect(res.body.data!.options).toEqual(want.page);
      expect(res.body.data!.totalCount).toBe(want.total);
    }
  });

  it('a selected customer outside the search stays among the options', async () => {
    const [first] = (await expected('cliente 0001', 1, 1)).page;
    const res = await admin.get<SelectResult>('/api/user/getAllForSelect', {
      query: { searchTerm: 'tardivo', selectedIds: String(first!.value) },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data!.options[0]).toEqual(first);
    expect(res.body.data!.options.slice(1)).toEqual((await expected('tardivo', 1, 20)).page);
  });
});
