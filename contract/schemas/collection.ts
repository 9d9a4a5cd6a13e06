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

/** The ladder's fields (`ladderSchema` adds the checks between them). */
const ladderObject = z.object({
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
});

function checkLadder(v: z.infer<typeof ladderObject>, ctx: z.RefinementCtx): void {
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
}

/** The ladder's days (the `steps`, `graceDays`, `finalDay` of `GET/PUT api/collection/settings`). */
export const ladderSchema = ladderObject.superRefine(checkLadder);
export type Ladder = z.infer<typeof ladderSchema>;

/**
 * The ladder's e-mails, editable per tenant: each step's reminder and the final action's notice
 * have a subject and a message (the opening paragraphs), plain text with placeholders in braces.
 * What the server always appends, whatever the message says: HOW to pay (the transfer's data, a
 * fresh payment link, the provider's retry or the customer's area), the payment's reference and
 * the sign-in link to the customer's area. An absent (null) e-mail, or an empty subject or
 * message, is Rinnova's default wording.
 */
export const collectionPlaceholders = [
  { key: 'cliente', label: 'Nome del cliente' },
  { key: 'fornitore', label: 'Nome della tua azienda' },
  { key: 'piano', label: 'Piano' },
  { key: 'importo', label: 'Importo dovuto' },
  { key: 'scadenza', label: 'Data di scadenza' },
  { key: 'giorni_ritardo', label: 'Giorni di ritardo' },
  { key: 'fine_tolleranza', label: 'Fine della tolleranza' },
  { key: 'riferimento', label: 'Riferimento del pagamento' },
] as const;
export type CollectionPlaceholder = (typeof collectionPlaceholders)[number]['key'];

export const MAX_EMAIL_SUBJECT = 200;
export const MAX_EMAIL_BODY = 2000;

export const collectionEmailMessages = {
  unknownPlaceholder: (token: string) => `Segnaposto sconosciuto: ${token}`,
  subjectTooLong: `L’oggetto può avere al massimo ${MAX_EMAIL_SUBJECT} caratteri.`,
  subjectOneLine: 'L’oggetto sta su una sola riga.',
  bodyTooLong: `Il messaggio può avere al massimo ${MAX_EMAIL_BODY} caratteri.`,
  tooManyTexts: 'Ci sono più e-mail che solleciti.',
} as const;

const placeholderKeys: readonly string[] = collectionPlaceholders.map((p) => p.key);
/** `{…}` with no brace or line break inside: a placeholder, known or not. */
export const PLACEHOLDER_PATTERN = /\{([^{}\n]*)\}/g;

/** The first unknown placeholder of a text (`{xyz}`), else null. */
export function unknownPlaceholder(text: string): string | null {
  for (const m of text.matchAll(PLACEHOLDER_PATTERN)) if (!placeholderKeys.includes(m[1]!)) return m[0];
  return null;
}

const placeholdersKnown = (value: string, ctx: z.RefinementCtx) => {
  const unknown = unknownPlaceholder(value);
  if (unknown) ctx.addIssue({ code: 'custom', message: collectionEmailMessages.unknownPlaceholder(unknown) });
};

/** One e-mail's texts (plain text: the server escapes them into the HTML part). */
export const collectionEmailSchema = z.object({
  subject: z
    .string()
    .max(MAX_EMAIL_SUBJECT, collectionEmailMessages.subjectTooLong)
    .refine((v) => !/[\r\n]/.test(v), collectionEmailMessages.subjectOneLine)
    .superRefine(placeholdersKnown),
  body: z.string().max(MAX_EMAIL_BODY, collectionEmailMessages.bodyTooLong).superRefine(placeholdersKnown),
});
export type CollectionEmail = z.infer<typeof collectionEmailSchema>;

/** The tenant's e-mails: one per ladder step, by position (null: the default), and the final one. */
export const collectionEmailsSchema = z.object({
  steps: z.array(collectionEmailSchema.nullable()).max(8),
  final: collectionEmailSchema.nullable(),
});
export type CollectionEmails = z.infer<typeof collectionEmailsSchema>;

/**
 * `PUT api/collection/settings` (Admin): the ladder's days and, optionally, its e-mails (absent:
 * the texts stay as they are, following the steps by position; a step beyond them gets the default).
 */
export const collectionSettingsSchema = ladderObject
  .extend({ emails: collectionEmailsSchema.optional() })
  .superRefine((v, ctx) => {
    checkLadder(v, ctx);
    if (v.emails && v.emails.steps.length > v.steps.length)
      ctx.addIssue({
        code: 'custom',
        path: ['emails', 'steps'],
        message: collectionEmailMessages.tooManyTexts,
      });
  });
export type CollectionSettingsInput = z.infer<typeof collectionSettingsSchema>;

/** `GET/PUT api/collection/settings` answers: the ladder and its e-mails (`emails.steps` as long as `steps`). */
export type CollectionSettings = Ladder & { emails: CollectionEmails };

/**
 * `POST api/collection/settings/preview` (Admin): one e-mail as the customer would receive it,
 * rendered by the function the dunning job uses, for a sample payment of the tenant ('Mario
 * Rossi', the tenant's name and bank details). `step`: the ladder step (0-based) or 'final';
 * `day` and `graceDays` (optional): the draft's day of that step and grace end, else the saved
 * ladder's. Empty subject or body: the default's.
 */
export const collectionPreviewSchema = collectionEmailSchema.extend({
  step: z.union([z.number().int().min(0).max(7), z.literal('final')]),
  method: z.enum(['bankTransfer', 'card']),
  day: z.number().int().min(0).max(MAX_LADDER_DAY).optional(),
  graceDays: z.number().int().min(0).max(MAX_LADDER_DAY).optional(),
});
export type CollectionPreviewInput = z.infer<typeof collectionPreviewSchema>;
export interface CollectionPreview {
  subject: string;
  text: string;
  html: string;
}

/**
 * Rinnova's wording of a reminder (what went out before the texts were editable): on the due
 * date itself 'scade oggi', after it the days of delay.
 */
export function defaultReminderEmail(daysOverdue: number): CollectionEmail {
  const late =
    daysOverdue <= 0
      ? 'il pagamento di {importo} per l’abbonamento «{piano}» con {fornitore} scade oggi ({scadenza}) e non risulta ancora ricevuto.'
      : 'il pagamento di {importo} per l’abbonamento «{piano}» con {fornitore}, scaduto il {scadenza}, non risulta ancora ricevuto ({giorni_ritardo} giorni di ritardo).';
  return {
    subject: '{fornitore}: pagamento in sospeso per «{piano}»',
    body:
      `Ciao {cliente},\n\n${late}\n` +
      'Il servizio resta attivo fino al {fine_tolleranza}: paga entro quella data per non interromperlo.',
  };
}

/** Rinnova's wording of the final action's notice (the subscription suspended). */
export const DEFAULT_FINAL_EMAIL: CollectionEmail = {
  subject: '{fornitore}: abbonamento «{piano}» sospeso per mancato pagamento',
  body:
    'Ciao {cliente},\n\nil pagamento di {importo} per l’abbonamento «{piano}» con {fornitore}, scaduto il {scadenza}, ' +
    'non è arrivato nonostante i nostri solleciti: l’abbonamento è stato sospeso.\n' +
    'Per riattivarlo contatta {fornitore}.',
};

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
