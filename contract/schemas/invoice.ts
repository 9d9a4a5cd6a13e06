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

/** A paid payment without an invoice, and why (`GET api/invoice/issues`, `items`). */
export interface InvoiceIssue {
  id: number;
  paymentId: number;
  customer: { id: number; name: string };
  /** Every reason of the last attempt, in Italian ('Fattura non emessa: manca …'). */
  messages: string[];
  at: string;
  /** What the payment asked (euros). */
  amount: number;
  /**
   * The reasons that are neither the customer's nor the seller's missing data (amount mismatch,
   * file refused, the plan's Natura), in Italian.
   */
  reasons: string[];
}

/**
 * A customer's field an invoice needs, named by the user form's field key (the SPA opens
 * `/user/{id}?focus={key}` on the first one): `name`, `fiscalCode` (a private person's identity),
 * `vatCode` (a company's, or a foreign customer's VAT id), `street`, `zip`, `municipality`,
 * `billingCity` (abroad).
 */
export const customerFieldKeys = [
  'name',
  'fiscalCode',
  'vatCode',
  'street',
  'zip',
  'municipality',
  'billingCity',
] as const;
export type CustomerFieldKey = (typeof customerFieldKeys)[number];

/**
 * A seller's field an invoice needs, named by the tenant form's field key (tab 'Dati di
 * fatturazione'): `legalName`, `vatCode`, `street`, `zip`, `municipalityId`.
 */
export const sellerFieldKeys = ['legalName', 'vatCode', 'street', 'zip', 'municipalityId'] as const;
export type SellerFieldKey = (typeof sellerFieldKeys)[number];

/** A missing field: its form key and its Italian name ('codice fiscale', 'CAP'). */
export interface MissingField<K extends string = string> {
  key: K;
  label: string;
}

/**
 * The payments waiting for one customer (`GET api/invoice/issues`, `customers`): what is missing
 * of the customer's data now (read from the current data with the checks the issuance uses), and
 * the other reasons of their last attempts.
 */
export interface InvoiceIssueCustomer {
  customer: { id: number; name: string };
  /** Oldest payment first. */
  paymentIds: number[];
  count: number;
  /** Σ of the payments' amounts (euros). */
  total: number;
  /** In the issuance's order; empty when the customer's data are complete. */
  missing: MissingField<CustomerFieldKey>[];
  /** Each said once (see InvoiceIssue.reasons). */
  reasons: string[];
}

/** `GET api/invoice/issues`: `items` one per payment (newest first, at most 200), `customers` grouped. */
export interface InvoiceIssues {
  items: InvoiceIssue[];
  totalCount: number;
  /** One per customer with waiting payments, the most recent issue first. */
  customers: InvoiceIssueCustomer[];
  /** The tenant's own billing data ('Dati di fatturazione'): what is missing now (empty when complete). */
  seller: { tenantId: number; missing: MissingField<SellerFieldKey>[] };
}

/** One calendar quarter of the imposta di bollo on the tenant's e-invoices (F24). */
export interface StampDutyQuarter {
  /** 1–4. */
  quarter: number;
  /** Codice tributo: 2521–2524 (Risoluzione AdE 42/E del 2019). */
  taxCode: string;
  /** Invoices (TD01) with DatiBollo issued in the quarter. */
  invoices: number;
  /** Credit notes (TD04) with DatiBollo issued in the quarter. */
  creditNotes: number;
  /** invoices + creditNotes. */
  count: number;
  /** count × 2,00 € (euros). */
  total: number;
  /** The legal deadline, YYYY-MM-DD (art. 17 c. 1-bis DL 124/2019). */
  deadline: string;
  /**
   * The later deadline the law allows when the amount is small (under 5.000 € for the 1st quarter,
   * or for the 1st and 2nd together), else null.
   */
  deferredTo: string | null;
}

/** `GET api/invoice/stampDuty?year=`: the four quarters of a year. */
export interface StampDutySummary {
  year: number;
  quarters: StampDutyQuarter[];
  /** Σ of the year (euros). */
  total: number;
}

/** 'M5UXCR1' → 'Codice SDI M5UXCR1'; the label of an invoice's SdI routing. */
export function routingLabel(format: string, code: string, pec: string | null): string {
  if (format === 'FPA12') return `PA, codice ufficio ${code}`;
  if (code === 'XXXXXXX') return 'Estero (XXXXXXX)';
  if (code !== '0000000') return `Codice SDI ${code}`;
  if (pec) return `PEC ${pec}`;
  return 'Cassetto fiscale (0000000)';
}
