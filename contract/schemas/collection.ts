/**
 * Collection of payments (issue 29; api-contract 'Collection of payments'): a payment carries
 * `dueDate` and `collectionStatus` with its reminders; the subscription's five statuses stay. A
 * tenant's ladder ('Solleciti') says on which days after the due date the customer is reminded,
 * when the grace ends (the entitlement API answers `pastDue: true` until then) and when the
 * final action runs (the subscription → NotActive through the state machine, system actor). The
 * daily job is `dunning`. Amounts are euros (two decimals) on the wire, integer cents inside.
 */
import { z } from 'zod';

export const collectionStatusIds = ['due', 'overdue', 'recovered', 'exhausted'] as const;
export type CollectionStatus = (typeof collectionStatusIds)[number];
export const collectionStatusNames: Record<CollectionStatus, string> = {
  due: 'Da incassare',
  overdue: 'In ritardo',
  recovered: 'Recuperato',
  exhausted: 'Non recuperato',
};

/**
 * A payment's collection in words: one paid on time keeps the state 'due' in the database (it was
 * never late) and reads 'Incassato'; the others read their state's name.
 */
export function collectionStateLabel(status: CollectionStatus, paid: boolean): string {
  return paid && status === 'due' ? 'Incassato' : collectionStatusNames[status];
}

/** What moved a payment's collection: the history rows of `GET api/collection/payment/{id}`. */
export const collectionEventKinds = [
  'due',
  'failed',
  'reminder',
  'retry',
  'recovered',
  'exhausted',
  'markedPaid',
] as const;
export type CollectionEventKind = (typeof collectionEventKinds)[number];
export const collectionEventNames: Record<CollectionEventKind, string> = {
  due: 'In scadenza',
  failed: 'Pagamento non riuscito',
  reminder: 'Sollecito inviato',
  retry: 'Nuovo tentativo del fornitore',
  recovered: 'Incassato in ritardo',
  exhausted: 'Solleciti esauriti: abbonamento sospeso',
  markedPaid: 'Segnato come pagato',
};

export interface CollectionEvent {
  id: number;
  kind: CollectionEventKind;
  /** The ladder step (0-based) of a reminder, else null. */
  step: number | null;
  /** 'system' (the dunning job), 'provider' (a webhook), 'user' (an Admin: 'Sollecita ora'). */
  actor: { kind: 'system' | 'provider' | 'user'; name: string | null };
  note: string | null;
  at: string;
}

/** A tenant's ladder: the defaults are Kill Bill's shape, Italian B2B's days. */
export const DEFAULT_LADDER = { steps: [0, 3, 7, 14], graceDays: 14, finalDay: 21 } as const;

export const MAX_LADDER_DAY = 120;

export const ladderMessages = {
  stepsRequired: 'Indica almeno un giorno di sollecito.',
  stepRange: `Ogni sollecito cade tra il giorno 0 e il giorno ${MAX_LADDER_DAY} dopo la scadenza.`,
  stepsOrder: 'I giorni dei solleciti devono essere crescenti e diversi tra loro.',
  graceRange: 'La tolleranza finisce tra l’ultimo sollecito e l’azione finale.',
  finalAfterSteps: 'L’azione finale viene dopo l’ultimo sollecito e la fine della tolleranza.',
} as const;

/** `GET/PUT api/collection/settings` (Admin): the tenant's ladder. */
export const ladderSchema = z
  .object({
    /** Days after the due date on which a reminder goes out (0 = the due date itself). */
    steps: z
      .array(z.number().int().min(0, ladderMessages.stepRange).max(MAX_LADDER_DAY, ladderMessages.stepRange))
      .min(1, ladderMessages.stepsRequired)
      .max(8),
    /** Until this many days after the due date the customer keeps access (`pastDue: true`). */
    graceDays: z
      .number()
      .int()
      .min(0, ladderMessages.graceRange)
      .max(MAX_LADDER_DAY, ladderMessages.graceRange),
    /** On this day the subscription ends unpaid (NotActive), the provider's is suspended. */
    finalDay: z
      .number()
      .int()
      .min(1, ladderMessages.finalAfterSteps)
      .max(MAX_LADDER_DAY, ladderMessages.finalAfterSteps),
  })
  .superRefine((v, ctx) => {
    for (let i = 1; i < v.steps.length; i++) {
      if (v.steps[i]! <= v.steps[i - 1]!) {
        ctx.addIssue({ code: 'custom', path: ['steps'], message: ladderMessages.stepsOrder });
        break;
      }
    }
    if (v.graceDays > v.finalDay)
      ctx.addIssue({ code: 'custom', path: ['graceDays'], message: ladderMessages.graceRange });
    const last = v.steps.at(-1) ?? 0;
    if (v.finalDay <= last)
      ctx.addIssue({ code: 'custom', path: ['finalDay'], message: ladderMessages.finalAfterSteps });
  });
export type Ladder = z.infer<typeof ladderSchema>;

/** Age buckets of 'Incassi in sospeso', in days after the due date. */
export const ageBuckets = [
  { key: '0-7', label: '0–7 giorni', from: 0, to: 7 },
  { key: '8-30', label: '8–30 giorni', from: 8, to: 30 },
  { key: '31-60', label: '31–60 giorni', from: 31, to: 60 },
  { key: '60+', label: 'Oltre 60 giorni', from: 61, to: null },
] as const;
export type AgeBucketKey = (typeof ageBuckets)[number]['key'];

/** One row of `GET api/collection/overdue` ('Incassi in sospeso', Admin). */
export interface OverduePayment {
  paymentId: number;
  subscriptionId: number;
  customer: { id: number; name: string | null; email: string };
  plan: { id: number; name: string };
  /** EUR, what the customer is asked to pay (netToPay). */
  amountDue: number;
  method: 'bankTransfer' | 'paypal' | 'stripe' | null;
  /** YYYY-MM-DD (Europe/Rome). */
  dueDate: string;
  daysOverdue: number;
  bucket: AgeBucketKey;
  /** The last ladder step whose reminder went out (0-based), null before the first. */
  step: number | null;
  lastReminderAt: string | null;
  /** Until when the customer keeps access (grace end), YYYY-MM-DD. */
  graceEndsOn: string;
}

/**
 * `GET api/collection/overdue?page&pageSize&filters[bucket]=&searchTerm=` answers the paged list
 * plus the totals per bucket (all overdue payments of the tenant, whatever the page).
 * `GET api/collection/overdue/export?format=csv|xlsx` streams the same rows.
 */
export interface OverdueList {
  items: OverduePayment[];
  totalCount: number;
  buckets: { key: AgeBucketKey; count: number; amount: number }[];
  total: { count: number; amount: number };
}

/**
 * The Admin's actions on one payment (Admin, tenant):
 * - `POST api/collection/remind/{paymentId}` 'Sollecita ora': the next reminder e-mail now (a
 *   fresh link, or the transfer instructions, with the sign-in link), recorded as a reminder; 409
 *   when the payment is paid or exhausted.
 * - `POST api/collection/markPaid/{paymentId} {amount, approvalDate, note?}` 'Segna come pagato':
 *   records the bank transfer and recovers the payment (invoice issued once), as the transfer
 *   screen would.
 * - `GET api/collection/payment/{paymentId}` → `{ dueDate, collectionStatus, events: CollectionEvent[] }`.
 */
export const markPaidSchema = z.object({
  amount: z.number().positive('Importo non valido'),
  approvalDate: z.string().min(1, 'Data obbligatoria'),
  note: z.string().trim().max(200).optional(),
});
export type MarkPaidInput = z.infer<typeof markPaidSchema>;

/** The dashboard's collection figures (added to `dashboard/summary` as `collection`). */
export interface CollectionFigures {
  overdue: { count: number; amount: number };
  /** Payments recovered after being overdue, this calendar month (Europe/Rome). */
  /** `rate`: a percentage (0–100, like the dashboard's churnRate), null when there is nothing to measure. */
  recoveredThisMonth: { count: number; amount: number; rate: number | null };
}
