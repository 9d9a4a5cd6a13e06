import type { Envelope } from '../../../contract/envelope';
import type { Invoice, InvoiceIssue, InvoiceSend, PecStatus } from '../../../contract/schemas/invoice';
import { downloadFile } from '../../lib/download-file';
import { http } from '../../lib/http';

/** Invoice calls beyond the generic list (contract: `api/invoice/*`). */
export const invoicePaths = {
  xml: (id: number) => `invoice/xml/${id}`,
  pdf: (id: number) => `invoice/pdf/${id}`,
  zip: 'invoice/zip',
  issues: 'invoice/issues',
  retry: (paymentId: number) => `invoice/retry/${paymentId}`,
  creditNote: (id: number) => `invoice/creditNote/${id}`,
  send: (id: number) => `invoice/send/${id}`,
  sends: (id: number) => `invoice/sends/${id}`,
  pecStatus: 'invoice/pecStatus',
  byId: (id: number) => `invoice/GetById/${id}`,
  sdiReceipt: 'invoice/sdiReceipt',
} as const;

/** The courtesy PDF's name, as the server names it. */
export const pdfFileName = (i: Pick<Invoice, 'documentType' | 'number'>) =>
  `${i.documentType === 'TD04' ? 'Nota_di_credito' : 'Fattura'}_${i.number.replace('/', '-')}.pdf`;

export async function download(
  path: string,
  fileName: string,
  params?: Record<string, string>,
): Promise<void> {
  await downloadFile(path, { fileName, params });
}

export async function fetchIssues(): Promise<InvoiceIssue[]> {
  const res = await http.get<Envelope<{ items: InvoiceIssue[] }>>(invoicePaths.issues);
  return res.data.data?.items ?? [];
}

export async function retryInvoice(paymentId: number): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.retry(paymentId));
  return res.data;
}

export async function issueCreditNote(id: number, reason: string): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.creditNote(id), { reason });
  return res.data;
}

export async function fetchPecStatus(): Promise<PecStatus | null> {
  const res = await http.get<Envelope<PecStatus>>(invoicePaths.pecStatus);
  return res.data.data ?? null;
}

export async function fetchSends(id: number): Promise<InvoiceSend[]> {
  const res = await http.get<Envelope<{ items: InvoiceSend[] }>>(invoicePaths.sends(id));
  return res.data.data?.items ?? [];
}

/** 'Invia allo SdI': the server enqueues the send; the outcome shows in the invoice's log. */
export async function sendInvoice(id: number): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.send(id));
  return res.data;
}

export async function fetchInvoice(id: number): Promise<Invoice | null> {
  const res = await http.get<Envelope<Invoice>>(invoicePaths.byId(id));
  return res.data.data ?? null;
}

/** An SdI receipt (XML file) for one of the tenant's invoices. */
export async function uploadSdiReceipt(xml: string): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.sdiReceipt, { xml });
  return res.data;
}
