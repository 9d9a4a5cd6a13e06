/**
 * /collection/settings 'Solleciti' (Admin, issue 29): the tenant's ladder (the reminders' days,
 * the grace end, the final action) edited with the contract's `ladderSchema` (its Italian
 * messages on the fields, nothing sent while it fails), beside a live preview of what happens
 * to an unpaid payment and of the reminder e-mail.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import {
  useFieldArray,
  useForm,
  useWatch,
  type FieldErrors,
  type Resolver,
  type ResolverResult,
} from 'react-hook-form';
import {
  DEFAULT_LADDER,
  ladderSchema,
  MAX_LADDER_DAY,
  type Ladder,
} from '../../../contract/schemas/collection';
import { FieldError, FieldShell, inputClass } from '../../components/fields/field-shell';
import { ArrowLeftIcon, PlusIcon, ResetIcon, TrashIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { serverFieldErrors } from '../../lib/entity-hooks';
import { failureMessage } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useLadder } from './api/collection-queries';
import { useSaveLadder } from './api/save-ladder';
import { collectionText } from './collection-text';
import { LadderPreview } from './ladder-preview';

const t = collectionText.ladder;
const MAX_STEPS = 8;

interface Values {
  steps: { day: number }[];
  graceDays: number;
  finalDay: number;
}

const toValues = (l: Pick<Ladder, 'steps' | 'graceDays' | 'finalDay'>): Values => ({
  steps: l.steps.map((day) => ({ day })),
  graceDays: l.graceDays,
  finalDay: l.finalDay,
});

/** A box left empty or unreadable (NaN) reads as a value out of range, so its field says why in Italian. */
const orOut = (n: number, out: number) => (Number.isFinite(n) ? n : out);

export function toLadder(v: Values): Ladder {
  return {
    steps: v.steps.map((s) => orOut(s.day, -1)),
    graceDays: orOut(v.graceDays, -1),
    finalDay: orOut(v.finalDay, 0),
  };
}

const schemaResolver = zodResolver(ladderSchema) as unknown as Resolver<Ladder, unknown, Ladder>;

/**
 * `ladderSchema` on the form's values: the steps' errors moved to their boxes (`steps.i.day`) and
 * the list's own (none, out of order) to `steps.root`.
 */
const resolver: Resolver<Values, unknown, Ladder> = async (values, context, options) => {
  const result = (await schemaResolver(
    toLadder(values),
    context,
    options as never,
  )) as ResolverResult<Ladder>;
  if (Object.keys(result.errors).length === 0) return result as ResolverResult<Values, Ladder>;
  const { steps, ...rest } = result.errors as Record<string, unknown>;
  const errors: Record<string, unknown> = { ...rest };
  if (steps && typeof steps === 'object') {
    type Issue = { message?: string; type?: string };
    const s = steps as Record<string, unknown> & Issue;
    const mapped: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s))
      if (/^\d+$/.test(key) && value && typeof value === 'object') {
        const issue = value as Issue;
        mapped[key] = { day: { type: issue.type ?? 'custom', message: issue.message } };
      }
    // zodResolver puts a field array's own error at `root` (or on the array when it has no boxes).
    const root = (s.root as Issue | undefined) ?? s;
    if (typeof root.message === 'string')
      mapped.root = { type: root.type ?? 'custom', message: root.message };
    errors.steps = mapped;
  }
  return { values: {}, errors: errors as FieldErrors<Values> };
};

function NumberBox({
  label,
  hint,
  error,
  registration,
}: {
  label: string;
  hint: string;
  error?: string;
  registration: ReturnType<ReturnType<typeof useForm<Values, unknown, Ladder>>['register']>;
}) {
  return (
    <FieldShell label={label} hint={hint} error={error} required>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_LADDER_DAY}
          className={inputClass(error, 'w-32 tabular-nums')}
          {...registration}
        />
      )}
    </FieldShell>
  );
}

function LadderForm({ ladder }: { ladder: Ladder }) {
  const save = useSaveLadder();
  const form = useForm<Values, unknown, Ladder>({ defaultValues: toValues(ladder), resolver });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const watched = useWatch({ control: form.control });
  const { errors } = form.formState;
  const stepsError = errors.steps?.root?.message ?? errors.steps?.message;

  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => form.reset(toValues(body)),
      onError: (error) => {
        const { fields } = serverFieldErrors(error);
        let shown = false;
        for (const [key, message] of Object.entries(fields)) {
          const name = key === 'steps' ? 'steps.root' : /^steps\.\d+$/.test(key) ? `${key}.day` : key;
          if (
            name === 'steps.root' ||
            name === 'graceDays' ||
            name === 'finalDay' ||
            /^steps\.\d+\.day$/.test(name)
          ) {
            form.setError(name as 'graceDays', { type: 'server', message });
            shown = true;
          }
        }
        if (!shown) notify.error(failureMessage(error, t.saveFailed));
      },
    }),
  );

  const addStep = () => {
    const days = form
      .getValues('steps')
      .map((s) => s.day)
      .filter(Number.isFinite);
    const last = days.length > 0 ? Math.max(...days) : -1;
    steps.append({ day: Math.min(MAX_LADDER_DAY, last + 7) }, { shouldFocus: true });
  };

  const draft = {
    steps: (watched.steps ?? []).map((s) => (typeof s?.day === 'number' ? s.day : NaN)),
    graceDays:
      typeof watched.graceDays === 'number' && Number.isFinite(watched.graceDays) ? watched.graceDays : null,
    finalDay:
      typeof watched.finalDay === 'number' && Number.isFinite(watched.finalDay) ? watched.finalDay : null,
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form noValidate onSubmit={(e) => void submit(e)} className="card space-y-5 p-4 sm:p-5">
        <fieldset aria-describedby="ladder-steps-hint">
          <legend className="text-sm font-semibold text-slate-900">{t.stepsLegend}</legend>
          <p id="ladder-steps-hint" className="mt-0.5 text-xs text-slate-500">
            {t.stepsHint}
          </p>
          <ol className="mt-3 space-y-2">
            {steps.fields.map((field, i) => {
              const error = errors.steps?.[i]?.day?.message;
              const id = `ladder-step-${field.id}`;
              return (
                <li key={field.id}>
                  <div className="flex items-center gap-2">
                    <label htmlFor={id} className="w-40 shrink-0 text-sm text-slate-700">
                      {t.stepLabel(i)}
                    </label>
                    <input
                      id={id}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={MAX_LADDER_DAY}
                      aria-invalid={Boolean(error || stepsError)}
                      aria-describedby={
                        [error ? `${id}-error` : '', stepsError ? 'ladder-steps-error' : '']
                          .filter(Boolean)
                          .join(' ') || undefined
                      }
                      className={inputClass(error, 'w-24 tabular-nums')}
                      {...form.register(`steps.${i}.day`, { valueAsNumber: true })}
                    />
                    <button
                      type="button"
                      className="icon-btn hover:bg-red-50 hover:text-red-600"
                      aria-label={t.removeStep(i)}
                      title={t.removeStep(i)}
                      disabled={steps.fields.length <= 1}
                      onClick={() => steps.remove(i)}
                    >
                      <TrashIcon className="h-4 w-4" />
                    </button>
                  </div>
                  <FieldError id={`${id}-error`} message={error} />
                </li>
              );
            })}
          </ol>
          <FieldError id="ladder-steps-error" message={stepsError} />
          <button
            type="button"
            className="btn-secondary mt-3"
            disabled={steps.fields.length >= MAX_STEPS}
            onClick={addStep}
          >
            <PlusIcon className="h-4 w-4" />
            {t.addStep}
          </button>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberBox
            label={t.graceDays}
            hint={t.graceHint}
            error={errors.graceDays?.message}
            registration={form.register('graceDays', { valueAsNumber: true })}
          />
          <NumberBox
            label={t.finalDay}
            hint={t.finalHint}
            error={errors.finalDay?.message}
            registration={form.register('finalDay', { valueAsNumber: true })}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-between">
          <button
            type="button"
            className="btn-ghost"
            onClick={() =>
              form.reset(toValues({ ...DEFAULT_LADDER, steps: [...DEFAULT_LADDER.steps] }), {
                keepDefaultValues: true,
              })
            }
          >
            <ResetIcon className="h-4 w-4" />
            {t.reset}
          </button>
          <button type="submit" className="btn-primary" disabled={save.isPending}>
            {save.isPending ? t.saving : t.save}
          </button>
        </div>
      </form>
      <LadderPreview draft={draft} />
    </div>
  );
}

export default function LadderPage() {
  const ladder = useLadder();
  return (
    <div className="mx-auto w-full max-w-7xl space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="page-title">{t.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-500">{t.intro}</p>
        </div>
        <Link to="/collection" className="btn-secondary">
          <ArrowLeftIcon className="h-4 w-4" />
          {collectionText.overdue.title}
        </Link>
      </header>
      {ladder.isPending ? (
        <PageSpinner />
      ) : ladder.data ? (
        <LadderForm ladder={ladder.data} />
      ) : (
        <p role="alert" className="card px-6 py-5 text-sm text-red-700">
          {failureMessage(ladder.error, t.loadError)}
        </p>
      )}
    </div>
  );
}
