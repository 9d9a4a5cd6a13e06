/**
 * The documents of a plan change (issue 30, 'Cambia piano'; docs/fiscal-rules.md 'Cambio di
 * piano'), from the proration (contract/proration.ts) and the one computation (fiscal-document.ts):
 *
 * - the charge: an invoice (TD01) with one line for the new plan's days, its DataInizioPeriodo and
 *   DataFinePeriodo the change day and the period's last day;
 * - the credit: a partial credit note (TD04), a nota di variazione in diminuzione of the invoice
 *   of the current period (art. 26 c. 2-3 DPR 633/72), linked to it by DatiFattureCollegate, with
 *   one line for the old plan's unused days, same VAT treatment as the documents of the period.
 *
 * A change between recurrences (monthly ↔ yearly…): the credit as above; the charge is a whole
 * period of the new plan from the change day to the new billing date (its own DataInizioPeriodo /
 * DataFinePeriodo), at the plan's full price (contract/proration.ts).
 *
 * The customer is asked the difference (the credit is set off against the charge); a credit
 * larger than the charge (a downgrade applied before the period's end) leaves a balance owed to
 * the customer, `residualCreditCents`.
 */
import type { Cents, PercentHundredths } from '../money';
import type { Proration } from '../proration';
import { changePlanMessages, subscriptionPeriodLine } from '../proration';
import type { Natura } from './fatturapa';
import {
  computeDocument,
  type CustomerProfile,
  type FiscalDocument,
  type SellerProfile,
} from './fiscal-document';
import { toQuote, type Quote } from './quote';
import { addDays } from '../billing-dates';
import { fromCents } from '../money';

export interface PlanTerms {
  name: string;
  /** The agreed VAT (hundredths) and its Natura when 0 %. */
  vat: PercentHundredths;
  natura: Natura | null;
  legalReference?: string | null;
}

export interface PlanChangeInput {
  seller: SellerProfile;
  customer: CustomerProfile;
  proration: Proration;
  oldPlan: PlanTerms;
  newPlan: PlanTerms;
}

export interface PlanChangeDocuments {
  proration: Proration;
  /** The TD04 for the old plan's unused days; null when nothing is credited. */
  credit: FiscalDocument | null;
  /** The TD01 for the new plan's days; null when nothing is charged. */
  charge: FiscalDocument | null;
  /** The days the credit note covers, YYYY-MM-DD, both inclusive (the file's period). */
  period: { start: string; end: string } | null;
  /** The days the charge covers (the credit's, or a whole new period between recurrences). */
  chargePeriod: { start: string; end: string } | null;
  /** What the customer is asked now: charge's net to pay − credit's (never below 0). */
  amountDueCents: Cents;
  /** The credit left once the charge is set off (a downgrade before the period's end), else 0. */
  residualCreditCents: Cents;
}

/** dd/mm/yyyy of a YYYY-MM-DD day. */
export function italianDay(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * The partial credit note's figures: one line for the old plan's unused days over `period` (both
 * days inclusive), under the VAT treatment of the invoice it varies. The bollo charged on that
 * invoice is not given back (the invoice carried it; the note, when outside VAT above 77,47 €,
 * bears its own). The same function for the preview, the amount asked and the note issued.
 */
export function creditNoteDocument(input: {
  seller: SellerProfile;
  customer: CustomerProfile;
  plan: PlanTerms;
  creditCents: Cents;
  period: { start: string; end: string };
}): FiscalDocument {
  const { plan, period } = input;
  return computeDocument({
    seller: { ...input.seller, stampDutyToCustomer: false },
    customer: input.customer,
    charges: [
      {
        description: changePlanMessages.creditLine(
          plan.name,
          italianDay(period.start),
          italianDay(period.end),
        ),
        quantity: 1,
        unitPriceCents: input.creditCents,
      },
    ],
    plan,
  });
}

/** The two documents of a change and what the customer is asked. */
export function planChangeDocuments(input: PlanChangeInput): PlanChangeDocuments {
  const { proration: p, seller, customer, oldPlan, newPlan } = input;
  if (p.unusedDays === 0)
    return {
      proration: p,
      credit: null,
      charge: null,
      period: null,
      chargePeriod: null,
      amountDueCents: 0,
      residualCreditCents: 0,
    };
  const period = { start: p.changeDay, end: addDays(p.periodEndDay, -1) };
  const chargePeriod = { start: p.changeDay, end: addDays(p.chargeEndDay, -1) };
  const from = italianDay(chargePeriod.start);
  const to = italianDay(chargePeriod.end);
  const credit =
    p.creditCents > 0
      ? creditNoteDocument({ seller, customer, plan: oldPlan, creditCents: p.creditCents, period })
      : null;
  const charge =
    p.chargeCents > 0
      ? computeDocument({
          seller,
          customer,
          charges: [
            {
              // A change between recurrences charges a whole period: its ordinary line.
              description: p.newPeriod
                ? subscriptionPeriodLine(newPlan.name, from, to)
                : changePlanMessages.chargeLine(newPlan.name, from, to),
              quantity: 1,
              unitPriceCents: p.chargeCents,
            },
          ],
          plan: newPlan,
        })
      : null;
  const diff = (charge?.netToPayCents ?? 0) - (credit?.netToPayCents ?? 0);
  return {
    proration: p,
    credit,
    charge,
    period,
    chargePeriod,
    amountDueCents: Math.max(diff, 0),
    residualCreditCents: Math.max(-diff, 0),
  };
}

/**
 * `data` of `POST api/subscription/changePlan/{id}` with `preview: true` (and of the change made):
 * the credited and the charged document as `quote` answers them, the days, and what is asked.
 */
export interface PlanChangePreview {
  /** 'now' | 'renewal' | 'date': when the change takes effect, and its Rome day. */
  effective: 'now' | 'renewal' | 'date';
  effectiveDay: string;
  fromPlan: { id: number; name: string };
  toPlan: { id: number; name: string };
  /** The current period (end exclusive) and its days; unusedDays from the change day. */
  periodStart: string;
  periodEnd: string;
  totalDays: number;
  unusedDays: number;
  /** The credit note (TD04) of the unused days, as quote answers it; null when none. */
  credit: Quote | null;
  /** The invoice (TD01) of the new plan's days, as quote answers it; null when none. */
  charge: Quote | null;
  /** The credited line (negative) and the charged line, in one list for a table. */
  lines: { description: string; amount: number; periodStart: string; periodEnd: string }[];
  /** What the customer pays now (EUR): charge's netToPay − credit's, at least 0. */
  netToPay: number;
  /** Credit left to the customer when the credit exceeds the charge (EUR). */
  residualCredit: number;
  /** The price of the next periods: the new plan's document for a whole period. */
  nextPeriod: Quote;
  /**
   * The billing date once the change is made (YYYY-MM-DD, Rome): the current one, or for a change
   * between recurrences made before it the change day + the new recurrence (the new period's end).
   */
  nextBillingDate: string;
  /** True when the recurrence changes (a whole new period of the new plan is charged). */
  recurrenceChanges: boolean;
}

export function planChangePreview(
  docs: PlanChangeDocuments,
  meta: Pick<
    PlanChangePreview,
    'effective' | 'fromPlan' | 'toPlan' | 'nextPeriod' | 'nextBillingDate' | 'recurrenceChanges'
  >,
): PlanChangePreview {
  const p = docs.proration;
  const period = docs.period;
  const chargePeriod = docs.chargePeriod;
  const lines: PlanChangePreview['lines'] = [];
  if (period && docs.credit)
    lines.push({
      description: docs.credit.lines[0]!.description,
      amount: -fromCents(docs.credit.lines[0]!.totalCents),
      periodStart: period.start,
      periodEnd: period.end,
    });
  if (chargePeriod && docs.charge)
    lines.push({
      description: docs.charge.lines[0]!.description,
      amount: fromCents(docs.charge.lines[0]!.totalCents),
      periodStart: chargePeriod.start,
      periodEnd: chargePeriod.end,
    });
  return {
    ...meta,
    effectiveDay: p.changeDay,
    periodStart: p.periodStartDay,
    periodEnd: p.periodEndDay,
    totalDays: p.totalDays,
    unusedDays: p.unusedDays,
    credit: docs.credit ? toQuote(docs.credit) : null,
    charge: docs.charge ? toQuote(docs.charge) : null,
    lines,
    netToPay: fromCents(docs.amountDueCents),
    residualCredit: fromCents(docs.residualCreditCents),
  };
}
