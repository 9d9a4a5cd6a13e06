import { useId, useState } from 'react';
import { periodEndAfter } from '../../../contract/billing-dates';
import { SubscriptionStatus } from '../../../contract/enums';
import {
  PAUSE_ENTITLEMENTS,
  PAUSE_MAX_PERIODS,
  pauseEntitlementLabels,
  pauseIsActive,
  type PauseEntitlements,
} from '../../../contract/schemas/pause';
import type { Subscription } from '../../../contract/schemas/subscription';
import { ClockIcon, UndoIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { formatDate } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import { usePauseSubscription, useResumeSubscription } from './api/pause-subscription';
import { splitFieldErrors } from '../../lib/form-errors';
import { pauseText as t } from './pause-text';

/** The next billing date after `periods` paused periods (the server's computation, shown before confirming). */
export function pausedUntil(
  sub: Pick<Subscription, 'startDate' | 'nextBillingDate' | 'plan'>,
  periods: number,
) {
  const start = new Date(sub.startDate);
  const months = sub.plan.recurrenceType;
  let end = new Date(sub.nextBillingDate);
  for (let i = 0; i < periods; i++) end = periodEndAfter(start, months, end);
  return end;
}

/**
 * 'Incasso' on the subscription page (issue 30): 'Sospendi incasso' for 1–12 periods with the
 * entitlements kept or suspended, and while paused the range and 'Riprendi ora'.
 */
export function PauseCollectionCard({ sub, canManage }: { sub: Subscription; canManage: boolean }) {
  const [dialog, setDialog] = useState<'pause' | 'resume' | null>(null);
  const pause = sub.pause ?? null;
  const live =
    sub.subscriptionStatus === SubscriptionStatus.Active ||
    sub.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;
  if (!pause && !live) return null;
  const active = pause ? pauseIsActive(pause, new Date()) : false;
  return (
    <section className="card p-5" aria-labelledby="pause-collection-title">
      <h2 id="pause-collection-title" className="text-base font-semibold text-slate-900">
        {t.sectionTitle}
      </h2>
      {pause ? (
        <div
          className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          role="status"
        >
          <p className="flex items-center gap-1.5 font-semibold">
            <ClockIcon />
            {active ? t.pausedTitle : t.scheduledTitle}
          </p>
          <p className="mt-1">{t.pausedRange(formatDate(pause.from), formatDate(pause.until))}</p>
          <p className="mt-0.5">{t.entitlementsLine(pauseEntitlementLabels[pause.entitlements])}</p>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-500">{t.intro}</p>
      )}
      {canManage && (
        <div className="mt-3 flex flex-col gap-2">
          {pause ? (
            <button type="button" className="btn-primary justify-start" onClick={() => setDialog('resume')}>
              <UndoIcon />
              {t.resume}
            </button>
          ) : (
            <button type="button" className="btn-secondary justify-start" onClick={() => setDialog('pause')}>
              <ClockIcon />
              {t.pause}
            </button>
          )}
        </div>
      )}
      {dialog === 'pause' && <PauseDialog sub={sub} onClose={() => setDialog(null)} />}
      {dialog === 'resume' && <ResumeDialog sub={sub} onClose={() => setDialog(null)} />}
    </section>
  );
}

export function PauseDialog({ sub, onClose }: { sub: Subscription; onClose: () => void }) {
  const periodsId = useId();
  const [periods, setPeriods] = useState(1);
  const [entitlements, setEntitlements] = useState<PauseEntitlements>('keep');
  const [errors, setErrors] = useState<{ periods?: string; entitlements?: string; general: string[] }>({
    general: [],
  });
  const mutation = usePauseSubscription();
  const until = pausedUntil(sub, periods);

  async function confirm() {
    setErrors({ general: [] });
    try {
      const done = await mutation.mutateAsync({ id: sub.id, periods, entitlements });
      notify.success(t.paused(formatDate(done?.until ?? until.toISOString())));
      onClose();
    } catch (error) {
      // Toasted once by the query client; the server's field errors go on their fields.
      const split = splitFieldErrors(error, ['periods', 'entitlements'] as const);
      setErrors({ ...split.fields, general: split.general });
    }
  }

  return (
    <Modal
      title={t.dialogTitle}
      description={t.dialogIntro}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={mutation.isPending}
            onClick={() => void confirm()}
          >
            {t.confirmPause}
          </button>
        </>
      }
    >
      <div className="space-y-5">
        <div>
          <label htmlFor={periodsId} className="label">
            {t.periods}
          </label>
          <select
            id={periodsId}
            className="input"
            value={periods}
            aria-invalid={errors.periods ? true : undefined}
            onChange={(e) => setPeriods(Number(e.target.value))}
          >
            {Array.from({ length: PAUSE_MAX_PERIODS }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {t.periodOption(n)}
              </option>
            ))}
          </select>
          {errors.periods && <p className="mt-1 text-sm text-red-600">{errors.periods}</p>}
        </div>
        <fieldset>
          <legend className="label">{t.entitlements}</legend>
          <div className="grid gap-2 sm:grid-cols-2" role="radiogroup" aria-label={t.entitlements}>
            {PAUSE_ENTITLEMENTS.map((value) => (
              <label
                key={value}
                className={`flex min-h-12 cursor-pointer flex-col justify-center rounded-lg border px-3 py-2 text-sm ${
                  entitlements === value
                    ? 'border-blue-600 bg-blue-50 text-blue-900'
                    : 'border-slate-300 bg-white text-slate-700'
                }`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name="entitlements"
                  value={value}
                  checked={entitlements === value}
                  onChange={() => setEntitlements(value)}
                />
                <span className="font-medium">{value === 'keep' ? t.keep : t.suspend}</span>
                <span className={`text-xs ${entitlements === value ? 'text-blue-800' : 'text-slate-600'}`}>
                  {value === 'keep' ? t.keepHint : t.suspendHint}
                </span>
              </label>
            ))}
          </div>
          {errors.entitlements && <p className="mt-1 text-sm text-red-600">{errors.entitlements}</p>}
        </fieldset>
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700" aria-live="polite">
          {t.preview(formatDate(sub.nextBillingDate), formatDate(until.toISOString()))}
        </p>
        {errors.general.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {errors.general.map((g) => (
              <p key={g}>{g}</p>
            ))}
          </div>
        )}
      </div>
    </Modal>
  );
}

export function ResumeDialog({ sub, onClose }: { sub: Subscription; onClose: () => void }) {
  const mutation = useResumeSubscription();
  async function confirm() {
    try {
      const done = await mutation.mutateAsync(sub.id);
      notify.success(t.resumed(formatDate(done?.nextBillingDate ?? sub.nextBillingDate)));
      onClose();
    } catch {
      // Toasted once by the query client.
    }
  }
  return (
    <Modal
      title={t.resumeTitle}
      description={t.resumeIntro}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={mutation.isPending}
            onClick={() => void confirm()}
          >
            {t.resume}
          </button>
        </>
      }
    >
      {sub.pause && (
        <p className="text-sm text-slate-700">
          {t.pausedRange(formatDate(sub.pause.from), formatDate(sub.pause.until))}
        </p>
      )}
    </Modal>
  );
}
