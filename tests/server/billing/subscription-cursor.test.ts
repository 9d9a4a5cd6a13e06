/**
 * Keyset paging of the subscription list (issue 8): `afterId` = the previous answer's
 * `nextAfterId` reads the rows after it, newest first, without OFFSET. Walking the list that way
 * gives exactly the rows of the page-numbered list, in the same order, for every filter; rows
 * created during the walk neither repeat nor hide older ones; a bad cursor is a 400 on its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../contract/envelope';
import type { Subscription } from '../../../contract/schemas/subscription';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { createSubscription, planId, userId } from './helpers';

type CursorPage = Paged<Subscription> & { nextAfterId: number | null };

let ctx: TestContext;
let admin: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
});
afterAll(() => ctx?.close());

async function pageList(query: Record<string, string | number>): Promise<number[]> {
  const res = await admin.get<CursorPage>('/api/subscription/getAll', { query: { ...query, pageSize: 100 } });
  expect(res.status).toBe(200);
  return res.body.data!.items.map((s) => s.id);
}

async function walk(
  query: Record<string, string | number>,
  between?: (step: number) => Promise<void>,
): Promise<number[]> {
  const ids: number[] = [];
  let after: number | null | undefined;
  for (let step = 0; step < 50; step++) {
    const res = await admin.get<CursorPage>('/api/subscription/getAll', {
      query: { ...query, pageSize: 7, ...(after ? { afterId: after } : {}) },
    });
    expect(res.status, res.raw).toBe(200);
    ids.push(...res.body.data!.items.map((s) => s.id));
    after = res.body.data!.nextAfterId;
    if (after === null) return ids;
    await between?.(step);
  }
  throw new Error('the walk did not end');
}

describe('subscription list cursors', () => {
  it('walk the same rows in the same order as the numbered pages, for every filter', async () => {
    for (const query of [{}, { 'filters[status]': 1 }, { searchTerm: 'rossi' }] as Record<
      string,
      string | number
    >[]) {
      const expected = await pageList(query);
      expect(expected.length).toBeGreaterThan(0);
      expect(await walk(query)).toEqual(expected);
    }
  });

  it('stay stable while subscriptions are created during the walk', async () => {
    const before = await pageList({});
    const customer = await userId(ctx, 'mario.rossi@example.com');
    const basic = await planId(ctx, 'Demo Srl', 'Basic');
    const created: number[] = [];
    const walked = await walk({}, async (step) => {
      if (step < 2) created.push((await createSubscription(admin, { userId: customer, planId: basic })).id);
    });
    expect(created).toHaveLength(2);
    // The walk started before they existed: every older row once, in order, none of the new ones.
    expect(walked).toEqual(before);
    expect(new Set(walked).size).toBe(walked.length);
    expect((await pageList({})).slice(0, 2)).toEqual([...created].reverse());
  });

  it('refuses a cursor that is not an id, on its field', async () => {
    for (const bad of ['abc', '0', '-3', '99999999999']) {
      const res = await admin.get('/api/subscription/getAll', { query: { afterId: bad } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('afterId');
    }
  });
});
