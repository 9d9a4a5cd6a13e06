/** Tenant-scoped reads of invoices: every query filters by the scope's tenant. */
import { and, desc, eq, gte, ilike, lt, lte, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { invoiceMessages, pecMessages, serverMessages } from '../../../contract/messages';
import { fromCents } from '../../../contract/money';
import {
  documentTypeNames,
  invoiceSendStatusIds,
  invoiceStatusIds,
  invoiceStatusNames,
  paymentMethodNames,
  routingLabel,
  type DocumentType,
  type Invoice,
  type InvoiceSend,
  type InvoiceSendStatus,
  type InvoicePaymentMethod,
  type InvoiceStatus,
} from '../../../contract/schemas/invoice';
import { invoices, invoiceSends } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import type { ListQuery } from '../../crud/list-query';
import type { StampDutyCount } from '../../../contract/invoice/stamp-duty';

const MAX_ID = 2_147_483_647;

export const invoiceSendSchema = z.object({
  id: z.number(),
  at: z.string(),
  to: z.string(),
  status: z.enum(invoiceSendStatusIds),
  statusName: z.string(),
  messageId: z.string().nullable(),
  error: z.string().nullable(),
}) satisfies z.ZodType<InvoiceSend>;

export const invoiceItemSchema = z.object({
  id: z.number(),
  documentType: z.enum(['TD01', 'TD04']),
  documentTypeName: z.string(),
  number: z.string(),
  issueDate: z.string(),
  customer: z.object({ id: z.number(), name: z.string() }),
  taxable: z.number(),
  vat: z.number(),
  total: z.number(),
  currency: z.literal('EUR'),
  paymentId: z.number(),
  paymentMethod: z.enum(['MP05', 'MP08']),
  paymentMethodName: z.string(),
  format: z.enum(['FPR12', 'FPA12']),
  recipientCode: z.string(),
  recipientPec: z.string().nullable(),
  routing: z.string(),
  status: z.enum(invoiceStatusIds),
  statusName: z.string(),
  fileName: z.string(),
  relatedInvoice: z.object({ id: z.number(), number: z.string() }).nullable(),
  creditNote: z.object({ id: z.number(), number: z.string() }).nullable(),
  sdiNote: z.string().nullable(),
  lastSend: invoiceSendSchema.nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<Invoice>;

export interface InvoiceListFilter {
  from?: string;
  to?: string;
  userId?: number;
  documentType?: DocumentType;
  status?: InvoiceStatus;
  searchTerm?: string;
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** `filters[from|to]` (AAAA-MM-GG), `filters[month]` (AAAA-MM), `filters[userId]`, `filters[documentType]`, `filters[status]`. */
export function invoiceFilter(query: ListQuery): InvoiceListFilter {
  const filter: InvoiceListFilter = {};
  const errors: string[] = [];
  for (const [rawKey, rawValue] of Object.entries(query.filters ?? {})) {
    const value = (Array.isArray(rawValue) ? rawValue[rawValue.length - 1] : rawValue)?.trim() ?? '';
    if (value === '') continue;
    switch (rawKey.toLowerCase()) {
      case 'from':
      case 'to':
        if (!ISO_DATE.test(value)) errors.push(`filters.${rawKey}: ${invoiceMessages.dateInvalid}`);
        else filter[rawKey.toLowerCase() as 'from' | 'to'] = value;
        break;
      case 'month': {
        const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
        if (!m) errors.push(`filters.${rawKey}: ${invoiceMessages.monthInvalid}`);
        else {
          filter.from = `${value}-01`;
          const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
          filter.to = `${value}-${String(last).padStart(2, '0')}`;
        }
        break;
      }
      case 'userid': {
        const n = Number(value);
        if (!/^\d{1,10}$/.test(value) || n < 1 || n > MAX_ID)
          errors.push(`filters.${rawKey}: ${serverMessages.invalidId}`);
        else filter.userId = n;
        break;
      }
      case 'documenttype':
        if (value !== 'TD01' && value !== 'TD04')
          errors.push(`filters.${rawKey}: tipo documento non valido (TD01 o TD04)`);
        else filter.documentType = value;
        break;
      case 'status':
        if (!(invoiceStatusIds as readonly string[]).includes(value))
          errors.push(`filters.${rawKey}: stato non valido (${invoiceStatusIds.join(', ')})`);
        else filter.status = value as InvoiceStatus;
        break;
      default:
        errors.push(`filters.${rawKey}: filtro non supportato`);
    }
  }
  if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
  if (query.searchTerm) filter.searchTerm = query.searchTerm;
  return filter;
}

function where(scope: TenantScope, f: InvoiceListFilter): SQL {
  const c: (SQL | undefined)[] = [eq(invoices.tenantId, scope.tenantId)];
  if (f.from) c.push(gte(invoices.issueDate, f.from));
  if (f.to) c.push(lte(invoices.issueDate, f.to));
  if (f.userId !== undefined) c.push(eq(invoices.userId, f.userId));
  if (f.documentType) c.push(eq(invoices.documentType, f.documentType));
  if (f.status) c.push(eq(invoices.status, f.status));
  if (f.searchTerm) {
    const p = `%${f.searchTerm.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    c.push(or(ilike(invoices.customerName, p), ilike(invoices.numberText, p)));
  }
  return and(...c) as SQL;
}

const related = alias(invoices, 'related_invoice');
const creditNote = alias(invoices, 'credit_note');

const selection = {
  id: invoices.id,
  documentType: invoices.documentType,
  number: invoices.numberText,
  issueDate: invoices.issueDate,
  userId: invoices.userId,
  customerName: invoices.customerName,
  taxableCents: invoices.taxableCents,
  vatCents: invoices.vatCents,
  totalCents: invoices.totalCents,
  paymentId: invoices.paymentId,
  paymentMethod: invoices.paymentMethod,
  format: invoices.format,
  recipientCode: invoices.recipientCode,
  recipientPec: invoices.recipientPec,
  status: invoices.status,
  fileName: invoices.fileName,
  createdAt: invoices.createdAt,
  relatedId: related.id,
  relatedNumber: related.numberText,
  creditId: creditNote.id,
  creditNumber: creditNote.numberText,
  sdiNote: invoices.sdiNote,
  // The last PEC attempt, one correlated row (json: one subquery, not one per column).
  lastSend: sql<RawSend | null>`(select json_build_object('id', s.id, 'at', s.at, 'to', s."to", 'status', s.status, 'messageId', s.message_id, 'error', s.error) from ${invoiceSends} s where s.tenant_id = ${invoices.tenantId} and s.invoice_id = ${invoices.id} order by s.id desc limit 1)`,
};

interface RawSend {
  id: number;
  at: string;
  to: string;
  status: string;
  messageId: string | null;
  error: string | null;
}

export function toSend(
  r:
    | RawSend
    | { id: number; at: Date; to: string; status: string; messageId: string | null; error: string | null },
): InvoiceSend {
  const status = r.status as InvoiceSendStatus;
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    to: r.to,
    status,
    statusName: pecMessages.sendStatus[status],
    messageId: r.messageId,
    error: r.error,
  };
}

function baseQuery(scope: TenantScope) {
  return scope.tx
    .select(selection)
    .from(invoices)
    .leftJoin(
      related,
      and(eq(related.id, invoices.relatedInvoiceId), eq(related.tenantId, invoices.tenantId)),
    )
    .leftJoin(
      creditNote,
      and(
        eq(creditNote.relatedInvoiceId, invoices.id),
        eq(creditNote.tenantId, invoices.tenantId),
        eq(creditNote.documentType, 'TD04'),
      ),
    );
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toItem(r: Row): Invoice {
  const documentType = r.documentType as DocumentType;
  const method = r.paymentMethod as InvoicePaymentMethod;
  const status = r.status as InvoiceStatus;
  const format = r.format as Invoice['format'];
  return {
    id: r.id,
    documentType,
    documentTypeName: documentTypeNames[documentType],
    number: r.number,
    issueDate: r.issueDate,
    customer: { id: r.userId, name: r.customerName },
    taxable: fromCents(r.taxableCents),
    vat: fromCents(r.vatCents),
    total: fromCents(r.totalCents),
    currency: 'EUR',
    paymentId: r.paymentId,
    paymentMethod: method,
    paymentMethodName: paymentMethodNames[method],
    format,
    recipientCode: r.recipientCode,
    recipientPec: r.recipientPec,
    routing: routingLabel(format, r.recipientCode, r.recipientPec),
    status,
    statusName: invoiceStatusNames[status],
    fileName: r.fileName,
    relatedInvoice:
      r.relatedId !== null && r.relatedNumber !== null ? { id: r.relatedId, number: r.relatedNumber } : null,
    creditNote:
      r.creditId !== null && r.creditNumber !== null ? { id: r.creditId, number: r.creditNumber } : null,
    sdiNote: r.sdiNote,
    lastSend: r.lastSend
      ? toSend(typeof r.lastSend === 'string' ? (JSON.parse(r.lastSend) as RawSend) : r.lastSend)
      : null,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function pageOfInvoices(
  scope: TenantScope,
  filter: InvoiceListFilter,
  limit: number,
  offset: number,
): Promise<Invoice[]> {
  const rows = await baseQuery(scope)
    .where(where(scope, filter))
    .orderBy(desc(invoices.issueDate), desc(invoices.id))
    .limit(limit)
    .offset(offset);
  return rows.map(toItem);
}

/**
 * A keyset batch of the invoice list for exports, in the list's order (issue date, then id, newest
 * first): the rows after `after` (the last row sent), on the (tenant, issue date, id) index.
 */
export async function invoiceExportBatch(
  scope: TenantScope,
  filter: InvoiceListFilter,
  after: Pick<Invoice, 'issueDate' | 'id'> | null,
  limit: number,
): Promise<Invoice[]> {
  const seek = after
    ? sql`(${invoices.issueDate}, ${invoices.id}) < (${after.issueDate}::date, ${after.id})`
    : undefined;
  const rows = await baseQuery(scope)
    .where(and(where(scope, filter), seek))
    .orderBy(desc(invoices.issueDate), desc(invoices.id))
    .limit(limit);
  return rows.map(toItem);
}

export async function countInvoices(scope: TenantScope, filter: InvoiceListFilter): Promise<number> {
  const [row] = await scope.tx
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(where(scope, filter));
  return row?.n ?? 0;
}

/** One invoice with its file and model; `ownerId` limits it to a User's own. */
export async function loadInvoice(scope: TenantScope, id: number, ownerId?: number) {
  const [row] = await baseQuery(scope).where(
    and(
      eq(invoices.tenantId, scope.tenantId),
      eq(invoices.id, id),
      ownerId === undefined ? undefined : eq(invoices.userId, ownerId),
    ),
  );
  if (!row) return undefined;
  const [file] = await scope.tx
    .select({ xml: invoices.xml, document: invoices.document })
    .from(invoices)
    .where(and(eq(invoices.tenantId, scope.tenantId), eq(invoices.id, id)));
  if (!file) return undefined;
  return { item: toItem(row), xml: file.xml, document: file.document };
}

/** The XML files of a month (AAAA-MM) by date and number, for the accountant's ZIP. */
export async function invoiceFiles(scope: TenantScope, month: string) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return scope.tx
    .select({ fileName: invoices.fileName, xml: invoices.xml, createdAt: invoices.createdAt })
    .from(invoices)
    .where(
      and(
        eq(invoices.tenantId, scope.tenantId),
        gte(invoices.issueDate, `${month}-01`),
        lt(invoices.issueDate, next),
      ),
    )
    .orderBy(invoices.year, invoices.number);
}

/**
 * Documents carrying DatiBollo issued in each quarter of `year` (their Rome dates), invoices and
 * credit notes apart: a credit note is a document too (art. 13 Tariffa DPR 642/72, 'note …
 * recanti addebitamenti o accreditamenti'), and it carries the bollo its invoice did.
 */
export async function stampDutyCounts(scope: TenantScope, year: number): Promise<StampDutyCount[]> {
  const quarter = sql<number>`extract(quarter from ${invoices.issueDate})::int`;
  const rows = await scope.tx
    .select({ quarter, documentType: invoices.documentType, n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(
      and(
        eq(invoices.tenantId, scope.tenantId),
        gte(invoices.issueDate, `${year}-01-01`),
        lt(invoices.issueDate, `${year + 1}-01-01`),
        sql`${invoices.document} ->> 'stampDuty' = 'true'`,
      ),
    )
    .groupBy(sql`1`, invoices.documentType);
  return [1, 2, 3, 4].map((q) => ({
    quarter: q,
    invoices: rows.find((r) => r.quarter === q && r.documentType === 'TD01')?.n ?? 0,
    creditNotes: rows.find((r) => r.quarter === q && r.documentType === 'TD04')?.n ?? 0,
  }));
}
