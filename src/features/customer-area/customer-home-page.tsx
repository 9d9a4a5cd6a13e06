import { CouponFigures } from '../../components/coupon-figures';
import { Link } from 'react-router-dom';
import { SubscriptionStatus } from '../../../contract/enums';
import { customerAreaMessages as m } from '../../../contract/messages';
import type { Payment, Subscription } from '../../../contract/schemas/subscription';
import { DownloadIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { useDownloadInvoice } from '../../entities/invoice/invoice-downloads';
import { ownChargeState } from '../../../contract/schemas/one-off-charge';
import { TrialBadge } from '../../entities/subscription/trial-badge';
import { useLastInvoices, useOwnCharges, useOwnSubscriptions } from './api/own-area-queries';
import { RenewalActions } from './renewal-actions';
import { CustomerPause } from './customer-pause';
import { CustomerPlanChange } from './customer-plan-change';
import { PayNow } from './pay-now';
import { PayPalCouponApproval } from './paypal-coupon-approval';
import { PayPalPlanChangeApproval } from './paypal-plan-change-approval';
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
  // A one-off charge's payment (issue 30) is due on its own (`extrasDue`).
  const unpaid = s.payments.find((p) => p.paidAt === null && p.extra !== 'oneOff') ?? null;
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

const isLive = (s: Subscription) =>
  s.subscriptionStatus === SubscriptionStatus.Active ||
  s.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;

/**
 * Issue 30: the one-off charges collected 'Subito' whose own payment waits for the customer (a
 * live subscription's, not one Stripe charges on the subscription's card).
 */
export function extrasDue(s: Subscription): Payment[] {
  if (!isLive(s)) return [];
  return s.payments.filter((p) => p.extra === 'oneOff' && p.paidAt === null && p.method !== 'stripe');
}

/** Issue 30: a running trial's first payment, due at the trial's end (payable before). */
export function trialFirstPayment(s: Subscription): Payment | null {
  if (s.trialState !== 'running' || !s.trialEndsAt) return null;
  return s.payments.find((p) => p.periodStart === s.trialEndsAt && p.paidAt === null) ?? null;
}

/** A running trial (what is due at its end, 'Paga ora'), or a trial that ended unpaid. */
function TrialNote({ s }: { s: Subscription }) {
  const first = trialFirstPayment(s);
  if (first && s.trialEndsAt)
    return (
      <div className="mt-3 rounded-lg border border-violet-200 bg-violet-50/60 p-3" data-testid="area-trial">
        <p className="text-sm text-slate-700">
          Alla fine della prova, il {formatDate(s.trialEndsAt)}, è dovuto il primo pagamento di{' '}
          <span className="font-semibold text-slate-900 tabular-nums">{formatCurrency(first.amountDue)}</span>
          . Puoi pagarlo già ora: il primo periodo inizia comunque alla fine della prova.
        </p>
        <PayNow s={s} p={first} />
      </div>
    );
  if (s.trialState === 'expired' && s.subscriptionStatus === SubscriptionStatus.NotActive)
    return (
      <p className="mt-3 text-sm text-slate-600" data-testid="area-trial">
        La prova è terminata senza pagamento: paga per attivare l’abbonamento.
      </p>
    );
  return null;
}

const chargeTone: Record<string, string> = {
  'Da pagare': 'bg-amber-50 text-amber-800 ring-1 ring-inset ring-amber-600/30',
  'Con il prossimo pagamento': 'bg-sky-50 text-sky-800 ring-1 ring-inset ring-sky-600/20',
  Pagato: 'bg-emerald-50 text-emerald-800 ring-1 ring-inset ring-emerald-600/20',
};

/** Issue 30: the subscription's one-off charges (none: nothing shown). */
function OwnCharges({ s }: { s: Subscription }) {
  const charges = useOwnCharges(s.id);
  const download = useDownloadInvoice();
  const list = charges.data ?? [];
  if (list.length === 0) return null;
  const titleId = `own-charges-${s.id}`;
  return (
    <section aria-labelledby={titleId} className="mt-3 border-t border-slate-100 pt-3">
      <div className="flex items-baseline justify-between gap-2">
        <h4 id={titleId} className="text-sm font-semibold text-slate-900">
          Addebiti una tantum
        </h4>
        <span className="text-xs text-slate-500">IVA inclusa</span>
      </div>
      <ul className="mt-1 divide-y divide-slate-100 text-sm">
        {list.map((c) => {
          const state = ownChargeState(c);
          return (
            <li key={c.id} className="py-2" data-testid="own-charge">
              <div className="flex items-start justify-between gap-3">
                <p className="min-w-0 font-medium break-words text-slate-900">
                  {c.description}
                  {c.quantity > 1 && <span className="font-normal text-slate-500"> × {c.quantity}</span>}
                </p>
                <p className="shrink-0 font-medium text-slate-900 tabular-nums">
                  {c.amountDue === null ? '—' : formatCurrency(c.amountDue)}
                </p>
              </div>
              <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
                <span className={`badge ${chargeTone[state] ?? ''}`}>{state}</span>
                {c.invoice && (
                  <button
                    type="button"
                    className="link inline-flex min-h-11 items-center gap-1 text-sm sm:min-h-0"
                    onClick={() => c.invoice && download.mutate({ invoice: c.invoice, kind: 'pdf' })}
                    aria-label={`Scarica la fattura ${c.invoice.number} di ${c.description}`}
                  >
                    <DownloadIcon /> Fattura {c.invoice.number}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function SubscriptionCard({ s }: { s: Subscription }) {
  // How the periods are paid: a one-off charge or a proration paid by card (issue 30) says nothing
  // of the renewal's method.
  const last = s.payments.filter((p) => !p.extra).at(-1);
  const method = last?.method ? methodNames[last.method] : null;
  return (
    <li className="card p-4">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-base font-semibold text-slate-900">{s.plan.name}</h3>
        <span className={`badge ${statusTone[s.subscriptionStatus] ?? ''}`}>
          {m.status[s.subscriptionStatus] ?? s.subscriptionStatusName}
        </span>
      </div>
      {s.trialState && (
        <div className="mt-2">
          <TrialBadge state={s.trialState} endsAt={s.trialEndsAt} />
        </div>
      )}
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
      <PayPalCouponApproval s={s} />
      <PayPalPlanChangeApproval s={s} />
      <TrialNote s={s} />
      <OwnCharges s={s} />
      <RenewalActions s={s} />
      <CustomerPlanChange s={s} />
      <CustomerPause s={s} />
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

/** What an extra payment pays (issue 30): the one-off charge's description, or the proration. */
function ExtraTitle({ s, p }: { s: Subscription; p: Payment }) {
  const charges = useOwnCharges(s.id);
  if (p.extra === 'proration') return <>Conguaglio cambio di piano</>;
  const charge = charges.data?.find((c) => c.paymentId === p.id);
  return <>{charge ? `Addebito una tantum: «${charge.description}»` : 'Addebito una tantum'}</>;
}

function DueCard({ s, p }: { s: Subscription; p: Payment }) {
  return (
    <li className="card border-amber-300 p-4" data-testid="due-card">
      <p className="text-sm text-slate-600">{s.plan.name}</p>
      {p.extra && (
        <p className="mt-0.5 text-sm font-medium break-words text-slate-900">
          <ExtraTitle s={s} p={p} />
        </p>
      )}
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
    const extras = extrasDue(s).filter((e) => e.id !== p?.id);
    return [...(p ? [p] : []), ...extras].map((payment) => ({ s, p: payment }));
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
