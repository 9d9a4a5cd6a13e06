/**
 * Money, exactly. Amounts are integer euro cents end to end (database `bigint`/`integer` cents,
 * arithmetic here); percentages are integer hundredths of a percent (22,00 % → 2200). JSON carries
 * euros as numbers with at most two decimals, converted at the edge by `toCents` / `fromCents`.
 *
 * Rounding happens in one place, `divideHalfUp`: half away from zero, as Italian invoices and the
 * SdI's checks round (0,005 → 0,01; −0,005 → −0,01).
 */

/** An amount in euro cents (an integer). */
export type Cents = number;
/** A percentage in hundredths (22,00 % → 2200; 0,1 % → 10). */
export type PercentHundredths = number;

export const CURRENCY = 'EUR' as const;
export type Currency = typeof CURRENCY;

/** Largest amount the product accepts in one field: 10 million euro. */
export const MAX_CENTS: Cents = 1_000_000_000;

/**
 * numerator / divisor rounded half away from zero. Both integers, divisor > 0, |numerator| within
 * Number.MAX_SAFE_INTEGER: the only rounding of money in the product.
 */
export function divideHalfUp(numerator: number, divisor: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(divisor) || divisor <= 0) {
    throw new RangeError(`divideHalfUp(${numerator}, ${divisor}): integers only, divisor > 0`);
  }
  const abs = Math.abs(numerator);
  const q = Math.floor(abs / divisor);
  const rounded = abs - q * divisor >= divisor - (abs - q * divisor) ? q + 1 : q;
  // No negative zero: −0 would print as '-0,00 €'.
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * A decimal with at most `scale` decimals (a JSON number such as 49.5, or a string such as
 * '49,50' or '49.50') → integer units of 10^-scale. Binary floating-point noise (0.1 + 0.2) is
 * removed; a value with more decimals than `scale` is refused (RangeError), never rounded silently.
 */
function toScaled(value: number | string, scale: number): number {
  const factor = 10 ** scale;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a number: ${value}`);
    const scaled = value * factor;
    const units = Math.round(scaled);
    // Only binary floating-point noise is tolerated (0.1 + 0.2), never a real extra decimal.
    if (Math.abs(units - scaled) > Math.max(1e-9, Math.abs(scaled) * 4 * Number.EPSILON))
      throw new RangeError(`more than ${scale} decimals: ${value}`);
    if (!Number.isSafeInteger(units)) throw new RangeError(`out of range: ${value}`);
    return units === 0 ? 0 : units;
  }
  const m = /^(-)?(\d+)(?:[.,](\d*))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not a decimal: ${value}`);
  const [, minus, whole = '', fraction = ''] = m;
  if (/[1-9]/.test(fraction.slice(scale))) throw new RangeError(`more than ${scale} decimals: ${value}`);
  const units = Number(whole) * factor + Number(fraction.slice(0, scale).padEnd(scale, '0'));
  if (!Number.isSafeInteger(units)) throw new RangeError(`out of range: ${value}`);
  return minus && units !== 0 ? -units : units;
}

/** 49.5 → 4950. At most two decimals (RangeError otherwise). */
export function toCents(euros: number | string): Cents {
  return toScaled(euros, 2);
}

/** 4950 → 49.5 (a JSON number for the wire; exact to the cent within MAX_CENTS). */
export function fromCents(cents: Cents): number {
  return cents / 100;
}

/** 22 → 2200, 0.1 → 10. At most two decimals. */
export function toPercentHundredths(percent: number | string): PercentHundredths {
  return toScaled(percent, 2);
}

export function fromPercentHundredths(value: PercentHundredths): number {
  return value / 100;
}

/** VAT on `net` at `vat` (hundredths of a percent), rounded half-up to the cent. */
export function vatOf(net: Cents, vat: PercentHundredths): Cents {
  return divideHalfUp(net * vat, 10_000);
}

/**
 * Amount with VAT = cost × (1 + VAT/100), rounded half-up to the cent (api-contract 'Wire
 * conventions'): 40,98 € at 22 % → 50,00 €.
 */
export function amountWithVat(net: Cents, vat: PercentHundredths): Cents {
  return divideHalfUp(net * (10_000 + vat), 10_000);
}

/** Sum of amounts (integers, so exact). */
export function sumCents(values: readonly Cents[]): Cents {
  return values.reduce((a, b) => a + b, 0);
}
