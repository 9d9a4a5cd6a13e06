import { subscriptionStatusLabels, isSubscriptionStatusId } from '../../../contract/subscription-status';
import { statusTone } from '../../components/cell-value';
import { NOT_AVAILABLE } from '../../lib/formatters';

/**
 * The status badge outside tables (detail page, history): the table's colours, and a grey badge
 * with its Italian label for Canceled (tables show 'N/D' for it, spec §4).
 */
export function SubscriptionStatusBadge({
  status,
  name,
}: {
  status: number | null | undefined;
  name?: string | null;
}) {
  if (!isSubscriptionStatusId(status)) return <span className="text-slate-500">{NOT_AVAILABLE}</span>;
  const tone = statusTone[status] ?? 'bg-slate-100 text-slate-600 ring-1 ring-inset ring-slate-500/20';
  return (
    <span className={`badge ${tone}`} title={name ?? undefined}>
      {subscriptionStatusLabels[status]}
    </span>
  );
}
