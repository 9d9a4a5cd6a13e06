import { CouponFigures } from '../../components/coupon-figures';
import { Link } from 'react-router-dom';
import { SubscriptionStatus } from '../../../contract/enums';
import { customerAreaMessages as m } from '../../../contract/messages';
import type { Payment, Subscription } from '../../../contract/schemas/subscription';
import { DownloadIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { useDownloadInvoice } from '../../entities/invoice/invoice-downloads';
import { useLastInvoices, useOwnSubscriptions } from './api/own-area-queries';
import { RenewalActions } from './renewal-actions';
import { CustomerPlanChange } from './customer-plan-change';
import { PayNow } from './pay-now';
import { PaymentMethod } from './payment-method';

const methodNames: Record<string, string> = {
  bankTransfer: 'Bonifico bancario',
  paypal: 'PayPal',
  stripe: 'Carta (Stripe)',
};
const statusTone: Record<number, string> = {
  [SubscriptionStatus.Active]: 'bg-emerald-100 text-emerald-800',
  [SubscriptionStatus.ActiveNoRenewal]: 'bg-sky-100 text-sky-800',
  [SubscriptionStatus.BankTransferPending]: 'bg-amber-100 text-amber-800',
  [SubscriptionStatus.NotActive]: 'bg-slate-100 text-slate-700',
  [SubscriptionStatus.Canceled]: 'bg-red-100 text-red-800',
};

/**
 * The payment still to pay of a subscription waiting for it (none once paid or cancelled): the
 * unpaid one of a NotActive or BankTransferPending subscription, or (issue 29) the bank transfer of
 * a subscription renewing by bank transfer once its next billing date has come, while in collection.
 */
export function dueOf(s: Subscription, now: Date = new Date()): Payment | null {
  const unpaid = s.payments.find((p) => p.paidAt === null) ?? null;
  // A renewal by transfer its customer turned off, ended at its date: the payment made for the
  // period it never entered is not owed (the server does not collect it either).
  const neverEntered =
    unpaid !== null &&
    unpaid.method === 'bankTransfer' &&
    Date.parse(unpaid.periodStart) >= Date.parse(s.nextBillingDate);
  if (s.subscriptionStatus === SubscriptionStatus.NotActive) return neverEntered ? null : unpaid;
  if (s.subscriptionStatus === SubscriptionStatus.BankTransferPending) return unpaid;
  // Issue 30: a plan change's proration of a live subscription whose period is paid: unpaid, within
  // that period, paid by bank transfer (Stripe charges its own).
  const live =
    s.subscriptionStatus === SubscriptionStatus.Active ||
    s.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;
  const periodPaid = s.payments.some((p) => p.paidAt !== null && p.periodEnd === s.nextBillingDate);
  if (
    live &&
    periodPaid &&
    unpaid !== null &&
    unpaid.method !== 'stripe' &&
    Date.parse(unpaid.periodStart) < Date.parse(s.nextBillingDate)
  )
    return unpaid;
  const awaited =
    s.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal &&
    unpaid !== null &&
    unpaid.method === 'bankTransfer' &&
    (unpaid.collectionStatus === 'due' || unpaid.collectionStatus === 'overdue') &&
    Date.parse(unpaid.periodStart) === Date.parse(s.nextBillingDate) &&
    Date.parse(s.nextBillingDate) <= now.getTime();
  return awaited ? unpaid : null;
}

function SubscriptionCard({ s }: { s: Subscription }) {
  const last = s.payments.at(-1);
  const method = last?.method ? methodNames[last.method] : null;
  return (
    <li className="card p-4">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-base font-semibold text-slate-900">{s.plan.name}</h3>
        <span className={`badge ${statusTone[s.subscriptionStatus] ?? ''}`}>
          {m.status[s.subscriptionStatus] ?? s.subscriptionStatusName}
        </span>
      </div>
      <p className="mt-2 text-2xl font-semibold tabular-nums text-slate-900">
        {formatCurrency(s.amountDue)}
        <span className="ml-1 text-sm font-normal text-slate-500">
          / {s.plan.recurrenceTypeName.toLowerCase()}
        </span>
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Prossimo addebito</dt>
        <dd className="text-right text-slate-900">{formatDate(s.nextBillingDate)}</dd>
        <dt className="text-slate-500">Metodo di pagamento</dt>
        <dd className="text-right text-slate-900">{method ?? '—'}</dd>
      </dl>
      {s.coupon && (
        <div
          className="mt-3 rounded-lg border border-emerald-200 bg-emerald-50/60 p-3"
          data-testid="area-coupon"
        >
          <p className="mb-2 text-sm font-medium text-emerald-800">
            Coupon <span className="font-mono">{s.coupon.code}</span>
          </p>
          <CouponFigures coupon={s.coupon} />
        </div>
      )}
      <RenewalActions s={s} />
      <CustomerPlanChange s={s} />
      <PaymentMethod s={s} />
    </li>
  );
}

/** Issue 29: a payment past its due date says so, with the day it fell due. */
function DueLine({ p }: { p: Payment }) {
  const late = p.collectionStatus === 'overdue';
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-500">
      <span>
        {late ? 'Scaduto il' : 'Scadenza'}{' '}
        <span className="font-medium text-slate-700">{formatDate(p.dueDate)}</span>
      </span>
      {late && (
        <span className="badge bg-orange-50 text-orange-800 ring-1 ring-inset ring-orange-600/30">
          In ritardo
        </span>
      )}
    </p>
  );
}

function DueCard({ s, p }: { s: Subscription; p: Payment }) {
  return (
    <li className="card border-amber-300 p-4">
      <p className="text-sm text-slate-600">{s.plan.name}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{formatCurrency(p.amountDue)}</p>
      <DueLine p={p} />
      <p className="mt-1 text-sm text-slate-500">
        Causale <span className="font-medium text-slate-700">{p.causale}</span>
      </p>
      <PayNow s={s} p={p} />
    </li>
  );
}

/**
 * 'Area clienti' (issue 28): a customer's home. Their subscriptions as cards, what is due now with
 * amount and causale to copy, the last invoices with the PDF, and the way to their billing data.
 */
export default function CustomerHomePage() {
  const subs = useOwnSubscriptions();
  const invoices = useLastInvoices();
  const download = useDownloadInvoice();
  const list = subs.data?.items ?? [];
  const due = list.flatMap((s) => {
    const p = dueOf(s);
    return p ? [{ s, p }] : [];
  });

  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <header>
        <h1 className="page-title">{m.home}</h1>
        <p className="mt-1 text-sm text-slate-500">I tuoi abbonamenti, i pagamenti e le fatture.</p>
      </header>

      {due.length > 0 && (
        <section aria-labelledby="due-title">
          <h2 id="due-title" className="mb-3 text-lg font-semibold text-slate-900">
            Da pagare ora
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2">
            {due.map(({ s, p }) => (
              <DueCard key={p.id} s={s} p={p} />
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="subs-title">
        <h2 id="subs-title" className="mb-3 text-lg font-semibold text-slate-900">
          I tuoi abbonamenti
        </h2>
        {subs.isPending ? (
          <Spinner />
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-500">Nessun abbonamento.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-labelledby="subs-title">
            {list.map((s) => (
              <SubscriptionCard key={s.id} s={s} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="inv-title">
        <div className="mb-3 flex items-baseline justify-between">
          <h2 id="inv-title" className="text-lg font-semibold text-slate-900">
            Ultime fatture
          </h2>
          <Link to="/my/invoices" className="link text-sm">
            Tutte le fatture
          </Link>
        </div>
        {invoices.isPending ? (
          <Spinner />
        ) : (invoices.data?.items.length ?? 0) === 0 ? (
          <p className="text-sm text-slate-500">Nessuna fattura.</p>
        ) : (
          <ul className="card divide-y divide-slate-100">
            {invoices.data?.items.map((i) => (
              <li key={i.id} className="flex items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {i.documentTypeName} {i.number}
                  </p>
                  <p className="text-sm text-slate-500">
                    {formatDate(i.issueDate)} · {formatCurrency(i.total)}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn-secondary min-h-11"
                  onClick={() => download.mutate({ invoice: i, kind: 'pdf' })}
                  aria-label={`Scarica PDF ${i.number}`}
                >
                  <DownloadIcon /> PDF
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <p className="text-sm">
        <Link to="/my/billing" className="link">
          {m.billingTitle}
        </Link>
        <span className="text-slate-500"> — codice fiscale, Partita IVA, SDI o PEC, indirizzo.</span>
      </p>
      <p className="text-sm">
        <Link to="/my/data" className="link">
          {m.myDataTitle}
        </Link>
        <span className="text-slate-500">
          {' '}
          — scarica tutti i dati che Rinnova conserva su di te (JSON o PDF).
        </span>
      </p>
    </div>
  );
}
