/**
 * 'Paga ora' on a 'Da pagare ora' card of the customer area (issue 28). The server decides how:
 * a fresh payment link (the payment page opens at once; the link stays shown in case the browser
 * does not follow), or the bank-transfer data — beneficiary, IBAN, amount and causale, each with a
 * copy button — in a panel that opens under the button.
 */
import { useId, useState } from 'react';
import type { Payment, PayNow as PayNowAnswer, Subscription } from '../../../contract/schemas/subscription';
import { BankIcon, CopyIcon, ExternalIcon } from '../../components/icons';
import { formatCurrency } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import { usePayNow } from './api/own-payments';

/** An amount as typed in a bank's form: 1234,50 (no thousands separator, no symbol). */
export const amountForTransfer = (euros: number) => euros.toFixed(2).replace('.', ',');

/** Whole-page navigation to the payment page (a function of its own, so tests can watch it). */
export const openPaymentPage = {
  go(url: string) {
    window.location.assign(url);
  },
};

/** One line of the transfer data with a button that copies it. */
export function CopyRow({ label, value, shown }: { label: string; value: string; shown?: string }) {
  return (
    <div className="flex items-center justify-between gap-2 py-2">
      <dt className="shrink-0 text-slate-500">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1">
        <span className="text-right font-medium break-words text-slate-900 tabular-nums">
          {shown ?? value}
        </span>
        <button
          type="button"
          className="icon-btn shrink-0"
          aria-label={`Copia ${label}`}
          onClick={() =>
            void navigator.clipboard
              ?.writeText(value)
              .then(() => notify.success(`${label} copiato`))
              .catch(() => notify.error(`Copia non riuscita: seleziona ${label.toLowerCase()} a mano.`))
          }
        >
          <CopyIcon />
        </button>
      </dd>
    </div>
  );
}

function TransferPanel({
  id,
  data,
}: {
  id: string;
  data: Extract<PayNowAnswer, { method: 'bankTransfer' }>;
}) {
  return (
    <section id={id} aria-label="Dati per il bonifico" className="mt-3 rounded-lg bg-slate-50 p-3">
      <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <BankIcon /> Paga con bonifico bancario
      </p>
      <dl className="mt-1 divide-y divide-slate-200 text-sm">
        <div className="flex items-center justify-between gap-2 py-2">
          <dt className="text-slate-500">Beneficiario</dt>
          <dd className="text-right font-medium text-slate-900">{data.beneficiary}</dd>
        </div>
        <CopyRow
          label="IBAN"
          value={data.iban.replace(/\s+/g, '')}
          // Grouped by four, as a bank's app shows it: read and checked at a glance, wrapped whole.
          shown={data.iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')}
        />
        <CopyRow
          label="Importo"
          value={amountForTransfer(data.netToPay)}
          shown={formatCurrency(data.netToPay)}
        />
        <CopyRow label="Causale" value={data.causale} />
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        Scrivi la causale esattamente così: il fornitore riconosce il bonifico e attiva l’abbonamento.
      </p>
    </section>
  );
}

/** The 'Paga ora' button of one payment due, and what it opens. */
export function PayNow({ s, p, label = 'Paga ora' }: { s: Subscription; p: Payment; label?: string }) {
  const pay = usePayNow();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const answer = pay.data?.data;
  const transfer = answer?.method === 'bankTransfer' ? answer : null;
  const link = answer?.method === 'link' ? answer : null;

  const onClick = () => {
    if (transfer) {
      setOpen((v) => !v);
      return;
    }
    // An extra payment (issue 30) is named; the period's is the one the server finds due.
    pay.mutate(p.extra ? { subscriptionId: s.id, paymentId: p.id } : s.id, {
      onSuccess: ({ data }) => {
        setOpen(true);
        if (data.method === 'link') openPaymentPage.go(data.url);
      },
    });
  };

  return (
    <div className="mt-3">
      <button
        type="button"
        className="btn-primary min-h-11 w-full sm:w-auto"
        aria-expanded={transfer ? open : undefined}
        aria-controls={transfer ? panelId : undefined}
        aria-label={`Paga ora ${s.plan.name}, ${formatCurrency(p.amountDue)}`}
        disabled={pay.isPending}
        onClick={onClick}
      >
        {pay.isPending ? 'Un momento…' : transfer && open ? 'Nascondi i dati del bonifico' : label}
      </button>
      {open && transfer && <TransferPanel id={panelId} data={transfer} />}
      {open && link && (
        <p className="mt-3 text-sm text-slate-600" role="status">
          Si apre la pagina di pagamento…{' '}
          <a className="link inline-flex items-center gap-1" href={link.url}>
            Apri la pagina di pagamento <ExternalIcon className="h-3.5 w-3.5" />
          </a>
        </p>
      )}
    </div>
  );
}
