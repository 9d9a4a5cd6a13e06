import { useCallback, useState } from 'react';
import type { Invoice } from '../../../contract/schemas/invoice';
import { ListPage, type RowAction } from '../../components/list-page';
import { DownloadIcon, FileCodeIcon, FilePdfIcon, SendIcon, UndoIcon } from '../../components/icons';
import { invoiceResource, monthOptions } from '../../entities/invoice/invoice.resource';
import { useDownloadInvoice } from '../../entities/invoice/invoice-downloads';
import { useDownloadMonthZip } from './api/download-month-zip';
import { useIssueCreditNote } from './api/issue-credit-note';
import { InvoiceIssuesPanel } from './invoice-issues-panel';
import { InvoiceSendDialog } from './invoice-send-dialog';
import { StampDutyCard } from './stamp-duty-card';

const text = {
  xml: 'Scarica XML (FatturaPA)',
  pdf: 'Scarica PDF di cortesia',
  creditNote: 'Emetti nota di credito',
  sendToSdi: 'Invio allo SdI (PEC)',
  zipLabel: 'ZIP del mese',
  zipButton: 'Scarica ZIP',
  zipHint: 'I file XML del mese, per il commercialista',
  creditNoteTitle: 'Nota di credito',
  creditNoteText: (n: string) =>
    `Storna per intero la fattura ${n} (pagamento rimborsato o contestato). Il motivo compare nel documento.`,
  reason: 'Motivo',
  confirm: 'Emetti',
  cancel: 'Annulla',
};

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
 * month's ZIP, the payments waiting for data by customer and the quarterly bollo for the F24
 * (staff only: a customer's own invoices are 'Le mie fatture' in their area, issue 28).
 */
export default function InvoiceListPage() {
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
    {
      label: text.sendToSdi,
      icon: <SendIcon className="h-4 w-4" />,
      onClick: (row: unknown) => setSending(asInvoice(row)),
    },
    {
      label: text.creditNote,
      icon: <UndoIcon className="h-4 w-4" />,
      tone: 'danger' as const,
      hidden: (row: unknown) => asInvoice(row).documentType !== 'TD01' || asInvoice(row).creditNote !== null,
      onClick: (row: unknown) => void creditNote(asInvoice(row)),
    },
  ];
  return (
    <>
      <InvoiceIssuesPanel />
      <ListPage
        resource={invoiceResource}
        rowActions={rowActions}
        toolbar={<MonthZip />}
        allowEdit={false}
        allowDelete={false}
      />
      <StampDutyCard />
      {sending && <InvoiceSendDialog invoice={sending} onClose={closeSending} />}
    </>
  );
}
