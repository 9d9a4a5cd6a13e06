import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { Plan, PlanFeatureItem } from '../../contract/schemas/plan';
import { PLAN_WIDGET_PATH } from '../../contract/schemas/plan';
import { validationMessages } from '../../contract/validation/italian';
import { planFeatures, plans } from '../../server/db/schema';
import { create, dataOf, expectOtherTenantUnreachable } from './helpers/entity-checks';
import { createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

const PUBLIC_URL = 'https://rinnova.example.it';
let ctx: TestContext;
let admin: ApiClient;
let superadmin: ApiClient;
let cliente: ApiClient;
let rossi: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext({ app: { publicUrl: () => PUBLIC_URL } });
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  rossi = await ctx.as('superadmin', 'Studio Rossi');
});
afterAll(() => ctx.close());

// Plan names are unique in a tenant (409 on a duplicate): each body gets its own.
let planSeq = 0;
const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Piano di prova ${++planSeq}`,
  recurringCostBeforeVAT: 19.99,
  vatPercentage: 22,
  recurrenceType: 1,
  paypalPlanId: '',
  stripePlanId: '',
  isActive: true,
  ...overrides,
});
const planRow = async (id: number) => (await ctx.db.select().from(plans).where(eq(plans.id, id)))[0];
const planCount = async () => (await ctx.db.select({ n: count() }).from(plans))[0]?.n;
const featuresOf = async (planId: number) =>
  ctx.db.select().from(planFeatures).where(eq(planFeatures.planId, planId)).orderBy(planFeatures.id);
const associate = (client: ApiClient, planId: number, list: unknown) =>
  client.post<PlanFeatureItem[]>(`/api/plan/associateFeatures/${planId}`, list);

describe('plan CRUD', () => {
  it('creates a plan: money round-trips exactly, recurrence named, no features yet', async () => {
    const res = await admin.post<Plan>(
      '/api/plan/Create',
      planBody({ name: 'Annuale', recurrenceType: 12, paypalPlanId: 'P-123' }),
    );
    const plan = dataOf(res);
    expect(plan).toEqual({
      id: expect.any(Number),
      name: 'Annuale',
      recurringCostBeforeVAT: 19.99,
      vatPercentage: 22,
      recurrenceType: 12,
      recurrenceTypeName: 'Annuale',
      natura: null,
      paypalPlanId: 'P-123',
      stripePlanId: null,
      isActive: true,
      trialDays: null,
      planFeatures: [],
    });
    // JSON carries exactly 19.99, and the database holds the exact decimal.
    expect(res.raw).toContain('"recurringCostBeforeVAT":19.99,');
    expect(await planRow(plan.id)).toMatchObject({ recurringCostBeforeVat: '19.99', vatPercentage: '22.00' });
    expect(dataOf(await admin.get<Plan>(`/api/plan/GetById/${plan.id}`))).toEqual(plan);
  });

  it('float noise never reaches the database: 0.1 + 0.2 is 0.30, 0.07 is 0.07, "9,90" is 9.90', async () => {
    for (const [cost, stored, answered] of [
      [0.1 + 0.2, '0.30', 0.3],
      [0.07, '0.07', 0.07],
      [1.1 * 3, '3.30', 3.3],
      ['9,90', '9.90', 9.9],
      [999999.99, '999999.99', 999999.99],
      [0, '0.00', 0],
    ] as const) {
      const plan = await create<Plan>(
        admin,
        'plan',
        planBody({ recurringCostBeforeVAT: cost, vatPercentage: 0.1 + 0.2 }),
      );
      expect(plan.recurringCostBeforeVAT, String(cost)).toBe(answered);
      expect(plan.vatPercentage).toBe(0.3);
      expect((await planRow(plan.id))?.recurringCostBeforeVat).toBe(stored);
    }
  });

  it('an absent VAT is the default 22; the six recurrences have their Italian names', async () => {
    const { vatPercentage: _omitted, ...withoutVat } = planBody();
    expect((await create<Plan>(admin, 'plan', withoutVat)).vatPercentage).toBe(22);
    const names: Record<number, string> = {
      1: 'Mensile',
      2: 'Bimestrale',
      3: 'Trimestrale',
      4: 'Quadrimestrale',
      6: 'Semestrale',
      12: 'Annuale',
    };
    for (const [months, name] of Object.entries(names)) {
      const plan = await create<Plan>(admin, 'plan', planBody({ recurrenceType: String(months) }));
      expect(plan).toMatchObject({ recurrenceType: Number(months), recurrenceTypeName: name });
    }
  });

  it('bad input is a 400 whose errors are Italian (the form shows errors[0]), and nothing is written', async () => {
    const before = await planCount();
    const empty = await admin.post('/api/plan/Create', { vatPercentage: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([
      `name: ${validationMessages.planNameRequired}`,
      `recurringCostBeforeVAT: ${validationMessages.costRequired}`,
      `vatPercentage: ${validationMessages.vatRequired}`,
      `recurrenceType: ${validationMessages.recurrenceRequired}`,
    ]);
    for (const [field, value, message] of [
      ['recurringCostBeforeVAT', -1, validationMessages.costInvalid],
      ['recurringCostBeforeVAT', 1.005, validationMessages.costInvalid],
      ['recurringCostBeforeVAT', 1_000_000.01, validationMessages.costInvalid],
      ['recurringCostBeforeVAT', 'dieci', validationMessages.costInvalid],
      ['vatPercentage', 100.01, validationMessages.vatPercentageInvalid],
      ['recurrenceType', 5, validationMessages.recurrenceInvalid],
    ] as const) {
      const res = await admin.post('/api/plan/Create', planBody({ [field]: value }));
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.errors).toEqual([`${field}: ${message}`]);
    }
    expect(await planCount()).toBe(before);
  });

  it('updates a plan; the planFeatures key of the form is ignored there', async () => {
    const plan = await create<Plan>(admin, 'plan', planBody({ name: 'Da aggiornare' }));
    await associate(admin, plan.id, [{ featureName: 'Resta' }]);
    const res = await admin.put<Plan>('/api/plan/Update', {
      ...planBody({
        name: 'Aggiornato',
        recurringCostBeforeVAT: '49.5',
        isActive: false,
        stripePlanId: 'price_1',
      }),
      id: plan.id,
      planFeatures: [],
    });
    expect(dataOf(res)).toMatchObject({
      name: 'Aggiornato',
      recurringCostBeforeVAT: 49.5,
      isActive: false,
      stripePlanId: 'price_1',
      planFeatures: [{ featureName: 'Resta', description: null }],
    });
    expect((await planRow(plan.id))?.recurringCostBeforeVat).toBe('49.50');
  });

  it('deleting a plan deletes its features', async () => {
    const plan = await create<Plan>(admin, 'plan', planBody({ name: 'Da eliminare' }));
    await associate(admin, plan.id, [{ featureName: 'Uno' }, { featureName: 'Due' }]);
    expect((await admin.delete(`/api/plan/Delete/${plan.id}`)).status).toBe(200);
    expect(await planRow(plan.id)).toBeUndefined();
    expect(await featuresOf(plan.id)).toHaveLength(0);
  });

  it('a User may neither read nor write plans (403)', async () => {
    const before = await planCount();
    const [any] = await ctx.db.select().from(plans).limit(1);
    expect((await cliente.get('/api/plan/getAll')).status).toBe(403);
    expect((await cliente.get(`/api/plan/GetById/${any?.id}`)).status).toBe(403);
    expect((await cliente.post('/api/plan/Create', planBody())).status).toBe(403);
    expect((await cliente.put('/api/plan/Update', { ...planBody(), id: any?.id })).status).toBe(403);
    expect((await cliente.delete(`/api/plan/Delete/${any?.id}`)).status).toBe(403);
    expect((await associate(cliente, any?.id ?? 0, [])).status).toBe(403);
    expect((await cliente.get('/api/plan/iframe', { query: { planId: any?.id ?? 0 } })).status).toBe(403);
    expect(await planCount()).toBe(before);
    expect(await featuresOf(any?.id ?? 0)).not.toHaveLength(0);
  });
});

describe('getAll', () => {
  it('name order, search, boolean and recurrence filters, features included, counts under the filters', async () => {
    const list = async (query: Record<string, string | number>) =>
      dataOf(await superadmin.get<Paged<Plan>>('/api/plan/getAll', { query: { pageSize: 100, ...query } }));
    const all = await list({});
    const names = all.items.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    // The demo plans come with their features, in the lists too.
    expect(all.items.find((p) => p.name === 'Pro')?.planFeatures.map((f) => f.featureName)).toEqual([
      'Tutti i contenuti',
      'Webinar mensili',
      'Supporto prioritario',
    ]);
    const inactive = await list({ 'filters[isActive]': 'false' });
    expect(inactive.items.every((p) => !p.isActive)).toBe(true);
    expect(inactive.totalCount).toBe(inactive.items.length);
    expect(inactive.totalCount).toBeGreaterThan(0);
    expect(
      (await list({ 'filters[recurrenceType]': 12, 'filters[name]': 'enter' })).items.map((p) => p.name),
    ).toEqual(['Enterprise']);
    expect((await list({ searchTerm: 'P-12' })).items.map((p) => p.name)).toEqual(['Annuale']);
    const page = dataOf(
      await superadmin.get<Paged<Plan>>('/api/plan/getAll', { query: { page: 2, pageSize: 2 } }),
    );
    expect(page.items.map((p) => p.id)).toEqual(all.items.slice(2, 4).map((p) => p.id));
    expect(page.totalCount).toBe(all.totalCount);
  });
});

describe('POST api/plan/associateFeatures/{planId}', () => {
  let planId: number;
  beforeAll(async () => {
    planId = (await create<Plan>(admin, 'plan', planBody({ name: 'Con funzionalità' }))).id;
  });

  it('replaces the whole list with the array sent, in its order, and answers the new list', async () => {
    const first = dataOf(
      await associate(admin, planId, [
        { featureName: 'Accesso illimitato', description: 'Tutto il catalogo' },
        { FeatureName: 'Supporto', Description: '' },
      ]),
    );
    expect(first).toEqual([
      { id: expect.any(Number), featureName: 'Accesso illimitato', description: 'Tutto il catalogo' },
      { id: expect.any(Number), featureName: 'Supporto', description: null },
    ]);
    const second = dataOf(await associate(admin, planId, [{ featureName: 'Solo questa' }]));
    expect(second.map((f) => f.featureName)).toEqual(['Solo questa']);
    expect((await featuresOf(planId)).map((f) => f.featureName)).toEqual(['Solo questa']);
    expect(dataOf(await admin.get<Plan>(`/api/plan/GetById/${planId}`)).planFeatures).toEqual(second);
    expect(dataOf(await associate(admin, planId, []))).toEqual([]);
    expect(await featuresOf(planId)).toHaveLength(0);
  });

  it('an invalid item or a body that is not an array is a 400 and the list stays as it was', async () => {
    await associate(admin, planId, [{ featureName: 'Resta' }]);
    const bad = await associate(admin, planId, [{ featureName: 'Nuova' }, { featureName: ' ' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([`1.featureName: ${validationMessages.featureNameRequired}`]);
    expect((await associate(admin, planId, { featureName: 'oggetto' })).status).toBe(400);
    expect((await featuresOf(planId)).map((f) => f.featureName)).toEqual(['Resta']);
  });

  it("another tenant's plan or an unknown plan is a 404 and nothing changes", async () => {
    const foreign = await create<Plan>(rossi, 'plan', planBody({ name: 'Di Rossi' }));
    await associate(rossi, foreign.id, [{ featureName: 'Di Rossi' }]);
    for (const client of [admin, superadmin]) {
      expect((await associate(client, foreign.id, [])).status).toBe(404);
    }
    expect((await associate(admin, 99_999, [])).status).toBe(404);
    expect((await featuresOf(foreign.id)).map((f) => f.featureName)).toEqual(['Di Rossi']);
  });
});

describe('GET api/plan/iframe?planId=', () => {
  it('answers text/plain embed code pointing at the public widget of the plan', async () => {
    const plan = await create<Plan>(admin, 'plan', planBody({ name: 'Widget "speciale" <b>' }));
    const res = await admin.get('/api/plan/iframe', { query: { planId: plan.id } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.raw).toBe(
      `<iframe src="${PUBLIC_URL}${PLAN_WIDGET_PATH}?planId=${plan.id}" title="Abbonamento: Widget &quot;speciale&quot; &lt;b&gt;" ` +
        'width="100%" height="640" style="border:0;max-width:480px" loading="lazy"></iframe>',
    );
  });

  it('an unknown, foreign or missing planId is a JSON error', async () => {
    const foreign = await create<Plan>(rossi, 'plan', planBody({ name: 'Iframe di Rossi' }));
    for (const planId of [foreign.id, 99_999]) {
      const res = await admin.get('/api/plan/iframe', { query: { planId } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: serverMessages.notFound, data: null });
    }
    expect((await admin.get('/api/plan/iframe')).status).toBe(400);
  });
});

it('a plan of another tenant is out of reach (404) and unchanged', async () => {
  const foreign = await create<Plan>(rossi, 'plan', planBody({ name: 'Riservato di Rossi' }));
  await expectOtherTenantUnreachable(ctx, 'plan', foreign.id, planBody({ name: 'Preso' }), () =>
    planRow(foreign.id),
  );
});
