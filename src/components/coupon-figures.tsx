import { fromCents, toCents } from '../../contract/money';
import { couponPeriodsText, type CouponQuote } from '../../contract/schemas/coupon-apply';
import { formatCurrency } from '../lib/formatters';

/** The coupon's figures: discount, per-period amounts and how long it lasts. */
export function CouponFigures({ coupon, first = false }: { coupon: CouponQuote; first?: boolean }) {
  // A quote of a payment that sets off a residual credit (issue 30): `amount` is that payment's ask;
  // one period's discounted amount is it plus the credit used.
  const creditCents = coupon.creditUsed ? toCents(coupon.creditUsed) : 0;
  const perPeriod = fromCents(toCents(coupon.amount) + creditCents);
  return (
    <div>
      <dl className="space-y-1 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Sconto</dt>
          <dd className="text-right text-slate-900">
            {coupon.discountLabel} · {coupon.durationLabel}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Per periodo</dt>
          <dd className="text-right">
            {coupon.periodsLeft !== 0 && coupon.fullAmount !== perPeriod ? (
              <>
                <span className="mr-1.5 text-slate-500 line-through">
                  {formatCurrency(coupon.fullAmount)}
                </span>
                <span className="font-semibold text-slate-900">{formatCurrency(perPeriod)}</span>
              </>
            ) : (
              <span className="text-slate-900">{formatCurrency(coupon.fullAmount)}</span>
            )}
          </dd>
        </div>
        {creditCents > 0 && (
          <div className="flex justify-between gap-3" data-testid="coupon-credit">
            <dt className="text-slate-500">Prossimo pagamento</dt>
            <dd className="text-right text-slate-900">
              <span className="font-semibold">{formatCurrency(coupon.amount)}</span>
              <span className="block text-xs text-slate-500">
                credito residuo −{formatCurrency(fromCents(creditCents))}
              </span>
            </dd>
          </div>
        )}
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Periodi scontati</dt>
          <dd className="text-right text-slate-900" data-testid="coupon-periods-left">
            {coupon.periodsLeft === null
              ? 'Tutti'
              : coupon.periodsLeft === 0
                ? 'Terminati'
                : `${coupon.periodsLeft} ${coupon.periodsLeft === 1 ? 'rimasto' : 'rimasti'}`}
          </dd>
        </div>
      </dl>
      {coupon.periodsLeft !== 0 && (
        <p className="pt-1 text-xs text-emerald-700">
          Sconto {couponPeriodsText(coupon.periodsLeft, first)}.
        </p>
      )}
    </div>
  );
}
