import type { Quote } from '../../../contract/invoice/quote';
import { toCents } from '../../../contract/money';
import { formatCents } from './billing-format';
import { subscriptionText as t } from './subscription-text';

/**
 * 'Anteprima fattura': the document one period would produce (the contract's one computation, from
 * the tenant's and the customer's fiscal profiles): each line, cassa, VAT, bollo, total, ritenuta
 * and the net the customer is asked to pay.
 */
export function InvoicePreview({ quote, loading }: { quote: Quote | null | undefined; loading: boolean }) {
  if (!quote) return null;
  const eur = (euros: number) => formatCents(toCents(euros));
  const rows: [string, string][] = [
    ...quote.lines.map((l): [string, string] => [
      l.quantity === 1 ? l.description : `${l.description} × ${l.quantity}`,
      eur(l.unitPrice * l.quantity),
    ]),
  ];
  if (quote.cassa > 0) rows.push([t.preview.cassa, eur(quote.cassa)]);
  rows.push([quote.natura ? `${t.preview.vat} (${quote.natura})` : t.preview.vat, eur(quote.vat)]);
  if (quote.bollo > 0) rows.push([t.preview.bollo, eur(quote.bollo)]);
  // What the net leaves out beside the ritenuta: the VAT a public body pays itself.
  const splitVat = (toCents(quote.total) - toCents(quote.withholding) - toCents(quote.netToPay)) / 100;
  return (
    <section
      aria-labelledby="invoice-preview-title"
      aria-busy={loading}
      className="rounded-xl border border-slate-200 bg-slate-50/70 p-4"
    >
      <h2 id="invoice-preview-title" className="text-sm font-semibold text-slate-900">
        {t.preview.title}
      </h2>
      <dl className="mt-3 space-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between gap-4 border-t border-slate-200 pt-1.5 font-medium">
          <dt className="text-slate-700">{t.preview.total}</dt>
          <dd className="tabular-nums text-slate-900">{eur(quote.total)}</dd>
        </div>
        {splitVat > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t.preview.splitPayment}</dt>
            <dd className="tabular-nums text-slate-900">− {eur(splitVat)}</dd>
          </div>
        )}
        {quote.withholding > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t.preview.withholding}</dt>
            <dd className="tabular-nums text-slate-900">− {eur(quote.withholding)}</dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4 text-base font-semibold">
          <dt className="text-slate-900">{t.preview.netToPay}</dt>
          <dd className="tabular-nums text-slate-900">{eur(quote.netToPay)}</dd>
        </div>
      </dl>
      {quote.legalReference && <p className="mt-3 text-xs text-slate-500">{quote.legalReference}</p>}
    </section>
  );
}
