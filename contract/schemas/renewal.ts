/**
 * 'Disattiva il rinnovo' of the customer area (issue 28): the reasons a customer picks, the body
 * of `POST api/user/me/subscriptions/{id}/cancelRenewal` and what the renewal calls answer.
 */
import { z } from 'zod';
import type { SubscriptionStatusId } from '../enums';

/** The reasons offered, as codes with their Italian labels (radio buttons, history, export). */
export const renewalStopReasons = {
  tooExpensive: 'Troppo costoso',
  notUsedEnough: 'Non lo uso abbastanza',
  switching: 'Passo a un altro servizio',
  technicalProblems: 'Problemi tecnici',
  other: 'Altro',
} as const;
export type RenewalStopReason = keyof typeof renewalStopReasons;
export const renewalStopReasonCodes = Object.keys(renewalStopReasons) as [
  RenewalStopReason,
  ...RenewalStopReason[],
];

export const RENEWAL_NOTE_MAX = 500;

export const renewalMessages = {
  reasonRequired: 'Scegli un motivo.',
  noteRequired: 'Con «Altro» scrivi il motivo in poche parole.',
  noteTooLong: `La nota può avere al massimo ${RENEWAL_NOTE_MAX} caratteri.`,
  /** 200 of cancelRenewal; `until` is the Rome date of the next billing date (dd/mm/yyyy). */
  stopped: (until: string) => `Rinnovo disattivato: l’abbonamento resta attivo fino al ${until}.`,
  resumed: 'Rinnovo riattivato: l’abbonamento si rinnoverà alla prossima scadenza.',
  /** 409: the subscription is not Active (nor already turned off by the customer). */
  notActive: 'Si può disattivare il rinnovo solo di un abbonamento attivo.',
  /**
   * 409: ActiveNoRenewal that renews neither at a provider nor by bank transfer (a period paid once
   * by link): there is no renewal to turn off or on.
   */
  notAutomatic:
    'Questo abbonamento non si rinnova da solo: per rinnovarlo usa il link di pagamento che ricevi per email.',
  /** 409: resume after the paid period ended (before the nightly job closed it). */
  periodOver:
    'Il periodo pagato è finito: il rinnovo non si può più riattivare. Contatta il venditore per un nuovo abbonamento.',
  /**
   * 409: resume of a card renewal whose next period's payment, asked by link, already used the
   * customer's residual credit (Stripe would charge the whole period and the credit be lost).
   */
  creditOnRenewalLink: (day: string) =>
    `Il pagamento del rinnovo dal ${day} è già stato chiesto con un link e usa il tuo credito residuo: pagalo con quel link; il rinnovo automatico si potrà riattivare dopo.`,
  /** 409: resume of a subscription that is neither Active nor turned off by its customer. */
  notResumable: 'Il rinnovo si può riattivare solo di un abbonamento ancora attivo.',
  /** History line and the Admin's e-mail subject. */
  stoppedByCustomer: 'Rinnovo disattivato dal cliente',
  resumedByCustomer: 'Rinnovo riattivato dal cliente',
} as const;

/** `{ reason, note? }`; 'altro' needs a note; the note is trimmed, '' is none, at most 500 characters. */
export const renewalStopInputSchema = z
  .object({
    reason: z.enum(renewalStopReasonCodes, { error: renewalMessages.reasonRequired }),
    note: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
      z
        .string({ error: renewalMessages.noteTooLong })
        .max(RENEWAL_NOTE_MAX, { message: renewalMessages.noteTooLong })
        .nullable()
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.reason === 'other' && !v.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: renewalMessages.noteRequired });
  });
export type RenewalStopInput = z.input<typeof renewalStopInputSchema>;
export type RenewalStopInputParsed = z.output<typeof renewalStopInputSchema>;

/** What the history records as the reason: 'Troppo costoso — la nota' (label alone without a note). */
export function renewalReasonText(reason: RenewalStopReason, note: string | null | undefined): string {
  const label = renewalStopReasons[reason];
  return note ? `${label} — ${note}` : label;
}

/**
 * The renewal of one of the caller's subscriptions:
 * - `on`: Active, renews by itself, or (issue 29) an ActiveNoRenewal that renews by bank transfer:
 *   its next period's instructions come by e-mail ('Disattiva il rinnovo');
 * - `stopped`: the customer turned it off; usable until `endsAt`, then it ends ('Riattiva il rinnovo'
 *   while `canResume`, i.e. before `endsAt`);
 * - `none`: nothing to turn off or on (not paid, cancelled, a period paid once by link).
 */
export interface OwnRenewal {
  subscriptionId: number;
  status: SubscriptionStatusId;
  renewal: 'on' | 'stopped' | 'none';
  /** The next billing date: the last day of use when `stopped`. */
  endsAt: string;
  stoppedAt: string | null;
  /** The reason as recorded ('Troppo costoso — la nota'), when `stopped`. */
  reason: string | null;
  canResume: boolean;
}
