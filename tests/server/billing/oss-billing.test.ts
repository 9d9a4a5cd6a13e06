/**
 * OSS (issue 27): a seller that declares electronic services to EU private persons above the EU
 * 10.000 € threshold charges them their state's VAT. A French private customer is asked the fee
 * plus the TVA, and the invoice carries both as 0 % N7 lines (golden document (6)), the customer
 * identified by their country and the generic identifier, since they have no VAT number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../../contract/invoice/quote';
import type { Invoice } from '../../../contract/schemas/invoice';
import type { Plan } from '../../../contract/schemas/plan';
import type { Tenant } from '../../../contract/schemas/tenant';
import type { User } from '../../../contract/schemas/user';
import { legalReferences } from '../../../contract/invoice/fiscal-document';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, tagText } from '../invoices/helpers';
import { giveIban, movableClock } from './helpers';

const clock = movableClock('2026-05-04T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let planId: number;
let french: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  const plan = await admin.post<Plan>('/api/plan/Create', {
    name: 'Corso online',
    recurringCostBeforeVAT: 49.9,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect(plan.status, plan.raw).toBe(200);
  planId = plan.body.data!.id;
  const created = await admin.post<User>('/api/user/Create', {
    name: 'Camille Martin',
    email: 'camille.martin@example.fr',
    roleId: 3,
    isCompany: false,
    countryCode: 'FR',
    street: 'Rue de Rivoli 10',
    billingCity: 'Paris',
  });
  expect(created.status, created.raw).toBe(200);
  french = created.body.data!.id;
});
afterAll(() => ctx.close());

describe('a French private person', () => {
  it('pays Italian VAT while the tenant is not in the OSS', async () => {
    const res = await admin.post<Quote>('/api/subscription/quote', { userId: french, planId });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ vat: 10.98, total: 60.88, netToPay: 60.88, natura: null });
  });

  it('pays the French TVA once the tenant declares the OSS: quote, amount due and invoice agree', async () => {
    const sa = await ctx.as('superadmin');
    const tenantId = await ctx.tenantId('Demo Srl');
    const saved = await sa.put<Tenant>('/api/tenant/Update', {
      id: tenantId,
      name: 'Demo Srl',
      ossRegistered: true,
    });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.data?.ossRegistered).toBe(true);
    const read = await sa.get<Tenant>(`/api/tenant/GetById/${tenantId}`);
    expect(read.body.data?.ossRegistered).toBe(true);

    const quote = await admin.post<Quote>('/api/subscription/quote', { userId: french, planId });
    expect(quote.status, quote.raw).toBe(200);
    expect(quote.body.data).toEqual({
      lines: [
        { description: 'Corso online', quantity: 1, unitPrice: 49.9, vatPercentage: 0, natura: 'N7' },
        {
          description: 'IVA FR 20,00% assolta tramite OSS',
          quantity: 1,
          unitPrice: 9.98,
          vatPercentage: 0,
          natura: 'N7',
        },
      ],
      taxable: 49.9,
      vat: 0,
      cassa: 0,
      bollo: 0,
      total: 59.88,
      withholding: 0,
      netToPay: 59.88,
      natura: 'N7',
      legalReference: legalReferences.oss,
    });

    const paid = await payByBankTransfer(admin, { userId: french, planId }, '2026-05-03T15:00:00Z');
    expect(paid.confirm.status, paid.confirm.raw).toBe(200);
    expect(paid.sub.payments[0]?.amountDue).toBe(59.88);
    const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', {
      query: { pageSize: 100, 'filters[userId]': french },
    });
    const invoice = list.body.data?.items.find((i) => i.paymentId === paid.sub.payments[0]!.id);
    const issues = await admin.get('/api/invoice/issues');
    expect(invoice, issues.raw).toMatchObject({
      vat: 0,
      total: 59.88,
      status: 'issued',
    });
    const xml = (await admin.get(`/api/invoice/xml/${invoice!.id}`)).raw;
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(tagText(xml, 'CodiceDestinatario')).toBe('XXXXXXX');
    expect(xml).toMatch(
      /<CessionarioCommittente>[\s\S]*<IdPaese>FR<\/IdPaese>\s*<IdCodice>99999999999<\/IdCodice>/,
    );
    expect(xml.match(/<Natura>N7<\/Natura>/g)).toHaveLength(3);
    expect(tagText(xml, 'RiferimentoNormativo')).toBe(legalReferences.oss);
    expect(tagText(xml, 'ImportoTotaleDocumento')).toBe('59.88');
    expect(tagText(xml, 'ImportoPagamento')).toBe('59.88');
    expect(xml).not.toContain('<DatiBollo>');
  });
});
