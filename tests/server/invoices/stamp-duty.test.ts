/**
 * The quarterly bollo for the F24 (issue 27): `GET api/invoice/stampDuty?year=` counts the
 * tenant's own documents with DatiBollo per quarter of their date (credit notes too), 2,00 € each,
 * with the codice tributo 2521–2524 and the deadline. Invoices issued through the real flow: a
 * forfettario (RF19) selling a plan of 100,00 € without VAT (N2.2), above the 77,47 € threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceMessages } from '../../../contract/messages';
import type { Invoice, StampDutySummary } from '../../../contract/schemas/invoice';
import type { Plan } from '../../../contract/schemas/plan';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { giveIban, movableClock, userId } from '../billing/helpers';
import { payByBankTransfer, tagText, withoutDemoInvoices } from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let bianchi: number;

async function plan(name: string, cost: number): Promise<number> {
  const res = await admin.post<Plan>('/api/plan/Create', {
    name,
    recurringCostBeforeVAT: cost,
    vatPercentage: 0,
    natura: 'N2.2',
    recurrenceType: 1,
    isActive: true,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.data!.id;
}
async function paidInvoice(planId: number, approvedAt: string): Promise<Invoice> {
  const { sub, confirm } = await payByBankTransfer(admin, { userId: bianchi, planId }, approvedAt);
  expect(confirm.status, confirm.raw).toBe(200);
  const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', {
    query: { pageSize: 100, 'filters[userId]': bianchi },
  });
  const invoice = list.body.data?.items.find((i) => i.paymentId === sub.payments[0]!.id);
  expect(invoice, 'invoice issued').toBeDefined();
  return invoice!;
}
async function summary(api: ApiClient, year?: string) {
  return api.get<StampDutySummary>('/api/invoice/stampDuty', { query: year ? { year } : {} });
}

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  // The quarters' counts are this file's invoices alone (the demo's year is dated by the real clock).
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  const regime = await admin.put('/api/tenant/Update', {
    id: await ctx.tenantId('Demo Srl'),
    name: 'Demo Srl',
    taxRegime: 'RF19',
  });
  expect(regime.status, regime.raw).toBe(200);
  bianchi = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');

  const withBollo = await plan('Consulenza forfettaria', 100);
  const small = await plan('Consulenza breve', 50);
  // 1st quarter: an invoice with bollo, its credit note (which carries it too), one without.
  const march = await paidInvoice(withBollo, '2026-03-09T15:00:00Z');
  expect(tagText((await admin.get(`/api/invoice/xml/${march.id}`)).raw, 'BolloVirtuale')).toBe('SI');
  const note = await admin.post(`/api/invoice/creditNote/${march.id}`, { reason: 'Rimborso' });
  expect(note.status, note.raw).toBe(200);
  const under = await paidInvoice(small, '2026-03-09T15:00:00Z');
  expect((await admin.get(`/api/invoice/xml/${under.id}`)).raw).not.toContain('<DatiBollo>');
  // 2nd quarter: one more.
  clock.set('2026-05-20T09:00:00.000Z');
  await paidInvoice(withBollo, '2026-05-19T15:00:00Z');
});
afterAll(() => ctx.close());

describe('GET api/invoice/stampDuty', () => {
  it('counts the documents with DatiBollo per quarter, with codice tributo, total and deadline', async () => {
    const res = await summary(admin, '2026');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      year: 2026,
      total: 6,
      quarters: [
        {
          quarter: 1,
          taxCode: '2521',
          invoices: 1,
          creditNotes: 1,
          count: 2,
          total: 4,
          deadline: '2026-05-31',
          // 1st and 2nd quarter together under 5.000 €: both by the 3rd quarter's deadline.
          deferredTo: '2026-11-30',
        },
        {
          quarter: 2,
          taxCode: '2522',
          invoices: 1,
          creditNotes: 0,
          count: 1,
          total: 2,
          deadline: '2026-09-30',
          deferredTo: '2026-11-30',
        },
        {
          quarter: 3,
          taxCode: '2523',
          invoices: 0,
          creditNotes: 0,
          count: 0,
          total: 0,
          deadline: '2026-11-30',
          deferredTo: null,
        },
        {
          quarter: 4,
          taxCode: '2524',
          invoices: 0,
          creditNotes: 0,
          count: 0,
          total: 0,
          deadline: '2027-02-28',
          deferredTo: null,
        },
      ],
    });
  });

  it('answers the current year (Rome) by default; the 4th quarter of 2027 is due on 29 February 2028', async () => {
    expect((await summary(admin)).body.data?.year).toBe(2026);
    const leap = await summary(admin, '2027');
    expect(leap.body.data?.total).toBe(0);
    expect(leap.body.data?.quarters.map((q) => q.deadline)).toEqual([
      '2027-05-31',
      '2027-09-30',
      '2027-11-30',
      '2028-02-29',
    ]);
  });

  it('refuses a year that is not one, in Italian', async () => {
    for (const year of ['26', '2026-01', 'duemila', '2018']) {
      const res = await summary(admin, year);
      expect(res.status, year).toBe(400);
      expect(res.body.errors).toEqual([`year: ${invoiceMessages.yearInvalid}`]);
    }
  });

  it('counts only the tenant’s own documents, and is for Admins', async () => {
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const other = await summary(rossi, '2026');
    expect(other.status).toBe(200);
    expect(other.body.data?.total).toBe(0);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await summary(cliente, '2026')).status).toBe(403);
  });
});
