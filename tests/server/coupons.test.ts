/**
 * Coupons (issue 30): the entity through the real server — Italian field errors, the code unique
 * per tenant whatever the case, plans of the tenant only, paging / search / sort as the other
 * lists, Delete refused once redeemed, another tenant's rows a 404.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { couponMessages as m } from '../../contract/messages';
import type { Coupon } from '../../contract/schemas/coupon';
import { coupons, plans } from '../../server/db/schema';
import { DEMO_COUPON_CODES } from '../../server/db/seed/demo-lifecycle';
import { create, dataOf, expectOtherTenantUnreachable } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let rossi: ApiClient;
let demoPlanId: number;
let rossiPlanId: number;
const NOW = new Date('2026-03-10T10:00:00Z');

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: () => NOW } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  rossi = await ctx.as('superadmin', 'Studio Rossi');
  const demo = await ctx.tenantId('Demo Srl');
  const rossiId = await ctx.tenantId('Studio Rossi');
  demoPlanId = (await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.tenantId, demo)))[0]!.id;
  rossiPlanId = (await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.tenantId, rossiId)))[0]!.id;
});
afterAll(() => ctx.close());

const errorsOf = (res: { body: { errors?: string[] } }) => res.body.errors ?? [];

describe('coupon CRUD', () => {
  it('creates a percentage coupon: code upper-cased, figures exact, active, not yet used', async () => {
    const c = await create<Coupon>(admin, 'coupon', {
      code: 'benvenuto10',
      percentOff: 10,
      duration: 'once',
      planIds: [demoPlanId],
      maxRedemptions: 10,
    });
    expect(c).toEqual({
      id: expect.any(Number),
      code: 'BENVENUTO10',
      percentOff: 10,
      amountOff: null,
      duration: 'once',
      durationPeriods: null,
      planIds: [demoPlanId],
      expiresAt: null,
      maxRedemptions: 10,
      timesRedeemed: 0,
      active: true,
      discountLabel: '10%',
      durationLabel: 'Una volta',
      usageLabel: '0 / 10',
      createdAt: NOW.toISOString(),
    });
    expect(dataOf(await admin.get<Coupon>(`/api/coupon/GetById/${c.id}`))).toEqual(c);
    const [row] = await ctx.db.select().from(coupons).where(eq(coupons.id, c.id));
    expect(row).toMatchObject({ percentOffHundredths: 1000, amountOffCents: null });
  });

  it('an amount coupon for 3 periods: euros to cents exactly; periods dropped for other durations', async () => {
    const c = await create<Coupon>(admin, 'coupon', {
      code: 'TRE-MESI',
      amountOff: '5,10',
      duration: 'repeating',
      durationPeriods: 3,
    });
    expect(c).toMatchObject({ amountOff: 5.1, percentOff: null, durationPeriods: 3, planIds: [] });
    const updated = dataOf(
      await admin.put<Coupon>('/api/coupon/Update', {
        id: c.id,
        code: 'TRE-MESI',
        amountOff: 5.1,
        duration: 'forever',
        durationPeriods: 3,
      }),
    );
    expect(updated).toMatchObject({ duration: 'forever', durationPeriods: null, durationLabel: 'Sempre' });
    expect(c.durationLabel).toBe('Per 3 periodi');
    expect(c.discountLabel.replace(/\s/g, ' ')).toBe('5,10 €');
    expect(c.usageLabel).toBe('0');
  });

  it('Update without planIds keeps the coupon’s plans (a form without the picker); [] opens it to all', async () => {
    const c = await create<Coupon>(admin, 'coupon', {
      code: 'SOLOPRO',
      percentOff: 20,
      duration: 'once',
      planIds: [demoPlanId],
    });
    const kept = dataOf(
      await admin.put<Coupon>('/api/coupon/Update', {
        id: c.id,
        code: 'SOLOPRO',
        percentOff: 25,
        duration: 'once',
      }),
    );
    expect(kept).toMatchObject({ percentOff: 25, planIds: [demoPlanId] });
    const opened = dataOf(
      await admin.put<Coupon>('/api/coupon/Update', {
        id: c.id,
        code: 'SOLOPRO',
        percentOff: 25,
        duration: 'once',
        planIds: [],
      }),
    );
    expect(opened.planIds).toEqual([]);
    expect((await admin.delete(`/api/coupon/Delete/${c.id}`)).status).toBe(200);
  });

  it('answers Italian errors on the fields', async () => {
    const bad = await admin.post('/api/coupon/Create', {
      code: 'x y',
      duration: 'repeating',
      percentOff: 150,
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad)).toEqual([`code: ${m.codeInvalid}`, `percentOff: ${m.percentInvalid}`]);
    const none = await admin.post('/api/coupon/Create', { code: 'NESSUNO', duration: 'repeating' });
    expect(errorsOf(none)).toEqual([
      `percentOff: ${m.discountRequired}`,
      `durationPeriods: ${m.periodsRequired}`,
    ]);
    const both = await admin.post('/api/coupon/Create', {
      code: 'ENTRAMBI',
      duration: 'once',
      percentOff: 5,
      amountOff: 5,
    });
    expect(errorsOf(both)).toEqual([`amountOff: ${m.discountBoth}`]);
  });

  it('a code is unique in the tenant whatever the case (409 on code), free in another tenant', async () => {
    await create(admin, 'coupon', { code: 'UNICO', percentOff: 5, duration: 'once' });
    const dup = await admin.post('/api/coupon/Create', { code: 'unico', percentOff: 7, duration: 'once' });
    expect(dup.status).toBe(409);
    expect(errorsOf(dup)).toEqual([`code: ${m.codeTaken}`]);
    await create(rossi, 'coupon', { code: 'UNICO', percentOff: 5, duration: 'once' });
  });

  it('planIds must be plans of the tenant (another tenant’s plan is unknown)', async () => {
    const res = await admin.post('/api/coupon/Create', {
      code: 'ALTRUI',
      percentOff: 5,
      duration: 'once',
      planIds: [rossiPlanId],
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual([`planIds: ${m.planUnknown}`]);
  });

  it('an expired coupon is not active; lists page, search and sort like the others', async () => {
    await create(admin, 'coupon', {
      code: 'SCADUTO',
      percentOff: 5,
      duration: 'once',
      expiresAt: '2026-03-09',
    });
    await create(admin, 'coupon', { code: 'OGGI', percentOff: 5, duration: 'once', expiresAt: '2026-03-10' });
    const page = dataOf(
      await admin.get<Paged<Coupon>>('/api/coupon/getAll', { query: { searchTerm: 'ggi', pageSize: 5 } }),
    );
    expect(page.items.map((c) => [c.code, c.active])).toEqual([['OGGI', true]]);
    const expired = dataOf(
      await admin.get<Paged<Coupon>>('/api/coupon/getAll', { query: { 'filters[code]': 'scad' } }),
    );
    expect(expired.items.map((c) => [c.code, c.active])).toEqual([['SCADUTO', false]]);
    const all = dataOf(
      await admin.get<Paged<Coupon>>('/api/coupon/getAll', { query: { pageSize: 2, page: 1 } }),
    );
    expect(all.items.map((c) => c.code)).toEqual(['BENVENUTO10', 'OGGI']);
    // Its five and the demo seed's (demo-lifecycle.ts; their codes sort between these).
    expect(all.totalCount).toBe(5 + DEMO_COUPON_CODES.length);
    const sorted = dataOf(
      await admin.get<Paged<Coupon>>('/api/coupon/getAll', { query: { sort: '-code', pageSize: 1 } }),
    );
    expect(sorted.items.map((c) => c.code)).toEqual(['UNICO']);
  });

  it('is the staff’s: a customer gets 403', async () => {
    expect((await cliente.get('/api/coupon/getAll')).status).toBe(403);
    expect(
      (await cliente.post('/api/coupon/Create', { code: 'CLIENTE', percentOff: 5, duration: 'once' })).status,
    ).toBe(403);
  });

  it('Delete: an unused coupon goes; one already redeemed is refused with 409 (deactivate it instead)', async () => {
    const unused = await create<Coupon>(admin, 'coupon', {
      code: 'DAELIMINARE',
      percentOff: 5,
      duration: 'once',
    });
    expect((await admin.delete(`/api/coupon/Delete/${unused.id}`)).status).toBe(200);
    expect((await admin.get(`/api/coupon/GetById/${unused.id}`)).status).toBe(404);
    const used = await create<Coupon>(admin, 'coupon', {
      code: 'USATO',
      percentOff: 5,
      duration: 'once',
      maxRedemptions: 3,
    });
    await ctx.db.update(coupons).set({ timesRedeemed: 2 }).where(eq(coupons.id, used.id));
    const refused = await admin.delete(`/api/coupon/Delete/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(m.deleteRedeemed);
    const lower = await admin.put('/api/coupon/Update', {
      id: used.id,
      code: 'USATO',
      percentOff: 5,
      duration: 'once',
      maxRedemptions: 1,
    });
    expect(errorsOf(lower)).toEqual([`maxRedemptions: ${m.maxBelowRedeemed(2)}`]);
    const off = dataOf(
      await admin.put<Coupon>('/api/coupon/Update', {
        id: used.id,
        code: 'USATO',
        percentOff: 5,
        duration: 'once',
        maxRedemptions: 3,
        expiresAt: '2026-03-09',
      }),
    );
    expect(off).toMatchObject({ active: false, timesRedeemed: 2 });
  });

  it('never reaches another tenant’s coupon (404, never listed)', async () => {
    const foreign = await create<Coupon>(rossi, 'coupon', {
      code: 'ROSSI5',
      percentOff: 5,
      duration: 'once',
    });
    await expectOtherTenantUnreachable(
      ctx,
      'coupon',
      foreign.id,
      { code: 'ROSSI5', percentOff: 50, duration: 'once' },
      async () => (await ctx.db.select().from(coupons).where(eq(coupons.id, foreign.id)))[0],
    );
  });
});
