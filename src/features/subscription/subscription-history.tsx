import type { SubscriptionHistoryEntry } from '../../../contract/schemas/subscription';
import { subscriptionEventLabels } from '../../../contract/subscription-status';
import { formatDateTime } from './billing-format';
import { SubscriptionStatusBadge } from './subscription-status-badge';
import { subscriptionText as t } from './subscription-text';

function actorName(actor: SubscriptionHistoryEntry['actor'] | null | undefined): string {
  if (!actor) return t.actors.system!;
  return actor.name || t.actors[actor.kind] || t.actors.system!;
}

/** The status history as a vertical timeline, oldest first (as the server sends it). */
export function SubscriptionHistory({ entries }: { entries: readonly SubscriptionHistoryEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">{t.historyEmpty}</p>;
  return (
    <ol aria-label={t.historyList} className="relative space-y-6 border-l-2 border-slate-200 pl-6">
      {entries.map((e, i) => {
        const last = i === entries.length - 1;
        return (
          <li key={e.id} className="relative">
            <span
              aria-hidden="true"
              className={`absolute top-1 -left-[31px] h-3.5 w-3.5 rounded-full ring-4 ring-white ${last ? 'bg-gradient-to-br from-sky-500 to-indigo-500' : 'bg-slate-300'}`}
            />
            <p className="text-sm font-semibold text-slate-900">
              {subscriptionEventLabels[e.event] ?? e.event}
            </p>
            <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
              {/* A change that moves no status (a plan change, a pause): its status once. */}
              {e.fromStatus !== null && e.fromStatus !== undefined && e.fromStatus !== e.toStatus && (
                <>
                  <SubscriptionStatusBadge status={e.fromStatus} />
                  <span aria-label="diventa" className="text-slate-500">
                    →
                  </span>
                </>
              )}
              <SubscriptionStatusBadge status={e.toStatus} />
            </div>
            <p className="mt-1 text-xs text-slate-500">
              <span>{actorName(e.actor)}</span>
              <span aria-hidden="true"> · </span>
              <time dateTime={e.at} className="tabular-nums">
                {formatDateTime(e.at)}
              </time>
            </p>
            {e.reason && (
              <p className="mt-1 text-sm text-slate-600">
                <span className="font-medium">{t.reason}</span> {e.reason}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
