import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { messages, serverMessages } from '../../contract/messages';
import type { Municipality, Province, Region } from '../../contract/schemas/geography';
import { municipalities, provinces, regions } from '../../server/db/schema';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let superadmin: ApiClient;
let cliente: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin');
  cliente = await ctx.as('cliente', 'Demo Srl');
});
afterAll(() => ctx.close());

const regionCount = async () => (await ctx.db.select({ n: count() }).from(regions))[0]?.n;

describe('Create / Update / Delete', () => {
  it('an Admin creates, reads, updates and deletes a region', async () => {
    const created = await admin.post<Region>('/api/region/Create', { name: 'Regione di prova', code: '99' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      message: messages.http.created,
      data: { name: 'Regione di prova', code: '99' },
    });
    const id = created.body.data?.id;
    expect(typeof id).toBe('number');

    const updated = await admin.put<Region>('/api/region/Update', {
      id,
      name: 'Regione rinominata',
      code: '98',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      message: messages.http.updated,
      data: { id, name: 'Regione rinominata', code: '98' },
    });
    const [row] = await ctx.db
      .select()
      .from(regions)
      .where(eq(regions.id, id ?? 0));
    expect(row).toMatchObject({ name: 'Regione rinominata', code: '98' });

    const removed = await admin.delete(`/api/region/Delete/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ success: true, data: { id } });
    expect(
      await ctx.db
        .select()
        .from(regions)
        .where(eq(regions.id, id ?? 0)),
    ).toEqual([]);
    expect((await admin.get(`/api/region/GetById/${id}`)).status).toBe(404);
  });

  it('a SuperAdmin writes without any tenant header', async () => {
    const created = await superadmin.post<Region>('/api/region/Create', { name: 'Regione SA', code: 'SA1' });
    expect(created.status).toBe(200);
    expect((await superadmin.delete(`/api/region/Delete/${created.body.data?.id}`)).status).toBe(200);
  });

  it('a User (role 3) reads but may not write: 403 and nothing written', async () => {
    const before = await regionCount();
    const res = await cliente.post('/api/region/Create', { name: 'Vietata', code: 'X1' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: serverMessages.forbidden, data: null });
    expect(await regionCount()).toBe(before);
    expect((await cliente.put('/api/region/Update', { id: 1, name: 'X', code: 'X' })).status).toBe(403);
    expect((await cliente.delete('/api/region/Delete/1')).status).toBe(403);
  });

  it('province and municipality bodies bind case-insensitively (zIP → zip, RegionId → regionId)', async () => {
    const lazio = (await admin.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: 'lazio' } }))
      .body.data?.items[0];
    const province = await admin.post<Province>('/api/province/Create', {
      Name: 'Provincia di prova',
      ABBREVIATION: 'pp',
      RegionId: lazio?.id,
    });
    expect(province.status).toBe(200);
    expect(province.body.data).toMatchObject({
      name: 'Provincia di prova',
      abbreviation: 'PP',
      regionId: lazio?.id,
      region: { name: 'Lazio' },
    });

    const municipality = await admin.post<Municipality>('/api/municipality/Create', {
      name: 'Comune di prova',
      zIP: '00999',
      provinceID: province.body.data?.id,
    });
    expect(municipality.status).toBe(200);
    expect(municipality.body.data).toMatchObject({
      zip: '00999',
      province: { name: 'Provincia di prova', abbreviation: 'PP' },
    });

    // The province is referenced by a municipality: 409, nothing deleted.
    const blocked = await admin.delete(`/api/province/Delete/${province.body.data?.id}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ success: false, message: serverMessages.inUse, data: null });
    expect(
      await ctx.db
        .select()
        .from(provinces)
        .where(eq(provinces.id, province.body.data?.id ?? 0)),
    ).toHaveLength(1);

    expect((await admin.delete(`/api/municipality/Delete/${municipality.body.data?.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/province/Delete/${province.body.data?.id}`)).status).toBe(200);
  });

  it('deleting a seeded region with provinces is a 409 and deletes nothing', async () => {
    const veneto = (await admin.get<Paged<Region>>('/api/region/getAll', { query: { searchTerm: 'veneto' } }))
      .body.data?.items[0];
    const res = await admin.delete(`/api/region/Delete/${veneto?.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(serverMessages.inUse);
    expect(await regionCount()).toBe(20);
  });

  it('Update and Delete of an unknown id are 404; Update without id is 400', async () => {
    expect((await admin.put('/api/region/Update', { id: 999999, name: 'X', code: 'X' })).status).toBe(404);
    expect((await admin.delete('/api/region/Delete/999999')).status).toBe(404);
    const noId = await admin.put('/api/region/Update', { name: 'X', code: 'X' });
    expect(noId.status).toBe(400);
    expect(noId.body.errors).toEqual(['id: Numero mancante o non valido']);
  });
});

describe('invalid bodies', () => {
  it('lists every failure in Italian and writes nothing', async () => {
    const before = await regionCount();
    const res = await admin.post('/api/region/Create', { name: '   ', code: 'x'.repeat(11) });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe(serverMessages.validation);
    expect(res.body.errors).toEqual([
      'name: Campo obbligatorio',
      'code: Troppo grande: string deve avere <=10 caratteri',
    ]);
    expect(await regionCount()).toBe(before);
  });

  it('a municipality pointing at a missing province is a 400 and writes nothing', async () => {
    const [before] = await ctx.db.select({ n: count() }).from(municipalities);
    const res = await admin.post('/api/municipality/Create', {
      name: 'Orfano',
      zip: '00000',
      provinceId: 999999,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['Riferimento a un elemento inesistente.']);
    const [after] = await ctx.db.select({ n: count() }).from(municipalities);
    expect(after?.n).toBe(before?.n);
  });

  it('a non-numeric provinceId is reported on the field', async () => {
    const res = await admin.post('/api/municipality/Create', { name: 'X', zip: '1', provinceId: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['provinceId: Numero mancante o non valido']);
  });

  it('malformed JSON is a 400 envelope', async () => {
    const res = await admin.post('/api/region/Create', '{"name":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      message: serverMessages.validation,
      errors: ['Il corpo della richiesta non è un JSON valido.'],
    });
  });
});
