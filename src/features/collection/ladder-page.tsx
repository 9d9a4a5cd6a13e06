/**
 * /collection/settings 'Solleciti' (Admin, issue 29): the tenant's ladder (the reminders' days,
 * the grace end, the final action) and its e-mails (each step's and the final action's subject
 * and message, with the server's preview), edited with the contract's `collectionSettingsSchema`
 * (its Italian messages on the fields, nothing sent while it fails) and saved with one 'Salva',
 * beside a live timeline of what happens to an unpaid payment.
 */
import { Link } from 'react-router-dom';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import {
  DEFAULT_LADDER,
  MAX_LADDER_DAY,
  type CollectionSettings,
  type CollectionSettingsInput,
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
import { EmailEditor } from './email-editor';
import { defaultStepEmail, formFieldOf, ladderResolver, toValues, type LadderValues } from './ladder-form';
import { LadderPreview } from './ladder-preview';

const t = collectionText.ladder;
const MAX_STEPS = 8;

type Values = LadderValues;

function NumberBox({
  label,
  hint,
  error,
  registration,
}: {
  label: string;
  hint: string;
  error?: string;
  registration: ReturnType<ReturnType<typeof useForm<Values, unknown, CollectionSettingsInput>>['register']>;
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

const finiteOrNull = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);

function LadderForm({ settings }: { settings: CollectionSettings }) {
  const save = useSaveLadder();
  const form = useForm<Values, unknown, CollectionSettingsInput>({
    defaultValues: toValues(settings),
    resolver: ladderResolver,
  });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const watched = useWatch({ control: form.control });
  const { errors } = form.formState;
  const stepsError = errors.steps?.root?.message ?? errors.steps?.message;

  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (env) => form.reset(toValues(env?.data ?? body)),
      onError: (error) => {
        const { fields } = serverFieldErrors(error);
        let shown = false;
        for (const [key, message] of Object.entries(fields)) {
          const name = formFieldOf(key);
          if (name) {
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
    const day = Math.min(MAX_LADDER_DAY, last + 7);
    steps.append({ day, ...defaultStepEmail(day) }, { shouldFocus: true });
  };

  // The default days; each step keeps its text by position, a new one gets the default.
  const resetDays = () => {
    const current = form.getValues();
    form.reset(
      {
        ...current,
        steps: DEFAULT_LADDER.steps.map((day, i) => {
          const had = current.steps[i];
          return { day, ...(had ? { subject: had.subject, body: had.body } : defaultStepEmail(day)) };
        }),
        graceDays: DEFAULT_LADDER.graceDays,
        finalDay: DEFAULT_LADDER.finalDay,
      },
      { keepDefaultValues: true },
    );
  };

  const draft = {
    steps: (watched.steps ?? []).map((s) => (typeof s?.day === 'number' ? s.day : NaN)),
    graceDays: finiteOrNull(watched.graceDays),
    finalDay: finiteOrNull(watched.finalDay),
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="card space-y-5 p-4 sm:p-5">
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
        </div>
        <LadderPreview draft={draft} />
      </div>
      <section aria-labelledby="ladder-emails-title" className="card space-y-4 p-4 sm:p-5">
        <div>
          <h2 id="ladder-emails-title" className="text-base font-semibold text-slate-900">
            {collectionText.emails.title}
          </h2>
          <p className="mt-0.5 max-w-3xl text-sm text-slate-500">{collectionText.emails.intro}</p>
        </div>
        <ul className="space-y-3">
          {steps.fields.map((field, i) => {
            const day = finiteOrNull(watched.steps?.[i]?.day);
            return (
              <EmailEditor
                key={field.id}
                form={form}
                name={`steps.${i}`}
                title={collectionText.emails.stepTitle(i, day)}
                day={day}
                graceDays={draft.graceDays}
              />
            );
          })}
          <EmailEditor
            form={form}
            name="final"
            title={collectionText.emails.finalTitle(draft.finalDay)}
            day={draft.finalDay}
            graceDays={draft.graceDays}
          />
        </ul>
      </section>
      <div className="card flex flex-col-reverse gap-2 p-4 sm:flex-row sm:justify-between sm:p-5">
        <button type="button" className="btn-ghost" onClick={resetDays}>
          <ResetIcon className="h-4 w-4" />
          {t.reset}
        </button>
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {save.isPending ? t.saving : t.save}
        </button>
      </div>
    </form>
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
        <LadderForm settings={ladder.data} />
      ) : (
        <p role="alert" className="card px-6 py-5 text-sm text-red-700">
          {failureMessage(ladder.error, t.loadError)}
        </p>
      )}
    </div>
  );
}
