import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../contract/schemas/tenant';
import { tenants } from '../../server/db/schema';
import { placeOf } from './helpers/entity-checks';
import { createTestContext, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let rossiId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  rossiId = await ctx.tenantId('Studio Rossi');
});
afterAll(() => ctx.close());

const snapshot = async () => (await ctx.db.select().from(tenants).where(eq(tenants.id, rossiId)))[0];

describe('the seller’s billing profile of a tenant', () => {
  it('is saved by an Admin of the tenant with Italian identifiers normalised', async () => {
    const sa = await ctx.as('superadmin');
    const milano = await placeOf(ctx.db, 'Milano', 'MI');
    const res = await sa.put<Tenant>('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      legalName: 'Studio Rossi Associati',
      vatCode: '123 456 789 03',
      fiscalCode: 'rssmra85t10a562s',
      taxRegime: 'rf19',
      // The demo's Studio Rossi is subject to ritenuta: a forfettario is not.
      withholdingTax: null,
      street: 'Via Dante 7',
      zip: '20121',
      regionId: milano.regionId,
      provinceId: milano.provinceId,
      municipalityId: milano.municipalityId,
      pec: 'studiorossi@pec.example.com',
      iban: 'it60 x054 2811 1010 0000 0123 456',
      accountHolder: 'Studio Rossi Associati',
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      vatCode: '12345678903',
      fiscalCode: 'RSSMRA85T10A562S',
      taxRegime: 'RF19',
      iban: 'IT60X0542811101000000123456',
      municipalityId: milano.municipalityId,
    });
  });

  it('an Admin edits the profile of its own tenant only', async () => {
    const admin = await ctx.as('admin');
    const demoId = await ctx.tenantId('Demo Srl');
    const own = await admin.put<Tenant>('/api/tenant/Update', {
      id: demoId,
      name: 'Demo Srl',
      iban: 'DE89370400440532013000',
    });
    expect(own.status).toBe(200);
    expect(own.body.data?.iban).toBe('DE89370400440532013000');
    const before = await snapshot();
    expect(
      (await admin.put('/api/tenant/Update', { id: rossiId, name: 'Studio Rossi', iban: null })).status,
    ).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('accepts an EU VAT number with its prefix and keeps fields a body leaves out', async () => {
    const sa = await ctx.as('superadmin');
    const res = await sa.put<Tenant>('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      vatCode: 'DE123456789',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ vatCode: 'DE123456789', iban: 'IT60X0542811101000000123456' });
  });

  it('refuses a wrong IBAN, Partita IVA, codice fiscale, regime or CAP with a message on the field, changing nothing', async () => {
    const sa = await ctx.as('superadmin');
    const before = await snapshot();
    const cases: [Record<string, unknown>, string][] = [
      [{ iban: 'IT60X0542811101000000123457' }, 'iban: IBAN non valido'],
      [{ vatCode: '12345678901' }, 'vatCode: Partita IVA non valida'],
      [{ fiscalCode: 'RSSMRA85T10A562T' }, 'fiscalCode: Codice fiscale non valido'],
      [{ taxRegime: 'RF99' }, 'taxRegime: Regime fiscale non valido'],
      [{ zip: '2012' }, 'zip: Il CAP deve contenere 5 cifre.'],
      [{ pec: 'non-una-pec' }, 'pec: Formato PEC non valido.'],
    ];
    for (const [field, error] of cases) {
      const res = await sa.put('/api/tenant/Update', { id: rossiId, name: 'Studio Rossi', ...field });
      expect(res.status, JSON.stringify(field)).toBe(400);
      expect(res.body.errors?.[0]).toContain(error);
    }
    expect(await snapshot()).toEqual(before);
  });
});
