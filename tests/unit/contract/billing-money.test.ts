/**
 * Property tests of contract/money.ts. Every reference result is computed with BigInt, never with
 * floating point, so a float shortcut in the module cannot agree with its own mistake.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountWithVat,
  divideHalfUp,
  fromCents,
  MAX_CENTS,
  toCents,
  toPercentHundredths,
  vatOf,
} from '../../../contract/money';

const SEED = 20_260_101;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

/** n / d rounded half away from zero, in exact integer arithmetic (d > 0). */
function refDivideHalfUp(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = abs / d;
  const r = abs % d;
  const rounded = 2n * r >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** cost (cents) × (1 + VAT/100) with VAT in hundredths of a percent, half-up to the cent, exactly. */
function refAmountWithVat(cents: number, hundredths: number): number {
  return Number(refDivideHalfUp(BigInt(cents) * (10_000n + BigInt(hundredths)), 10_000n));
}

/** −0 and +0 compare equal here; the sign of zero is pinned separately (see the known-bug test). */
const numeric = (x: number) => (x === 0 ? 0 : x);

/** Cents written as a euro decimal string without any float step: -1234 → '-12,34' (or '.'). */
function centsText(cents: number, separator: ',' | '.'): string {
  const big = BigInt(cents);
  const abs = big < 0n ? -big : big;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${big < 0n ? '-' : ''}${abs / 100n}${separator}${fraction}`;
}

const costCents = fc.integer({ min: 0, max: 100_000_000 }); // 0,00 … 1.000.000,00 €
const vatHundredths = fc.integer({ min: 0, max: 10_000 }); // 0,00 … 100,00 %

describe('amountWithVat', () => {
  it('equals cost × (1 + VAT/100) rounded half-up to the cent, for any cost and VAT with two decimals', () => {
    fc.assert(
      fc.property(costCents, vatHundredths, (cents, vat) => {
        expect(amountWithVat(cents, vat)).toBe(refAmountWithVat(cents, vat));
      }),
      runs(10_000),
    );
  });

  it('rounds every exact half-cent up (swept over many costs at common VAT rates)', () => {
    let ties = 0;
    for (const vat of [0, 1, 400, 500, 1000, 2200, 2250, 9999, 10_000]) {
      for (let cents = 0; cents <= 20_000; cents++) {
        const product = cents * (10_000 + vat);
        if (product % 10_000 === 5000) ties++;
        const actual = amountWithVat(cents, vat);
        if (actual !== refAmountWithVat(cents, vat)) {
          expect({ cents, vat, actual }).toEqual({ cents, vat, actual: refAmountWithVat(cents, vat) });
        }
      }
    }
    // The sweep must actually contain half-cent ties, or it proves nothing about rounding.
    expect(ties).toBeGreaterThan(1000);
  });

  it('is net + vatOf(net) and vatOf matches the exact reference', () => {
    fc.assert(
      fc.property(costCents, vatHundredths, (cents, vat) => {
        const vatCents = Number(refDivideHalfUp(BigInt(cents) * BigInt(vat), 10_000n));
        expect(vatOf(cents, vat)).toBe(vatCents);
        expect(amountWithVat(cents, vat)).toBe(cents + vatCents);
      }),
      runs(10_000),
    );
  });

  it('classic cases', () => {
    expect(amountWithVat(toCents(40.98), toPercentHundredths(22))).toBe(5000);
    expect(amountWithVat(toCents('9,90'), toPercentHundredths('22'))).toBe(1208); // 12,078 → 12,08
    expect(amountWithVat(100, 2200)).toBe(122);
    expect(amountWithVat(0, 2200)).toBe(0);
    expect(amountWithVat(12_345, 0)).toBe(12_345);
    expect(amountWithVat(12_345, 10_000)).toBe(24_690);
    expect(amountWithVat(25, 1000)).toBe(28); // 0,275 → 0,28 (half up, not to even)
    expect(amountWithVat(15, 1000)).toBe(17); // 0,165 → 0,17
    expect(vatOf(5, 1000)).toBe(1); // 0,005 → 0,01
    expect(vatOf(-5, 1000)).toBe(-1); // −0,005 → −0,01
    expect(vatOf(4, 1000)).toBe(0);
  });
});

describe('divideHalfUp', () => {
  const safeInt = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.maxSafeInteger(),
    fc.integer({ min: Number.MAX_SAFE_INTEGER - 1_000_000, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MIN_SAFE_INTEGER + 1_000_000 }),
  );
  const divisor = fc.oneof(
    fc.integer({ min: 1, max: 20 }),
    fc.integer({ min: 1, max: 1_000_000 }),
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(2, 10, 100, 1000, 10_000, Number.MAX_SAFE_INTEGER),
  );

  it('matches the BigInt reference for any safe integer and positive divisor', () => {
    fc.assert(
      fc.property(safeInt, divisor, (n, d) => {
        expect(numeric(divideHalfUp(n, d))).toBe(Number(refDivideHalfUp(BigInt(n), BigInt(d))));
      }),
      runs(20_000),
    );
  });

  it('matches the reference on exact halves (n = k·d + d/2, d even)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (k, half) => {
          const d = 2 * half;
          const n = k * d + (k < 0 ? -half : half);
          const expected = Number(refDivideHalfUp(BigInt(n), BigInt(d)));
          expect(Math.abs(expected)).toBe(Math.abs(k) + 1); // away from zero
          expect(divideHalfUp(n, d)).toBe(expected);
        },
      ),
      runs(5000),
    );
  });

  it('is symmetric for negatives: f(−n, d) = −f(n, d)', () => {
    fc.assert(
      fc.property(safeInt, divisor, (n, d) => {
        expect(numeric(divideHalfUp(-n, d))).toBe(numeric(-divideHalfUp(n, d)));
      }),
      runs(10_000),
    );
  });

  it('half-cent cases round away from zero', () => {
    expect(divideHalfUp(5, 10)).toBe(1); // 0,005 € in mills → 0,01 €
    expect(divideHalfUp(-5, 10)).toBe(-1);
    expect(divideHalfUp(4, 10)).toBe(0);
    expect(divideHalfUp(15, 10)).toBe(2);
    expect(divideHalfUp(25, 10)).toBe(3); // not banker's rounding
    expect(divideHalfUp(500, 1000)).toBe(1);
    expect(divideHalfUp(499, 1000)).toBe(0);
    expect(divideHalfUp(-500, 1000)).toBe(-1);
    expect(numeric(divideHalfUp(5, 1000))).toBe(0); // 0,005 of a unit stays 0
    expect(numeric(divideHalfUp(-5, 1000))).toBe(0);
    expect(divideHalfUp(1005, 1000)).toBe(1);
    expect(divideHalfUp(Number.MAX_SAFE_INTEGER, 2)).toBe(4_503_599_627_370_496);
  });

  it('refuses non-integers, unsafe integers and divisors ≤ 0', () => {
    fc.assert(
      fc.property(safeInt, fc.integer({ min: -1_000_000, max: 0 }), (n, d) => {
        expect(() => divideHalfUp(n, d)).toThrow(RangeError);
      }),
      runs(500),
    );
    expect(() => divideHalfUp(1.5, 10)).toThrow(RangeError);
    expect(() => divideHalfUp(10, 2.5)).toThrow(RangeError);
    expect(() => divideHalfUp(Number.MAX_SAFE_INTEGER + 1, 10)).toThrow(RangeError);
    expect(() => divideHalfUp(Number.NaN, 10)).toThrow(RangeError);
  });

  // Regression: a negative numerator that rounds to zero gave −0, which Intl renders as "-0,00 €".
  it('never returns −0 (divideHalfUp(-1, 3), vatOf(-1, 2200))', () => {
    expect(Object.is(divideHalfUp(-1, 3), 0)).toBe(true);
    expect(Object.is(vatOf(-1, 2200), 0)).toBe(true);
  });
});

describe('toCents / fromCents', () => {
  const anyCents = fc.integer({ min: -MAX_CENTS, max: MAX_CENTS });

  it('toCents(fromCents(c)) === c for any integer c within ±MAX_CENTS', () => {
    fc.assert(
      fc.property(anyCents, (c) => {
        expect(numeric(toCents(fromCents(c)))).toBe(c);
      }),
      runs(10_000),
    );
  });

  it('reads decimal strings with comma or dot exactly', () => {
    fc.assert(
      fc.property(anyCents, fc.constantFrom(',' as const, '.' as const), (c, sep) => {
        expect(numeric(toCents(centsText(c, sep)))).toBe(c);
        expect(numeric(toCents(` ${centsText(c, sep)} `))).toBe(c);
      }),
      runs(10_000),
    );
  });

  it('refuses strings with a significant third decimal', () => {
    fc.assert(
      fc.property(anyCents, fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{0,3}$/), (c, d, tail) => {
        expect(() => toCents(`${centsText(c, '.')}${d}${tail}`)).toThrow(RangeError);
      }),
      runs(5000),
    );
  });

  it('accepts the documented forms and refuses the rest', () => {
    expect(toCents('49,50')).toBe(4950);
    expect(toCents('49.50')).toBe(4950);
    expect(toCents(49.5)).toBe(4950);
    expect(toCents('49,5')).toBe(4950);
    expect(toCents(0.1 + 0.2)).toBe(30); // float noise removed
    expect(toCents('1.230')).toBe(123); // trailing zeros are not decimals
    expect(fromCents(4950)).toBe(49.5);
    expect(toPercentHundredths(22)).toBe(2200);
    expect(toPercentHundredths(0.1)).toBe(10);
    expect(toPercentHundredths('22,50')).toBe(2250);
    for (const bad of [
      '1.234',
      'abc',
      '',
      '1,2,3',
      '1.2.3',
      '€5',
      '5e2',
      1.234,
      1.005,
      Number.NaN,
      Infinity,
    ]) {
      expect(() => toCents(bad), String(bad)).toThrow(RangeError);
    }
  });

  // Regression: a JSON number with 5+ decimals close to a cent was once rounded instead of refused
  // (1.009999 → 101, 1.000001 → 100).
  it('refuses JSON numbers with more than two decimals, however close to a cent', () => {
    expect(() => toCents(1.009999)).toThrow(RangeError);
    expect(() => toCents(1.000001)).toThrow(RangeError);
  });
});
