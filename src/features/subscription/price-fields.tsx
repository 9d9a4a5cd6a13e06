import { EuroInput } from '../../components/fields/euro-input';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { formatCents, parsePercentInput, priceBreakdown } from './billing-format';
import { subscriptionText as t } from './subscription-text';

export interface PriceFieldsProps {
  cost: string;
  vat: string;
  onCostChange: (value: string) => void;
  onVatChange: (value: string) => void;
  errors?: { cost?: string; vat?: string };
  readOnly?: boolean;
  /** The plan's recurrence name, shown in the summary. */
  recurrenceName?: string | null;
  /**
   * The live cost + VAT summary beside the fields (default shown). Off when the document's
   * 'Anteprima fattura' says more (cassa, bollo, ritenuta, a Natura): two totals would disagree.
   */
  summary?: boolean;
}

/**
 * The agreed price of a subscription: cost before VAT (≥ 0, step 0,01) and VAT (0–100, step 0,1),
 * Italian commas accepted, and the live total cost × (1 + VAT/100) computed exactly in cents
 * (contract/money.ts, half-up).
 */
export function PriceFields({
  cost,
  vat,
  onCostChange,
  onVatChange,
  errors = {},
  readOnly,
  recurrenceName,
  summary = true,
}: PriceFieldsProps) {
  const breakdown = priceBreakdown(cost, vat);
  const rate = parsePercentInput(vat);
  return (
    <div className={summary ? 'grid gap-5 lg:grid-cols-[1fr_17rem]' : 'grid gap-5'}>
      <div className="grid content-start gap-5 sm:grid-cols-2">
        <FieldShell
          label={t.fields.cost}
          required={!readOnly}
          error={errors.cost}
          hint={readOnly ? undefined : t.costHint}
        >
          {(control) => (
            <EuroInput
              {...control}
              error={errors.cost}
              placeholder="0,00"
              readOnly={readOnly}
              disabled={readOnly}
              value={cost}
              onChange={(e) => onCostChange(e.target.value)}
            />
          )}
        </FieldShell>
        <FieldShell label={t.fields.vat} required={!readOnly} error={errors.vat}>
          {(control) => (
            <input
              {...control}
              className={inputClass(errors.vat, 'tabular-nums')}
              inputMode="decimal"
              autoComplete="off"
              placeholder="22"
              readOnly={readOnly}
              disabled={readOnly}
              value={vat}
              onChange={(e) => onVatChange(e.target.value)}
            />
          )}
        </FieldShell>
      </div>
      {summary && (
        <aside
          aria-label={t.summaryTitle}
          className="rounded-xl border border-blue-100 bg-gradient-to-br from-sky-50 via-white to-indigo-50 p-4"
        >
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t.summaryTitle}</h3>
          {breakdown ? (
            <dl className="mt-3 space-y-1.5 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">{t.net}</dt>
                <dd className="text-slate-900 tabular-nums">{formatCents(breakdown.net)}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-slate-600">{t.vatAmount(rate === null ? '' : vat.trim())}</dt>
                <dd className="text-slate-900 tabular-nums">{formatCents(breakdown.vat)}</dd>
              </div>
              <div className="mt-2 flex items-baseline justify-between gap-3 border-t border-blue-100 pt-2">
                <dt className="font-medium text-slate-900">{t.total}</dt>
                <dd
                  className="text-xl font-semibold text-slate-900 tabular-nums"
                  data-testid="subscription-total"
                  aria-live="polite"
                >
                  {formatCents(breakdown.total)}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="mt-3 text-sm text-slate-500" data-testid="subscription-total" aria-live="polite">
              {t.totalInvalid}
            </p>
          )}
          {recurrenceName && <p className="mt-3 text-xs text-slate-500">{t.recurrence(recurrenceName)}</p>}
        </aside>
      )}
    </div>
  );
}
