/**
 * The contract's status sets are the one definition (issue 24): queries built at run time take
 * them from contract/subscription-status.ts, and the triggers and partial indexes that migrations
 * wrote with a literal list must list exactly the same statuses. Read from the migrated database
 * itself, so changing the contract without a migration fails here.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveStatuses } from '../../contract/subscription-status';
import { createTestContext } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Every `IN (a, b)` or `= ANY (ARRAY[a, b])` list of status numbers in a definition. */
function statusLists(definition: string): number[][] {
  const lists = [
    ...definition.matchAll(/status(?:\s*,\s*0)?\)?(?:::\w+)?\s+(?:NOT\s+)?IN\s*\(([\d,\s]+)\)/gi),
    ...definition.matchAll(
      /status(?:\s*,\s*0)?\)?(?:::\w+)?\s*(?:=|<>)\s*(?:ANY|ALL)\s*\(\s*(?:ARRAY\[|'\{)([\d,\s]+)/gi,
    ),
  ];
  return lists.map((m) => (m[1] ?? '').split(',').map((n) => Number(n.trim())));
}

async function definitionsOf(query: SQL): Promise<{ name: string; def: string }[]> {
  const result = (await ctx.db.execute(query)) as unknown as { rows: { name: string; def: string }[] };
  return result.rows;
}

describe('live statuses', () => {
  it('every trigger function and partial index that tests a live status lists the contract’s set', async () => {
    const functions = await definitionsOf(sql`
      select p.proname as name, pg_get_functiondef(p.oid) as def
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f'`);
    const indexes = await definitionsOf(sql`
      select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and indexdef like '% WHERE %'`);
    const definitions = [...functions, ...indexes].filter((d) => /status/i.test(d.def));
    const checked = definitions.flatMap((d) => statusLists(d.def).map((list) => ({ name: d.name, list })));
    // The dashboard's rollup triggers (on subscriptions and on their events), two lists each.
    expect(checked.filter((c) => c.name.endsWith('_dashboard')).length).toBeGreaterThanOrEqual(4);
    for (const { name, list } of checked) expect([...list].sort(), name).toEqual([...liveStatuses].sort());
  });
});
