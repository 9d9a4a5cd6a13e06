import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import { SubscriptionStatus } from '../../../contract/enums';
import { couponMessages } from '../../../contract/messages';
import { couponPeriodsText, type CouponQuote } from '../../../contract/schemas/coupon-apply';
import { CouponFigures } from '../../components/coupon-figures';
import type { PayPalCouponApproval, Subscription } from '../../../contract/schemas/subscription';
import { FieldError, inputClass, useFieldControl } from '../../components/fields/field-shell';
import { serverFieldErrors, unwrap } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { http } from '../../lib/http';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';

/** POST subscription/applyCoupon/{id} {couponCode, preview}: the quote. */
function applyCoupon(tenantId: number | null, id: number, couponCode: string, preview: boolean) {
  return unwrap<CouponQuote>(
    http.post(apiPaths.subscription.applyCoupon(id), { couponCode, preview }, { tenantId }),
  );
}

/**
 * The subscription's coupon (issue 30): the one in effect (code, discount, periods left), or, for
 * an Admin, 'Applica coupon': the code, 'Anteprima' (what the next periods will ask), then
 * 'Applica' (from the next payment). A customer sees only the coupon in effect.
 */
export function SubscriptionCoupon({ sub, canApply }: { sub: Subscription; canApply: boolean }) {
  const coupon = sub.coupon ?? null;
  if (!coupon && (!canApply || sub.subscriptionStatus === SubscriptionStatus.Canceled)) return null;
  return (
    <section className="card p-5" aria-labelledby="subscription-coupon-title">
      <h2 id="subscription-coupon-title" className="text-base font-semibold text-slate-900">
        Coupon
      </h2>
      {coupon ? (
        <div className="mt-3 space-y-3" data-testid="subscription-coupon">
          <span className="inline-flex rounded-md bg-emerald-50 px-2 py-1 font-mono text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200">
            {coupon.code}
          </span>
          <CouponFigures coupon={coupon} />
        </div>
      ) : sub.paypalCouponApproval ? (
        <PayPalApprovalWaiting approval={sub.paypalCouponApproval} />
      ) : (
        <ApplyCouponForm subscriptionId={sub.id} />
      )}
    </section>
  );
}

/** A coupon applied on a subscription PayPal charges, waiting for the customer's approval on PayPal. */
function PayPalApprovalWaiting({ approval }: { approval: PayPalCouponApproval }) {
  return (
    <div
      className="mt-3 space-y-2 rounded-lg border border-amber-200 bg-amber-50/60 p-3"
      data-testid="subscription-coupon-waiting"
    >
      <p className="text-sm font-medium text-amber-900">
        Coupon <span className="font-mono">{approval.code}</span> in attesa dell’approvazione del cliente su
        PayPal
      </p>
      <p className="text-sm text-slate-700">
        {formatCurrency(approval.amount)} invece di {formatCurrency(approval.fullAmount)}{' '}
        {couponPeriodsText(approval.periods, false)}, dopo l’approvazione. Il cliente ha ricevuto il link per
        e-mail e lo trova nella sua area clienti.
        {approval.expiresAt
          ? ` Se non lo approva entro il ${formatDate(approval.expiresAt)}, la richiesta scade e si può applicare di nuovo un coupon.`
          : null}
      </p>
      <p className="break-all text-xs text-slate-500">
        Link di approvazione:{' '}
        <a
          className="font-medium text-blue-700 hover:text-blue-800 hover:underline"
          href={approval.approveUrl}
          target="_blank"
          rel="noreferrer"
        >
          {approval.approveUrl}
        </a>
      </p>
    </div>
  );
}

function ApplyCouponForm({ subscriptionId }: { subscriptionId: number }) {
  const tenantId = useSelectedTenantId();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [preview, setPreview] = useState<CouponQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { control, errorId } = useFieldControl(error);

  async function run(apply: boolean) {
    setError(null);
    if (!code.trim()) {
      setError(couponMessages.invalid);
      return;
    }
    setBusy(true);
    try {
      const quote = await applyCoupon(tenantId, subscriptionId, code, !apply);
      if (!apply) {
        setPreview(quote);
        return;
      }
      // A subscription PayPal charges: revised at PayPal, applied once the customer approves it.
      if (quote && !quote.applied) notify.info(couponMessages.pendingAtPayPal(quote.code));
      else notify.success(couponMessages.applied(quote?.code ?? code));
      await queryClient.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
    } catch (e) {
      const { fields, all } = serverFieldErrors(e);
      setPreview(null);
      setError(fields.couponCode ?? all[0] ?? couponMessages.invalid);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(false);
  }

  return (
    <form className="mt-3 space-y-3" onSubmit={submit} noValidate>
      <div>
        <label htmlFor={control.id} className="text-sm font-medium text-slate-700">
          Codice del coupon
        </label>
        <div className="mt-1.5 flex gap-2">
          <input
            {...control}
            value={code}
            onChange={(e) => {
              setCode(e.target.value.toUpperCase());
              setPreview(null);
              setError(null);
            }}
            className={inputClass(error, 'min-w-0 flex-1 uppercase')}
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
          />
          <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
            Anteprima
          </button>
        </div>
        <FieldError id={errorId} message={error} />
      </div>
      {preview && (
        <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
          <CouponFigures coupon={preview} />
          <p className="text-xs text-slate-500">Vale dal prossimo pagamento.</p>
          <button
            type="button"
            className="btn-primary w-full justify-center"
            disabled={busy}
            onClick={() => void run(true)}
          >
            Applica coupon
          </button>
        </div>
      )}
    </form>
  );
}
