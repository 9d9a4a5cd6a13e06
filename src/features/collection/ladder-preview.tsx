/**
 * The live preview of 'Solleciti': the timeline from the due date (each reminder, the grace end,
 * the final action). It draws whatever the form holds, valid or not (days that cannot be read are
 * left out). The e-mails' own previews are the server's, beside each text (email-editor.tsx).
 */
import { useId } from 'react';
import { BellIcon, ClockIcon, BanIcon, WalletIcon } from '../../components/icons';
import { collectionText } from './collection-text';

const t = collectionText.ladder;

export interface LadderDraft {
  steps: readonly number[];
  graceDays: number | null;
  finalDay: number | null;
}

type Point =
  | { kind: 'due'; day: 0 }
  | { kind: 'reminder'; day: number; index: number }
  | { kind: 'grace'; day: number }
  | { kind: 'final'; day: number };

const order: Record<Point['kind'], number> = { due: 0, reminder: 1, grace: 2, final: 3 };

/** The timeline's points, by day (on one day: due, reminders, grace end, final action). */
export function timelineOf(draft: LadderDraft): Point[] {
  const points: Point[] = [{ kind: 'due', day: 0 }];
  draft.steps.forEach((day, index) => {
    if (Number.isInteger(day) && day >= 0) points.push({ kind: 'reminder', day, index });
  });
  if (draft.graceDays !== null && Number.isInteger(draft.graceDays) && draft.graceDays >= 0)
    points.push({ kind: 'grace', day: draft.graceDays });
  if (draft.finalDay !== null && Number.isInteger(draft.finalDay) && draft.finalDay > 0)
    points.push({ kind: 'final', day: draft.finalDay });
  return points.sort((a, b) => a.day - b.day || order[a.kind] - order[b.kind]);
}

function pointText(p: Point): string {
  switch (p.kind) {
    case 'due':
      return t.dueDay;
    case 'reminder':
      return t.reminder(p.index);
    case 'grace':
      return t.graceEnd(p.day);
    case 'final':
      return t.finalAction(p.day);
  }
}

function PointIcon({ kind }: { kind: Point['kind'] }) {
  const tone =
    kind === 'final'
      ? 'bg-red-100 text-red-700'
      : kind === 'grace'
        ? 'bg-amber-100 text-amber-800'
        : kind === 'due'
          ? 'bg-slate-100 text-slate-700'
          : 'bg-blue-100 text-brand-ink';
  const icon =
    kind === 'final' ? (
      <BanIcon className="h-4 w-4" />
    ) : kind === 'grace' ? (
      <ClockIcon className="h-4 w-4" />
    ) : kind === 'due' ? (
      <WalletIcon className="h-4 w-4" />
    ) : (
      <BellIcon className="h-4 w-4" />
    );
  return (
    <span
      aria-hidden="true"
      className={`relative z-10 flex h-8 w-8 shrink-0 items-center justify-center rounded-full ring-4 ring-white ${tone}`}
    >
      {icon}
    </span>
  );
}

function Timeline({ draft }: { draft: LadderDraft }) {
  const points = timelineOf(draft);
  return (
    <ol aria-label={t.timelineLabel} className="relative space-y-4">
      <span aria-hidden="true" className="absolute top-4 bottom-4 left-4 w-px bg-slate-200" />
      {points.map((p, i) => (
        <li key={`${p.kind}-${i}`} className="relative flex items-start gap-3">
          <PointIcon kind={p.kind} />
          <div className="min-w-0 pt-1">
            <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase tabular-nums">
              {t.day(p.day)}
            </p>
            <p className={`text-sm ${p.kind === 'final' ? 'font-medium text-red-700' : 'text-slate-800'}`}>
              {pointText(p)}
            </p>
            {p.kind === 'final' && <p className="text-xs text-slate-500">{t.finalActionHint}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}

export function LadderPreview({ draft }: { draft: LadderDraft }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="card space-y-5 p-4 sm:p-5">
      <div>
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {t.previewTitle}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">{t.previewIntro}</p>
      </div>
      <Timeline draft={draft} />
    </section>
  );
}
