/**
 * Invoices as the API answers them (`GET api/invoice/getAll`, `GetById/{id}`). Amounts are euros
 * (JSON numbers, two decimals); the FatturaPA file and the courtesy PDF are downloads
 * (`xml/{id}`, `pdf/{id}`), a month's files one ZIP (`zip?month=YYYY-MM`).
 */
export const invoiceStatusIds = ['issued', 'sent', 'delivered', 'rejected'] as const;
export type InvoiceStatus = (typeof invoiceStatusIds)[number];
export const invoiceStatusNames: Record<InvoiceStatus, string> = {
  issued: 'Emessa',
  sent: 'Inviata',
  delivered: 'Consegnata',
  rejected: 'Scartata',
};
export const documentTypeNames = { TD01: 'Fattura', TD04: 'Nota di credito' } as const;
export type DocumentType = keyof typeof documentTypeNames;
export const paymentMethodNames = { MP05: 'Bonifico', MP08: 'Carta / PayPal' } as const;
export type InvoicePaymentMethod = keyof typeof paymentMethodNames;

export interface Invoice {
  id: number;
  documentType: DocumentType;
  documentTypeName: string;
  /** '2026/000123'. */
  number: string;
  /** YYYY-MM-DD (Europe/Rome). */
  issueDate: string;
  customer: { id: number; name: string };
  taxable: number;
  vat: number;
  total: number;
  currency: 'EUR';
  paymentId: number;
  paymentMethod: InvoicePaymentMethod;
  paymentMethodName: string;
  /** FPR12 or FPA12 (public administration). */
  format: 'FPR12' | 'FPA12';
  /** CodiceDestinatario and PECDestinatario: where the SdI delivers it. */
  recipientCode: string;
  recipientPec: string | null;
  /** 'Codice SDI M5UXCR1', 'PEC …', 'Consumatore (0000000)', 'Estero (XXXXXXX)', 'PA …'. */
  routing: string;
  status: InvoiceStatus;
  statusName: string;
  fileName: string;
  relatedInvoice: { id: number; number: string } | null;
  creditNote: { id: number; number: string } | null;
  /** What the SdI's last receipt said (a rejection's errors), if anything. */
  sdiNote: string | null;
  /** The last attempt to send it to the SdI through the tenant's PEC, if any. */
  lastSend: InvoiceSend | null;
  createdAt: string;
}

export const invoiceSendStatusIds = ['sending', 'sent', 'failed'] as const;
export type InvoiceSendStatus = (typeof invoiceSendStatusIds)[number];

/** One attempt to send an invoice to the SdI by PEC (`GET api/invoice/sends/{id}`). */
export interface InvoiceSend {
  id: number;
  at: string;
  /** The SdI's PEC address it went to. */
  to: string;
  status: InvoiceSendStatus;
  statusName: string;
  /** The SMTP Message-ID, once sent. */
  messageId: string | null;
  /** Why it failed, in Italian. */
  error: string | null;
}

/** Whether the tenant sends by PEC (`GET api/invoice/pecStatus`). */
export interface PecStatus {
  configured: boolean;
  /** What is missing, in Italian, when not configured. */
  missing: string[];
  sender: string | null;
  sdiPec: string;
  autoSend: boolean;
}

/** A paid payment without an invoice, and why (`GET api/invoice/issues`). */
export interface InvoiceIssue {
  id: number;
  paymentId: number;
  customer: { id: number; name: string };
  messages: string[];
  at: string;
}

/** 'M5UXCR1' → 'Codice SDI M5UXCR1'; the label of an invoice's SdI routing. */
export function routingLabel(format: string, code: string, pec: string | null): string {
  if (format === 'FPA12') return `PA, codice ufficio ${code}`;
  if (code === 'XXXXXXX') return 'Estero (XXXXXXX)';
  if (code !== '0000000') return `Codice SDI ${code}`;
  if (pec) return `PEC ${pec}`;
  return 'Cassetto fiscale (0000000)';
}
