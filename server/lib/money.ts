/**
 * Money and percentages are stored as PostgreSQL numeric (exact) and travel as JSON numbers.
 * Inputs are already checked to have at most two decimals (contract `hasAtMostTwoDecimals`,
 * tolerant of binary floating point), so rounding to cents here only removes float noise:
 * 0.1 + 0.2 is stored as 0.30, 19.99 as 19.99.
 */
export function toDecimalString(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}

/** numeric → number: every value of numeric(12,2) is within the range numbers hold exactly to the cent. */
export function fromDecimalString(value: string): number {
  return Number(value);
}
