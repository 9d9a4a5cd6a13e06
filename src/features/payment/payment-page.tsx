import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import { Spinner } from '../../app/spinner';
import { CheckIcon } from '../../components/icons';
import { formatCurrency } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import {
  getPayPalSettings,
  periodLabel,
  updatePayment,
  validatePaymentToken,
  type PayPalPublicSettings,
} from './payment-api';

const m = messages.payment;

/**
 * /payment?token=…&bypassTenant=true and /payment/process (spec §2, §4, §8): loading, then the
 * token's plan, amount with VAT and period with PayPal's subscription button, or why it cannot be
 * paid; after PayPal's approval the payment is recorded and the thank-you screen shows. Public:
 * no session, no tenant; PayPal's script loads only here.
 */
export default function PaymentPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const tokenQuery = useQuery({
    queryKey: ['public', 'paymentToken', token],
    queryFn: () => validatePaymentToken(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const tenantId = tokenQuery.data?.tenantID ?? null;
  const settingsQuery = useQuery({
    queryKey: ['public', 'paypalSettings', tenantId],
    queryFn: () => getPayPalSettings(tenantId!),
    enabled: tenantId !== null,
    retry: false,
    staleTime: Infinity,
  });

  let body: ReactNode;
  if (!token) body = <Problem text={m.tokenMissing} />;
  else if (tokenQuery.isPending) body = <Loading />;
  else if (tokenQuery.isError || !tokenQuery.data) body = <Problem text={m.tokenInvalid} />;
  else if (settingsQuery.isPending) body = <Loading />;
  else if (settingsQuery.isError || !settingsQuery.data?.apiKey)
    body = <Problem text={m.paypalNotConfigured} />;
  else body = <PaymentForm token={tokenQuery.data} settings={settingsQuery.data} />;

  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <section aria-labelledby="payment-title" className="card w-full max-w-md overflow-hidden">
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-5 py-7 sm:px-7">
          <div className="flex items-center gap-3">
            <img src="/logo.svg" alt="" className="h-9 w-9" />
            <div className="min-w-0">
              <h1 id="payment-title" className="text-lg font-semibold text-slate-900">
                Pagamento
              </h1>
              {tokenQuery.data && (
                <p className="truncate text-sm text-slate-500">{tokenQuery.data.tenantName}</p>
              )}
            </div>
            <span className="ml-auto inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700">
              <LockIcon /> Sicuro
            </span>
          </div>
          <div className="mt-6">{body}</div>
        </div>
      </section>
    </main>
  );
}

function Loading() {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-sm text-slate-500" role="status">
      <Spinner />
      Caricamento…
    </div>
  );
}

function Problem({ text }: { text: string }) {
  return (
    <div role="alert" className="rounded-lg border border-red-100 bg-red-50 px-4 py-5 text-center">
      <p className="text-base font-medium text-red-800">{text}</p>
      <p className="mt-1 text-sm text-red-700/80">Chiedi al venditore un nuovo link di pagamento.</p>
    </div>
  );
}

function PaymentForm({ token, settings }: { token: PaymentTokenView; settings: PayPalPublicSettings }) {
  const [state, setState] = useState<'ready' | 'saving' | 'done'>('ready');
  const [error, setError] = useState<string | null>(null);
  // In cents, so the two lines always add up to the total.
  const vatAmount = (Math.round(token.amount * 100) - Math.round(token.costBeforeVAT * 100)) / 100;
  const period = periodLabel(token.plan.recurrenceType);

  if (state === 'done') {
    return (
      <div className="py-6 text-center" role="status">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-600">
          <CheckIcon className="h-7 w-7" />
        </span>
        <p className="mt-4 text-lg font-semibold text-slate-900">{m.success}</p>
        <p className="mt-1 text-sm text-slate-500">
          {token.plan.name}: {formatCurrency(token.amount)} {period}. Riceverai la conferma da PayPal.
        </p>
      </div>
    );
  }

  async function approve(subscriptionId: string | null | undefined) {
    setError(null);
    if (!subscriptionId) {
      setError(m.genericError);
      return;
    }
    setState('saving');
    try {
      await updatePayment(token.token, subscriptionId);
      setState('done');
    } catch (e) {
      console.error('Aggiornamento del pagamento fallito:', e);
      notify.error(m.updateFailed);
      setError(m.updateFailed);
      setState('ready');
    }
  }

  return (
    <div>
      <p className="text-sm font-medium text-slate-500">Abbonamento</p>
      <p className="text-xl font-semibold text-slate-900">{token.plan.name}</p>
      {token.plan.features.length > 0 && (
        <ul className="mt-3 space-y-1.5 text-sm text-slate-600">
          {token.plan.features.map((f) => (
            <li key={f} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
              <span>{f}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="mt-5 space-y-1.5 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Prezzo</dt>
          <dd className="text-slate-700">{formatCurrency(token.costBeforeVAT)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">IVA {token.vatPercentage.toLocaleString('it-IT')}%</dt>
          <dd className="text-slate-700">{formatCurrency(vatAmount)}</dd>
        </div>
        <div className="flex items-baseline justify-between gap-3 border-t border-slate-200 pt-2">
          <dt className="font-medium text-slate-900">Totale {period}</dt>
          <dd className="text-lg font-semibold text-slate-900" data-testid="payment-amount">
            {formatCurrency(token.amount)}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        Rinnovo automatico {period} con PayPal, finché non lo disdici. Il link scade il{' '}
        {new Date(token.expiryDate).toLocaleString('it-IT', { dateStyle: 'short', timeStyle: 'short' })}.
      </p>
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-100 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <div className="mt-5 min-h-12" aria-busy={state === 'saving'}>
        {state === 'saving' ? (
          <Loading />
        ) : (
          <PayPalScriptProvider
            options={{
              clientId: settings.apiKey,
              vault: true,
              intent: 'subscription',
              currency: 'EUR',
              locale: 'it_IT',
              ...(settings.sdkBaseUrl ? { sdkBaseUrl: settings.sdkBaseUrl } : {}),
            }}
          >
            <PayPalButtons
              style={{ layout: 'vertical', label: 'subscribe', shape: 'rect' }}
              createSubscription={(_data, actions) =>
                actions.subscription.create({ plan_id: token.paymentProviderPlanId })
              }
              onApprove={async (data) => approve(data.subscriptionID)}
              onError={(err) => {
                console.error('Errore PayPal:', err);
                notify.error(m.genericError);
                setError(m.genericError);
              }}
            />
          </PayPalScriptProvider>
        )}
      </div>
    </div>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="h-3.5 w-3.5" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
        clipRule="evenodd"
      />
    </svg>
  );
}
