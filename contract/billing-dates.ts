/**
 * Calendar arithmetic of billing, in the seller's time zone (Europe/Rome), with date-fns.
 * "+N months" keeps the day of the month and clamps it to the month's end: 31 January + 1 month
 * is 28 (or 29) February, 31 August + 6 months is 28/29 February, 15 March + 1 month is 15 April.
 * The time of day (Rome's wall clock) is kept, across daylight-saving changes.
 */
import { TZDate } from '@date-fns/tz';
import { addMonths } from 'date-fns';

export const BILLING_TIME_ZONE = 'Europe/Rome';

/** `date` + `months` calendar months in Europe/Rome, clamped to the end of the target month. */
export function addMonthsClamped(date: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError(`months must be an integer: ${months}`);
  return new Date(addMonths(new TZDate(date.getTime(), BILLING_TIME_ZONE), months).getTime());
}

/** Next billing date = start date + the plan's recurrence months (spec §5), read-only everywhere. */
export function nextBillingDate(startDate: Date, recurrenceMonths: number): Date {
  return addMonthsClamped(startDate, recurrenceMonths);
}

/** Year, month (1–12) and day of `date` on Rome's calendar. */
export function romeCalendarDay(date: Date): { year: number; month: number; day: number } {
  const d = new TZDate(date.getTime(), BILLING_TIME_ZONE);
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() };
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?$/;

/**
 * A date or date-time from a form or the wire: ISO-8601 with an offset ('2026-11-22T10:00:00Z')
 * is that instant; without one ('2026-11-22T10:00', '2026-11-22') it is Rome's wall clock, as
 * the person typed it. Anything else (or an impossible date such as 31 February) is null.
 */
export function parseBillingDateTime(value: string): Date | null {
  const text = value.trim();
  const local = LOCAL_DATE_TIME.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = local;
    if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
    const date = new TZDate(
      Number(y),
      Number(mo) - 1,
      Number(d),
      Number(h),
      Number(mi),
      Number(s),
      BILLING_TIME_ZONE,
    );
    if (date.getDate() !== Number(d) || date.getMonth() !== Number(mo) - 1) return null;
    return new Date(date.getTime());
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/.exec(
    text,
  );
  if (!iso) return null;
  const [, y, mo, d, h, mi, s = '0'] = iso;
  // The calendar day written must exist (no 31 February rolling over into March).
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The end of the billing period that starts at `periodStart`: the first anchor date after it,
 * counted from the subscription's start (start + k × recurrence months, k = 1, 2, …), so the day
 * of the month never drifts (31 Jan → 28 Feb → 31 Mar, not 28 Mar).
 */
export function periodEndAfter(startDate: Date, recurrenceMonths: number, periodStart: Date): Date {
  for (let k = 1; k < 10_000; k++) {
    const end = addMonthsClamped(startDate, k * recurrenceMonths);
    if (end.getTime() > periodStart.getTime()) return end;
  }
  throw new RangeError('periodStart too far from startDate');
}

/** YYYY-MM-DD of an instant in Europe/Rome (a payment's due date, issue 29). */
export function romeDay(date: Date): string {
  const { year, month, day } = romeCalendarDay(date);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `day` (YYYY-MM-DD) plus `n` calendar days. */
export function addDays(day: string, n: number): string {
  const d = Date.parse(`${day}T00:00:00Z`);
  return new Date(d + n * 86_400_000).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
