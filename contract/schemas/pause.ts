/**
 * Pause of collection (issue 30, 'Sospendi incasso'): `POST api/subscription/pause/{id}
 * {periods, entitlements}` and `POST api/subscription/resume/{id}` (Admin and SuperAdmin).
 *
 * The pause starts at the subscription's next billing date (the period in course stays paid and
 * usable) and lasts `periods` whole periods of the plan: no payment is due for them, and the next
 * billing date moves forward by them (the anchor dates of the subscription's start, Europe/Rome,
 * `periodEndAfter`: 31 Jan + 1 month paused from 28 Feb → 31 Mar). `entitlements` says what the
 * customer may use within the paused periods: 'keep' (mantenuti) or 'suspend' (sospesi).
 */
import { z } from 'zod';

export const PAUSE_MAX_PERIODS = 12;
export const PAUSE_ENTITLEMENTS = ['keep', 'suspend'] as const;
export type PauseEntitlements = (typeof PAUSE_ENTITLEMENTS)[number];

export const pauseEntitlementLabels: Record<PauseEntitlements, string> = {
  keep: 'Mantenute',
  suspend: 'Sospese',
};

export const pauseMessages = {
  periods: `Indica un numero di periodi da 1 a ${PAUSE_MAX_PERIODS}`,
  entitlements: 'Scegli se le funzionalità restano attive o sono sospese',
  notLive: 'Si può sospendere l’incasso solo di una sottoscrizione attiva.',
  alreadyPaused: (until: string) => `L’incasso è già sospeso fino al ${until}.`,
  unpaid: 'Il periodo in corso non è ancora pagato: sospendi l’incasso dopo il pagamento.',
  transferRecorded:
    'È già registrato un bonifico per il prossimo periodo: sospendi l’incasso dopo averlo gestito.',
  planChangeScheduled: 'C’è un cambio di piano programmato: l’incasso non si può sospendere.',
  /** A paused period's payment used the customer's credit, already given back at Stripe. */
  creditAtStripe:
    'Il pagamento del prossimo periodo ha già usato il credito del cliente presso Stripe: sospendi l’incasso dopo averlo incassato.',
  notPaused: 'L’incasso di questa sottoscrizione non è sospeso.',
  paused: (until: string) => `Incasso sospeso: il prossimo addebito è il ${until}.`,
  resumed: (next: string) => `Incasso ripreso: il prossimo addebito è il ${next}.`,
  /** The customer's own pause (issue 30) where the tenant does not allow it. */
  customerNotAllowed:
    'La sospensione dell’incasso dall’area clienti non è disponibile: contatta il fornitore per sospendere l’abbonamento.',
} as const;

export const pauseSchema = z.object({
  periods: z
    .number({ error: pauseMessages.periods })
    .int({ error: pauseMessages.periods })
    .min(1, { error: pauseMessages.periods })
    .max(PAUSE_MAX_PERIODS, { error: pauseMessages.periods }),
  entitlements: z.enum(PAUSE_ENTITLEMENTS, { error: pauseMessages.entitlements }),
});
export type PauseInput = z.infer<typeof pauseSchema>;

/** A subscription's pause of collection as the calls answer it (null when not paused). */
export interface SubscriptionPause {
  /** The first paused period's start (the next billing date when it was paused), ISO. */
  from: string;
  /** The end of the last paused period: the next billing date, ISO. */
  until: string;
  periods: number;
  entitlements: PauseEntitlements;
}

/** Within [from, until) at `now`: the paused periods have begun. */
export function pauseIsActive(pause: SubscriptionPause, now: Date): boolean {
  return Date.parse(pause.from) <= now.getTime() && now.getTime() < Date.parse(pause.until);
}
