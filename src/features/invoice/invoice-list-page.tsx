import { useCallback, useState } from 'react';
import type { Invoice } from '../../../contract/schemas/invoice';
import { ListPage, type RowAction } from '../../components/list-page';
import { DownloadIcon, FileCodeIcon, FilePdfIcon, SendIcon, UndoIcon } from '../../components/icons';
import { useCan } from '../../lib/access';
import { invoiceResource, monthOptions, ownInvoiceResource } from '../../entities/invoice/invoice.resource';
import { useDownloadInvoice } from './api/download-invoice';
import { useDownloadMonthZip } from './api/download-month-zip';
import { useInvoiceIssues } from './api/invoice-queries';
import { useIssueCreditNote } from './api/issue-credit-note';
import { useRetryInvoice } from './api/retry-invoice';
import { InvoiceSendDialog } from './invoice-send-dialog';

const text = {
  xml: 'Scarica XML (FatturaPA)',
  pdf: 'Scarica PDF di cortesia',
  creditNote: 'Emetti nota di credito',
  sendToSdi: 'Invio allo SdI (PEC)',
  zipLabel: 'ZIP del mese',
  zipButton: 'Scarica ZIP',
  zipHint: 'I file XML del mese, per il commercialista',
  issuesTitle: 'Pagamenti senza fattura',
  issuesHint: 'Completa i dati indicati, poi premi Riprova: il pagamento è già registrato.',
  retry: 'Riprova',
  payment: (id: number) => `Pagamento n. ${id}`,
  creditNoteTitle: 'Nota di credito',
  creditNoteText: (n: string) =>
    `Storna per intero la fattura ${n} (pagamento rimborsato o contestato). Il motivo compare nel documento.`,
  reason: 'Motivo',
  confirm: 'Emetti',
  cancel: 'Annulla',
};

/** Paid payments the SdI data did not allow to invoice, with the field to complete and 'Riprova'. */
function InvoiceIssues() {
  const issues = useInvoiceIssues();
  const retry = useRetryInvoice();
  const items = issues.data ?? [];
  if (items.length === 0) return null;
  return (
    <section
      className="card mb-6 border-amber-200 bg-amber-50/60 p-4 sm:p-5"
      aria-labelledby="invoice-issues"
    >
      <h2 id="invoice-issues" className="text-sm font-semibold text-amber-900">
        {text.issuesTitle} ({items.length})
      </h2>
      <p className="mt-1 text-sm text-amber-800">{text.issuesHint}</p>
      <ul className="mt-3 divide-y divide-amber-200/70">
        {items.map((issue) => (
          <li
            key={issue.id}
            className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between"
          >
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">
                {issue.customer.name}{' '}
                <span className="text-slate-500">· {text.payment(issue.paymentId)}</span>
              </p>
              {issue.messages.map((m) => (
                <p key={m} className="mt-0.5 text-sm break-words text-slate-700">
                  {m}
                </p>
              ))}
            </div>
            <button
              type="button"
              className="btn-secondary shrink-0 self-start"
              disabled={retry.isPending}
              onClick={() => retry.mutate(issue.paymentId)}
            >
              {text.retry}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The month's XML files in one ZIP (Admin). */
function MonthZip() {
  const options = monthOptions();
  const [month, setMonth] = useState(options[0]?.value ?? '');
  const zip = useDownloadMonthZip();
  return (
    <div className="flex items-center gap-2" title={text.zipHint}>
      <label className="sr-only" htmlFor="invoice-zip-month">
        {text.zipLabel}
      </label>
      <select
        id="invoice-zip-month"
        className="input w-40"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <button type="button" className="btn-secondary" onClick={() => zip.mutate(month)}>
        <DownloadIcon className="h-4 w-4" />
        {text.zipButton}
      </button>
    </div>
  );
}

/**
 * /invoice 'Fatture': the generic list with downloads per row (FatturaPA XML, courtesy PDF), the
 * month's ZIP and the payments waiting for data (Admin). A User sees and downloads their own.
 */
export default function InvoiceListPage() {
  const can = useCan();
  const isAdmin = can('invoice', 'manage');
  const download = useDownloadInvoice();
  const issueCreditNote = useIssueCreditNote();
  const asInvoice = (row: unknown) => row as Invoice;
  const [sending, setSending] = useState<Invoice | null>(null);

  const creditNote = async (invoice: Invoice) => {
    const { default: Swal } = await import('sweetalert2');
    const result = await Swal.fire({
      title: text.creditNoteTitle,
      text: text.creditNoteText(invoice.number),
      input: 'text',
      inputLabel: text.reason,
      inputAttributes: { maxlength: '180', 'aria-label': text.reason },
      showCancelButton: true,
      confirmButtonText: text.confirm,
      cancelButtonText: text.cancel,
      reverseButtons: true,
      buttonsStyling: false,
      customClass: {
        popup: 'rounded-xl',
        actions: 'gap-3',
        confirmButton: 'btn-danger',
        cancelButton: 'btn-secondary',
        input: 'input',
      },
    });
    if (!result.isConfirmed) return;
    issueCreditNote.mutate({ id: invoice.id, reason: String(result.value ?? '') });
  };

  const closeSending = useCallback(() => setSending(null), []);

  const rowActions: RowAction[] = [
    {
      label: text.xml,
      icon: <FileCodeIcon className="h-4 w-4" />,
      onClick: (row) => download.mutate({ invoice: asInvoice(row), kind: 'xml' }),
    },
    {
      label: text.pdf,
      icon: <FilePdfIcon className="h-4 w-4" />,
      onClick: (row) => download.mutate({ invoice: asInvoice(row), kind: 'pdf' }),
    },
    ...(isAdmin
      ? [
          {
            label: text.sendToSdi,
            icon: <SendIcon className="h-4 w-4" />,
            onClick: (row: unknown) => setSending(asInvoice(row)),
          },
          {
            label: text.creditNote,
            icon: <UndoIcon className="h-4 w-4" />,
            tone: 'danger' as const,
            hidden: (row: unknown) =>
              asInvoice(row).documentType !== 'TD01' || asInvoice(row).creditNote !== null,
            onClick: (row: unknown) => void creditNote(asInvoice(row)),
          },
        ]
      : []),
  ];
  return (
    <>
      {isAdmin && <InvoiceIssues />}
      <ListPage
        resource={isAdmin ? invoiceResource : ownInvoiceResource}
        rowActions={rowActions}
        toolbar={isAdmin ? <MonthZip /> : undefined}
        allowEdit={false}
        allowDelete={false}
      />
      {sending && <InvoiceSendDialog invoice={sending} onClose={closeSending} />}
    </>
  );
}
