import type { Invoice } from '../../../contract/schemas/invoice';
import { invoiceList, ownInvoiceFilters } from '../../../contract/lists/invoice';
import { defineResource } from '../../lib/resource';

/** The last 24 months, newest first, as the period filter ('marzo 2026' → filters[month]=2026-03). */
export { monthOptions } from '../../../contract/lists/invoice';

/**
 * /invoice 'Fatture': invoices and credit notes, newest first. Read-only (an invoice is never
 * edited nor deleted); downloads are row actions (src/features/invoice). Admins filter by customer
 * too; a User sees their own.
 */
export const invoiceResource = defineResource<Invoice>({
  name: 'invoice',
  label: 'Fattura',
  titles: { list: 'Fatture' },
  columns: invoiceList.columns,
  filters: invoiceList.filters,
  fields: [],
});

/** The same list for a User: their own invoices, no customer filter. */
export const ownInvoiceResource = defineResource<Invoice>({
  ...invoiceResource,
  filters: ownInvoiceFilters,
});
