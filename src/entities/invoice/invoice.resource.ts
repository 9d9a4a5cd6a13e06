import type { Invoice } from '../../../contract/schemas/invoice';
import { invoiceList } from '../../../contract/lists/invoice';
import { defineResource } from '../../lib/resource';

/** The last 24 months, newest first, as the period filter ('marzo 2026' → filters[month]=2026-03). */
export { monthOptions } from '../../../contract/lists/invoice';

/**
 * /invoice 'Fatture': invoices and credit notes, newest first. Read-only (an invoice is never
 * edited nor deleted); downloads are row actions (src/features/invoice). Staff only: a customer
 * reads their own in 'Le mie fatture' (src/features/customer-area).
 */
export const invoiceResource = defineResource<Invoice>({
  name: 'invoice',
  label: 'Fattura',
  titles: { list: 'Fatture' },
  columns: invoiceList.columns,
  filters: invoiceList.filters,
  fields: [],
});
