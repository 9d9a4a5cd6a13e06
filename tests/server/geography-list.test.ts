import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, SelectResult } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { Municipality, Province, Region } from '../../contract/schemas/geography';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let user: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  // Reading reference data needs only a signed-in user: the lowest role.
  user = await ctx.as('cliente', 'Demo Srl');
});
afterAll(() => ctx.close());

describe('getAll paging', () => {
  it('pages are 1-based with the total counted under the same filters', async () => {
    const first = await user.get<Paged<Region>>('/api/region/getAll', { query: { page: 1, pageSize: 5 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: null });
    expect(first.body.data?.totalCount).toBe(20);
    expect(first.body.data?.items).toHaveLength(5);
    expect(first.body.data?.items.map((r) => r.name)).toEqual([
      'Abruzzo',
      'Basilicata',
      'Calabria',
      'Campania',
      'Emilia-Romagna',
    ]);

    // 20 regions, 5 per page: 4 pages; the 4th is the last and holds 5, the 5th is empty.
    const last = await user.get<Paged<Region>>('/api/region/getAll', { query: { page: 4, pageSize: 5 } });
    expect(last.body.data?.items.map((r) => r.name)).toEqual([
      'Toscana',
      'Trentino-Alto Adige/Südtirol',
      'Umbria',
      "Valle d'Aosta/Vallée d'Aoste",
      'Veneto',
    ]);
    const beyond = await user.get<Paged<Region>>('/api/region/getAll', { query: { page: 5, pageSize: 5 } });
    expect(beyond.body.data).toEqual({ items: [], totalCount: 20, nextAfterId: null });
  });

  it('pages do not overlap and cover every row once (stable order)', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 6; page++) {
      const res = await user.get<Paged<Province>>('/api/province/getAll', { query: { page, pageSize: 20 } });
      seen.push(...(res.body.data?.items.map((p) => p.id) ?? []));
    }
    expect(seen).toHaveLength(107);
    expect(new Set(seen).size).toBe(107);
  });

  it('defaults to page 1 of 5 items', async () => {
    const res = await user.get<Paged<Region>>('/api/region/getAll');
    expect(res.body.data?.items).toHaveLength(5);
  });

  it.each([
    ['pageSize', '0'],
    ['pageSize', '101'],
    ['pageSize', 'abc'],
    ['page', '0'],
  ])('%s=%s is a 400 with the reason', async (key, value) => {
    const res = await user.get('/api/region/getAll', { query: { [key]: value } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe(serverMessages.validation);
    expect(res.body.errors?.[0]).toMatch(new RegExp(`^${key}: `));
    if (key === 'pageSize') expect(res.body.errors?.[0]).toBe(`pageSize: ${serverMessages.pageSizeTooLarge}`);
  });

  it('accepts pageSize 100', async () => {
    const res = await user.get<Paged<Province>>('/api/province/getAll', { query: { pageSize: 100 } });
    expect(res.body.data?.items).toHaveLength(100);
  });
});

describe('search and filters', () => {
  it('searchTerm matches case-insensitively inside any text field', async () => {
    const byName = await user.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: 'LOMB' } });
    expect(byName.body.data?.items.map((r) => r.name)).toEqual(['Lombardia']);
    const byCode = await user.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: '12' } });
    expect(byCode.body.data?.items.map((r) => r.name)).toEqual(['Lazio']);
    const byAbbreviation = await user.get<Paged<Province>>('/api/province/getAll', {
      query: { searchTerm: 'mi', pageSize: 100 },
    });
    expect(byAbbreviation.body.data?.items.map((p) => p.abbreviation)).toContain('MI');
  });

  it('a LIKE wildcard in the search is literal', async () => {
    const res = await user.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: '%' } });
    expect(res.body.data).toEqual({ items: [], totalCount: 0, nextAfterId: null });
  });

  it('text filters match inside the field, combined with AND; the count follows', async () => {
    const res = await user.get<Paged<Municipality>>('/api/municipality/getAll', {
      query: { 'filters[name]': 'roma', 'filters[zip]': '001', pageSize: 100 },
    });
    expect(res.status).toBe(200);
    const items = res.body.data?.items ?? [];
    expect(items.length).toBeGreaterThan(0);
    expect(res.body.data?.totalCount).toBe(items.length);
    for (const m of items) {
      expect(m.name.toLowerCase()).toContain('roma');
      expect(m.zip).toContain('001');
    }
    expect(items.map((m) => m.name)).toContain('Roma');
  });

  it('filters[regionId] keeps the provinces of that region; items carry their region', async () => {
    const lazio = (
      await user.get<Paged<Region>>('/api/region/getAll', { query: { 'filters[name]': 'lazio' } })
    ).body.data?.items[0];
    const res = await user.get<Paged<Province>>('/api/province/getAll', {
      query: { [`filters[regionId]`]: lazio?.id ?? 0, pageSize: 20 },
    });
    expect(res.body.data?.items.map((p) => p.abbreviation).sort()).toEqual(['FR', 'LT', 'RI', 'RM', 'VT']);
    expect(res.body.data?.items[0]?.region).toEqual({ id: lazio?.id, name: 'Lazio' });
  });

  it('filters[provinceId] keeps the municipalities of that province; items carry their province', async () => {
    const rome = (
      await user.get<Paged<Province>>('/api/province/getAll', { query: { 'filters[abbreviation]': 'RM' } })
    ).body.data?.items[0];
    const res = await user.get<Paged<Municipality>>('/api/municipality/getAll', {
      query: { 'filters[provinceId]': rome?.id ?? 0 },
    });
    expect(res.body.data?.totalCount).toBe(121);
    expect(res.body.data?.items[0]?.province).toEqual({ id: rome?.id, name: 'Roma', abbreviation: 'RM' });
  });

  it('filter keys match case-insensitively and empty filters are ignored', async () => {
    const res = await user.get<Paged<Region>>('/api/region/getAll', {
      query: { 'filters[NAME]': 'toscana', 'filters[code]': '' },
    });
    expect(res.body.data?.items.map((r) => r.name)).toEqual(['Toscana']);
  });

  it('an unknown filter or a malformed id filter is a 400, not a silent full list', async () => {
    const unknown = await user.get('/api/region/getAll', { query: { 'filters[colour]': 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual(['filters.colour: filtro non supportato']);
    const badId = await user.get('/api/province/getAll', { query: { 'filters[regionId]': 'lazio' } });
    expect(badId.status).toBe(400);
    expect(badId.body.errors).toEqual([`filters.regionId: ${serverMessages.invalidId}`]);
  });
});

describe('getAllForSelect', () => {
  it('answers value/label options and always includes the selectedIds', async () => {
    const all = await user.get<Paged<Region>>('/api/region/getAll', { query: { pageSize: 20 } });
    const veneto = all.body.data?.items.find((r) => r.name === 'Veneto');
    const abruzzo = all.body.data?.items.find((r) => r.name === 'Abruzzo');
    const res = await user.get<SelectResult>('/api/region/getAllForSelect', {
      query: { page: 1, pageSize: 2, selectedIds: `${veneto?.id},${abruzzo?.id}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.totalCount).toBe(20);
    const options = res.body.data?.options ?? [];
    // Abruzzo is on the first page already; Veneto is added, once.
    expect(options).toContainEqual({ value: veneto?.id, label: 'Veneto' });
    expect(options.filter((o) => o.value === abruzzo?.id)).toHaveLength(1);
    expect(options).toHaveLength(3);
  });

  it('includes selectedIds even outside the search, and honours filters[regionId]', async () => {
    const lombardia = (
      await user.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: 'lombardia' } })
    ).body.data?.items[0];
    const rome = (
      await user.get<Paged<Province>>('/api/province/getAll', { query: { 'filters[abbreviation]': 'RM' } })
    ).body.data?.items[0];
    const res = await user.get<SelectResult>('/api/province/getAllForSelect', {
      query: { pageSize: 20, 'filters[regionId]': lombardia?.id ?? 0, selectedIds: String(rome?.id) },
    });
    const labels = res.body.data?.options.map((o) => o.label) ?? [];
    expect(res.body.data?.totalCount).toBe(12);
    expect(labels).toContain('Milano');
    expect(labels).toContain('Roma');
    expect(labels).toHaveLength(13);
  });

  it('rejects malformed selectedIds', async () => {
    const res = await user.get('/api/region/getAllForSelect', { query: { selectedIds: '1,x' } });
    expect(res.status).toBe(400);
  });
});

describe('GetById', () => {
  it('returns the item, 404 for an unknown id, 400 for a non-numeric id', async () => {
    const list = await user.get<Paged<Municipality>>('/api/municipality/getAll', {
      query: { searchTerm: 'Abano Terme' },
    });
    const abano = list.body.data?.items[0];
    const found = await user.get<Municipality>(`/api/municipality/GetById/${abano?.id}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({
      name: 'Abano Terme',
      zip: '35031',
      province: { abbreviation: 'PD' },
    });

    const missing = await user.get('/api/municipality/GetById/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: serverMessages.notFound, data: null });

    const bad = await user.get('/api/municipality/GetById/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([`id: ${serverMessages.invalidId}`]);
  });
});
