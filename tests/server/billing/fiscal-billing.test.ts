/**
 * A professional's subscription as an API client sees it (issue 27): the quote before anything is
 * created, the amount due equal to its net to pay, and the invoice issued once the transfer is
 * approved, with the ritenuta and the rivalsa INPS in the file (golden document (1)).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../../contract/invoice/quote';
import type { Invoice } from '../../../contract/schemas/invoice';
import type { Plan } from '../../../contract/schemas/plan';
import type { User } from '../../../contract/schemas/user';
import { xsdErrors } from '../../../server/modules/invoice/fatturapa';
import { API_KEY, createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { TEST_DEMO_PASSWORD } from '../helpers/test-database';
import { payByBankTransfer, tagText, withoutDemoInvoices } from '../invoices/helpers';
import { giveIban, movableClock, userId } from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let demoId: number;
let planId: number;
let company: number;
let person: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  // Demo Srl as a professional in the Gestione Separata: rivalsa INPS 4 %, ritenuta RT01.
  const sa = await ctx.as('superadmin');
  const profile = await sa.put('/api/tenant/Update', {
    id: demoId,
    name: 'Demo Srl',
    pensionFund: { type: 'TC22', rate: 4 },
    withholdingTax: 'RT01',
  });
  expect(profile.status, profile.raw).toBe(200);
  const plan = await admin.post<Plan>('/api/plan/Create', {
    name: 'Consulenza mensile',
    recurringCostBeforeVAT: 1000,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect(plan.status, plan.raw).toBe(200);
  planId = plan.body.data!.id;
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const created = await admin.post<User>('/api/user/Create', {
    name: 'Giulia Verdi',
    email: 'giulia.verdi@example.it',
    roleId: 3,
    isCompany: false,
  });
  expect(created.status, created.raw).toBe(200);
  person = created.body.data!.id;
});
afterAll(() => ctx.close());

describe('POST api/subscription/quote', () => {
  it('answers golden document (1) for a company, before anything is created', async () => {
    const res = await admin.post<Quote>('/api/subscription/quote', { userId: company, planId });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      lines: [
        { description: 'Consulenza mensile', quantity: 1, unitPrice: 1000, vatPercentage: 22, natura: null },
      ],
      taxable: 1040,
      vat: 228.8,
      cassa: 40,
      bollo: 0,
      total: 1268.8,
      withholding: 208,
      netToPay: 1060.8,
      natura: null,
      legalReference: null,
    });
  });

  it('withholds nothing for a private person, and follows an agreed price', async () => {
    const res = await admin.post<Quote>('/api/subscription/quote', {
      userId: person,
      planId,
      paymentAmount: 500,
    });
    expect(res.body.data).toMatchObject({
      taxable: 520,
      vat: 114.4,
      total: 634.4,
      withholding: 0,
      netToPay: 634.4,
    });
  });

  it('is for Admins, and names only the tenant’s own customers and plans', async () => {
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cliente.post('/api/subscription/quote', { userId: company, planId })).status).toBe(403);
    expect((await admin.post('/api/subscription/quote', { userId: 999_999, planId })).status).toBe(404);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect((await rossi.post('/api/subscription/quote', { userId: company, planId })).status).toBe(404);
    const bad = await admin.post('/api/subscription/quote', { planId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['userId: Il cliente è obbligatorio.']);
  });
});

describe('the amount due and the invoice follow the same computation', () => {
  it('asks the net to pay, and the invoice carries the rivalsa and the ritenuta', async () => {
    const paid = await payByBankTransfer(admin, { userId: company, planId }, '2026-03-09T15:00:00Z');
    expect(paid.confirm.status, paid.confirm.raw).toBe(200);
    expect(paid.sub.payments[0]?.amountDue).toBe(1060.8);
    const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const invoice = list.body.data?.items.find((i) => i.paymentId === paid.sub.payments[0]!.id);
    expect(invoice).toMatchObject({ taxable: 1040, vat: 228.8, total: 1268.8, status: 'issued' });
    const xml = (await admin.get(`/api/invoice/xml/${invoice!.id}`)).raw;
    expect(await xsdErrors(xml)).toEqual([]);
    expect(tagText(xml, 'TipoRitenuta')).toBe('RT01');
    expect(tagText(xml, 'ImportoRitenuta')).toBe('208.00');
    expect(tagText(xml, 'TipoCassa')).toBe('TC22');
    expect(tagText(xml, 'ImportoContributoCassa')).toBe('40.00');
    expect(tagText(xml, 'ImportoTotaleDocumento')).toBe('1268.80');
    expect(tagText(xml, 'ImportoPagamento')).toBe('1060.80');

    // The courtesy PDF says what the customer pays and why (poppler's pdftotext reads it back).
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/api/invoice/pdf/${invoice!.id}`,
      headers: {
        'x-api-key': API_KEY,
        authorization: `Bearer ${await ctx.login(DEMO.admin, TEST_DEMO_PASSWORD)}`,
        'x-tenant-id': String(demoId),
      },
    });
    expect(pdf.statusCode).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-pdf-'));
    await writeFile(path.join(dir, 'f.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'f.pdf'), '-'], { encoding: 'utf8' });
    await rm(dir, { recursive: true, force: true });
    expect(text).toMatch(/di cui rivalsa INPS 4,00 %\s+40,00 €/);
    expect(text).toMatch(/Totale documento\s+1268,80 €/);
    expect(text).toMatch(/Ritenuta d'acconto 20,00 %\s+- 208,00 €/);
    expect(text).toMatch(/Netto a pagare\s+1060,80 €/);
  });
});
