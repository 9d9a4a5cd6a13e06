/**
 * The imposta di bollo on e-invoices, paid by F24 once a quarter (docs/fiscal-rules.md 'Bollo: il
 * versamento'): its codici tributo, its deadlines and the deferral of small amounts. Counts come
 * from the server (`GET api/invoice/stampDuty?year=`); the rules are here, once.
 */
import { fromCents, type Cents } from '../money';
import type { StampDutyQuarter, StampDutySummary } from '../schemas/invoice';
import { STAMP_DUTY_CENTS } from './fiscal-document';

/** Codici tributo of the four quarters (Risoluzione Agenzia delle Entrate 42/E del 9 aprile 2019). */
export const stampDutyTaxCodes = ['2521', '2522', '2523', '2524'] as const;

/** Below this the 1st quarter (and then the 1st and 2nd together) may be paid later (art. 17 c. 1-bis DL 124/2019). */
export const STAMP_DUTY_DEFERRAL_CENTS: Cents = 500_000;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * The legal deadlines of a year's quarters, YYYY-MM-DD: the last day of the second month after the
 * quarter (31 May, 30 November, end of February of the next year), the third for the 2nd quarter
 * (30 September). A deadline on a Saturday or a holiday moves to the next working day (not applied
 * here: the legal date is shown).
 */
export function stampDutyDeadlines(year: number): [string, string, string, string] {
  return [`${year}-05-31`, `${year}-09-30`, `${year}-11-30`, `${year + 1}-02-${isLeap(year + 1) ? 29 : 28}`];
}

/** Documents with DatiBollo issued in one quarter of the year. */
export interface StampDutyCount {
  quarter: number;
  invoices: number;
  creditNotes: number;
}

/**
 * The four quarters of a year from the documents counted in each: 2,00 € each, its codice
 * tributo, its deadline, and the later one allowed while the amount is small: the 1st quarter
 * under 5.000 € with the 2nd (30 September); the 1st and 2nd under 5.000 € together with the
 * 3rd (30 November).
 */
export function stampDutySummary(year: number, counts: readonly StampDutyCount[]): StampDutySummary {
  const deadlines = stampDutyDeadlines(year);
  const cents = [1, 2, 3, 4].map((q) => {
    const c = counts.find((x) => x.quarter === q);
    return ((c?.invoices ?? 0) + (c?.creditNotes ?? 0)) * STAMP_DUTY_CENTS;
  });
  const [q1 = 0, q2 = 0] = cents;
  const firstTwoSmall = q1 + q2 < STAMP_DUTY_DEFERRAL_CENTS;
  const quarters: StampDutyQuarter[] = [1, 2, 3, 4].map((quarter) => {
    const c = counts.find((x) => x.quarter === quarter);
    const invoices = c?.invoices ?? 0;
    const creditNotes = c?.creditNotes ?? 0;
    const due = cents[quarter - 1]! > 0;
    const deferredTo = !due
      ? null
      : quarter === 1
        ? firstTwoSmall
          ? deadlines[2]
          : q1 < STAMP_DUTY_DEFERRAL_CENTS
            ? deadlines[1]
            : null
        : quarter === 2 && firstTwoSmall
          ? deadlines[2]
          : null;
    return {
      quarter,
      taxCode: stampDutyTaxCodes[quarter - 1]!,
      invoices,
      creditNotes,
      count: invoices + creditNotes,
      total: fromCents(cents[quarter - 1]!),
      deadline: deadlines[quarter - 1]!,
      deferredTo,
    };
  });
  return { year, quarters, total: fromCents(cents.reduce((a, b) => a + b, 0)) };
}
