import { useId } from 'react';
import { messages } from '../../../contract/messages';
import { CheckIcon, SpinnerIcon } from './icons';
import { ctaPrimary } from './styles';
import { useContactForm } from './use-contact-form';

const optInLabel =
  'Acconsento al trattamento dei dati personali secondo l’informativa privacy e ad essere ricontattato.';

/** The hero's contact form (spec §3 'Contact form'); logic lives in useContactForm. */
export function ContactForm() {
  const { register, fieldErrors: errors, isSubmitting, status, onSubmit } = useContactForm();
  const id = useId();
  const ids = {
    email: `${id}-email`,
    emailError: `${id}-email-error`,
    message: `${id}-message`,
    messageError: `${id}-message-error`,
    optIn: `${id}-optin`,
    optInError: `${id}-optin-error`,
    title: `${id}-title`,
  };

  return (
    <div className="relative w-full max-w-[540px]">
      <div
        aria-hidden="true"
        className="absolute -inset-px rounded-2xl bg-gradient-to-br from-brand-sky via-brand-blue to-brand-indigo opacity-70 blur-[2px]"
      />
      <div className="relative rounded-2xl bg-white p-6 shadow-xl shadow-blue-900/10 sm:p-8">
        <h2 id={ids.title} className="text-xl font-semibold tracking-tight text-slate-900">
          Parliamo dei tuoi abbonamenti
        </h2>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-600">
          Raccontaci cosa vendi e come incassi oggi: ti rispondiamo via e-mail con i passi per partire.
        </p>

        <form className="mt-6 flex flex-col gap-5" aria-labelledby={ids.title} noValidate onSubmit={onSubmit}>
          <div>
            <label htmlFor={ids.email} className="label">
              Email
            </label>
            <input
              id={ids.email}
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder="nome@azienda.it"
              className={`input placeholder:text-slate-500! ${errors.EMAIL ? 'input-error' : ''}`}
              aria-required="true"
              aria-invalid={errors.EMAIL ? 'true' : 'false'}
              aria-describedby={errors.EMAIL ? ids.emailError : undefined}
              {...register('EMAIL')}
            />
            {errors.EMAIL && (
              <p id={ids.emailError} className="field-error">
                {errors.EMAIL}
              </p>
            )}
          </div>

          <div>
            <label htmlFor={ids.message} className="label">
              Messaggio
            </label>
            <textarea
              id={ids.message}
              rows={4}
              placeholder="Es. vendo consulenze mensili e vorrei incassarle con PayPal e bonifico."
              className={`input resize-y placeholder:text-slate-500! ${errors.MESSAGGIO ? 'input-error' : ''}`}
              aria-required="true"
              aria-invalid={errors.MESSAGGIO ? 'true' : 'false'}
              aria-describedby={errors.MESSAGGIO ? ids.messageError : undefined}
              {...register('MESSAGGIO')}
            />
            {errors.MESSAGGIO && (
              <p id={ids.messageError} className="field-error">
                {errors.MESSAGGIO}
              </p>
            )}
          </div>

          <div>
            <div className="flex items-start gap-3">
              <input
                id={ids.optIn}
                type="checkbox"
                value="1"
                className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-blue"
                aria-required="true"
                aria-invalid={errors.OPT_IN ? 'true' : 'false'}
                aria-describedby={errors.OPT_IN ? ids.optInError : undefined}
                {...register('OPT_IN')}
              />
              <label htmlFor={ids.optIn} className="text-sm leading-snug text-slate-600">
                {optInLabel}
              </label>
            </div>
            {errors.OPT_IN && (
              <p id={ids.optInError} className="field-error pl-7">
                {errors.OPT_IN}
              </p>
            )}
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
