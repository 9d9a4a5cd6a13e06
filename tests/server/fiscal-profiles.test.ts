/**
 * The fiscal profiles of api-contract 'Fiscal profiles': the tenant's cassa, ritenuta and bollo,
 * and the customer's public-administration data and sostituto d'imposta, through the tenant and
 * user calls as an API client sends them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../contract/schemas/tenant';
import type { User } from '../../contract/schemas/user';
import { createTestContext, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let rossiId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  rossiId = await ctx.tenantId('Studio Rossi');
});
afterAll(() => ctx.close());

describe('the tenant’s fiscal profile', () => {
  it('stores a cassa, the ritenuta and the bollo to the customer, and answers them', async () => {
    const sa = await ctx.as('superadmin');
    const res = await sa.put<Tenant>('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      taxRegime: 'RF01',
      pensionFund: { type: 'tc04', rate: '4' },
      withholdingTax: 'rt01',
      stampDutyToCustomer: true,
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      pensionFund: { type: 'TC04', rate: 4 },
      withholdingTax: 'RT01',
      stampDutyToCustomer: true,
    });
    // Absent keys keep what is stored.
    const kept = await sa.put<Tenant>('/api/tenant/Update', { id: rossiId, name: 'Studio Rossi' });
    expect(kept.body.data).toMatchObject({ pensionFund: { type: 'TC04', rate: 4 }, withholdingTax: 'RT01' });
    // null removes them.
    const removed = await sa.put<Tenant>('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      pensionFund: null,
      withholdingTax: null,
    });
    expect(removed.body.data).toMatchObject({ pensionFund: null, withholdingTax: null });
  });

  it('refuses an unknown cassa, a rate out of range and a forfettario subject to ritenuta, each on its field', async () => {
    const sa = await ctx.as('superadmin');
    const bad = await sa.put('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      pensionFund: { type: 'TC99', rate: 0 },
      withholdingTax: 'RT09',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pensionFund\.type: Cassa previdenziale non valida/),
        expect.stringMatching(/^pensionFund\.rate: L’aliquota della cassa/),
        expect.stringMatching(/^withholdingTax: Ritenuta non valida/),
      ]),
    );
    const forfettario = await sa.put('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      taxRegime: 'RF19',
      withholdingTax: 'RT01',
    });
    expect(forfettario.status).toBe(400);
    expect(forfettario.body.errors).toEqual([
      'withholdingTax: Un forfettario non è soggetto a ritenuta d’acconto (art. 1 c. 67 L. 190/2014).',
    ]);
    const after = await sa.get<Tenant>(`/api/tenant/GetById/${rossiId}`);
    expect(after.body.data).toMatchObject({ taxRegime: 'RF01', withholdingTax: null });
  });
});

describe('the customer’s fiscal data', () => {
  it('a public body: its IPA office, CIG and sostituto default; a private person is no sostituto', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const created = await admin.post<User>('/api/user/Create', {
      name: 'Comune di Esempio',
      email: 'protocollo@comune-esempio.it',
      roleId: 3,
      isCompany: true,
      fiscalCode: '12345678903',
      paOfficeCode: 'ufabcd',
      publicAdministration: true,
      cig: 'z1a2b3c4d5',
    });
    expect(created.status, created.raw).toBe(200);
    expect(created.body.data).toMatchObject({
      paOfficeCode: 'UFABCD',
      publicAdministration: true,
      cig: 'Z1A2B3C4D5',
      withholdingAgent: true,
    });
    const id = created.body.data?.id;
    const person = await admin.post<User>('/api/user/Create', {
      name: 'Giulia Verdi',
      email: 'giulia.verdi@example.it',
      roleId: 3,
      isCompany: false,
    });
    expect(person.body.data).toMatchObject({
      publicAdministration: false,
      withholdingAgent: false,
      cig: null,
    });

    // A client older than the fiscal profiles sends none of the new keys: they stay as stored.
    const old = await admin.put<User>('/api/user/Update', {
      id,
      name: 'Comune di Esempio',
      email: 'protocollo@comune-esempio.it',
      roleId: 3,
      isCompany: true,
    });
    expect(old.status, old.raw).toBe(200);
    expect(old.body.data).toMatchObject({
      publicAdministration: true,
      cig: 'Z1A2B3C4D5',
      withholdingAgent: true,
    });

    const bad = await admin.put('/api/user/Update', {
      id,
      name: 'Comune di Esempio',
      email: 'protocollo@comune-esempio.it',
      roleId: 3,
      cig: '123',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['cig: CIG non valido: 10 lettere o cifre.']);
  });
});

describe('a GetById answer sent back to Update', () => {
  it('changes only the edited field: the nested billing address is kept', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const list = await admin.get<{ items: User[] }>('/api/user/getAll', { query: { pageSize: 100 } });
    const withAddress = list.body.data?.items.find((u) => u.billingAddress?.municipalityId);
    expect(withAddress).toBeDefined();
    const read = await admin.get<User>(`/api/user/GetById/${withAddress!.id}`);
    const sent = await admin.put<User>('/api/user/Update', { ...read.body.data, phone: '+39 02 1234567' });
    expect(sent.status, sent.raw).toBe(200);
    expect(sent.body.data).toEqual({ ...read.body.data, phone: '+39 02 1234567' });
  });
});

describe('a forfettario’s plans', () => {
  it('are sold without VAT: 22 % is refused on the VAT field, 0 % N2.2 is saved', async () => {
    const sa = await ctx.as('superadmin', 'Studio Rossi');
    const regime = await sa.put('/api/tenant/Update', {
      id: rossiId,
      name: 'Studio Rossi',
      taxRegime: 'RF19',
    });
    expect(regime.status, regime.raw).toBe(200);
    const plan = { name: 'Newsletter premium', recurringCostBeforeVAT: 9, recurrenceType: 1, isActive: true };
    const withVat = await sa.post('/api/plan/Create', { ...plan, vatPercentage: 22 });
    expect(withVat.status).toBe(400);
    expect(withVat.body.errors).toEqual([
      'vatPercentage: In regime forfettario non si applica l’IVA (art. 1 c. 54-89 L. 190/2014): imposta 0 % e la Natura N2.2.',
    ]);
    const without = await sa.post('/api/plan/Create', { ...plan, vatPercentage: 0, natura: 'N2.2' });
    expect(without.status, without.raw).toBe(200);
    await sa.put('/api/tenant/Update', { id: rossiId, name: 'Studio Rossi', taxRegime: 'RF01' });
  });
});
