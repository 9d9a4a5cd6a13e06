/**
 * Property tests of contract/proration.ts (issue 30, 'Cambia piano'). The reference does not share
 * the module's code path: Rome calendar days are read with Intl and counted one by one, the money
 * is the exact rational old × unused / total in BigInt, rounded half-up by its own formula.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonthsClamped, periodEndAfter } from '../../../contract/billing-dates';
import { changePlanSchema, prorate } from '../../../contract/proration';

const SEED = 20_260_329;

const romeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});

function romeParts(date: Date) {
  const p = Object.fromEntries(romeFormat.formatToParts(date).map((x) => [x.type, Number(x.value)]));
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute! };
}

/** The instant Rome's wall clock shows y-m-d h:mi (UTC+1 or UTC+2); the next valid one in a gap. */
function rome(y: number, m: number, d: number, h = 10, mi = 30): Date {
  for (const off of [1, 2]) {
    const c = new Date(Date.UTC(y, m - 1, d, h - off, mi));
    const r = romeParts(c);
    if (r.year === y && r.month === m && r.day === d && r.hour === h && r.minute === mi) return c;
  }
  return new Date(Date.UTC(y, m - 1, d, h - 1, mi)); // 02:xx on the spring-forward night
}

/** Calendar days of Rome from a's day to b's day, stepping a civil calendar one day at a time. */
function countRomeDays(a: Date, b: Date): number {
  const from = romeParts(a);
  const to = romeParts(b);
  const cursor = new Date(Date.UTC(from.year, from.month - 1, from.day, 12));
  const end = Date.UTC(to.year, to.month - 1, to.day, 12);
  let n = 0;
  while (cursor.getTime() < end) {
    cursor.setUTCDate(cursor.getUTCDate() + 1);
    n++;
  }
  return n;
}

/** old × unused / total, rounded half-up, in BigInt: floor((2·a·u + t) / 2t). */
function exactHalfUp(amount: number, unused: number, total: number): number {
  const a = BigInt(amount);
  const u = BigInt(unused);
  const t = BigInt(total);
  return Number((2n * a * u + t) / (2n * t));
}

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** A subscription start: any day, the month ends and 29 February weighted in, DST weeks too. */
const startArb = fc.oneof(
  fc
    .record({
      y: fc.integer({ min: 2023, max: 2031 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
    })
    .map(({ y, m, d }) => ({ y, m, d: Math.min(d, daysInMonth(y, m)) })),
  fc
    .record({
      y: fc.integer({ min: 2023, max: 2031 }),
      m: fc.integer({ min: 1, max: 12 }),
      back: fc.integer({ min: 0, max: 3 }),
    })
    .map(({ y, m, back }) => ({ y, m, d: daysInMonth(y, m) - back })),
  fc.constantFrom(2024, 2028).map((y) => ({ y, m: 2, d: 29 })),
  // The last week of March and of October: a DST change falls in it.
  fc
    .record({
      y: fc.integer({ min: 2023, max: 2031 }),
      m: fc.constantFrom(3, 10),
      d: fc.integer({ min: 24, max: 31 }),
    })
    .map(({ y, m, d }) => ({ y, m, d })),
);

const caseArb = fc.record({
  start: startArb,
  hour: fc.integer({ min: 0, max: 23 }),
  recurrence: fc.constantFrom(1, 12),
  periodIndex: fc.integer({ min: 0, max: 14 }),
  /** Where in the period the change falls: a fraction of its length in millionths. */
  at: fc.oneof(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(0, 999_999)),
  oldCents: fc.oneof(fc.integer({ min: 0, max: 50_000_00 }), fc.constantFrom(0, 1, 4900, 9900, 120_000)),
  newCents: fc.oneof(fc.integer({ min: 0, max: 50_000_00 }), fc.constantFrom(0, 1, 4900, 9900, 120_000)),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case) {
  const start = rome(c.start.y, c.start.m, c.start.d, c.hour, 15);
  const periodStart = c.periodIndex === 0 ? start : addMonthsClamped(start, c.periodIndex * c.recurrence);
  const periodEnd = periodEndAfter(start, c.recurrence, periodStart);
  const span = periodEnd.getTime() - periodStart.getTime();
  const changeAt = new Date(periodStart.getTime() + Math.floor((span * c.at) / 1_000_000));
  return { periodStart, periodEnd, changeAt };
}

function check(c: Case) {
  const { periodStart, periodEnd, changeAt } = build(c);
  const p = prorate({
    periodStart,
    periodEnd,
    changeAt,
    oldAmountCents: c.oldCents,
    newPriceCents: c.newCents,
  });
  const total = countRomeDays(periodStart, periodEnd);
  const unused = countRomeDays(changeAt, periodEnd);
  expect(p.totalDays).toBe(total);
  expect(p.unusedDays).toBe(unused);
  if (c.recurrence === 1) expect(total).toBeGreaterThanOrEqual(28);
  if (c.recurrence === 1) expect(total).toBeLessThanOrEqual(31);
  if (c.recurrence === 12) expect([365, 366]).toContain(total);
  // Each figure is the day-exact rational, rounded half-up to the cent.
  expect(p.creditCents).toBe(exactHalfUp(c.oldCents, unused, total));
  expect(p.chargeCents).toBe(exactHalfUp(c.newCents, unused, total));
  // …so each is within half a cent of it, and their difference within a cent of the exact net.
  const t = BigInt(total);
  expect(2n * (BigInt(p.creditCents) * t - BigInt(c.oldCents) * BigInt(unused))).toBeLessThanOrEqual(t);
  expect(2n * (BigInt(c.oldCents) * BigInt(unused) - BigInt(p.creditCents) * t)).toBeLessThan(t);
  const exactNet = (BigInt(c.newCents) - BigInt(c.oldCents)) * BigInt(unused);
  const netErr = BigInt(p.netCents) * t - exactNet;
  expect(netErr <= t && netErr >= -t).toBe(true);
  expect(p.netCents).toBe(p.chargeCents - p.creditCents);
  // The used and the unused days split the old amount exactly (nothing lost, nothing created).
  expect(c.oldCents - p.creditCents + p.creditCents).toBe(c.oldCents);
  expect(p.creditCents).toBeLessThanOrEqual(c.oldCents);
  expect(p.chargeCents).toBeLessThanOrEqual(c.newCents);
}

describe('prorate', () => {
  it('credits and charges the day-exact amounts, to the cent, over random plans, starts, periods and change points', () => {
    fc.assert(
      fc.property(caseArb, (c) => check(c)),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it('between recurrences: the same credit, a whole new period charged in full from the change day, over random recurrences', () => {
    const recurrences = [1, 2, 3, 4, 6, 12] as const;
    fc.assert(
      fc.property(
        caseArb,
        fc.constantFrom(...recurrences),
        fc.constantFrom(...recurrences),
        (c, from, to) => {
          const { periodStart, periodEnd, changeAt } = build({
            ...c,
            recurrence: from as Case['recurrence'],
          });
          // The new billing date: the change instant + the new recurrence (Rome wall clock, clamped).
          const newPeriodEnd = addMonthsClamped(changeAt, to);
          const input = {
            periodStart,
            periodEnd,
            changeAt,
            oldAmountCents: c.oldCents,
            newPriceCents: c.newCents,
          };
          const same = prorate(input);
          const p = prorate({ ...input, newPeriodEnd });
          const total = countRomeDays(periodStart, periodEnd);
          const unused = countRomeDays(changeAt, periodEnd);
          // The credit is the old period's unused days, exactly as within a recurrence.
          expect(p.totalDays).toBe(total);
          expect(p.unusedDays).toBe(unused);
          expect(p.creditCents).toBe(exactHalfUp(c.oldCents, unused, total));
          expect(p.creditCents).toBe(same.creditCents);
          // The charge is the new plan's whole period, its days those of the new period.
          expect(p.newPeriod).toBe(true);
          expect(p.chargeCents).toBe(c.newCents);
          expect(p.netCents).toBe(c.newCents - p.creditCents);
          const days = countRomeDays(changeAt, newPeriodEnd);
          expect(p.chargeDays).toBe(days);
          expect(days).toBeGreaterThanOrEqual(to === 12 ? 365 : 28 * to - 1);
          expect(days).toBeLessThanOrEqual(to === 12 ? 366 : 31 * to + 1);
          const end = romeParts(newPeriodEnd);
          expect(p.chargeEndDay).toBe(
            `${end.year}-${String(end.month).padStart(2, '0')}-${String(end.day).padStart(2, '0')}`,
          );
          // Within a recurrence, the charge covers the credit's days.
          expect(same).toMatchObject({
            newPeriod: false,
            chargeEndDay: same.periodEndDay,
            chargeDays: unused,
          });
        },
      ),
      { seed: SEED, numRuns: 1_000 },
    );
  });

  it('between recurrences on 29 February and on a 31st: the new billing date is clamped to the month end', () => {
    const leap = prorate({
      periodStart: rome(2028, 2, 10),
      periodEnd: rome(2028, 3, 10),
      changeAt: rome(2028, 2, 29),
      oldAmountCents: 2900,
      newPriceCents: 29_000,
      newPeriodEnd: addMonthsClamped(rome(2028, 2, 29), 12),
    });
    expect(leap).toMatchObject({
      totalDays: 29,
      unusedDays: 10,
      creditCents: 1000,
      chargeCents: 29_000,
      netCents: 28_000,
      chargeEndDay: '2029-02-28',
      chargeDays: 365,
    });
    const monthEnd = prorate({
      periodStart: rome(2027, 1, 31),
      periodEnd: rome(2028, 1, 31),
      changeAt: rome(2027, 1, 31),
      oldAmountCents: 29_000,
      newPriceCents: 2900,
      newPeriodEnd: addMonthsClamped(rome(2027, 1, 31), 1),
    });
    // Yearly → monthly on the period's first day: the whole year credited, February charged.
    expect(monthEnd).toMatchObject({
      unusedDays: 365,
      creditCents: 29_000,
      chargeCents: 2900,
      chargeEndDay: '2027-02-28',
      chargeDays: 28,
    });
  });

  it('counts calendar days across the DST nights: a change on the 23-hour and the 25-hour day', () => {
    // 29 March 2026 (23 h) and 25 October 2026 (25 h); period 15 March → 15 April, 15 Oct → 15 Nov.
    const spring = prorate({
      periodStart: rome(2026, 3, 15),
      periodEnd: rome(2026, 4, 15),
      changeAt: rome(2026, 3, 29, 3, 30),
      oldAmountCents: 3100,
      newPriceCents: 6200,
    });
    expect(spring).toMatchObject({ totalDays: 31, unusedDays: 17, creditCents: 1700, chargeCents: 3400 });
    // Just after midnight Rome on 25 October is still 24 October in UTC: the Rome day counts.
    const autumn = prorate({
      periodStart: rome(2026, 10, 15),
      periodEnd: rome(2026, 11, 15),
      changeAt: rome(2026, 10, 25, 0, 30),
      oldAmountCents: 3100,
      newPriceCents: 6200,
    });
    expect(autumn).toMatchObject({ totalDays: 31, unusedDays: 21, creditCents: 2100, chargeCents: 4200 });
  });

  it('29 February: a yearly period from a leap day has 365 or 366 days', () => {
    const p = prorate({
      periodStart: rome(2024, 2, 29),
      periodEnd: rome(2025, 2, 28),
      changeAt: rome(2024, 8, 29),
      oldAmountCents: 120_000,
      newPriceCents: 240_000,
    });
    expect(p.totalDays).toBe(365);
    expect(p.unusedDays).toBe(183);
    expect(p.creditCents).toBe(exactHalfUp(120_000, 183, 365)); // 601,64 (601,643…)
    expect(p.creditCents).toBe(60_164);
    expect(p.chargeCents).toBe(120_329); // 1.203,287… → 1.203,29
  });

  it('rounds a half cent up: 1 cent over 2 of 4 days is 0,5 → 1 cent', () => {
    const p = prorate({
      periodStart: rome(2026, 2, 1),
      periodEnd: rome(2026, 2, 5),
      changeAt: rome(2026, 2, 3),
      oldAmountCents: 1,
      newPriceCents: 3,
    });
    expect(p).toMatchObject({ totalDays: 4, unusedDays: 2, creditCents: 1, chargeCents: 2 });
  });

  it('refuses a change outside the period', () => {
    expect(() =>
      prorate({
        periodStart: rome(2026, 2, 1),
        periodEnd: rome(2026, 3, 1),
        changeAt: rome(2026, 3, 2),
        oldAmountCents: 100,
        newPriceCents: 100,
      }),
    ).toThrow(RangeError);
  });
});

describe('changePlanSchema', () => {
  it('reads now, renewal, a day and a date-time as its Rome day', () => {
    expect(changePlanSchema.parse({ planId: 3 })).toEqual({ planId: 3, when: 'now', preview: false });
    expect(changePlanSchema.parse({ planId: '3', when: 'renewal', preview: true })).toMatchObject({
      planId: 3,
      when: 'renewal',
      preview: true,
    });
    expect(changePlanSchema.parse({ planId: 3, when: '2026-02-28' }).when).toEqual({ date: '2026-02-28' });
    expect(changePlanSchema.parse({ planId: 3, when: '2026-03-28T23:30:00Z' }).when).toEqual({
      date: '2026-03-29',
    });
  });

  it('answers Italian messages', () => {
    const bad = changePlanSchema.safeParse({ when: '2026-02-30' });
    expect(bad.success).toBe(false);
    const msgs = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(msgs).toContain('planId: Il piano è obbligatorio.');
    expect(msgs.some((m) => m.startsWith('when: Indica quando applicare il cambio'))).toBe(true);
  });
});
