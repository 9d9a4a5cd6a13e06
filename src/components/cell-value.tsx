import { messages } from '../../contract/messages';
import { collectionStatusNames } from '../../contract/schemas/collection';
import {
  formatBool,
  formatCurrency,
  formatDate,
  formatPercent,
  formatText,
  getPath,
  isMissing,
  NOT_AVAILABLE,
} from '../lib/formatters';
import type { ColumnDef } from '../lib/resource';

/** Badge colours of the subscription status (spec §4): 1 green, 2 red, 3 yellow, 4 blue. */
export const statusTone: Record<number, string> = {
  1: 'bg-emerald-50 text-emerald-700 ring-1 ring-inset ring-emerald-600/20',
  2: 'bg-red-50 text-red-700 ring-1 ring-inset ring-red-600/20',
  3: 'bg-yellow-50 text-yellow-800 ring-1 ring-inset ring-yellow-600/30',
  4: 'bg-blue-50 text-blue-700 ring-1 ring-inset ring-blue-600/20',
};
const statusLabel = messages.subscriptionStatus as Record<number, string>;

/** Whether any of a subscription row's payments is overdue (issue 29). */
export function hasOverduePayment(row: Record<string, unknown>): boolean {
  const payments = row.payments;
  return (
    Array.isArray(payments) &&
    payments.some(
      (p: unknown) =>
        typeof p === 'object' &&
        p !== null &&
        (p as { collectionStatus?: unknown }).collectionStatus === 'overdue',
    )
  );
}

/** 'In ritardo' beside the status badge: a payment of the subscription is overdue (issue 29). */
export function OverdueMarker() {
  return (
    <span
      className="badge bg-orange-50 text-orange-800 ring-1 ring-inset ring-orange-600/30"
      title={collectionText.overdueHint}
    >
      {collectionStatusNames.overdue}
    </span>
  );
}

const collectionText = {
  overdueHint: 'Un pagamento di questa sottoscrizione è scaduto e non ancora incassato.',
};

function Missing() {
  return <span className="text-slate-500">{NOT_AVAILABLE}</span>;
}

/** One table cell's content, by column type; missing values read 'N/D'. */
export function CellValue({ column, row }: { column: ColumnDef; row: Record<string, unknown> }) {
  const primary = getPath(row, column.key);
  const value = isMissing(primary) && column.fallback ? getPath(row, column.fallback) : primary;
  switch (column.type) {
    case 'bool': {
      const text = formatBool(value);
      if (text === NOT_AVAILABLE) return <Missing />;
      const yes = text === messages.common.yes;
      return (
        <span
          className={`badge ${yes ? 'bg-emerald-50 text-emerald-700 ring-1 ring-inset ring-emerald-600/20' : 'bg-slate-100 text-slate-600 ring-1 ring-inset ring-slate-500/20'}`}
        >
          {text}
        </span>
      );
    }
    case 'currency': {
      const text = formatCurrency(value);
      return text === NOT_AVAILABLE ? <Missing /> : <span className="tabular-nums">{text}</span>;
    }
    case 'percent': {
      const text = formatPercent(value);
      return text === NOT_AVAILABLE ? <Missing /> : <span className="tabular-nums">{text}</span>;
    }
    case 'dateTime': {
      const text = formatDate(value);
      return text === NOT_AVAILABLE ? <Missing /> : <span className="tabular-nums">{text}</span>;
    }
    case 'subscriptionstatusenum': {
      const status = isMissing(value) ? NaN : Number(value);
      const tone = statusTone[status];
      const label = statusLabel[status];
      // Anything but 1–4 (Canceled included) reads 'N/D', as the spec's table does.
      if (!tone || !label) return <Missing />;
      // The enum name the server sends beside the number ('Active', …), on hover.
      const name = getPath(row, `${column.key}Name`);
      const badge = (
        <span className={`badge ${tone}`} title={typeof name === 'string' && name ? name : undefined}>
          {label}
        </span>
      );
      // Issue 29: collection is a state of the payment, shown beside the status, never instead.
      if (!hasOverduePayment(row)) return badge;
      return (
        <span className="inline-flex flex-wrap items-center justify-end gap-1">
          {badge}
          <OverdueMarker />
        </span>
      );
    }
    default: {
      const text = formatText(value);
      return text === NOT_AVAILABLE ? <Missing /> : <>{text}</>;
    }
  }
}
