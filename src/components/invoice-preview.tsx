import type { ReactNode } from 'react';
import type { Quote } from '../../contract/invoice/quote';
import { fromCents, toCents } from '../../contract/money';
import { formatCurrency } from '../lib/formatters';

const t = {
  title: 'Anteprima fattura',
  cassa: 'Cassa previdenziale',
  vat: 'IVA',
  bollo: 'Imposta di bollo',
  total: 'Totale documento',
  withholding: 'Ritenuta d’acconto',
  splitPayment: 'IVA versata dall’ente (split payment)',
  netToPay: 'Netto a pagare',
  discount: 'Sconto coupon',
};

/**
 * 'Anteprima fattura': the document one period would produce (the contract's one computation, from
 * the tenant's and the customer's fiscal profiles): each line, cassa, VAT, bollo, total, ritenuta
 * and the net the customer is asked to pay.
 */
export function InvoicePreview({
  quote,
  loading,
  controls,
}: {
  quote: Quote | null | undefined;
  loading: boolean;
  /** Beside the title (e.g. the kind of customer the plan screen previews for). */
  controls?: ReactNode;
}) {
  if (!quote) return null;
  const eur = (euros: number) => formatCurrency(fromCents(toCents(euros)));
  const rows: [string, string][] = [
    ...quote.lines.flatMap((l): [string, string][] => [
      [
        l.quantity === 1 ? l.description : `${l.description} × ${l.quantity}`,
        formatCurrency(fromCents(toCents(l.unitPrice) * l.quantity)),
      ],
      // A coupon (issue 30): what it takes off the line, before VAT.
      ...(l.discount ? [[t.discount, `− ${eur(l.discount)}`] as [string, string]] : []),
    ]),
  ];
  if (quote.cassa > 0) rows.push([t.cassa, eur(quote.cassa)]);
  rows.push([quote.natura ? `${t.vat} (${quote.natura})` : t.vat, eur(quote.vat)]);
  if (quote.bollo > 0) rows.push([t.bollo, eur(quote.bollo)]);
  // What the net leaves out beside the ritenuta: the VAT a public body pays itself.
  const splitVat = (toCents(quote.total) - toCents(quote.withholding) - toCents(quote.netToPay)) / 100;
  return (
    <section
      aria-labelledby="invoice-preview-title"
      aria-busy={loading}
      className="rounded-xl border border-slate-200 bg-slate-50/70 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="invoice-preview-title" className="text-sm font-semibold text-slate-900">
          {t.title}
        </h2>
        {controls}
      </div>
      <dl className="mt-3 space-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between gap-4 border-t border-slate-200 pt-1.5 font-medium">
          <dt className="text-slate-700">{t.total}</dt>
          <dd className="tabular-nums text-slate-900">{eur(quote.total)}</dd>
        </div>
        {splitVat > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t.splitPayment}</dt>
            <dd className="tabular-nums text-slate-900">− {eur(splitVat)}</dd>
          </div>
        )}
        {quote.withholding > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t.withholding}</dt>
            <dd className="tabular-nums text-slate-900">− {eur(quote.withholding)}</dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4 text-base font-semibold">
          <dt className="text-slate-900">{t.netToPay}</dt>
          <dd className="tabular-nums text-slate-900">{eur(quote.netToPay)}</dd>
        </div>
      </dl>
      {quote.legalReference && <p className="mt-3 text-xs text-slate-500">{quote.legalReference}</p>}
    </section>
  );
}
