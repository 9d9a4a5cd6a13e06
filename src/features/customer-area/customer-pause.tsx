/**
 * 'Sospendi per N periodi' / 'Riprendi ora' on a subscription card of the customer home (issue
 * 30), only where the tenant lets its customers pause (the server answers `allowed`) and the
 * subscription is live. The pause starts at the next billing date; nothing is charged and the
 * features are suspended in the paused periods (the server's rules; its refusals are toasts).
 */
import { useId, useState } from 'react';
import { SubscriptionStatus } from '../../../contract/enums';
import { PAUSE_MAX_PERIODS } from '../../../contract/schemas/pause';
import type { Subscription } from '../../../contract/schemas/subscription';
import { formatDate } from '../../lib/formatters';
import { useOwnPause, useOwnPauseAllowed } from './api/pause';

export function CustomerPause({ s }: { s: Subscription }) {
  const live =
    s.subscriptionStatus === SubscriptionStatus.Active ||
    s.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;
  const allowed = useOwnPauseAllowed(s.id, live);
  const act = useOwnPause(s.id);
  const [periods, setPeriods] = useState(1);
  const selectId = useId();
  if (!live || !allowed.data?.allowed) return null;
  const pause = s.pause ?? null;
  return (
    <div className="mt-3 border-t border-slate-100 pt-3" data-testid="area-pause">
      {pause ? (
        <>
          <p className="text-sm text-slate-700">
            Incasso sospeso dal {formatDate(pause.from)} al {formatDate(pause.until)}: nessun addebito e
            funzionalità sospese in questi periodi.
          </p>
          <button
            type="button"
            className="btn-secondary mt-2 min-h-11 w-full sm:w-auto"
            disabled={act.isPending}
            onClick={() => act.mutate(null)}
          >
            Riprendi ora
          </button>
        </>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor={selectId} className="label">
                Sospendi per
              </label>
              <select
                id={selectId}
                className="input min-h-11 w-auto"
                value={periods}
                onChange={(e) => setPeriods(Number(e.target.value))}
              >
                {Array.from({ length: PAUSE_MAX_PERIODS }, (_, i) => i + 1).map((n) => (
                  <option key={n} value={n}>
                    {n} {n === 1 ? 'periodo' : 'periodi'}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="btn-secondary min-h-11"
              disabled={act.isPending}
              onClick={() => act.mutate(periods)}
            >
              {`Sospendi per ${periods} ${periods === 1 ? 'periodo' : 'periodi'}`}
            </button>
          </div>
          <p className="mt-1 text-xs text-slate-500">
            Dal {formatDate(s.nextBillingDate)}: nessun addebito e funzionalità sospese; riprendi quando vuoi.
          </p>
        </>
      )}
    </div>
  );
}
