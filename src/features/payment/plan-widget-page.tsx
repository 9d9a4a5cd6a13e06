import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import { Spinner } from '../../components/spinner';
import { CheckIcon } from '../../components/icons';
import { FieldError, inputClass, useFieldControl } from '../../components/fields/field-shell';
import { failureEnvelope, serverFieldErrors } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { getPlanWidget, periodLabel } from './api/payment-queries';
import { subscribe } from './api/subscribe';
import { MailIcon } from './public-card';

/**
 * /widget/plan?planId= — the page a plan's iframe code embeds on another site: name, features,
 * price with VAT and period, e-mail and name, 'Abbonati'. Subscribing creates nothing yet: the
 * server e-mails a confirmation link (issue 23) and the widget says so, the same for every
 * address; the link opens /widget/confirm, which leads to the payment page. No app chrome;
 * readable from 320 px. A plan with a free trial (issue 30) says so: 'Prova gratuita di N giorni'
 * and what is due at its end, from when.
 */
/** The widget's words for a plan with a free trial (issue 30). */
export const widgetTrialText = {
  badge: (days: number) => `Prova gratuita di ${days} ${days === 1 ? 'giorno' : 'giorni'}`,
  then: (amount: string, period: string, from: string) => `Poi ${amount} ${period} dal ${from}, IVA inclusa.`,
  howToPay:
    'Nessun addebito automatico durante la prova: prima della fine ti inviamo via email il link per pagare. Una prova per cliente e piano.',
  startsAtConfirm: (days: number) =>
    `La prova gratuita di ${days} ${days === 1 ? 'giorno' : 'giorni'} inizia quando confermi.`,
} as const;

export default function PlanWidgetPage() {
  const [params] = useSearchParams();
  const planId = Number(params.get('planId'));
  const valid = Number.isInteger(planId) && planId > 0;
  const plan = useQuery({
    queryKey: ['public', 'planWidget', planId],
    queryFn: () => getPlanWidget(planId),
    enabled: valid,
    retry: false,
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  // Issue 30: 'Hai un codice sconto?' — checked by the server (the rules of Create), applied to
  // the payment page the confirmation leads to.
  const [couponOpen, setCouponOpen] = useState(false);
  const [couponCode, setCouponCode] = useState('');
  const [couponError, setCouponError] = useState<string | null>(null);
  const coupon = useFieldControl(couponError);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError(messages.wizard.emailInvalid);
      return;
    }
    setError(null);
    setCouponError(null);
    setSending(true);
    try {
      const answer = await subscribe({
        planId,
        email: email.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(couponOpen && couponCode.trim() ? { couponCode: couponCode.trim() } : {}),
      });
      if (!answer?.confirmationSent) throw new Error('conferma non inviata');
      setSentTo(email.trim());
    } catch (err) {
      const couponFailure = serverFieldErrors(err).fields.couponCode;
      if (couponFailure) {
        setCouponError(couponFailure);
        return;
      }
      const env = failureEnvelope(err);
      const first = Array.isArray(env?.errors) && env.errors.length > 0 ? String(env.errors[0]) : null;
      setError(
        first?.replace(/^\w+:\s*/, '') ??
          env?.message ??
          'Non è stato possibile completare l’iscrizione. Riprova.',
      );
    } finally {
      setSending(false);
    }
  }

  if (!valid || plan.isError || (plan.isSuccess && !plan.data)) {
    return (
      <WidgetFrame>
        <p role="alert" className="text-center text-sm text-slate-600">
          Questo piano non è disponibile.
        </p>
      </WidgetFrame>
    );
  }
  if (plan.isPending) {
    return (
      <WidgetFrame>
        <div className="flex justify-center py-8" role="status" aria-label="Caricamento">
          <Spinner />
        </div>
      </WidgetFrame>
    );
  }
  const p = plan.data!;
  const period = periodLabel(p.recurrenceType);
  const trialDays = p.trialDays && p.trialDays > 0 ? p.trialDays : null;
  return (
    <WidgetFrame>
      <p className="text-xs font-medium uppercase tracking-wide text-brand-ink">{p.tenantName}</p>
      <h1 className="mt-1 text-xl font-semibold text-slate-900">{p.name}</h1>
      {trialDays && (
        <p className="mt-2 inline-flex rounded-full bg-violet-50 px-2.5 py-0.5 text-sm font-semibold text-violet-700 ring-1 ring-inset ring-violet-600/20">
          {widgetTrialText.badge(trialDays)}
        </p>
      )}
      <p className="mt-2">
        <span className="text-3xl font-bold tracking-tight text-slate-900">{formatCurrency(p.amount)}</span>{' '}
        <span className="text-sm text-slate-500">{period}, IVA inclusa</span>
      </p>
      <p className="text-xs text-slate-500">
        {formatCurrency(p.recurringCostBeforeVAT)} + IVA {p.vatPercentage.toLocaleString('it-IT')}%
      </p>
      {trialDays && (
        <div className="mt-3 rounded-lg bg-violet-50/60 px-3 py-2.5 text-sm text-slate-700">
          <p className="font-medium text-slate-900">
            {widgetTrialText.then(formatCurrency(p.amount), period, formatDate(p.trialEndsAt))}
          </p>
          <p className="mt-0.5 text-xs text-slate-600">{widgetTrialText.howToPay}</p>
        </div>
      )}
      {p.features.length > 0 && (
        <ul className="mt-4 space-y-1.5 text-sm text-slate-700">
          {p.features.map((f, i) => (
            <li key={`${f.featureName}-${i}`} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
              <span>
                {f.featureName}
                {f.description && <span className="text-slate-500"> — {f.description}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {sentTo ? (
        <div
          className="mt-5 rounded-xl border border-blue-100 bg-blue-50/60 px-4 py-5 text-center"
          role="status"
        >
          <span className="mx-auto flex h-11 w-11 items-center justify-center rounded-full bg-white text-blue-600 shadow-sm ring-1 ring-blue-100">
            <MailIcon className="h-5 w-5" />
          </span>
          <h2 className="mt-3 text-base font-semibold text-slate-900">Controlla la tua email</h2>
          <p className="mt-1 text-sm text-slate-600">
            Abbiamo inviato un link di conferma a{' '}
            <strong className="mt-0.5 block font-semibold text-slate-900 [overflow-wrap:anywhere]">
              {sentTo}
            </strong>
          </p>
          <p className="mt-2 text-sm text-slate-600">
            Aprilo entro 1 ora per confermare l’abbonamento: poi potrai completare il pagamento.
          </p>
          {trialDays && (
            <p className="mt-2 text-sm font-medium text-violet-700">
              {widgetTrialText.startsAtConfirm(trialDays)}
            </p>
          )}
          <p className="mt-3 text-xs text-slate-500">
            Non la trovi? Controlla anche la posta indesiderata, oppure riprova tra qualche minuto.
          </p>
          <button
            type="button"
            className="btn-secondary mt-4 w-full justify-center"
            onClick={() => setSentTo(null)}
          >
            Cambia email o invia di nuovo
          </button>
        </div>
      ) : (
        <form className="mt-5 space-y-3" onSubmit={(e) => void submit(e)} noValidate>
          <div>
            <label htmlFor="widget-email" className="label">
              Email
            </label>
            <input
              id="widget-email"
              type="email"
              autoComplete="email"
              className="input"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
              required
            />
          </div>
          <div>
            <label htmlFor="widget-name" className="label">
              Nome (facoltativo)
            </label>
            <input
              id="widget-name"
              autoComplete="name"
              className="input"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          {couponOpen ? (
            <div>
              <label htmlFor={coupon.control.id} className="label">
                Hai un codice sconto?
              </label>
              <input
                {...coupon.control}
                value={couponCode}
                onChange={(e) => {
                  setCouponCode(e.target.value.toUpperCase());
                  setCouponError(null);
                }}
                className={inputClass(couponError, 'uppercase')}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={40}
                placeholder="CODICE"
              />
              <FieldError id={coupon.errorId} message={couponError} />
              <p className="mt-1 text-xs text-slate-500">
                Lo sconto compare nella pagina di pagamento, dopo la conferma via email.
              </p>
            </div>
          ) : (
            <button
              type="button"
              className="text-sm font-medium text-blue-700 hover:text-blue-800 hover:underline"
              onClick={() => setCouponOpen(true)}
            >
              Hai un codice sconto?
            </button>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary w-full justify-center" disabled={sending}>
            {sending ? 'Attendere…' : 'Abbonati'}
          </button>
          <p className="text-center text-xs text-slate-500">Pagamento sicuro con PayPal · Rinnova</p>
        </form>
      )}
    </WidgetFrame>
  );
}

function WidgetFrame({ children }: { children: React.ReactNode }) {
  return (
    <main className="min-h-screen bg-white p-4">
      <section className="mx-auto w-full max-w-sm rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {children}
      </section>
    </main>
  );
}
