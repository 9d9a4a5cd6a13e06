/**
 * 'Disattiva il rinnovo' on a subscription card of the customer home (issue 28). An Active
 * subscription that renews offers the button, which opens a dialog asking why (a short list and a
 * note; 'Altro' needs the note); once off, the card says until when it stays active and offers
 * 'Riattiva il rinnovo' until then. The server decides (GET api/user/me/subscriptions/renewal).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useId, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import {
  RENEWAL_NOTE_MAX,
  renewalStopInputSchema,
  renewalStopReasonCodes,
  renewalStopReasons,
  type RenewalStopInput,
} from '../../../contract/schemas/renewal';
import type { Subscription } from '../../../contract/schemas/subscription';
import { Modal } from '../../components/modal';
import { serverFieldErrors } from '../../lib/entity-hooks';
import { formatDate } from '../../lib/formatters';
import { useChangeRenewal, useOwnRenewals } from './api/renewal';

export const renewalText = {
  stop: 'Disattiva il rinnovo',
  resume: 'Riattiva il rinnovo',
  stoppedUntil: (date: string) => `Il rinnovo è disattivato: resta attivo fino al ${date}.`,
  dialogDescription: (plan: string, date: string) =>
    `${plan} resta attivo fino al ${date}; dopo non ti addebiteremo più nulla. Puoi riattivare il rinnovo fino a quel giorno.`,
  reasonLegend: 'Perché disattivi il rinnovo?',
  note: 'Vuoi dirci di più?',
  noteRequired: 'Raccontaci il motivo',
  noteHint: `Al massimo ${RENEWAL_NOTE_MAX} caratteri.`,
  cancel: 'Annulla',
  saving: 'Un momento…',
} as const;

type Values = { reason: RenewalStopInput['reason'] | ''; note: string };

function StopDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
  const change = useChangeRenewal();
  const noteId = useId();
  const form = useForm<Values>({
    defaultValues: { reason: '', note: '' },
    resolver: zodResolver(renewalStopInputSchema) as unknown as Resolver<Values>,
  });
  const reason = useWatch({ control: form.control, name: 'reason' });
  const { errors } = form.formState;
  const until = formatDate(s.nextBillingDate);

  const submit = form.handleSubmit((values) =>
    change.mutate(
      { kind: 'stop', id: s.id, body: values as RenewalStopInput },
      {
        onSuccess: onClose,
        onError: (error) => {
          for (const [key, message] of Object.entries(serverFieldErrors(error).fields))
            if (key === 'reason' || key === 'note')
              form.setError(key, { type: 'server', message }, { shouldFocus: true });
        },
      },
    ),
  );

  const formId = `renewal-stop-${s.id}`;
  return (
    <Modal
      title={renewalText.stop}
      description={renewalText.dialogDescription(s.plan.name, until)}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary min-h-11" onClick={onClose}>
            {renewalText.cancel}
          </button>
          <button type="submit" form={formId} className="btn-danger min-h-11" disabled={change.isPending}>
            {change.isPending ? renewalText.saving : renewalText.stop}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <fieldset
          aria-invalid={errors.reason ? 'true' : undefined}
          aria-describedby={errors.reason ? `${formId}-reason-error` : undefined}
        >
          <legend className="mb-2 text-sm font-medium text-slate-900">{renewalText.reasonLegend}</legend>
          <div className="space-y-1">
            {renewalStopReasonCodes.map((code) => (
              <label
                key={code}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 hover:bg-slate-50"
              >
                <input type="radio" value={code} className="h-4 w-4" {...form.register('reason')} />
                <span className="text-sm text-slate-800">{renewalStopReasons[code]}</span>
              </label>
            ))}
          </div>
          {errors.reason?.message && (
            <p id={`${formId}-reason-error`} role="alert" className="field-error">
              {errors.reason.message}
            </p>
          )}
        </fieldset>
        <div>
          <label htmlFor={noteId} className="label">
            {reason === 'other' ? renewalText.noteRequired : renewalText.note}
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={RENEWAL_NOTE_MAX}
            className={`input w-full ${errors.note ? 'input-error' : ''}`}
            aria-required={reason === 'other'}
            aria-invalid={errors.note ? 'true' : undefined}
            aria-describedby={`${noteId}-hint${errors.note ? ` ${noteId}-error` : ''}`}
            {...form.register('note')}
          />
          <p id={`${noteId}-hint`} className="mt-1 text-xs text-slate-500">
            {renewalText.noteHint}
          </p>
          {errors.note?.message && (
            <p id={`${noteId}-error`} role="alert" className="field-error">
              {errors.note.message}
            </p>
          )}
        </div>
      </form>
    </Modal>
  );
}

/** The renewal part of a subscription card: nothing when there is nothing to turn off or on. */
export function RenewalActions({ s }: { s: Subscription }) {
  const renewals = useOwnRenewals();
  const change = useChangeRenewal();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const r = renewals.data?.find((x) => x.subscriptionId === s.id);
  if (!r || r.renewal === 'none') return null;

  if (r.renewal === 'stopped')
    return (
      <div className="mt-3 space-y-2 border-t border-slate-100 pt-3">
        <p className="text-sm text-slate-700">{renewalText.stoppedUntil(formatDate(r.endsAt))}</p>
        {r.canResume && (
          <button
            type="button"
            className="btn-primary min-h-11 w-full sm:w-auto"
            disabled={change.isPending}
            onClick={() => change.mutate({ kind: 'resume', id: s.id })}
          >
            {renewalText.resume}
          </button>
        )}
      </div>
    );

  return (
    <div className="mt-3 border-t border-slate-100 pt-3">
      <button type="button" className="btn-secondary min-h-11 w-full sm:w-auto" onClick={() => setOpen(true)}>
        {renewalText.stop}
      </button>
      {open && <StopDialog s={s} onClose={close} />}
    </div>
  );
}
