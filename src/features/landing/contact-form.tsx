import { useId } from 'react';
import { messages } from '../../../contract/messages';
import { FieldError, FieldShell, inputClass, useFieldControl } from '../../components/fields/field-shell';
import { CheckIcon, SpinnerIcon } from '../../components/icons';
import { ctaPrimary } from './styles';
import { useContactForm } from './use-contact-form';

const optInLabel =
  'Acconsento al trattamento dei dati personali secondo l’informativa privacy e ad essere ricontattato.';

/** The hero's contact form (spec §3 'Contact form'); logic lives in useContactForm. */
export function ContactForm() {
  const { register, fieldErrors: errors, isSubmitting, status, onSubmit } = useContactForm();
  const titleId = useId();
  const optIn = useFieldControl(errors.OPT_IN);

  return (
    <div className="relative w-full max-w-[540px]">
      <div
        aria-hidden="true"
        className="absolute -inset-px rounded-2xl bg-gradient-to-br from-brand-sky via-brand-blue to-brand-indigo opacity-70 blur-[2px]"
      />
      <div className="relative rounded-2xl bg-white p-6 shadow-xl shadow-blue-900/10 sm:p-8">
        <h2 id={titleId} className="text-xl font-semibold tracking-tight text-slate-900">
          Parliamo dei tuoi abbonamenti
        </h2>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-600">
          Raccontaci cosa vendi e come incassi oggi: ti rispondiamo via e-mail con i passi per partire.
        </p>

        <form className="mt-6 flex flex-col gap-5" aria-labelledby={titleId} noValidate onSubmit={onSubmit}>
          <FieldShell label="Email" error={errors.EMAIL}>
            {(control) => (
              <input
                {...control}
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder="nome@azienda.it"
                className={inputClass(errors.EMAIL, 'placeholder:text-slate-500!')}
                aria-required="true"
                {...register('EMAIL')}
              />
            )}
          </FieldShell>

          <FieldShell label="Messaggio" error={errors.MESSAGGIO}>
            {(control) => (
              <textarea
                {...control}
                rows={4}
                placeholder="Es. vendo consulenze mensili e vorrei incassarle con PayPal e bonifico."
                className={inputClass(errors.MESSAGGIO, 'resize-y placeholder:text-slate-500!')}
                aria-required="true"
                {...register('MESSAGGIO')}
              />
            )}
          </FieldShell>

          <div>
            <div className="flex items-start gap-3">
              <input
                {...optIn.control}
                type="checkbox"
                value="1"
                className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-blue"
                aria-required="true"
                {...register('OPT_IN')}
              />
              <label htmlFor={optIn.control.id} className="text-sm leading-snug text-slate-600">
                {optInLabel}
              </label>
            </div>
            <FieldError id={optIn.errorId} message={errors.OPT_IN} className="pl-7" />
          </div>

          {/* Honeypot: people never see or reach it; bots that fill it are dropped by the server. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <input
              type="text"
              tabIndex={-1}
              autoComplete="off"
              aria-hidden="true"
              {...register('email_address_check')}
            />
          </div>
          <input type="hidden" {...register('locale')} />

          {status.state === 'error' && (
            <div
              role="alert"
              className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
            >
              <p className="font-medium">{messages.contact.error}</p>
              {status.reason === 'rate-limited' && (
                <p className="mt-1">
                  Hai inviato diversi messaggi in poco tempo: riprova tra qualche minuto.
                </p>
              )}
            </div>
          )}

          <div role="status" aria-live="polite" className="-mt-5 [&:not(:empty)]:mt-0">
            {status.state === 'sent' && (
              <p className="flex items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800">
                <CheckIcon className="size-4 shrink-0" />
                {messages.contact.success}
              </p>
            )}
          </div>

          <button type="submit" className={`${ctaPrimary} w-full py-2.5`} disabled={isSubmitting}>
            {isSubmitting && <SpinnerIcon className="size-4 animate-spin" />}
            {isSubmitting ? 'Invio in corso…' : 'Invia messaggio'}
          </button>
        </form>
      </div>
    </div>
  );
}
