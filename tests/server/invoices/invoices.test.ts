import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceMessages } from '../../../contract/messages';
import type { Invoice, InvoiceIssue } from '../../../contract/schemas/invoice';
import type { Subscription } from '../../../contract/schemas/subscription';
import { isValidCodiceFiscale } from '../../../contract/validation/italian';
import { invoiceCounters, invoices, payments, tenants } from '../../../server/db/schema';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { giveIban, movableClock, planId, userId } from '../billing/helpers';
import {
  everyStoredInvoiceValidates,
  payByBankTransfer,
  setCustomer,
  tagText,
  withoutDemoInvoices,
} from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let basic: number;

const BIANCHI = 'amministrazione@bianchi-consulting.example.com';

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
});
afterAll(async () => {
  // Every invoice this file issued passes the official schema.
  expect(await everyStoredInvoiceValidates(ctx)).toBeGreaterThan(5);
  await ctx.close();
});

async function invoiceOfPayment(api: ApiClient, paymentId: number): Promise<Invoice | undefined> {
  const list = await api.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
  return list.body.data?.items.find((i) => i.paymentId === paymentId);
}
async function xmlOf(api: ApiClient, id: number) {
  const res = await api.get(`/api/invoice/xml/${id}`);
  expect(res.status).toBe(200);
  return res;
}

describe('an approved bank transfer issues the invoice in the same transaction', () => {
  let sub: Subscription;
  let invoice: Invoice;

  it('numbers it 2026/000001 and routes it to the customer’s SDI code (company)', async () => {
    const customer = await userId(ctx, BIANCHI);
    const paid = await payByBankTransfer(admin, { userId: customer, planId: basic }, '2026-03-09T15:00:00Z');
    expect(paid.confirm.status).toBe(200);
    sub = paid.sub;
    invoice = (await invoiceOfPayment(admin, sub.payments[0]!.id))!;
    expect(invoice).toMatchObject({
      documentType: 'TD01',
      number: '2026/000001',
      issueDate: '2026-03-10',
      customer: { id: customer, name: 'Bianchi Consulting Srl' },
      taxable: 9.9,
      vat: 2.18,
      total: 12.08,
      paymentMethod: 'MP05',
      format: 'FPR12',
      recipientCode: 'M5UXCR1',
      recipientPec: null,
      routing: 'Codice SDI M5UXCR1',
      status: 'issued',
      statusName: 'Emessa',
    });
    expect(invoice.fileName).toMatch(/^IT09876540155_[0-9A-Z]{5}\.xml$/);

    const xml = await xmlOf(admin, invoice.id);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.headers['content-disposition']).toBe(`attachment; filename="${invoice.fileName}"`);
    const file = xml.raw;
    expect(file).toContain('versione="FPR12"');
    expect(tagText(file, 'CodiceDestinatario')).toBe('M5UXCR1');
    expect(file).not.toContain('<PECDestinatario>');
    expect(tagText(file, 'Numero')).toBe('2026/000001');
    expect(tagText(file, 'ImportoTotaleDocumento')).toBe('12.08');
    expect(tagText(file, 'PrezzoUnitario')).toBe('9.90');
    expect(tagText(file, 'AliquotaIVA')).toBe('22.00');
    expect(tagText(file, 'Imposta')).toBe('2.18');
    expect(tagText(file, 'ModalitaPagamento')).toBe('MP05');
    expect(tagText(file, 'IBAN')).toBe('IT60X0542811101000000123456');
    expect(tagText(file, 'DataInizioPeriodo')).toBe('2026-03-10');
    expect(tagText(file, 'DataFinePeriodo')).toBe('2026-04-09');
    expect(tagText(file, 'Descrizione')).toBe('Abbonamento «Basic» dal 10/03/2026 al 09/04/2026');
    expect(tagText(file, 'RegimeFiscale')).toBe('RF01');
    expect(file).toContain('<Denominazione>Bianchi Consulting Srl</Denominazione>');
    expect(file).toContain('<IdCodice>12345678903</IdCodice>');
    expect(file).toContain('<Provincia>MI</Provincia>');
    expect(file).toContain('<Comune>Milano</Comune>');
  });

  it('answers it by id and as a courtesy PDF', async () => {
    const one = await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(invoice);
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/api/invoice/pdf/${invoice.id}`,
      headers: { 'x-api-key': 'test-api-key', ...(await authHeaders('admin', 'Demo Srl')) },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="Fattura_2026-000001.pdf"');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('never issues a second invoice for the payment (retry answers the same one)', async () => {
    const again = await admin.post<Invoice>(`/api/invoice/retry/${invoice.paymentId}`);
    expect(again.status).toBe(200);
    expect(again.body.data?.id).toBe(invoice.id);
    const [row] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(eq(invoices.paymentId, invoice.paymentId));
    expect(row?.n).toBe(1);
  });

  it('reverses it with a credit note TD04 linked to the invoice, once', async () => {
    const bad = await admin.post(`/api/invoice/creditNote/${invoice.id}`, { reason: ' ' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([`reason: ${invoiceMessages.reasonRequired}`]);
    const res = await admin.post<Invoice>(`/api/invoice/creditNote/${invoice.id}`, {
      reason: 'Pagamento rimborsato al cliente',
    });
    expect(res.status).toBe(200);
    const note = res.body.data!;
    expect(note).toMatchObject({
      documentType: 'TD04',
      documentTypeName: 'Nota di credito',
      relatedInvoice: { id: invoice.id, number: invoice.number },
      total: 12.08,
      recipientCode: 'M5UXCR1',
    });
    expect(note.number).toMatch(/^2026\/\d{6}$/);
    const file = (await xmlOf(admin, note.id)).raw;
    expect(tagText(file, 'TipoDocumento')).toBe('TD04');
    expect(tagText(file, 'IdDocumento')).toBe(invoice.number);
    expect(file).toContain('<DatiFattureCollegate>');
    const original = await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`);
    expect(original.body.data?.creditNote).toEqual({ id: note.id, number: note.number });
    expect((await admin.post(`/api/invoice/creditNote/${invoice.id}`, { reason: 'ancora' })).status).toBe(
      409,
    );
    expect((await admin.post(`/api/invoice/creditNote/${note.id}`, { reason: 'storno' })).status).toBe(409);
  });
});

async function authHeaders(role: 'admin' | 'cliente' | 'superadmin', tenant: string) {
  const token = await ctx.login(DEMO[role], 'demo1234');
  return { authorization: `Bearer ${token}`, 'x-tenant-id': String(await ctx.tenantId(tenant)) };
}

describe('routing to the SdI', () => {
  const customers: Record<string, number> = {};
  beforeAll(async () => {
    customers.pec = await userId(ctx, 'laura.verdi@example.com');
    customers.consumer = await userId(ctx, 'mario.rossi@example.com');
    customers.cliente = await userId(ctx, DEMO.cliente);
  });

  it('a company with only a PEC: 0000000 and PECDestinatario', async () => {
    await setCustomer(ctx, 'Demo Srl', customers.pec!, {
      isCompany: true,
      name: 'Verdi Laura Studio',
      vatCode: '01234567897',
      sdi: null,
      pec: 'verdi@pec.example.it',
    });
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: customers.pec!, planId: basic },
      '2026-03-10T08:00:00Z',
    );
    expect(confirm.status).toBe(200);
    const inv = (await invoiceOfPayment(admin, sub.payments[0]!.id))!;
    expect(inv).toMatchObject({ recipientCode: '0000000', recipientPec: 'verdi@pec.example.it' });
    expect(inv.routing).toBe('PEC verdi@pec.example.it');
    const file = (await xmlOf(admin, inv.id)).raw;
    expect(tagText(file, 'CodiceDestinatario')).toBe('0000000');
    expect(tagText(file, 'PECDestinatario')).toBe('verdi@pec.example.it');
  });

  it('a consumer without a codice fiscale: the payment is recorded, the invoice waits with the field named', async () => {
    // The demo's customers have theirs: this one's is taken away.
    await setCustomer(ctx, 'Demo Srl', customers.consumer!, { fiscalCode: null });
    const before = await ctx.db.select({ n: invoiceCounters.lastNumber }).from(invoiceCounters);
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: customers.consumer!, planId: basic },
      '2026-03-10T08:00:00Z',
    );
    expect(confirm.status).toBe(200);
    const confirmed = (confirm.body as { data: Subscription }).data;
    expect(confirmed.subscriptionStatus).toBe(3);
    expect(confirmed.payments[0]?.paidAt).toBe('2026-03-10T08:00:00.000Z');
    expect(await invoiceOfPayment(admin, sub.payments[0]!.id)).toBeUndefined();
    const after = await ctx.db.select({ n: invoiceCounters.lastNumber }).from(invoiceCounters);
    expect(after).toEqual(before); // no number taken
    const issues = await admin.get<{ items: InvoiceIssue[] }>('/api/invoice/issues');
    const issue = issues.body.data?.items.find((i) => i.paymentId === sub.payments[0]!.id);
    expect(issue?.customer.name).toBe('Mario Rossi');
    expect(issue?.messages).toEqual([invoiceMessages.missing(invoiceMessages.buyerIdentity)]);
    expect(issue?.messages[0]).toBe(
      'Fattura non emessa: manca la Partita IVA o il codice fiscale del cliente (Lista Utenti → Codice fiscale).',
    );

    // Still missing: retry says so and changes nothing.
    const early = await admin.post(`/api/invoice/retry/${sub.payments[0]!.id}`);
    expect(early.status).toBe(409);
    expect(early.body.errors).toEqual(issue?.messages);

    // The codice fiscale through the user API (a bad one is refused), then 'Riprova'.
    const user = await admin.get<Record<string, unknown>>(`/api/user/GetById/${customers.consumer}`);
    const u = user.body.data!;
    const body = {
      ...u,
      street: 'Via Roma 12',
      zip: '10121',
      region: (u.billingAddress as { regionId: number }).regionId,
      province: (u.billingAddress as { provinceId: number }).provinceId,
      municipality: (u.billingAddress as { municipalityId: number }).municipalityId,
    };
    const wrong = await admin.put('/api/user/Update', { ...body, fiscalCode: 'RSSMRA80A01H501X' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0]).toMatch(/^fiscalCode: Codice fiscale non valido/);
    const fixed = await admin.put<{ fiscalCode: string }>('/api/user/Update', {
      ...body,
      fiscalCode: 'rssmra80a01h501u',
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data?.fiscalCode).toBe('RSSMRA80A01H501U');
    const retried = await admin.post<Invoice>(`/api/invoice/retry/${sub.payments[0]!.id}`);
    expect(retried.status).toBe(200);
    expect(retried.body.message).toBe(invoiceMessages.issued(retried.body.data!.number));
    expect(retried.body.data).toMatchObject({ recipientCode: '0000000', recipientPec: null });
    const xml = (await xmlOf(admin, retried.body.data!.id)).raw;
    const file = xml.slice(xml.indexOf('<CessionarioCommittente>'));
    expect(tagText(file, 'CodiceFiscale')).toBe('RSSMRA80A01H501U');
    expect(file).not.toContain('<IdFiscaleIVA>');
    expect(file).toContain('<Nome>Mario</Nome>');
    expect(file).toContain('<Cognome>Rossi</Cognome>');
    expect(file).not.toContain('<PECDestinatario>');
    const left = await admin.get<{ items: InvoiceIssue[] }>('/api/invoice/issues');
    expect(left.body.data?.items.some((i) => i.paymentId === sub.payments[0]!.id)).toBe(false);
  });

  it('a customer in another EU country: XXXXXXX with their VAT id', async () => {
    await setCustomer(ctx, 'Demo Srl', customers.cliente!, {
      isCompany: true,
      name: 'Müller GmbH',
      vatCode: 'DE123456789',
      countryCode: 'DE',
      billingStreet: 'Hauptstraße 5',
      billingCity: 'Berlin',
      sdi: null,
      pec: null,
    });
    const { sub } = await payByBankTransfer(
      admin,
      { userId: customers.cliente!, planId: basic },
      '2026-03-10T08:00:00Z',
    );
    const inv = (await invoiceOfPayment(admin, sub.payments[0]!.id))!;
    expect(inv).toMatchObject({ recipientCode: 'XXXXXXX', routing: 'Estero (XXXXXXX)', format: 'FPR12' });
    const file = (await xmlOf(admin, inv.id)).raw;
    const buyer = file.slice(
      file.indexOf('<CessionarioCommittente>'),
      file.indexOf('</CessionarioCommittente>'),
    );
    expect(buyer).toContain('<IdPaese>DE</IdPaese>');
    expect(buyer).toContain('<IdCodice>123456789</IdCodice>');
    expect(buyer).toContain('<CAP>00000</CAP>');
    expect(buyer).toContain('<Comune>Berlin</Comune>');
    expect(buyer).toContain('<Nazione>DE</Nazione>');
    expect(buyer).not.toContain('<Provincia>');
    expect(buyer).toContain('<Denominazione>Müller GmbH</Denominazione>');
  });

  it('a public administration with its 6-character office code: FPA12', async () => {
    // An 11-digit codice fiscale of a body carries a Partita IVA's check digit: take the one that does.
    const cf = Array.from({ length: 10 }, (_, d) => `8001234567${d}`).find(isValidCodiceFiscale)!;
    await setCustomer(ctx, 'Demo Srl', customers.pec!, {
      name: 'Comune di Esempio',
      vatCode: null,
      fiscalCode: cf,
      paOfficeCode: 'UFABCD',
      pec: 'protocollo@pec.comune.example.it',
    });
    const { sub } = await payByBankTransfer(
      admin,
      { userId: customers.pec!, planId: basic },
      '2026-03-10T08:00:00Z',
    );
    const inv = (await invoiceOfPayment(admin, sub.payments[0]!.id))!;
    expect(inv).toMatchObject({
      format: 'FPA12',
      recipientCode: 'UFABCD',
      routing: 'PA, codice ufficio UFABCD',
    });
    const file = (await xmlOf(admin, inv.id)).raw;
    expect(file).toContain('versione="FPA12"');
    expect(tagText(file, 'FormatoTrasmissione')).toBe('FPA12');
    expect(tagText(file, 'CodiceDestinatario')).toBe('UFABCD');
    expect(tagText(file.slice(file.indexOf('<CessionarioCommittente>')), 'CodiceFiscale')).toBe(cf);
    await setCustomer(ctx, 'Demo Srl', customers.pec!, { paOfficeCode: null });
  });
});

describe('0 % VAT and data the SdI needs', () => {
  it('a 0 % plan needs its Natura, and the invoice carries it', async () => {
    const base = {
      name: 'Formazione esente',
      recurringCostBeforeVAT: 100,
      vatPercentage: 0,
      recurrenceType: 1,
    };
    const missing = await admin.post('/api/plan/Create', base);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([`natura: ${invoiceMessages.naturaRequired}`]);
    const wrongRate = await admin.post('/api/plan/Create', { ...base, vatPercentage: 22, natura: 'N4' });
    expect(wrongRate.body.errors).toEqual([`natura: ${invoiceMessages.naturaOnlyAtZero}`]);
    const unknown = await admin.post('/api/plan/Create', { ...base, natura: 'N9' });
    expect(unknown.body.errors).toEqual([`natura: ${invoiceMessages.naturaInvalid}`]);
    const created = await admin.post<{ id: number; natura: string }>('/api/plan/Create', {
      ...base,
      natura: 'N4',
    });
    expect(created.status).toBe(200);
    expect(created.body.data?.natura).toBe('N4');

    const { sub } = await payByBankTransfer(
      admin,
      { userId: await userId(ctx, BIANCHI), planId: created.body.data!.id },
      '2026-03-10T08:00:00Z',
    );
    const inv = (await invoiceOfPayment(admin, sub.payments[0]!.id))!;
    expect(inv).toMatchObject({ taxable: 100, vat: 0, total: 100 });
    const file = (await xmlOf(admin, inv.id)).raw;
    const summary = file.slice(file.indexOf('<DatiRiepilogo>'), file.indexOf('</DatiRiepilogo>'));
    expect(tagText(summary, 'AliquotaIVA')).toBe('0.00');
    expect(tagText(summary, 'Natura')).toBe('N4');
    expect(tagText(summary, 'Imposta')).toBe('0.00');
    expect(summary).not.toContain('EsigibilitaIVA');
  });

  it('an incomplete seller profile names the missing field; the payment is still paid', async () => {
    const tenantId = await ctx.tenantId('Demo Srl');
    await ctx.db.update(tenants).set({ legalName: null }).where(eq(tenants.id, tenantId));
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: await userId(ctx, BIANCHI), planId: basic },
      '2026-03-10T08:00:00Z',
    );
    expect(confirm.status).toBe(200);
    const [payment] = await ctx.db
      .select({ paidAt: payments.paidAt })
      .from(payments)
      .where(eq(payments.id, sub.payments[0]!.id));
    expect(payment?.paidAt).not.toBeNull();
    const issues = await admin.get<{ items: InvoiceIssue[] }>('/api/invoice/issues');
    expect(issues.body.data?.items.find((i) => i.paymentId === sub.payments[0]!.id)?.messages).toEqual([
      'Fattura non emessa: manca la ragione sociale del venditore (Lista Tenants → Dati di fatturazione).',
    ]);
    await ctx.db.update(tenants).set({ legalName: 'Demo Srl' }).where(eq(tenants.id, tenantId));
    expect((await admin.post(`/api/invoice/retry/${sub.payments[0]!.id}`)).status).toBe(200);
  });

  it('a file the official schema refuses is not stored and takes no number', async () => {
    const tenantId = await ctx.tenantId('Demo Srl');
    const [counter] = await ctx.db
      .select({ n: invoiceCounters.lastNumber })
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.tenantId, tenantId), eq(invoiceCounters.year, 2026)));
    // RF03 was withdrawn from the schema's RegimeFiscaleType: the XSD refuses the file.
    await ctx.db.update(tenants).set({ taxRegime: 'RF03' }).where(eq(tenants.id, tenantId));
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: await userId(ctx, BIANCHI), planId: basic },
      '2026-03-10T08:00:00Z',
    );
    expect(confirm.status).toBe(200);
    expect(await invoiceOfPayment(admin, sub.payments[0]!.id)).toBeUndefined();
    const issues = await admin.get<{ items: InvoiceIssue[] }>('/api/invoice/issues');
    const message = issues.body.data?.items.find((i) => i.paymentId === sub.payments[0]!.id)?.messages[0];
    expect(message).toContain('Fattura non emessa: il file FatturaPA non supera i controlli.');
    expect(message).toContain("Element 'RegimeFiscale'");
    const [after] = await ctx.db
      .select({ n: invoiceCounters.lastNumber })
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.tenantId, tenantId), eq(invoiceCounters.year, 2026)));
    expect(after?.n).toBe(counter?.n);
    await ctx.db.update(tenants).set({ taxRegime: 'RF01' }).where(eq(tenants.id, tenantId));
    const retried = await admin.post<Invoice>(`/api/invoice/retry/${sub.payments[0]!.id}`);
    expect(retried.body.data?.number).toBe(`2026/${String(counter!.n + 1).padStart(6, '0')}`);
  });
});

describe('lists, downloads and who sees what', () => {
  it('numbers are gap-free in order; filters by period and customer; bad filters are 400', async () => {
    const all = await admin.get<{ items: Invoice[]; totalCount: number }>('/api/invoice/getAll', {
      query: { pageSize: 100 },
    });
    const numbers = all.body.data!.items.map((i) => i.number).sort();
    expect(numbers).toEqual(numbers.map((_, k) => `2026/${String(k + 1).padStart(6, '0')}`));
    const bianchi = await userId(ctx, BIANCHI);
    const own = await admin.get<{ items: Invoice[]; totalCount: number }>('/api/invoice/getAll', {
      query: { 'filters[userId]': bianchi, 'filters[from]': '2026-03-01', 'filters[to]': '2026-03-31' },
    });
    expect(own.body.data!.totalCount).toBeGreaterThan(1);
    expect(own.body.data!.items.every((i) => i.customer.id === bianchi)).toBe(true);
    const april = await admin.get<{ totalCount: number }>('/api/invoice/getAll', {
      query: { 'filters[month]': '2026-04' },
    });
    expect(april.body.data?.totalCount).toBe(0);
    const search = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', {
      query: { searchTerm: 'müller' },
    });
    expect(search.body.data?.items.map((i) => i.customer.name)).toEqual(['Müller GmbH']);
    const bad = await admin.get('/api/invoice/getAll', {
      query: { 'filters[from]': '10/03/2026', 'filters[color]': 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      `filters.from: ${invoiceMessages.dateInvalid}`,
      'filters.color: filtro non supportato',
    ]);
  });

  it('zips a month’s XML files for the accountant', async () => {
    const all = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/invoice/zip?month=2026-03',
      headers: { 'x-api-key': 'test-api-key', ...(await authHeaders('admin', 'Demo Srl')) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="fatture_2026-03.zip"');
    const zip = res.rawPayload;
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    // Central directory: one entry per file, named as the SdI names them.
    const names = [...zip.toString('latin1').matchAll(/IT\d{11}_[0-9A-Z]{5}\.xml/g)].map((m) => m[0]);
    expect(new Set(names)).toEqual(new Set(all.body.data!.items.map((i) => i.fileName)));
    const bad = await admin.get('/api/invoice/zip', { query: { month: '2026-13' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([`month: ${invoiceMessages.monthInvalid}`]);
  });

  it('a User sees and downloads only their own invoices, and no ZIP', async () => {
    const cliente = await ctx.as('cliente', 'Demo Srl');
    const me = await userId(ctx, DEMO.cliente);
    const mine = await cliente.get<{ items: Invoice[]; totalCount: number }>('/api/invoice/getAll');
    expect(mine.status).toBe(200);
    expect(mine.body.data!.totalCount).toBe(1);
    expect(mine.body.data!.items[0]!.customer.id).toBe(me);
    const own = mine.body.data!.items[0]!;
    expect((await cliente.get(`/api/invoice/xml/${own.id}`)).status).toBe(200);
    const all = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const other = all.body.data!.items.find((i) => i.customer.id !== me)!;
    for (const url of [`GetById/${other.id}`, `xml/${other.id}`, `pdf/${other.id}`])
      expect((await cliente.get(`/api/invoice/${url}`)).status, url).toBe(404);
    const filtered = await cliente.get<{ totalCount: number }>('/api/invoice/getAll', {
      query: { 'filters[userId]': other.customer.id },
    });
    expect(filtered.body.data?.totalCount).toBe(0);
    expect((await cliente.get('/api/invoice/zip', { query: { month: '2026-03' } })).status).toBe(403);
    expect((await cliente.get('/api/invoice/issues')).status).toBe(403);
    expect((await cliente.post(`/api/invoice/retry/${other.paymentId}`)).status).toBe(403);
    expect((await cliente.post(`/api/invoice/creditNote/${own.id}`, { reason: 'x' })).status).toBe(403);
  });

  it('another tenant reaches none of them', async () => {
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const all = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const target = all.body.data!.items[0]!;
    for (const url of [`GetById/${target.id}`, `xml/${target.id}`, `pdf/${target.id}`])
      expect((await rossi.get(`/api/invoice/${url}`)).status, url).toBe(404);
    expect((await rossi.post(`/api/invoice/retry/${target.paymentId}`)).status).toBe(404);
    expect((await rossi.post(`/api/invoice/creditNote/${target.id}`, { reason: 'x' })).status).toBe(404);
    const list = await rossi.get<{ totalCount: number }>('/api/invoice/getAll');
    expect(list.body.data?.totalCount).toBe(0);
    const zip = await ctx.app.inject({
      method: 'GET',
      url: '/api/invoice/zip?month=2026-03',
      headers: { 'x-api-key': 'test-api-key', ...(await authHeaders('superadmin', 'Studio Rossi')) },
    });
    expect(zip.rawPayload.toString('latin1')).not.toMatch(/IT09876540155_/);
  });
});
