import { Link } from 'react-router-dom';
import { invoiceMessages } from '../../../contract/messages';
import type { InvoiceIssueCustomer, MissingField } from '../../../contract/schemas/invoice';
import { PencilIcon, RefreshIcon } from '../../components/icons';
import { formatCurrency } from '../../lib/formatters';
import { useInvoiceIssues } from './api/invoice-queries';
import { useRetryCustomer } from './api/retry-customer';

export const issuesText = {
  title: 'Pagamenti senza fattura',
  hint: 'I pagamenti sono registrati. Completa i dati indicati: al salvataggio le fatture vengono emesse.',
  waiting: (count: number, total: number) =>
    `${count === 1 ? '1 pagamento in attesa' : `${count} pagamenti in attesa`} · ${formatCurrency(total)}`,
  complete: 'Completa i dati',
  retry: 'Riprova',
  seller: 'Dati di fatturazione del venditore',
  sellerLink: 'Completa i dati di fatturazione',
  waitingSeller: 'I dati del cliente sono completi: manca qualcosa nei dati di fatturazione del venditore.',
  nothingMissing: 'I dati risultano completi: premi Riprova.',
};

const missingLine = (missing: readonly MissingField[]) =>
  invoiceMessages.missingFields(missing.map((m) => m.label));

/**
 * Where a missing field is completed: the form opened on it (`?focus=`), coming back to the
 * invoices after 'Salva' (the form goes back to the page it was opened from).
 */
function formLink(path: string, missing: readonly MissingField[]) {
  const first = missing[0];
  return {
    to: first ? `${path}?focus=${encodeURIComponent(first.key)}` : path,
    state: { from: '/invoice' },
  };
}

function CustomerRow({
  group,
  sellerMissing,
  retrying,
  onRetry,
}: {
  group: InvoiceIssueCustomer;
  sellerMissing: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { customer, missing, reasons } = group;
  const link = formLink(`/user/${customer.id}`, missing);
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{customer.name}</p>
        <p className="text-sm text-slate-600 tabular-nums">{issuesText.waiting(group.count, group.total)}</p>
        {missing.length > 0 && (
          <p className="mt-1 text-sm font-medium text-amber-900">{missingLine(missing)}</p>
        )}
        {missing.length === 0 && reasons.length === 0 && (
          <p className="mt-1 text-sm text-slate-700">
            {sellerMissing ? issuesText.waitingSeller : issuesText.nothingMissing}
          </p>
        )}
        {reasons.map((r) => (
          <p key={r} className="mt-1 text-sm break-words text-slate-700">
            {r}
          </p>
        ))}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {missing.length > 0 && (
          <Link to={link.to} state={link.state} className="btn-primary">
            <PencilIcon className="h-4 w-4" />
            {issuesText.complete}
          </Link>
        )}
        <button type="button" className="btn-secondary" disabled={retrying} onClick={onRetry}>
          <RefreshIcon className="h-4 w-4" />
          {issuesText.retry}
        </button>
      </div>
    </li>
  );
}

/**
 * The paid payments waiting for an invoice, one row per customer: how many and how much, what is
 * missing (once), 'Completa i dati' (the customer's form on the first missing field; saving it
 * issues the invoices) and 'Riprova' (all the customer's payments). The seller's own missing data
 * are one line, completed on the tenant's 'Dati di fatturazione'.
 */
export function InvoiceIssuesPanel() {
  const issues = useInvoiceIssues();
  const retry = useRetryCustomer();
  const data = issues.data;
  if (!data || data.customers.length === 0) return null;
  const seller = data.seller;
  const sellerLink = formLink(`/tenant/${seller.tenantId}`, seller.missing);
  return (
    <section
      className="card mb-6 border-amber-200 bg-amber-50/60 p-4 sm:p-5"
      aria-labelledby="invoice-issues"
    >
      <h2 id="invoice-issues" className="text-sm font-semibold text-amber-900">
        {issuesText.title} ({data.totalCount})
      </h2>
      <p className="mt-1 text-sm text-amber-800">{issuesText.hint}</p>
      {seller.missing.length > 0 && (
        <div className="mt-3 flex flex-col gap-2 rounded-lg border border-amber-200 bg-white/70 p-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-800">
            <span className="font-medium">{issuesText.seller}.</span> {missingLine(seller.missing)}
          </p>
          <Link to={sellerLink.to} state={sellerLink.state} className="link shrink-0 text-sm">
            {issuesText.sellerLink}
          </Link>
        </div>
      )}
      <ul className="mt-2 divide-y divide-amber-200/70" aria-label={issuesText.title}>
        {data.customers.map((group) => (
          <CustomerRow
            key={group.customer.id}
            group={group}
            sellerMissing={seller.missing.length > 0}
            retrying={retry.isPending && retry.variables === group.customer.id}
            onRetry={() => retry.mutate(group.customer.id)}
          />
        ))}
      </ul>
    </section>
  );
}
