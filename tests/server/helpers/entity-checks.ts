import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Paged, SelectResult } from '../../../contract/envelope';
import type { Database } from '../../../server/db/client';
import { municipalities, provinces, regions } from '../../../server/db/schema';
import type { ApiClient, ApiResponse, TestContext } from './test-app';

/**
 * A row of another tenant (`foreignId`, in Studio Rossi) seen from Demo Srl, by its Admin and by a
 * SuperAdmin acting there: GetById, Update and Delete answer 404, lists and selects never show it,
 * and `snapshot` (a read of the row straight from the database) is the same afterwards.
 */
export async function expectOtherTenantUnreachable(
  ctx: TestContext,
  entity: string,
  foreignId: number,
  updateBody: Record<string, unknown>,
  snapshot: () => Promise<unknown>,
): Promise<void> {
  const before = await snapshot();
  expect(before).toBeTruthy();
  for (const client of [await ctx.as('admin', 'Demo Srl'), await ctx.as('superadmin', 'Demo Srl')]) {
    expect((await client.get(`/api/${entity}/GetById/${foreignId}`)).status).toBe(404);
    expect((await client.put(`/api/${entity}/Update`, { ...updateBody, id: foreignId })).status).toBe(404);
    expect((await client.delete(`/api/${entity}/Delete/${foreignId}`)).status).toBe(404);
    const list = await client.get<Paged<{ id: number }>>(`/api/${entity}/getAll`, {
      query: { pageSize: 100 },
    });
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((i) => i.id)).not.toContain(foreignId);
    const select = await client.get<SelectResult>(`/api/${entity}/getAllForSelect`, {
      query: { selectedIds: String(foreignId), pageSize: 100 },
    });
    expect(select.body.data?.options.map((o) => o.value)).not.toContain(foreignId);
  }
  expect(await snapshot()).toEqual(before);
}

/** The ids of an ISTAT municipality, its province and region. */
export async function placeOf(db: Database, municipality: string, province: string) {
  const [row] = await db
    .select({
      municipalityId: municipalities.id,
      zip: municipalities.zip,
      provinceId: provinces.id,
      regionId: regions.id,
    })
    .from(municipalities)
    .innerJoin(provinces, eq(provinces.id, municipalities.provinceId))
    .innerJoin(regions, eq(regions.id, provinces.regionId))
    .where(and(eq(municipalities.name, municipality), eq(provinces.abbreviation, province)));
  if (!row) throw new Error(`no municipality ${municipality} (${province})`);
  return row;
}

/** The body of a successful call (fails the test otherwise). */
export function dataOf<T>(res: ApiResponse<T>): T {
  expect(res.status, res.raw).toBe(200);
  expect(res.body.success).toBe(true);
  if (res.body.data === null) throw new Error('no data');
  return res.body.data;
}

/** Creates through the API and returns the created item. */
export async function create<T>(
  client: ApiClient,
  entity: string,
  body: Record<string, unknown>,
): Promise<T> {
  return dataOf(await client.post<T>(`/api/${entity}/Create`, body));
}
