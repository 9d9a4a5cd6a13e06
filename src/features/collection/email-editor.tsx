/**
 * One of the ladder's e-mails on 'Solleciti' (issue 29): a collapsible card with its Oggetto and
 * Messaggio (part of the page's one form), the placeholders as chips that insert at the cursor,
 * 'Ripristina il testo predefinito', and the server's preview of the e-mail as the customer would
 * receive it (a sandboxed iframe, for a bank transfer or a card), asked again as the text changes.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { get, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  collectionEmailSchema,
  collectionPlaceholders,
  DEFAULT_FINAL_EMAIL,
  MAX_EMAIL_BODY,
  MAX_EMAIL_SUBJECT,
  type CollectionPreviewInput,
  type CollectionSettingsInput,
} from '../../../contract/schemas/collection';
import { FieldError, inputClass } from '../../components/fields/field-shell';
import { ChevronDownIcon, MailIcon, ResetIcon } from '../../components/icons';
import { useEmailPreview } from './api/email-preview';
import { collectionText } from './collection-text';
import { defaultStepEmail, isDefaultEmail, type LadderValues } from './ladder-form';

const t = collectionText.emails;

type Form = UseFormReturn<LadderValues, unknown, CollectionSettingsInput>;
type Which = 'subject' | 'body';

export interface EmailEditorProps {
  form: Form;
  /** The e-mail's place in the form: a step's (`steps.0`…) or the final action's. */
  name: `steps.${number}` | 'final';
  title: string;
  /** Its day after the due date and the grace end as the form holds them (null: not readable). */
  day: number | null;
  graceDays: number | null;
}

const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isInteger(n);

function PreviewPanel({
  name,
  title,
  subject,
  body,
  day,
  graceDays,
}: {
  name: EmailEditorProps['name'];
  title: string;
  subject: string;
  body: string;
  day: number | null;
  graceDays: number | null;
}) {
  const isFinal = name === 'final';
  const [method, setMethod] = useState<'bankTransfer' | 'card'>('bankTransfer');
  const valid = collectionEmailSchema.safeParse({ subject, body }).success;
  const standard = isDefaultEmail({ subject, body }, isFinal ? 'final' : 'reminder');
  const input: CollectionPreviewInput | null = valid
    ? {
        step: isFinal ? 'final' : Number(name.split('.')[1]),
        // Rinnova's text: empty, so the server words it for the day (as it will when sending).
        subject: standard ? '' : subject,
        body: standard ? '' : body,
        method,
        ...(finite(day) && day >= 0 ? { day } : {}),
        ...(finite(graceDays) && graceDays >= 0 ? { graceDays } : {}),
      }
    : null;
  const preview = useEmailPreview(input);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} aria-busy={preview.isFetching} className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="text-sm font-semibold text-slate-900">
          {t.preview}
        </h4>
        {!isFinal && (
          <div
            role="group"
            aria-label={t.previewMethod}
            className="inline-flex rounded-lg bg-slate-100 p-0.5"
          >
            {(
              [
                ['bankTransfer', t.transfer],
                ['card', t.card],
              ] as const
            ).map(([key, label]) => (
              <button
                key={key}
                type="button"
                aria-pressed={method === key}
                onClick={() => setMethod(key)}
                className={`rounded-md px-3 py-1 text-xs font-medium transition-colors ${
                  method === key ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
                }`}
              >
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
      <p className="text-xs text-slate-500">{t.previewSample}</p>
      {!valid ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-6 text-center text-sm text-slate-500">
          {t.previewInvalid}
        </p>
      ) : preview.data ? (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
          <p className="border-b border-slate-100 bg-slate-50 px-3 py-2 text-sm break-words text-slate-700">
            <span className="text-slate-500">{t.previewSubject}</span>{' '}
            <span className="font-medium text-slate-900" data-testid="preview-subject">
              {preview.data.subject}
            </span>
          </p>
          <iframe
            title={t.previewFrame(title)}
            sandbox=""
            srcDoc={preview.data.html}
            className={`block h-[26rem] w-full bg-white transition-opacity ${preview.isFetching ? 'opacity-60' : ''}`}
          />
        </div>
      ) : preview.isError ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-4 text-sm text-red-700">
          {t.previewFailed}
        </p>
      ) : (
        <p className="rounded-lg border border-slate-200 px-3 py-6 text-center text-sm text-slate-500">
          {t.previewLoading}
        </p>
      )}
    </section>
  );
}

export function EmailEditor({ form, name, title, day, graceDays }: EmailEditorProps) {
  const isFinal = name === 'final';
  const [open, setOpen] = useState(false);
  const id = useId();
  const subjectPath = `${name}.subject` as const;
  const bodyPath = `${name}.body` as const;
  const [subject = '', body = ''] = useWatch({ control: form.control, name: [subjectPath, bodyPath] });
  const errors = form.formState.errors;
  const subjectError = (get(errors, subjectPath) as { message?: string } | undefined)?.message;
  const bodyError = (get(errors, bodyPath) as { message?: string } | undefined)?.message;
  // A card whose text is in error opens, so the error is seen.
  const shown = open || Boolean(subjectError || bodyError);
  const standard = isDefaultEmail({ subject, body }, isFinal ? 'final' : 'reminder');

  // A step's default follows its day ('scade oggi' on day 0, the days of delay after it).
  useEffect(() => {
    if (isFinal || day === null) return;
    const current = { subject: form.getValues(subjectPath) ?? '', body: form.getValues(bodyPath) ?? '' };
    if (current.subject.trim() === '' && current.body.trim() === '') return;
    if (!isDefaultEmail(current, 'reminder')) return;
    const wanted = defaultStepEmail(day);
    if (current.subject === wanted.subject && current.body === wanted.body) return;
    form.setValue(subjectPath, wanted.subject);
    form.setValue(bodyPath, wanted.body);
  }, [day, isFinal, form, subjectPath, bodyPath]);

  const fields = useRef<Record<Which, HTMLInputElement | HTMLTextAreaElement | null>>({
    subject: null,
    body: null,
  });
  const lastFocused = useRef<Which | null>(null);
  const subjectReg = form.register(subjectPath);
  const bodyReg = form.register(bodyPath);
  const revalidate = () => form.formState.isSubmitted;

  const insert = (key: string) => {
    const which = lastFocused.current ?? 'body';
    const path = which === 'subject' ? subjectPath : bodyPath;
    const el = fields.current[which];
    const value = form.getValues(path) ?? '';
    const focused = lastFocused.current !== null && el !== null;
    const start = focused ? (el.selectionStart ?? value.length) : value.length;
    const end = focused ? (el.selectionEnd ?? start) : start;
    const token = `{${key}}`;
    form.setValue(path, value.slice(0, start) + token + value.slice(end), {
      shouldDirty: true,
      shouldValidate: revalidate(),
    });
    if (el) {
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    }
    lastFocused.current = which;
  };

  const reset = () => {
    const text = isFinal ? DEFAULT_FINAL_EMAIL : defaultStepEmail(day ?? 1);
    form.setValue(subjectPath, text.subject, { shouldDirty: true });
    form.setValue(bodyPath, text.body, { shouldDirty: true });
    form.clearErrors([subjectPath, bodyPath]);
  };

  const panelId = `${id}-panel`;
  return (
    <li className="rounded-xl border border-slate-200 bg-white">
      <h3>
        <button
          type="button"
          aria-expanded={shown}
          aria-controls={panelId}
          onClick={() => setOpen(!shown)}
          className="flex w-full items-center gap-3 rounded-xl px-4 py-3 text-left hover:bg-slate-50"
        >
          <MailIcon className="h-4 w-4 shrink-0 text-slate-500" />
          <span className="min-w-0 flex-1 text-sm font-semibold text-slate-900">{title}</span>
          <span
            className={`hidden shrink-0 rounded-full px-2 py-0.5 text-xs font-medium sm:inline ${
              standard ? 'bg-slate-100 text-slate-600' : 'bg-blue-50 text-brand-ink'
            }`}
          >
            {standard ? t.standard : t.custom}
          </span>
          <ChevronDownIcon
            className={`h-4 w-4 shrink-0 text-slate-500 transition-transform ${shown ? 'rotate-180' : ''}`}
          />
        </button>
      </h3>
      <div id={panelId} hidden={!shown} className="border-t border-slate-100 px-4 pt-3 pb-4">
        <div className="grid gap-5 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="min-w-0 space-y-4">
            <p className="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">
              {isFinal ? t.fixedFinal : t.fixedReminder}
            </p>
            <div>
              <label htmlFor={`${id}-subject`} className="label">
                {t.subject}
              </label>
              <input
                id={`${id}-subject`}
                type="text"
                maxLength={MAX_EMAIL_SUBJECT + 50}
                aria-invalid={Boolean(subjectError)}
                aria-describedby={subjectError ? `${id}-subject-error` : undefined}
                className={inputClass(subjectError)}
                {...subjectReg}
                ref={(el) => {
                  subjectReg.ref(el);
                  fields.current.subject = el;
                }}
                onFocus={() => (lastFocused.current = 'subject')}
              />
              <FieldError id={`${id}-subject-error`} message={subjectError} />
            </div>
            <div>
              <label htmlFor={`${id}-body`} className="label">
                {t.body}
              </label>
              <textarea
                id={`${id}-body`}
                rows={8}
                maxLength={MAX_EMAIL_BODY + 200}
                aria-invalid={Boolean(bodyError)}
                aria-describedby={[bodyError ? `${id}-body-error` : '', `${id}-body-hint`].join(' ').trim()}
                className={inputClass(bodyError, 'min-h-40 resize-y leading-relaxed')}
                {...bodyReg}
                ref={(el) => {
                  bodyReg.ref(el);
                  fields.current.body = el;
                }}
                onFocus={() => (lastFocused.current = 'body')}
              />
              <p id={`${id}-body-hint`} className="mt-1 text-xs text-slate-500">
                {t.bodyHint}
              </p>
              <FieldError id={`${id}-body-error`} message={bodyError} />
            </div>
            <div>
              <p id={`${id}-chips`} className="text-xs font-medium text-slate-700">
                {t.placeholders}
                <span className="font-normal text-slate-500"> · {t.placeholdersHint}</span>
              </p>
              <div role="group" aria-labelledby={`${id}-chips`} className="mt-1.5 flex flex-wrap gap-1.5">
                {collectionPlaceholders.map((p) => (
                  <button
                    key={p.key}
                    type="button"
                    title={p.label}
                    aria-label={t.insert(p.key)}
                    // Keeps the cursor where it is in the field until the click inserts there.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => insert(p.key)}
                    className="rounded-full border border-slate-200 bg-slate-50 px-2.5 py-1 font-mono text-xs text-slate-700 hover:border-brand-blue hover:bg-blue-50 hover:text-brand-ink"
                  >
                    {`{${p.key}}`}
                  </button>
                ))}
              </div>
            </div>
            <button type="button" className="btn-ghost" onClick={reset} disabled={standard}>
              <ResetIcon className="h-4 w-4" />
              {t.reset}
            </button>
          </div>
          {shown && (
            <PreviewPanel
              name={name}
              title={title}
              subject={subject}
              body={body}
              day={day}
              graceDays={graceDays}
            />
          )}
        </div>
      </div>
    </li>
  );
}
