import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { WIDGET_COUPON_NOT_APPLIED, type SubscribeConfirmRefusal } from '../../../contract/schemas/payment';
import { Spinner } from '../../components/spinner';
import { CheckIcon } from '../../components/icons';
import { failureEnvelope } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { confirmSubscription } from './api/confirm-subscription';
import { PublicCard } from './public-card';

const headings: Record<SubscribeConfirmRefusal, string> = {
  invalid: 'Link non valido',
  expired: 'Link scaduto',
  used: 'Link già usato',
  notAllowed: 'Email non utilizzabile',
  unavailable: 'Piano non disponibile',
};

/** A confirmation that started a free trial (issue 30). */
export const confirmTrialText = {
  running: (until: string) => `Prova gratuita attiva fino al ${until}`,
  due: (amount: string, on: string) =>
    `Il primo pagamento, di ${amount}, è dovuto il ${on}. Puoi pagarlo ora oppure più avanti: prima della fine della prova ti inviamo via email il link per pagare. Senza pagamento, alla fine della prova l’abbonamento si ferma.`,
  payNow: 'Paga ora',
} as const;

/** The widget's code refused at the confirmation (issue 30): why, as Create says it, and the price. */
export const confirmCouponText = {
  heading: 'Codice sconto non applicato',
  why: (code: string, error: string) =>
    error === '' || error === WIDGET_COUPON_NOT_APPLIED
      ? `Il codice ${code} non è stato applicato.`
      : `Il codice ${code} non è stato applicato: ${error}${/[.!?]$/.test(error) ? '' : '.'}`,
  fullPrice: (amount: string) =>
    `Il primo pagamento è di ${amount}, senza sconto. Nella pagina di pagamento puoi inserire un altro codice.`,
  /** With a trial, whose paragraph below already says the amount and its day. */
  fullPriceAfterTrial:
    'Il primo pagamento sarà senza sconto. Nella pagina di pagamento puoi inserire un altro codice.',
} as const;

const MISSING_TOKEN = 'Il link è incompleto: aprilo di nuovo dall’email, per intero.';

function refusalOf(error: unknown): { reason: SubscribeConfirmRefusal | null; message: string | null } {
  const envelope = failureEnvelope(error);
  const data = envelope?.data as { reason?: unknown } | null | undefined;
  const reason =
    typeof data?.reason === 'string' && data.reason in headings
      ? (data.reason as SubscribeConfirmRefusal)
      : null;
  return { reason, message: typeof envelope?.message === 'string' ? envelope.message : null };
}

/**
 * /widget/confirm?token=… — the link the plan widget e-mails (issue 23). Opening it confirms the
 * request: the server creates the customer, the subscription and its payment, and this page goes
 * on to the payment page with a whole page load (history replaced; opening the link again leads
 * to the same payment page while it is valid). A link that is unknown,
 * expired, used or cannot subscribe says why. Public: no session, no tenant.
 */
export default function WidgetConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirmation = useQuery({
    queryKey: ['public', 'widgetConfirm', token],
    queryFn: () => confirmSubscription(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const paymentUrl = confirmation.data?.paymentUrl ?? null;
  const trialEndsAt = confirmation.data?.trialEndsAt ?? null;
  const couponRefused = confirmation.data?.coupon?.error ? confirmation.data.coupon : null;
  // A running trial (issue 30) is told here and the customer chooses to pay now or later; a
  // widget coupon refused at the confirmation is told before the full price is paid: in both
  // cases no automatic move to the payment page, whose total would be all they saw.
  const goOn = paymentUrl !== null && trialEndsAt === null && couponRefused === null;

  useEffect(() => {
    // A whole page load, never a client-side route change: the payment page's own
    // Content-Security-Policy (PayPal's SDK, Stripe.js) comes with its document.
    if (goOn && paymentUrl) window.location.replace(new URL(paymentUrl, window.location.href).href);
  }, [goOn, paymentUrl]);

  let body: React.ReactNode;
  if (!token) body = <Refused heading={headings.invalid} text={MISSING_TOKEN} tone="error" />;
  else if (confirmation.isPending)
    body = (
      <div className="flex flex-col items-center gap-3 py-10 text-center" role="status">
        <Spinner label="Conferma in corso…" />
        <p className="text-sm font-medium text-slate-700">Stiamo confermando il tuo abbonamento…</p>
        <p className="text-xs text-slate-500">Tra un attimo passerai al pagamento.</p>
      </div>
    );
  else if (confirmation.isError) {
    const { reason, message } = refusalOf(confirmation.error);
    body = reason ? (
      <Refused
        heading={headings[reason]}
        text={message ?? ''}
        tone={reason === 'expired' || reason === 'used' ? 'warning' : 'error'}
      />
    ) : (
      <Refused
        heading="Conferma non riuscita"
        text={
          message ?? 'Non è stato possibile confermare l’abbonamento. Controlla la connessione e riprova.'
        }
        tone="error"
        retry={() => void confirmation.refetch()}
        retrying={confirmation.isFetching}
      />
    );
  } else {
    const amount = formatCurrency(confirmation.data?.amount);
    body = (
      <div className={`${goOn ? 'py-8' : 'py-6'} text-center`} role="status">
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-600">
          <CheckIcon className="h-6 w-6" />
        </span>
        <p className="mt-4 text-base font-semibold text-slate-900">Abbonamento confermato</p>
        {couponRefused && (
          <div
            role="alert"
            className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-left text-sm text-amber-900"
          >
            <p className="font-semibold">{confirmCouponText.heading}</p>
            <p className="mt-0.5">{confirmCouponText.why(couponRefused.code, couponRefused.error ?? '')}</p>
            <p className="mt-1.5">
              {trialEndsAt !== null
                ? confirmCouponText.fullPriceAfterTrial
                : confirmCouponText.fullPrice(amount)}
            </p>
          </div>
        )}
        {trialEndsAt !== null && (
          <>
            <p className="mt-3 rounded-lg bg-violet-50 px-3 py-2.5 text-sm font-semibold text-violet-800 ring-1 ring-inset ring-violet-600/20">
              {confirmTrialText.running(formatDate(trialEndsAt))}
            </p>
            <p className="mt-3 text-sm text-slate-600">
              {confirmTrialText.due(amount, formatDate(trialEndsAt))}
            </p>
          </>
        )}
        {goOn && <p className="mt-1 text-sm text-slate-500">Ti stiamo portando al pagamento…</p>}
        {paymentUrl && (
          <a href={paymentUrl} className="btn-primary mt-5 w-full justify-center">
            {trialEndsAt !== null ? confirmTrialText.payNow : 'Vai al pagamento'}
          </a>
        )}
      </div>
    );
  }

  return <PublicCard title="Conferma abbonamento">{body}</PublicCard>;
}

function Refused({
  heading,
  text,
  tone,
  retry,
  retrying = false,
}: {
  heading: string;
  text: string;
  tone: 'error' | 'warning';
  retry?: () => void;
  retrying?: boolean;
}) {
  const colours =
    tone === 'warning'
      ? 'border-amber-200 bg-amber-50 text-amber-900'
      : 'border-red-100 bg-red-50 text-red-900';
  return (
    <div role="alert" className={`rounded-xl border px-4 py-5 text-center ${colours}`}>
      <p className="text-base font-semibold">{heading}</p>
      {text && <p className="mt-1.5 text-sm leading-relaxed opacity-90">{text}</p>}
      {retry && (
        <button
          type="button"
          className="btn-secondary mt-4 w-full justify-center"
          onClick={retry}
          disabled={retrying}
        >
          {retrying ? 'Attendere…' : 'Riprova'}
        </button>
      )}
    </div>
  );
}
