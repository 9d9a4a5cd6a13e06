import { useEffect, useRef, useState } from 'react';
import type { Invoice, InvoiceSend } from '../../../contract/schemas/invoice';
import { Modal } from '../../components/modal';
import { SendIcon, UploadIcon } from '../../components/icons';
import { useInvalidateInvoices, useInvoice, useInvoiceSends, usePecStatus } from './api/invoice-queries';
import { useSendInvoice } from './api/send-invoice';
import { useUploadSdiReceipt } from './api/upload-sdi-receipt';

const text = {
  title: (n: string) => `Invio allo SdI · ${n}`,
  description: 'Un messaggio PEC per fattura, con il file XML allegato, dalla casella PEC del tenant.',
  send: 'Invia allo SdI',
  retry: 'Riprova l’invio',
  close: 'Chiudi',
  route: (from: string, to: string) => `Dalla PEC ${from} alla PEC dello SdI ${to}.`,
  auto: 'Invio automatico attivo: ogni nuova fattura parte da sola.',
  intermediary:
    'L’invio tramite PEC non è configurato: scarica il file XML e consegnalo al tuo intermediario (commercialista o servizio di fatturazione), che lo invia allo SdI. Per inviare da qui, compila Lista Tenants → Invio PEC.',
  log: 'Registro degli invii',
  empty: 'Nessun invio finora.',
  waiting: 'Invio in coda: l’esito compare qui.',
  alreadySent: 'Fattura già inviata allo SdI.',
  delivered: 'Consegnata al cliente dallo SdI.',
  rejected: 'Scartata dallo SdI: correggi i dati e inviala di nuovo entro 5 giorni.',
  resend: 'Invia di nuovo',
  receipt: 'Carica ricevuta SdI (XML)',
  receiptHint: 'La ricevuta di consegna o la notifica di scarto arrivata nella casella PEC.',
  headers: { at: 'Data e ora', to: 'Destinatario', status: 'Esito', detail: 'Message-ID / errore' },
};

const when = new Intl.DateTimeFormat('it-IT', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const tone: Record<InvoiceSend['status'], string> = {
  sent: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  failed: 'bg-rose-50 text-rose-700 ring-rose-600/20',
  sending: 'bg-amber-50 text-amber-800 ring-amber-600/20',
};

/** The invoice's PEC sends and the 'Invia allo SdI' action (Admin). */
export function InvoiceSendDialog({ invoice: initial, onClose }: { invoice: Invoice; onClose: () => void }) {
  const invalidate = useInvalidateInvoices();
  const current = useInvoice(initial.id);
  const invoice = current.data ?? initial;
  const [queuedAt, setQueuedAt] = useState<number | null>(null);
  const status = usePecStatus();
  const sends = useInvoiceSends(invoice.id, queuedAt);
  const send = useSendInvoice();
  const receipt = useUploadSdiReceipt();

  const items = sends.data ?? [];
  const latest = items[0];
  // A send finished while the dialog is open: the invoice and the list show its new status.
  const finished = latest && latest.status !== 'sending' ? `${latest.id}:${latest.status}` : null;
  const seen = useRef(finished);
  useEffect(() => {
    if (finished === seen.current) return;
    seen.current = finished;
    void invalidate();
  }, [finished, invalidate]);
  const rejected = invoice.status === 'rejected';
  const sent = (invoice.status !== 'issued' && !rejected) || (!rejected && latest?.status === 'sent');
  const configured = status.data?.configured ?? false;
  const canSend = configured && !sent && latest?.status !== 'sending';
  const sendLabel = rejected ? text.resend : latest?.status === 'failed' ? text.retry : text.send;

  return (
    <Modal
      title={text.title(invoice.number)}
      description={text.description}
      onClose={onClose}
      size="lg"
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {text.close}
          </button>
          {configured && !sent && (
            <button
              type="button"
              className="btn-primary"
              disabled={!canSend || send.isPending}
              onClick={() => send.mutate(invoice.id, { onSuccess: () => setQueuedAt(Date.now()) })}
            >
              <SendIcon className="h-4 w-4" />
              {sendLabel}
            </button>
          )}
        </>
      }
    >
      <div className="space-y-4 text-sm">
        {status.data && !configured && (
          <p className="rounded-lg bg-slate-50 p-3 text-slate-700 ring-1 ring-slate-200" role="note">
            {text.intermediary}
          </p>
        )}
        {status.data && configured && (
          <p className="text-slate-600">
            {text.route(status.data.sender ?? '', status.data.sdiPec)}
            {status.data.autoSend && <> {text.auto}</>}
          </p>
        )}
        {invoice.status === 'delivered' ? (
          <p className="font-medium text-emerald-700">{text.delivered}</p>
        ) : (
          sent && <p className="font-medium text-emerald-700">{text.alreadySent}</p>
        )}
        {rejected && (
          <div className="rounded-lg bg-rose-50 p-3 text-rose-800 ring-1 ring-rose-200" role="alert">
            <p className="font-medium">{text.rejected}</p>
            {invoice.sdiNote && <p className="mt-1 break-words">{invoice.sdiNote}</p>}
          </div>
        )}
        {queuedAt !== null && !sent && (!latest || latest.status === 'sending') && (
          <p className="text-amber-800">{text.waiting}</p>
        )}
        <section aria-labelledby="invoice-sends-title">
          <h3 id="invoice-sends-title" className="mb-2 font-semibold text-slate-900">
            {text.log}
          </h3>
          {items.length === 0 ? (
            <p className="text-slate-500">{text.empty}</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
              {items.map((s) => (
                <li
                  key={s.id}
                  className="flex flex-col gap-1 px-3 py-2.5 sm:flex-row sm:items-start sm:gap-4"
                >
                  <div className="flex shrink-0 items-center gap-2 sm:w-56">
                    <span
                      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone[s.status]}`}
                    >
                      {s.statusName}
                    </span>
                    <span className="text-slate-600 tabular-nums">{when.format(new Date(s.at))}</span>
                  </div>
                  <div className="min-w-0 flex-1">
                    <p className="break-all text-slate-700">
                      <span className="sr-only">{text.headers.to}: </span>
                      {s.to}
                    </p>
                    {s.error && <p className="break-words text-rose-700">{s.error}</p>}
                    {s.messageId && (
                      <p className="break-all text-xs text-slate-500">Message-ID {s.messageId}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        {invoice.status !== 'delivered' && (
          <div>
            {/* The native file box says 'Choose File' in the browser's language: a button in ours. */}
            <input
              id="sdi-receipt"
              type="file"
              accept=".xml,application/xml,text/xml"
              disabled={receipt.isPending}
              className="peer sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) receipt.mutate(file);
                e.target.value = '';
              }}
            />
            <label
              htmlFor="sdi-receipt"
              className="btn-secondary cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-blue-500"
            >
              <UploadIcon className="h-4 w-4" />
              {text.receipt}
            </label>
            <p className="mt-1 text-xs text-slate-500">{text.receiptHint}</p>
          </div>
        )}
      </div>
    </Modal>
  );
}
