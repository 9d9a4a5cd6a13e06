import type { Invoice } from '../../../contract/schemas/invoice';
import { defineResource, type FilterDef } from '../../lib/resource';

/** The last 24 months, newest first, as the period filter ('marzo 2026' → filters[month]=2026-03). */
export function monthOptions(now = new Date(), count = 24) {
  const fmt = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'Europe/Rome' });
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 15));
    const value = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    return { value, label: fmt.format(d) };
  });
}

const periodFilter: FilterDef = { kind: 'choice', key: 'month', name: 'Mese', options: monthOptions() };
const typeFilter: FilterDef = {
  kind: 'choice',
  key: 'documentType',
  name: 'Tipo',
  options: [
    { value: 'TD01', label: 'Fattura' },
    { value: 'TD04', label: 'Nota di credito' },
  ],
};

/**
 * /invoice 'Fatture': invoices and credit notes, newest first. Read-only (an invoice is never
 * edited nor deleted); downloads are row actions (src/features/invoice). Admins filter by customer
 * too; a User sees their own.
 */
export const invoiceResource = defineResource<Invoice>({
  name: 'invoice',
  label: 'Fattura',
  titles: { list: 'Fatture' },
  columns: [
    { key: 'number', name: 'Numero' },
    { key: 'issueDate', name: 'Data', type: 'dateTime' },
    { key: 'documentTypeName', name: 'Tipo' },
    { key: 'customer.name', name: 'Cliente', truncate: true },
    { key: 'taxable', name: 'Imponibile', type: 'currency', align: 'right' },
    { key: 'vat', name: 'IVA', type: 'currency', align: 'right' },
    { key: 'total', name: 'Totale', type: 'currency', align: 'right' },
    { key: 'paymentMethodName', name: 'Pagamento' },
    { key: 'routing', name: 'Recapito SdI', truncate: true },
    { key: 'statusName', name: 'Stato' },
  ],
  filters: [
    periodFilter,
    { kind: 'select', key: 'userId', name: 'Cliente', source: { entity: 'user', pageSize: 20 } },
    typeFilter,
  ],
  fields: [],
});

/** The same list for a User: their own invoices, no customer filter. */
export const ownInvoiceResource = defineResource<Invoice>({
  ...invoiceResource,
  filters: [periodFilter, typeFilter],
});
