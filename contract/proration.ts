/**
 * Plan changes with proration (issue 30, 'Cambia piano'): how many days of the current billing
 * period are left when the change takes effect, what the old plan's unused days give back and what
 * the new plan's days cost. Pure and shared: the server's preview and the change itself, and the
 * SPA's preview, read these figures; the VAT, cassa, ritenuta and bollo on them come from the one
 * computation of a document (contract/invoice/fiscal-document.ts).
 *
 * Days are calendar days of Europe/Rome (the seller's calendar, contract/billing-dates.ts): the
 * period's start day is in it, its end day is not (the end is the next period's first day). A day
 * is a day whatever its length: 29 March 2026 has 23 hours in Rome and counts as one, so the count
 * is of calendar days, never of 24-hour blocks. The change day is the first day of the new plan.
 *
 *   credit = old period's amount × unused days / period days
 *   charge = new plan's price   × unused days / period days
 *
 * each rounded half-up once (divideHalfUp, contract/money.ts). Amounts are before VAT (taxable):
 * the documents add VAT and the rest.
 *
 * A change between recurrences (monthly ↔ yearly…, `newPeriodEnd` given) is made the way Stripe
 * makes one (its billing cycle anchor resets when the interval changes): the old plan's unused days
 * are credited as above, and a whole new period of the new plan starts on the change day, ending at
 * `newPeriodEnd` (the change day + the new recurrence: the new billing date), charged in full:
 *
 *   charge = new plan's price (no division; the new period's days are newPeriodDays)
 */
import { z } from 'zod';
import { daysBetween, parseBillingDateTime, romeDay } from './billing-dates';
import { divideHalfUp, type Cents } from './money';

/** When a change takes effect: at once, at the next billing date, or on a day of the current period. */
export type ChangeWhen = 'now' | 'renewal' | { date: string };

export interface ProrationInput {
  /** The current period: start (inclusive) and end (exclusive; the next billing date). */
  periodStart: Date;
  periodEnd: Date;
  /** When the new plan starts: an instant within [periodStart, periodEnd]. */
  changeAt: Date;
  /** What the current period was charged before VAT (the invoice's taxable for its fees). */
  oldAmountCents: Cents;
  /** The new plan's price for a whole period before VAT. */
  newPriceCents: Cents;
  /**
   * A change between recurrences: the end (exclusive) of the new plan's first period, which starts
   * at `changeAt` (the new billing date). Absent: the new plan's days are the current period's.
   */
  newPeriodEnd?: Date;
}

export interface Proration {
  /** YYYY-MM-DD (Rome): the period's first day, the change day, the period's end (exclusive). */
  periodStartDay: string;
  changeDay: string;
  periodEndDay: string;
  /** Calendar days of the period, and those from the change day to its end. */
  totalDays: number;
  unusedDays: number;
  /** What the old plan's unused days give back (≥ 0). */
  creditCents: Cents;
  /** What the new plan's days cost (≥ 0). */
  chargeCents: Cents;
  /** charge − credit: > 0 the customer pays, < 0 Rinnova owes (an upgrade / a downgrade). */
  netCents: Cents;
  /**
   * The days the charge covers: from the change day to `chargeEndDay` (exclusive) — the period's
   * end, or for a change between recurrences the new period's end (the new billing date).
   */
  chargeEndDay: string;
  chargeDays: number;
  /** True for a change between recurrences (a whole new period charged, the billing date moved). */
  newPeriod: boolean;
}

/** Calendar days of Europe/Rome from `from`'s day (inclusive) to `to`'s day (exclusive). */
export function romeDaysBetween(from: Date, to: Date): number {
  return daysBetween(romeDay(from), romeDay(to));
}

/** The proration of a change at `changeAt` (see the module's comment). */
export function prorate(input: ProrationInput): Proration {
  const { periodStart, periodEnd, changeAt, oldAmountCents, newPriceCents } = input;
  for (const [name, v] of [
    ['oldAmountCents', oldAmountCents],
    ['newPriceCents', newPriceCents],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name}: integer cents ≥ 0`);
  }
  const periodStartDay = romeDay(periodStart);
  const periodEndDay = romeDay(periodEnd);
  const changeDay = romeDay(changeAt);
  const totalDays = daysBetween(periodStartDay, periodEndDay);
  if (totalDays <= 0) throw new RangeError('il periodo deve durare almeno un giorno');
  const unusedDays = daysBetween(changeDay, periodEndDay);
  if (unusedDays < 0 || unusedDays > totalDays)
    throw new RangeError('il cambio deve cadere nel periodo in corso');
  const creditCents = divideHalfUp(oldAmountCents * unusedDays, totalDays);
  if (input.newPeriodEnd) {
    const chargeEndDay = romeDay(input.newPeriodEnd);
    const chargeDays = daysBetween(changeDay, chargeEndDay);
    if (chargeDays <= 0) throw new RangeError('il nuovo periodo deve durare almeno un giorno');
    return {
      periodStartDay,
      changeDay,
      periodEndDay,
      totalDays,
      unusedDays,
      creditCents,
      chargeCents: newPriceCents,
      netCents: newPriceCents - creditCents,
      chargeEndDay,
      chargeDays,
      newPeriod: true,
    };
  }
  const chargeCents = divideHalfUp(newPriceCents * unusedDays, totalDays);
  return {
    periodStartDay,
    changeDay,
    periodEndDay,
    totalDays,
    unusedDays,
    creditCents,
    chargeCents,
    netCents: chargeCents - creditCents,
    chargeEndDay: periodEndDay,
    chargeDays: unusedDays,
    newPeriod: false,
  };
}

/**
 * The line of a subscription's period on its invoice (TD01): a renewal's, a first payment's, and
 * the whole new period a change between recurrences starts (docs/fiscal-rules.md 'Cambio di
 * ricorrenza': an ordinary invoice of the new period, art. 21 DPR 633/72).
 */
export const subscriptionPeriodLine = (plan: string, from: string, to: string): string =>
  `Abbonamento «${plan}» dal ${from} al ${to}`;

/** The Italian messages of 'Cambia piano'. */
export const changePlanMessages = {
  planRequired: 'Il piano è obbligatorio.',
  samePlan: 'Scegli un piano diverso da quello attuale',
  whenInvalid:
    "Indica quando applicare il cambio: 'now' (subito), 'renewal' (alla scadenza) o una data AAAA-MM-GG.",
  dateOutsidePeriod: 'La data deve essere entro il periodo in corso o alla scadenza',
  paypalRecurrenceAtRenewal:
    'Per una sottoscrizione PayPal la ricorrenza si può cambiare solo al prossimo rinnovo: scegli «Al prossimo rinnovo».',
  notLive: 'Si può cambiare piano solo a una sottoscrizione attiva.',
  alreadyScheduled: (day: string) =>
    `Un cambio di piano è già programmato per il ${day}: annullalo prima di programmarne un altro.`,
  unpaidPeriod: 'Il periodo in corso non è ancora pagato: si può cambiare piano dopo il pagamento.',
  oncePerPeriod:
    'In questo periodo il piano è già stato cambiato con uno storno: il prossimo cambio si può fare alla scadenza.',
  invoiceMissing:
    'La fattura del periodo in corso non è ancora stata emessa: emettila (Fatture in attesa) prima di cambiare piano subito.',
  scheduledReason: (from: string, to: string, day: string) =>
    `Cambio di piano programmato: da «${from}» a «${to}» dal ${day}`,
  canceledReason: (why: string) => `Il cambio di piano programmato non si è potuto applicare: ${why}`,
  appliedReason: (from: string, to: string) => `Piano cambiato da «${from}» a «${to}»`,
  couponEnded: (code: string, plan: string) =>
    `Coupon ${code} terminato: non vale per il piano «${plan}»; dal prossimo pagamento si paga il prezzo pieno`,
  creditReason: (from: string, to: string) => `cambio di piano da «${from}» a «${to}»`,
  nothingScheduled: 'Nessun cambio di piano programmato da annullare.',
  customerNotAllowed:
    'Il cambio di piano dall’area clienti non è disponibile: contatta il fornitore per cambiare piano.',
  scheduledDue: 'Il cambio di piano programmato è già in corso di applicazione: non si può più annullare.',
  cancelReason: (to: string, day: string) => `Annullato il cambio di piano programmato a «${to}» dal ${day}`,
  scheduledCanceled: (to: string, day: string) => `Cambio di piano a «${to}» dal ${day} annullato.`,
  unpaidProration: 'C’è ancora un pagamento di conguaglio da saldare per il cambio di piano precedente.',
  /** A change of recurrence: the next period's renewal payment, already made, has a transfer recorded. */
  renewalTransferRecorded: (day: string) =>
    `È già registrato un bonifico per il rinnovo dal ${day}: il piano si può cambiare dopo averlo gestito (confermato o eliminato).`,
  /** The next period (from `day`) is already paid: its days are not the old plan's to credit now. */
  renewalPaid: (day: string) =>
    `Il rinnovo dal ${day} è già pagato: il piano si può cambiare alla scadenza di quel periodo («Al prossimo rinnovo»).`,
  /** A change of recurrence: the renewal payment used the customer's credit, already given back at Stripe. */
  renewalCreditAtStripe: (day: string) =>
    `Il pagamento del rinnovo dal ${day} ha già usato il credito del cliente presso Stripe: il piano si può cambiare dopo averlo incassato.`,
  /** The history's note when a change of recurrence withdraws the renewal payment made before it. */
  renewalWithdrawn: (day: string) => `ritirato il pagamento del rinnovo dal ${day}, non più dovuto`,
  /** The history's note when a change within the recurrence withdraws the renewal asked at the old terms. */
  renewalAskedAgain: (day: string) =>
    `ritirato il pagamento del rinnovo dal ${day} chiesto col piano precedente: sarà chiesto di nuovo col piano nuovo`,
  providerFailed: (provider: string) =>
    `${provider} non ha accettato il cambio di piano: nessuna modifica è stata fatta. Riprova più tardi.`,
  creditLine: (plan: string, from: string, to: string) =>
    `Storno giorni non goduti piano «${plan}» dal ${from} al ${to}`,
  chargeLine: (plan: string, from: string, to: string) =>
    `Piano «${plan}» dal ${from} al ${to} (conguaglio cambio piano)`,
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/**
 * Body of `POST api/subscription/changePlan/{id}` (api-contract 'Changes after the first
 * payment'): the new plan, when (`'now'`, `'renewal'` or a Rome day YYYY-MM-DD, an ISO date-time
 * being read as its Rome day) and `preview` (true: nothing changes, the figures are answered).
 * Whether the plan differs from the current one and the day falls in the current period is the
 * server's check (400 on `planId` / `when` with the messages above).
 */
export const changePlanSchema = z.object({
  planId: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v === '' ? undefined : v),
    z
      .number({ error: changePlanMessages.planRequired })
      .int({ error: changePlanMessages.planRequired })
      .positive({ error: changePlanMessages.planRequired }),
  ),
  when: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'now' : v),
    z.string({ error: changePlanMessages.whenInvalid }).transform((v, ctx): ChangeWhen => {
      const t = v.trim();
      if (t === 'now' || t === 'renewal') return t;
      if (isCalendarDay(t)) return { date: t };
      const at = t.length > 10 ? parseBillingDateTime(t) : null;
      if (at) return { date: romeDay(at) };
      ctx.addIssue({ code: 'custom', message: changePlanMessages.whenInvalid });
      return z.NEVER;
    }),
  ),
  preview: z
    .preprocess((v) => v === true || v === 'true', z.boolean())
    .optional()
    .default(false),
});
export type ChangePlanInput = z.input<typeof changePlanSchema>;
export type ChangePlanBody = z.output<typeof changePlanSchema>;
