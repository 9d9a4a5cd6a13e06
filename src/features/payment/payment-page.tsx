import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { couponMessages, messages } from '../../../contract/messages';
import { fromCents, toCents } from '../../../contract/money';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import { Spinner } from '../../components/spinner';
import { CheckIcon } from '../../components/icons';
import { formatCurrency } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import { PublicCard } from './public-card';
import type { PublicProviderSettings } from '../../../contract/schemas/payment-provider';
import { confirmStripeCheckout } from './api/confirm-stripe-checkout';
import { createStripeCheckout } from './api/create-stripe-checkout';
import { getPublicSettings } from '../../entities/payment-provider/public-settings';
import { periodLabel, validatePaymentToken } from './api/payment-queries';
import { updatePayment } from './api/update-payment';
import { applyPaymentCoupon } from './api/apply-coupon';
import { couponPeriodsText } from '../../../contract/schemas/coupon-apply';
import { FieldError, inputClass, useFieldControl } from '../../components/fields/field-shell';
import { serverFieldErrors } from '../../lib/entity-hooks';

const m = messages.payment;

/**
 * /payment?token=…&bypassTenant=true and /payment/process (spec §2, §4, §8): loading, then the
 * token's plan, amount with VAT and period with the ways the tenant takes: PayPal's subscription
 * button, a card through Stripe Checkout, or the choice between them; or why it cannot be paid.
 * After PayPal's approval, or back from Stripe on /payment/process?session_id=…, the server checks
 * with the provider, records the payment and the thank-you screen shows. Public: no session, no
 * tenant; PayPal's script and Stripe.js load only here (Stripe.js only when paying by card).
 */
export default function PaymentPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const sessionId = params.get('session_id')?.trim() ?? '';
  const returnTenant = Number(params.get('tenant'));
  if (!token && sessionId) return <StripeReturn sessionId={sessionId} tenantId={returnTenant} />;
  return <TokenPayment token={token} />;
}

function TokenPayment({ token }: { token: string }) {
  const tokenQuery = useQuery({
    queryKey: ['public', 'paymentToken', token],
    queryFn: () => validatePaymentToken(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const tenantId = tokenQuery.data?.tenantID ?? null;
  const settingsQuery = useQuery({
    queryKey: ['public', 'providerSettings', tenantId],
    queryFn: () => getPublicSettings(tenantId!),
    enabled: tenantId !== null,
    retry: false,
    staleTime: Infinity,
  });

  let body: ReactNode;
  if (!token) body = <Problem text={m.tokenMissing} />;
  else if (tokenQuery.isPending) body = <Loading />;
  else if (tokenQuery.isError || !tokenQuery.data) body = <Problem text={m.tokenInvalid} />;
  else if (settingsQuery.isPending) body = <Loading />;
  else if (settingsQuery.isError || (!settingsQuery.data?.paypal && !settingsQuery.data?.stripe))
    body = <Problem text={m.paypalNotConfigured} />;
  else body = <PaymentForm token={tokenQuery.data} settings={settingsQuery.data} />;

  return <Shell tenantName={tokenQuery.data?.tenantName}>{body}</Shell>;
}

/**
 * /payment/process?session_id=…&tenant=… (back from Stripe Checkout): the server reads the session
 * at Stripe and records the payment once; then the thank-you screen, else why not.
 */
function StripeReturn({ sessionId, tenantId }: { sessionId: string; tenantId: number }) {
  const confirm = useQuery({
    queryKey: ['public', 'stripeConfirm', sessionId, tenantId],
    queryFn: () => confirmStripeCheckout(sessionId, tenantId),
    enabled: Number.isSafeInteger(tenantId) && tenantId > 0,
    retry: false,
    staleTime: Infinity,
  });
  let body: ReactNode;
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) body = <Problem text={m.updateFailed} />;
  else if (confirm.isPending) body = <Loading />;
  else if (confirm.isError) {
    console.error('Aggiornamento del pagamento fallito:', confirm.error);
    body = <Problem text={m.updateFailed} />;
  } else body = <ThankYou detail="Riceverai la ricevuta da Stripe via email." />;
  return <Shell>{body}</Shell>;
}

function Shell({ tenantName, children }: { tenantName?: string | undefined; children: ReactNode }) {
  return (
    <PublicCard
      title="Pagamento"
      subtitle={tenantName}
      badge={
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700">
          <LockIcon /> Sicuro
        </span>
      }
    >
      {children}
    </PublicCard>
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
  // Spec §8: every message is a toast unless stated; the card keeps saying it too.
  useEffect(() => {
    notify.error(text, { toastId: `payment-problem-${text}` });
  }, [text]);
  return (
    <div role="alert" className="rounded-lg border border-red-100 bg-red-50 px-4 py-5 text-center">
      <p className="text-base font-medium text-red-800">{text}</p>
      <p className="mt-1 text-sm text-red-700/80">Chiedi al venditore un nuovo link di pagamento.</p>
    </div>
  );
}

function ThankYou({ detail }: { detail: string }) {
  // Spec §8: the success message is a toast too (once, whichever way the payment ended here).
  useEffect(() => {
    notify.success(m.success, { toastId: 'payment-success' });
  }, []);
  return (
    <div className="py-6 text-center" role="status">
      <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-600">
        <CheckIcon className="h-7 w-7" />
      </span>
      <p className="mt-4 text-lg font-semibold text-slate-900">{m.success}</p>
      <p className="mt-1 text-sm text-slate-500">{detail}</p>
    </div>
  );
}

type Method = 'paypal' | 'card';

function PaymentForm({ token, settings }: { token: PaymentTokenView; settings: PublicProviderSettings }) {
  const [state, setState] = useState<'ready' | 'saving' | 'done' | 'pending'>('ready');
  const [error, setError] = useState<string | null>(null);
  // A discounted payment (issue 30): Stripe charges it with a coupon on its Checkout, PayPal with
  // the coupon's own PayPal plan, which the link then asks; a link moved to Stripe has none.
  const paypalOk = !token.coupon || token.paymentProviderKind === 'paypal';
  // A payment that is not a period's (issue 30: a one-off charge, a proration) is paid once by card.
  const extra = token.extra ?? null;
  const methods: Method[] = [
    ...(settings.paypal && paypalOk && !extra ? ['paypal' as const] : []),
    ...(settings.stripe ? ['card' as const] : []),
  ];
  const [chosen, setMethod] = useState<Method>(methods[0] ?? 'paypal');
  const method: Method = methods.includes(chosen) ? chosen : (methods[0] ?? 'paypal');
  const coupon = token.coupon ?? null;
  // In cents, so the lines always add up to the total (the discount comes off before VAT).
  const discountCents = coupon ? toCents(coupon.discountAmount) : 0;
  // A residual credit the payment sets off (issue 30, with or without a coupon): the link asks that
  // much less; the VAT line stays the whole period's.
  const creditCents = toCents(token.creditUsed ?? coupon?.creditUsed ?? 0);
  const vatAmount = fromCents(
    toCents(token.amount) + creditCents - toCents(token.costBeforeVAT) + discountCents,
  );
  const period = periodLabel(token.plan.recurrenceType);

  // Stripe.js (its fraud signals) once the card is chosen, only on this page, never awaited: the
  // card is typed on Stripe Checkout, so a Stripe.js that is slow or blocked stops nothing.
  const publishableKey = method === 'card' ? (settings.stripe?.publishableKey ?? null) : null;
  useEffect(() => {
    if (!publishableKey) return;
    void import('@stripe/stripe-js/pure')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .catch((e: unknown) => console.warn('Stripe.js non caricato:', e));
  }, [publishableKey]);

  if (state === 'done' || state === 'pending') {
    // 'pending': PayPal has the approval but has not taken the first charge yet; the subscription
    // starts when PayPal confirms it (its webhook), with nothing more to do here.
    return (
      <ThankYou
        detail={
          state === 'pending'
            ? `${token.plan.name}: ${formatCurrency(token.amount)} ${period}. ${m.paypalPending}`
            : `${token.plan.name}: ${formatCurrency(token.amount)} ${period}. Riceverai la conferma da PayPal.`
        }
      />
    );
  }

  async function payByCard() {
    setError(null);
    setState('saving');
    try {
      const session = await createStripeCheckout(token.token);
      if (!session?.url) throw new Error('sessione Stripe senza URL');
      window.location.assign(session.url);
    } catch (e) {
      console.error('Errore Stripe:', e);
      notify.error(m.genericError);
      setError(m.genericError);
      setState('ready');
    }
  }

  async function approve(subscriptionId: string | null | undefined) {
    setError(null);
    if (!subscriptionId) {
      setError(m.genericError);
      return;
    }
    setState('saving');
    try {
      const answer = await updatePayment(token.token, subscriptionId);
      setState(answer?.result === 'pending' ? 'pending' : 'done');
    } catch (e) {
      console.error('Aggiornamento del pagamento fallito:', e);
      notify.error(m.updateFailed);
      setError(m.updateFailed);
      setState('ready');
    }
  }

  if (extra && methods.length === 0) return <Problem text={extraText.noCard} />;

  return (
    <div>
      {extra ? (
        <ExtraSummary token={token} extra={extra} />
      ) : (
        <>
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
            {coupon && (
              <div className="flex justify-between gap-3" data-testid="payment-discount">
                <dt className="min-w-0 text-emerald-700">
                  Sconto <span className="font-medium">{coupon.code}</span> ({coupon.discountLabel})
                </dt>
                <dd className="shrink-0 text-emerald-700">−{formatCurrency(coupon.discountAmount)}</dd>
              </div>
            )}
            <div className="flex justify-between gap-3">
              <dt className="text-slate-500">IVA {token.vatPercentage.toLocaleString('it-IT')}%</dt>
              <dd className="text-slate-700">{formatCurrency(vatAmount)}</dd>
            </div>
            {creditCents > 0 && (
              <div className="flex justify-between gap-3" data-testid="payment-credit">
                <dt className="min-w-0 text-emerald-700">Credito residuo compensato</dt>
                <dd className="shrink-0 text-emerald-700">−{formatCurrency(creditCents / 100)}</dd>
              </div>
            )}
            <div className="flex items-baseline justify-between gap-3 border-t border-slate-200 pt-2">
              <dt className="font-medium text-slate-900">Totale {period}</dt>
              <dd className="text-right" data-testid="payment-amount">
                {coupon && coupon.fullAmount !== coupon.amount && (
                  <span className="mr-2 text-sm text-slate-500 line-through" aria-hidden="true">
                    {formatCurrency(coupon.fullAmount)}
                  </span>
                )}
                <span className="text-lg font-semibold text-slate-900">{formatCurrency(token.amount)}</span>
              </dd>
            </div>
          </dl>
          {coupon && (
            <p className="mt-2 text-xs font-medium text-emerald-700" data-testid="payment-coupon-periods">
              {`Sconto ${couponPeriodsText(coupon.periodsLeft)}${
                coupon.periodsLeft !== null ? `, poi ${formatCurrency(coupon.fullAmount)} ${period}` : ''
              }.`}
            </p>
          )}
          {state !== 'saving' && (settings.stripe || settings.paypal) && <CouponField token={token} />}
          <p className="mt-3 text-xs text-slate-500">
            Rinnovo automatico {period} con{' '}
            {methods.length > 1 ? 'il metodo scelto' : method === 'card' ? 'la carta' : 'PayPal'}, finché non
            lo disdici. Il link scade il{' '}
            {new Date(token.expiryDate).toLocaleString('it-IT', { dateStyle: 'short', timeStyle: 'short' })}.
          </p>
        </>
      )}
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-100 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      {methods.length > 1 && state !== 'saving' && (
        <fieldset className="mt-5">
          <legend className="text-sm font-medium text-slate-700">Come vuoi pagare?</legend>
          <div className="mt-2 grid grid-cols-2 gap-2" role="radiogroup" aria-label="Metodo di pagamento">
            {methods.map((value) => (
              <label
                key={value}
                className={`flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium transition-colors ${
                  method === value
                    ? 'border-brand-blue bg-brand-blue/5 text-slate-900 ring-1 ring-brand-blue'
                    : 'border-slate-200 bg-white text-slate-600 hover:border-slate-300'
                }`}
              >
                <input
                  type="radio"
                  name="payment-method"
                  value={value}
                  checked={method === value}
                  onChange={() => setMethod(value)}
                  className="sr-only"
                />
                {value === 'card' ? (
                  <>
                    <CardIcon />
                    Carta
                  </>
                ) : (
                  <PayPalMark />
                )}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="mt-5 min-h-12" aria-busy={state === 'saving'}>
        {state === 'saving' ? (
          <Loading />
        ) : method === 'card' ? (
          <div>
            <button
              type="button"
              className="btn-primary w-full min-h-12 justify-center text-base font-semibold"
              onClick={() => void payByCard()}
            >
              Paga con carta
            </button>
            <p className="mt-2 text-center text-xs text-slate-500">
              Pagamento sicuro su Stripe: i dati della carta non passano da qui.
            </p>
          </div>
        ) : (
          <PayPalScriptProvider
            options={{
              clientId: settings.paypal!.apiKey,
              vault: true,
              intent: 'subscription',
              currency: 'EUR',
              locale: 'it_IT',
              ...(settings.paypal?.sdkBaseUrl ? { sdkBaseUrl: settings.paypal.sdkBaseUrl } : {}),
            }}
          >
            <PayPalButtons
              style={{ layout: 'vertical', label: 'subscribe', shape: 'rect' }}
              // A coupon applied here changes the plan the link asks: the button follows it.
              forceReRender={[token.paymentProviderPlanId]}
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

const extraText = {
  oneOff: 'Addebito una tantum',
  proration: 'Conguaglio cambio di piano',
  prorationDetail: (plan: string) => `Passaggio al piano «${plan}»`,
  total: 'Totale',
  once: 'Pagamento unico con carta: non cambia il rinnovo dell’abbonamento.',
  noCard: 'Il pagamento con carta non è disponibile: contatta il fornitore per pagare con bonifico.',
} as const;

/** What an extra payment's link pays (issue 30): what it is, its total with VAT, once. */
function ExtraSummary({
  token,
  extra,
}: {
  token: PaymentTokenView;
  extra: NonNullable<PaymentTokenView['extra']>;
}) {
  return (
    <div data-testid="payment-extra">
      <p className="text-sm font-medium text-slate-500">
        {extra.kind === 'oneOff' ? extraText.oneOff : extraText.proration}
      </p>
      <p className="break-words text-xl font-semibold text-slate-900">
        {extra.kind === 'oneOff' ? extra.description : extraText.prorationDetail(extra.description)}
      </p>
      <p className="mt-1 text-sm text-slate-500">{token.plan.name}</p>
      <dl className="mt-5 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
        <div className="flex items-baseline justify-between gap-3">
          <dt className="font-medium text-slate-900">{extraText.total} (IVA inclusa)</dt>
          <dd className="text-lg font-semibold text-slate-900" data-testid="payment-amount">
            {formatCurrency(token.amount)}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        {extraText.once} Il link scade il{' '}
        {new Date(token.expiryDate).toLocaleString('it-IT', { dateStyle: 'short', timeStyle: 'short' })}.
      </p>
    </div>
  );
}

/**
 * 'Hai un codice sconto?' (issue 30): a link that opens the field; 'Applica' sends the code, the
 * server answers the discounted amount (the page's token then shows the discount line, the new
 * total and its periods) or the Italian error under the field. Once a coupon is on, the field
 * goes away: a subscription has one coupon.
 */
function CouponField({ token }: { token: PaymentTokenView }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { control, errorId } = useFieldControl(error);
  if (token.coupon) return null;
  if (!open)
    return (
      <button
        type="button"
        className="mt-3 text-sm font-medium text-blue-700 hover:text-blue-800 hover:underline"
        onClick={() => setOpen(true)}
      >
        Hai un codice sconto?
      </button>
    );

  async function apply(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!code.trim()) {
      setError(couponMessages.invalid);
      return;
    }
    setBusy(true);
    try {
      const quote = await applyPaymentCoupon(token.token, code);
      if (!quote) throw new Error('coupon senza risposta');
      queryClient.setQueryData<PaymentTokenView | null>(['public', 'paymentToken', token.token], (old) =>
        old ? { ...old, amount: quote.amount, coupon: quote } : old,
      );
      notify.success(couponMessages.applied(quote.code));
    } catch (e) {
      const { fields, all } = serverFieldErrors(e);
      setError(fields.couponCode ?? all[0] ?? m.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="mt-4" onSubmit={(e) => void apply(e)} noValidate>
      <label htmlFor={control.id} className="text-sm font-medium text-slate-700">
        Hai un codice sconto?
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          {...control}
          value={code}
          onChange={(e) => {
            setCode(e.target.value.toUpperCase());
            setError(null);
          }}
          className={inputClass(error, 'min-w-0 flex-1 uppercase')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          placeholder="CODICE"
        />
        <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
          {busy ? 'Verifica…' : 'Applica'}
        </button>
      </div>
      <FieldError id={errorId} message={error} />
    </form>
  );
}

function CardIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4 text-slate-500" aria-hidden="true">
      <path d="M2.5 4A1.5 1.5 0 0 0 1 5.5V7h18V5.5A1.5 1.5 0 0 0 17.5 4h-15ZM19 8.5H1v6A1.5 1.5 0 0 0 2.5 16h15a1.5 1.5 0 0 0 1.5-1.5v-6ZM3 13.25a.75.75 0 0 1 .75-.75h1.5a.75.75 0 0 1 0 1.5h-1.5a.75.75 0 0 1-.75-.75Zm4.75-.75a.75.75 0 0 0 0 1.5h3.5a.75.75 0 0 0 0-1.5h-3.5Z" />
    </svg>
  );
}

/** PayPal's wordmark in its two brand blues, as an SVG (no font or request of its own). */
const PAYPAL_WORDMARK = `data:image/svg+xml;utf8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 58 18"><text x="0" y="14" font-family="Helvetica,Arial,sans-serif" font-size="16" font-weight="700" font-style="italic"><tspan fill="#003087">Pay</tspan><tspan fill="#009cde">Pal</tspan></text></svg>',
)}`;

function PayPalMark() {
  return (
    // A logotype (WCAG 1.4.3 exempts its colours), drawn as an image with its name as the text.
    <img src={PAYPAL_WORDMARK} alt="PayPal" width={58} height={18} className="h-[18px] w-auto" />
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
