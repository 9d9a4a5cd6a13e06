import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, cents, createdAt, id } from './columns';
import { payments } from './billing';
import { tenantColumn } from './tenants';
import { userTenants } from './users';

/**
 * The gap-free numbering of a tenant's invoices per year: one row per (tenant, year), taken with
 * `INSERT … ON CONFLICT DO UPDATE SET last_number = last_number + 1 RETURNING`, which locks the
 * row until the unit of work ends. A unit that rolls back gives its number back.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    tenantId: tenantColumn(),
    year: smallint('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.year] }),
    check('invoice_counters_last_number_check', sql`${t.lastNumber} > 0`),
  ],
);

/**
 * Invoices (TD01) and credit notes (TD04) of a tenant. `xml` is the FatturaPA file exactly as it
 * passed the official schema; `document` is the model it was built from (the courtesy PDF renders
 * it). One invoice per payment and one credit note per invoice (unique indexes).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    tenantId: tenantColumn(),
    /** 'TD01' invoice, 'TD04' credit note. */
    documentType: text('document_type').notNull(),
    year: smallint('year').notNull(),
    number: integer('number').notNull(),
    /** '2026/000123' (FatturaPA Numero). */
    numberText: text('number_text').notNull(),
    /** Date of the document, Europe/Rome calendar day. */
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    paymentId: integer('payment_id').notNull(),
    userId: integer('user_id').notNull(),
    /** The invoice a credit note reverses. */
    relatedInvoiceId: integer('related_invoice_id'),
    customerName: text('customer_name').notNull(),
    taxableCents: cents('taxable_cents').notNull(),
    vatCents: cents('vat_cents').notNull(),
    totalCents: cents('total_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    /** 'FPR12' | 'FPA12'. */
    format: text('format').notNull(),
    /** CodiceDestinatario: an SDI code, a PA office code, '0000000' or 'XXXXXXX'. */
    recipientCode: text('recipient_code').notNull(),
    recipientPec: text('recipient_pec'),
    /** MP05 bank transfer, MP08 card / PayPal. */
    paymentMethod: text('payment_method').notNull(),
    fileName: text('file_name').notNull(),
    xml: text('xml').notNull(),
    document: jsonb('document').notNull(),
    /** 'issued' | 'sent' | 'delivered' | 'rejected' (the last three once an SdI answer is known). */
    status: text('status').notNull().default('issued'),
    reason: text('reason'),
    /** The SdI's IdentificativoSdI, from its receipt. */
    sdiId: text('sdi_id'),
    /** What the SdI's last receipt said (a rejection's errors), in its words. */
    sdiNote: text('sdi_note'),
    createdAt: createdAt(),
    statusAt: at('status_at'),
  },
  (t) => [
    unique('invoices_id_tenant_id_unique').on(t.id, t.tenantId),
    unique('invoices_tenant_year_number_unique').on(t.tenantId, t.year, t.number),
    unique('invoices_tenant_file_name_unique').on(t.tenantId, t.fileName),
    uniqueIndex('invoices_payment_invoice_unique')
      .on(t.paymentId)
      .where(sql`${t.documentType} = 'TD01'`),
    uniqueIndex('invoices_related_credit_note_unique')
      .on(t.relatedInvoiceId)
      .where(sql`${t.documentType} = 'TD04'`),
    foreignKey({
      name: 'invoices_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    foreignKey({
      name: 'invoices_user_membership_fk',
      columns: [t.userId, t.tenantId],
      foreignColumns: [userTenants.userId, userTenants.tenantId],
    }),
    foreignKey({
      name: 'invoices_related_fk',
      columns: [t.relatedInvoiceId, t.tenantId],
      foreignColumns: [t.id, t.tenantId],
    }),
    index('invoices_tenant_date_idx').on(t.tenantId, t.issueDate.desc(), t.id.desc()),
    index('invoices_tenant_user_idx').on(t.tenantId, t.userId, t.id.desc()),
    check('invoices_document_type_check', sql`${t.documentType} in ('TD01', 'TD04')`),
    check('invoices_format_check', sql`${t.format} in ('FPR12', 'FPA12')`),
    check('invoices_status_check', sql`${t.status} in ('issued', 'sent', 'delivered', 'rejected')`),
    check('invoices_currency_check', sql`${t.currency} = 'EUR'`),
    check('invoices_number_check', sql`${t.number} > 0`),
  ],
);

/**
 * Why a paid payment has no invoice yet (missing seller or customer data, a refused file): the
 * payment stays recorded, the Fatture screen shows the message, and 'Riprova' issues it once the
 * data are fixed (the row is removed then).
 */
export const invoiceIssues = pgTable(
  'invoice_issues',
  {
    id: id(),
    tenantId: tenantColumn(),
    paymentId: integer('payment_id').notNull(),
    userId: integer('user_id').notNull(),
    /** Italian messages, each naming the field to complete. */
    messages: jsonb('messages').$type<string[]>().notNull(),
    at: at('at').notNull(),
  },
  (t) => [
    unique('invoice_issues_payment_unique').on(t.tenantId, t.paymentId),
    foreignKey({
      name: 'invoice_issues_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('invoice_issues_tenant_idx').on(t.tenantId, t.id.desc()),
  ],
);

/**
 * Every attempt to send an invoice to the SdI through the tenant's PEC mailbox: 'sending' while
 * the message is out (the claim that keeps two jobs from sending it twice), then 'sent' with the
 * SMTP message id or 'failed' with the Italian error. Shown on the invoice.
 */
export const invoiceSends = pgTable(
  'invoice_sends',
  {
    id: id(),
    tenantId: tenantColumn(),
    invoiceId: integer('invoice_id').notNull(),
    at: at('at').notNull(),
    to: text('to').notNull(),
    status: text('status').notNull(),
    messageId: text('message_id'),
    error: text('error'),
    finishedAt: at('finished_at'),
  },
  (t) => [
    foreignKey({
      name: 'invoice_sends_invoice_fk',
      columns: [t.invoiceId, t.tenantId],
      foreignColumns: [invoices.id, invoices.tenantId],
    }),
    index('invoice_sends_invoice_idx').on(t.tenantId, t.invoiceId, t.id.desc()),
    check('invoice_sends_status_check', sql`${t.status} in ('sending', 'sent', 'failed')`),
  ],
);
