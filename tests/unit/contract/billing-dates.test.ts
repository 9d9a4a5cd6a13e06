/**
 * Property tests of contract/billing-dates.ts. Rome wall-clock times are built and read with
 * Intl (the platform's tz database), never with the module or @date-fns/tz, so the reference does
 * not share the implementation's code path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonthsClamped,
  nextBillingDate,
  parseBillingDateTime,
  romeCalendarDay,
  periodEndAfter,
} from '../../../contract/billing-dates';

const SEED = 20_240_229;
const RECURRENCES = [1, 2, 3, 4, 6, 12] as const;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const romeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** The Rome wall clock of an instant, per Intl. */
function romeWallClock(date: Date): WallClock {
  const parts = Object.fromEntries(romeFormat.formatToParts(date).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The instant at which Rome's wall clock shows `w` (Rome is UTC+1 or UTC+2); throws in a DST gap. */
function romeInstant(w: WallClock): Date {
  for (const offsetHours of [1, 2]) {
    const candidate = new Date(
      Date.UTC(w.year, w.month - 1, w.day, w.hour - offsetHours, w.minute, w.second),
    );
    if (JSON.stringify(romeWallClock(candidate)) === JSON.stringify(w)) return candidate;
  }
  throw new Error(`no Rome instant for ${JSON.stringify(w)}`);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** start's calendar month + `months`, with the day clamped to that month's end. */
function expectedTarget(start: WallClock, months: number): WallClock {
  const total = start.year * 12 + (start.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return { ...start, year, month, day: Math.min(start.day, daysInMonth(year, month)) };
}

const rome = (year: number, month: number, day: number, hour = 10, minute = 30, second = 0) =>
  romeInstant({ year, month, day, hour, minute, second });

describe('nextBillingDate', () => {
  it('keeps the day (clamped to the month end) and the 10:30 Rome time, for every day of 2023 and 2024 and every recurrence', () => {
    const mismatches: unknown[] = [];
    let checked = 0;
    for (const year of [2023, 2024]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= daysInMonth(year, month); day++) {
          const startClock: WallClock = { year, month, day, hour: 10, minute: 30, second: 0 };
          const start = romeInstant(startClock);
          for (const recurrence of RECURRENCES) {
            const next = nextBillingDate(start, recurrence);
            const expected = expectedTarget(startClock, recurrence);
            const actual = romeWallClock(next);
            const calendar = romeCalendarDay(next);
            checked++;
            if (
              JSON.stringify(actual) !== JSON.stringify(expected) ||
              calendar.year !== expected.year ||
              calendar.month !== expected.month ||
              calendar.day !== expected.day
            ) {
              mismatches.push({ start: startClock, recurrence, expected, actual, calendar });
            }
          }
        }
      }
    }
    expect(checked).toBe((365 + 366) * RECURRENCES.length);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('keeps the Rome wall-clock time and clamps the day for any date, time and month count (±10 years)', () => {
    const wallClock = fc
      .record({
        year: fc.integer({ min: 2000, max: 2090 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
        // 02:xx is left out: it does not exist on the spring DST day and is ambiguous in autumn.
        hour: fc.integer({ min: 0, max: 23 }).filter((h) => h !== 2),
        minute: fc.integer({ min: 0, max: 59 }),
        second: fc.integer({ min: 0, max: 59 }),
      })
      .map((w) => ({ ...w, day: Math.min(w.day, daysInMonth(w.year, w.month)) }));
    fc.assert(
      fc.property(wallClock, fc.integer({ min: -120, max: 120 }), (startClock, months) => {
        const start = romeInstant(startClock);
        const result = addMonthsClamped(start, months);
        expect(romeWallClock(result)).toEqual(expectedTarget(startClock, months));
        expect(result.getUTCMilliseconds()).toBe(start.getUTCMilliseconds());
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('clamps to the end of February and carries the year', () => {
    const cases: [Date, number, string][] = [
      [rome(2024, 1, 31), 1, '2024-02-29'],
      [rome(2023, 1, 31), 1, '2023-02-28'],
      [rome(2023, 8, 31), 6, '2024-02-29'],
      [rome(2022, 8, 31), 6, '2023-02-28'],
      [rome(2023, 11, 30), 3, '2024-02-29'],
      [rome(2022, 11, 30), 3, '2023-02-28'],
      [rome(2023, 12, 31), 2, '2024-02-29'],
      [rome(2024, 2, 29), 12, '2025-02-28'],
      [rome(2024, 3, 15), 1, '2024-04-15'],
      [rome(2024, 5, 31), 1, '2024-06-30'],
      [rome(2024, 12, 15), 12, '2025-12-15'],
    ];
    for (const [start, months, expected] of cases) {
      const { year, month, day } = romeCalendarDay(nextBillingDate(start, months));
      const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      expect(text, `${start.toISOString()} + ${months}`).toBe(expected);
    }
  });

  it('keeps 10:30 Rome across the DST changes (the UTC instant moves by an hour)', () => {
    // 15 March 2026 10:30 CET = 09:30Z; 15 April 2026 10:30 CEST = 08:30Z.
    expect(nextBillingDate(new Date('2026-03-15T09:30:00Z'), 1).toISOString()).toBe(
      '2026-04-15T08:30:00.000Z',
    );
    // 31 October 2026 10:30 CET = 09:30Z; back in summer time on 30 April 2027 = 08:30Z.
    expect(nextBillingDate(new Date('2026-10-31T09:30:00Z'), 6).toISOString()).toBe(
      '2027-04-30T08:30:00.000Z',
    );
    expect(nextBillingDate(new Date('2026-07-31T08:30:00Z'), 7).toISOString()).toBe(
      '2027-02-28T09:30:00.000Z',
    );
    // Midnight Rome stays midnight Rome (the Rome day, not the UTC day, is the billing day).
    expect(nextBillingDate(new Date('2026-01-31T23:00:00Z'), 1).toISOString()).toBe(
      '2026-02-28T23:00:00.000Z',
    );
  });

  it('refuses a non-integer month count and returns the same instant for 0', () => {
    const start = rome(2024, 1, 31, 23, 59, 59);
    expect(addMonthsClamped(start, 0).getTime()).toBe(start.getTime());
    expect(() => addMonthsClamped(start, 1.5)).toThrow(RangeError);
    expect(() => addMonthsClamped(start, Number.NaN)).toThrow(RangeError);
  });
});

describe('romeCalendarDay', () => {
  it('is the Rome calendar day per Intl for any instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01Z'), max: new Date('2090-12-31Z'), noInvalidDate: true }),
        (d) => {
          const { year, month, day } = romeWallClock(d);
          expect(romeCalendarDay(d)).toEqual({ year, month, day });
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
    expect(romeCalendarDay(new Date('2025-12-31T23:30:00Z'))).toEqual({ year: 2026, month: 1, day: 1 });
  });
});

describe('parseBillingDateTime', () => {
  it('reads a date-time without offset as Rome wall clock', () => {
    expect(parseBillingDateTime('2026-11-22T10:30')?.toISOString()).toBe('2026-11-22T09:30:00.000Z');
    expect(parseBillingDateTime('2026-07-01T10:30')?.toISOString()).toBe('2026-07-01T08:30:00.000Z');
    expect(parseBillingDateTime('2026-07-01 10:30:15')?.toISOString()).toBe('2026-07-01T08:30:15.000Z');
    expect(parseBillingDateTime('2026-11-22')?.toISOString()).toBe('2026-11-21T23:00:00.000Z');
    expect(parseBillingDateTime(' 2024-02-29 ')?.toISOString()).toBe('2024-02-28T23:00:00.000Z');
  });

  it('keeps an ISO instant with an offset as is', () => {
    expect(parseBillingDateTime('2026-11-22T10:30:00Z')?.toISOString()).toBe('2026-11-22T10:30:00.000Z');
    expect(parseBillingDateTime('2026-07-01T10:30:00.123Z')?.toISOString()).toBe('2026-07-01T10:30:00.123Z');
    expect(parseBillingDateTime('2026-07-01T10:30:00+02:00')?.toISOString()).toBe('2026-07-01T08:30:00.000Z');
    expect(parseBillingDateTime('2026-07-01T10:30-05:00')?.toISOString()).toBe('2026-07-01T15:30:00.000Z');
  });

  it('returns null for impossible dates and garbage', () => {
    for (const bad of [
      '2026-02-31',
      '2023-02-29',
      '2026-04-31T10:00',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-11-22T24:00',
      'garbage',
      '',
      '22/11/2026',
      '2026-11-22T10:30:00+25',
      '2026-11-22Z',
    ]) {
      expect(parseBillingDateTime(bad), bad).toBeNull();
    }
  });

  it('any Rome wall clock written without offset reads back as that wall clock', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2090 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }).filter((h) => h !== 2),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        (year, month, day, hour, minute, second) => {
          const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
          const parsed = parseBillingDateTime(text);
          if (day > daysInMonth(year, month)) {
            expect(parsed, text).toBeNull();
          } else {
            expect(parsed, text).not.toBeNull();
            expect(romeWallClock(parsed!)).toEqual({ year, month, day, hour, minute, second });
          }
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('any instant written as ISO with Z reads back unchanged', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01Z'), max: new Date('2090-12-31Z'), noInvalidDate: true }),
        (d) => {
          expect(parseBillingDateTime(d.toISOString())?.getTime()).toBe(d.getTime());
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  // Regressions: both were accepted once (V8's Date rolls the day or minute over).
  it('refuses an impossible date that carries an offset (V8 rolls 31 Feb to 3 Mar)', () => {
    expect(parseBillingDateTime('2026-02-31T10:00:00Z')).toBeNull();
  });
  it('refuses minutes ≥ 60 in a local time (10:75 is read as 11:15)', () => {
    expect(parseBillingDateTime('2026-11-22T10:75')).toBeNull();
  });
});

describe('periodEndAfter', () => {
  it('counts periods from the start, so the day of the month never drifts', () => {
    const start = new Date('2026-01-31T09:00:00Z');
    expect(periodEndAfter(start, 1, new Date('2026-01-31T09:00:00Z')).toISOString()).toBe(
      '2026-02-28T09:00:00.000Z',
    );
    expect(periodEndAfter(start, 1, new Date('2026-02-28T09:00:00Z')).toISOString()).toBe(
      '2026-03-31T08:00:00.000Z',
    );
    expect(periodEndAfter(start, 3, new Date('2026-05-01T00:00:00Z')).toISOString()).toBe(
      '2026-07-31T08:00:00.000Z',
    );
  });
});
