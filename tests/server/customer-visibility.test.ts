/**
 * What a customer (User) reads of the seller (issue 23): the tenants they belong to as id and name
 * only (never IBAN, PEC, mail server or configuration), and in a subscription's history the staff
 * who acted named by role, never by e-mail or id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleNameById } from '../../contract/enums';
import { createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('a User reads a tenant as its id and name', () => {
  it('getAll, GetById and the export carry nothing else; staff still read the whole profile', async () => {
    const demo = await ctx.tenantId('Demo Srl');
    const customer = await ctx.as('cliente');
    const list = await customer.get<{ items: Record<string, unknown>[] }>('/api/tenant/getAll');
    expect(list.status).toBe(200);
    expect(list.body.data?.items).toEqual([{ id: demo, name: 'Demo Srl' }]);
    const one = await customer.get<Record<string, unknown>>(`/api/tenant/GetById/${demo}`);
    expect(one.body.data).toEqual({ id: demo, name: 'Demo Srl' });
    const exported = await customer.get('/api/tenant/export', { query: { format: 'csv' } });
    expect(exported.status).toBe(200);
    expect(exported.raw).toContain('Demo Srl');
    expect(exported.raw).not.toMatch(/IT\d{2}[A-Z]\d{10}|@pec|demo-config/i);

    const admin = await ctx.as('admin');
    const full = await admin.get<Record<string, unknown>>(`/api/tenant/GetById/${demo}`);
    expect(full.body.data).toMatchObject({ id: demo, name: 'Demo Srl' });
    expect(full.body.data?.iban).toMatch(/^IT/);
    expect(full.body.data?.pec).toBeTruthy();
  });
});

describe("a subscription's history as its customer reads it", () => {
  it('names staff by role, never by e-mail or id; the staff view keeps the e-mail', async () => {
    const demo = await ctx.tenantId('Demo Srl');
    const customer = await ctx.as('cliente', demo);
    const own = await customer.get<{ items: { id: number }[] }>('/api/subscription/getAll', {
      query: { pageSize: 100 },
    });
    const ids = own.body.data?.items.map((s) => s.id) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    const admin = await ctx.as('admin', demo);
    let staffEntries = 0;
    for (const id of ids) {
      type History = { history: { actor: { kind: string; id: string | null; name: string | null } }[] };
      const seen = await customer.get<History>(`/api/subscription/GetById/${id}`);
      const staffSeen = await admin.get<History>(`/api/subscription/GetById/${id}`);
      const mine = seen.body.data?.history ?? [];
      const theirs = staffSeen.body.data?.history ?? [];
      expect(mine.length).toBe(theirs.length);
      expect(JSON.stringify(mine)).not.toContain('@');
      theirs.forEach((entry, i) => {
        if (entry.actor.kind !== 'user' || entry.actor.name === DEMO.cliente) return;
        staffEntries += 1;
        expect(entry.actor.name).toContain('@');
        expect(mine[i]?.actor).toEqual({ kind: 'user', id: null, name: roleNameById[2] });
      });
    }
    expect(staffEntries).toBeGreaterThan(0);
  });
});
