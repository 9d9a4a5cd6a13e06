import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { Feature, Plan, PlanFeature } from '../../contract/schemas/plan';
import { validationMessages } from '../../contract/validation/italian';
import { features, planFeatures, plans } from '../../server/db/schema';
import { create, dataOf, expectOtherTenantUnreachable } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let rossi: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  rossi = await ctx.as('superadmin', 'Studio Rossi');
});
afterAll(() => ctx.close());

const featureRow = async (id: number) => (await ctx.db.select().from(features).where(eq(features.id, id)))[0];
const planFeatureRow = async (id: number) =>
  (await ctx.db.select().from(planFeatures).where(eq(planFeatures.id, id)))[0];
const count$ = async (table: typeof features | typeof planFeatures) =>
  (await ctx.db.select({ n: count() }).from(table))[0]?.n;
const planOf = async (client: ApiClient, name: string) =>
  create<Plan>(client, 'plan', { name, recurringCostBeforeVAT: 10, vatPercentage: 22, recurrenceType: 1 });

describe('feature (the catalogue)', () => {
  it('CRUD with Italian validation; nothing written on a 400', async () => {
    const created = await create<Feature>(admin, 'feature', {
      FeatureName: 'Download illimitati',
      Description: '',
    });
    expect(created).toEqual({
      id: expect.any(Number),
      featureName: 'Download illimitati',
      key: 'download_illimitati',
      description: null,
    });
    expect(dataOf(await admin.get<Feature>(`/api/feature/GetById/${created.id}`))).toEqual(created);
    const updated = dataOf(
      await admin.put<Feature>('/api/feature/Update', {
        id: created.id,
        featureName: 'Download',
        description: 'Senza limiti',
      }),
    );
    // The machine key is stable: renaming the feature keeps it (issue 15).
    expect(updated).toEqual({
      id: created.id,
      featureName: 'Download',
      key: 'download_illimitati',
      description: 'Senza limiti',
    });

    const before = await count$(features);
    const bad = await admin.post('/api/feature/Create', { featureName: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([`featureName: ${validationMessages.featureNameRequired}`]);
    expect(await count$(features)).toBe(before);

    expect((await admin.delete(`/api/feature/Delete/${created.id}`)).status).toBe(200);
    expect(await featureRow(created.id)).toBeUndefined();
  });

  it('lists in name order with search, filters and counts', async () => {
    const page = dataOf(await admin.get<Paged<Feature>>('/api/feature/getAll', { query: { pageSize: 100 } }));
    const names = page.items.map((f) => f.featureName.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(page.totalCount).toBe(page.items.length);
    const search = dataOf(
      await admin.get<Paged<Feature>>('/api/feature/getAll', { query: { searchTerm: 'webinar' } }),
    );
    expect(search.items.map((f) => f.featureName)).toEqual(['Webinar mensili']);
    const filtered = dataOf(
      await admin.get<Paged<Feature>>('/api/feature/getAll', {
        query: { 'filters[description]': 'risposta' },
      }),
    );
    expect(filtered.totalCount).toBe(2);
  });

  it('a User may neither read nor write (403)', async () => {
    const before = await count$(features);
    expect((await cliente.get('/api/feature/getAll')).status).toBe(403);
    expect((await cliente.post('/api/feature/Create', { featureName: 'X' })).status).toBe(403);
    expect(await count$(features)).toBe(before);
  });

  it('a feature of another tenant is out of reach (404) and unchanged', async () => {
    const foreign = await create<Feature>(rossi, 'feature', { featureName: 'Di Rossi' });
    await expectOtherTenantUnreachable(ctx, 'feature', foreign.id, { featureName: 'Presa' }, () =>
      featureRow(foreign.id),
    );
  });
});

describe('planfeature (a plan’s feature rows)', () => {
  it('CRUD, answered with its plan; the plan must be of the same tenant (400, nothing written)', async () => {
    const plan = await planOf(admin, 'Piano A');
    const created = await create<PlanFeature>(admin, 'planfeature', {
      planId: String(plan.id),
      featureName: 'Report mensile',
      description: 'PDF',
    });
    expect(created).toEqual({
      id: expect.any(Number),
      planId: plan.id,
      plan: { id: plan.id, name: 'Piano A' },
      featureName: 'Report mensile',
      description: 'PDF',
    });
    expect(dataOf(await admin.get<Plan>(`/api/plan/GetById/${plan.id}`)).planFeatures).toEqual([
      { id: created.id, featureName: 'Report mensile', description: 'PDF' },
    ]);

    const other = await planOf(admin, 'Piano B');
    const moved = dataOf(
      await admin.put<PlanFeature>('/api/planfeature/Update', {
        id: created.id,
        planId: other.id,
        featureName: 'Report settimanale',
      }),
    );
    expect(moved).toMatchObject({
      plan: { name: 'Piano B' },
      featureName: 'Report settimanale',
      description: null,
    });

    const before = await count$(planFeatures);
    const foreignPlan = await planOf(rossi, 'Piano di Rossi');
    const intoForeign = await admin.post('/api/planfeature/Create', {
      planId: foreignPlan.id,
      featureName: 'X',
    });
    expect(intoForeign.status).toBe(400);
    expect(intoForeign.body.errors).toEqual([serverMessages.unknownReference]);
    const moveToForeign = await admin.put('/api/planfeature/Update', {
      id: created.id,
      planId: foreignPlan.id,
      featureName: 'X',
    });
    expect(moveToForeign.status).toBe(400);
    expect(await planFeatureRow(created.id)).toMatchObject({
      planId: other.id,
      featureName: 'Report settimanale',
    });
    const missing = await admin.post('/api/planfeature/Create', { featureName: '' });
    expect(missing.body.errors).toEqual([
      `planId: ${validationMessages.planRequired}`,
      `featureName: ${validationMessages.featureNameRequired}`,
    ]);
    expect(await count$(planFeatures)).toBe(before);

    expect((await admin.delete(`/api/planfeature/Delete/${created.id}`)).status).toBe(200);
    expect(await planFeatureRow(created.id)).toBeUndefined();
  });

  it('filters by plan and feature name', async () => {
    const [pro] = await ctx.db.select().from(plans).where(eq(plans.name, 'Pro'));
    const res = dataOf(
      await admin.get<Paged<PlanFeature>>('/api/planfeature/getAll', {
        query: { 'filters[planId]': pro?.id ?? 0, pageSize: 100 },
      }),
    );
    expect(res.items.map((f) => f.featureName).sort()).toEqual(
      ['Supporto prioritario', 'Tutti i contenuti', 'Webinar mensili'].sort(),
    );
    expect(res.items.every((f) => f.plan?.name === 'Pro')).toBe(true);
    const byName = dataOf(
      await admin.get<Paged<PlanFeature>>('/api/planfeature/getAll', {
        query: { 'filters[featureName]': 'tutti i', pageSize: 100 },
      }),
    );
    expect(byName.items.map((f) => f.plan?.name).sort()).toEqual(['Enterprise', 'Plus', 'Pro']);
  });

  it('a User may not read or write (403)', async () => {
    expect((await cliente.get('/api/planfeature/getAll')).status).toBe(403);
    expect((await cliente.post('/api/planfeature/Create', { planId: 1, featureName: 'X' })).status).toBe(403);
  });

  it('a plan feature of another tenant is out of reach (404) and unchanged', async () => {
    const foreignPlan = await planOf(rossi, 'Altro di Rossi');
    const foreign = await create<PlanFeature>(rossi, 'planfeature', {
      planId: foreignPlan.id,
      featureName: 'Sua',
    });
    await expectOtherTenantUnreachable(
      ctx,
      'planfeature',
      foreign.id,
      { planId: foreignPlan.id, featureName: 'Presa' },
      () => planFeatureRow(foreign.id),
    );
  });
});
