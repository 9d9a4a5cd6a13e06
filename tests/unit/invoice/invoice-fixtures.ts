/** What the invoice screen's tests share: an invoice, the waiting payments, the bollo summary, the fake API. */
import { HttpResponse } from 'msw';
import { stampDutySummary } from '../../../contract/invoice/stamp-duty';
import { invoiceMessages } from '../../../contract/messages';
import type { Invoice, InvoiceIssues, StampDutySummary } from '../../../contract/schemas/invoice';
import { fakeEntityServer } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';

export const invoice: Invoice = {
  id: 3,
  documentType: 'TD01',
  documentTypeName: 'Fattura',
  number: '2026/000003',
  issueDate: '2026-03-10',
  customer: { id: 9, name: 'Bianchi Consulting Srl' },
  taxable: 9.9,
  vat: 2.18,
  total: 12.08,
  currency: 'EUR',
  paymentId: 41,
  paymentMethod: 'MP05',
  paymentMethodName: 'Bonifico',
  format: 'FPR12',
  recipientCode: 'M5UXCR1',
  recipientPec: null,
  routing: 'Codice SDI M5UXCR1',
  status: 'issued',
  statusName: 'Emessa',
  fileName: 'IT09876540155_0QGLQ.xml',
  relatedInvoice: null,
  creditNote: null,
  sdiNote: null,
  lastSend: null,
  createdAt: '2026-03-10T09:00:00.000Z',
};

const m = invoiceMessages;
export const missingCf = m.missing(m.buyerIdentity);
const fileRefused = m.fileRefused(
  "Element 'RegimeFiscale': [facet 'enumeration'] The value 'RF03' is not accepted.",
);

export const noIssues: InvoiceIssues = {
  items: [],
  totalCount: 0,
  customers: [],
  seller: { tenantId: 1, missing: [] },
};

/**
 * Anna Neri: two payments, codice fiscale and address missing. Bianchi: one payment whose file was
 * refused (nothing missing).
 */
export const waiting: InvoiceIssues = {
  items: [
    {
      id: 3,
      paymentId: 44,
      customer: { id: 9, name: 'Bianchi Consulting Srl' },
      messages: [fileRefused],
      at: '2026-03-10T09:00:00.000Z',
      amount: 12.08,
      reasons: [fileRefused],
    },
    ...[43, 42].map((paymentId, i) => ({
      id: 2 - i,
      paymentId,
      customer: { id: 5, name: 'Anna Neri' },
      messages: [m.buyerIdentity, m.buyerStreet, m.buyerZip, m.buyerMunicipality].map(m.missing),
      at: '2026-03-10T09:00:00.000Z',
      amount: 12.08,
      reasons: [],
    })),
  ],
  totalCount: 3,
  customers: [
    {
      customer: { id: 9, name: 'Bianchi Consulting Srl' },
      paymentIds: [44],
      count: 1,
      total: 12.08,
      missing: [],
      reasons: [fileRefused],
    },
    {
      customer: { id: 5, name: 'Anna Neri' },
      paymentIds: [42, 43],
      count: 2,
      total: 24.16,
      missing: [
        { key: 'fiscalCode', label: 'codice fiscale' },
        { key: 'street', label: 'indirizzo' },
        { key: 'zip', label: 'CAP' },
        { key: 'municipality', label: 'comune' },
      ],
      reasons: [],
    },
  ],
  seller: { tenantId: 1, missing: [] },
};

/** The bollo of a year: 2 documents in the 1st quarter (one a credit note), 1 in the 2nd. */
export function stampDutyOf(year: number): StampDutySummary {
  return stampDutySummary(year, [
    { quarter: 1, invoices: 1, creditNotes: 1 },
    { quarter: 2, invoices: 1, creditNotes: 0 },
  ]);
}

/** The invoice screen's API: one invoice, the waiting payments given, the bollo, downloads, retries. */
export function invoiceServer(issues: InvoiceIssues = noIssues) {
  fakeEntityServer<Invoice>('invoice', [structuredClone(invoice)]);
  const retried: string[] = [];
  const downloads: string[] = [];
  const stampDutyYears: string[] = [];
  server.use(
    apiGet('invoice/issues', () => ok(issues)),
    apiPost('invoice/retryCustomer/:id', ({ params }) => {
      retried.push(String(params.id));
      return fail(409, m.stillBlockedMany, null, [missingCf]);
    }),
    apiGet('invoice/stampDuty', ({ request }) => {
      const year = new URL(request.url).searchParams.get('year') ?? '';
      stampDutyYears.push(year);
      return ok(stampDutyOf(Number(year)));
    }),
    apiGet('invoice/xml/:id', ({ params }) => {
      downloads.push(`xml ${String(params.id)}`);
      return new HttpResponse('<xml/>', { headers: { 'content-type': 'application/xml' } });
    }),
    apiGet('invoice/pdf/:id', ({ params }) => {
      downloads.push(`pdf ${String(params.id)}`);
      return new HttpResponse('%PDF-1.3', { headers: { 'content-type': 'application/pdf' } });
    }),
  );
  return { retried, downloads, stampDutyYears };
}
