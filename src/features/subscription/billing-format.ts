/**
 * Input and display helpers of the billing screens: Italian decimals typed by people ('49,50'),
 * exact money (contract/money.ts, integer cents) and date-times on Rome's wall clock.
 */
import { BILLING_TIME_ZONE } from '../../../contract/billing-dates';
import {
  amountWithVat,
  fromCents,
  toCents,
  toPercentHundredths,
  type Cents,
  type PercentHundredths,
} from '../../../contract/money';
import { formatCurrency, NOT_AVAILABLE } from '../../lib/formatters';

/** '49,50', '49.50', '1.234,50' → the decimal as a dot string, or null when it is not a number. */
export function normalizeDecimal(text: string): string | null {
  let t = text.trim().replace(/\s+/g, '');
  if (t === '') return null;
  // With a comma, dots are thousands separators (Italian writing); without one, a dot is the decimal point.
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  return /^\d+(\.\d*)?$/.test(t) ? t : null;
}

/** Euros typed by a person → cents (≥ 0, at most two decimals), or null. */
export function parseEuroInput(text: string): Cents | null {
  const t = normalizeDecimal(text);
  if (t === null) return null;
  try {
    return toCents(t);
  } catch {
    return null;
  }
}

/** A VAT percentage typed by a person → hundredths (0–100, at most two decimals), or null. */
export function parsePercentInput(text: string): PercentHundredths | null {
  const t = normalizeDecimal(text);
  if (t === null) return null;
  try {
    const h = toPercentHundredths(t);
    return h >= 0 && h <= 10_000 ? h : null;
  } catch {
    return null;
  }
}

const twoDecimals = new Intl.NumberFormat('it-IT', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: false,
});
const upToTwoDecimals = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2, useGrouping: false });

/** 40.98 → '40,98' (a cost prefilled in an input). */
export const euroInputValue = (euros: number): string => twoDecimals.format(euros);
/** 22 → '22', 10.5 → '10,5' (a VAT prefilled in an input). */
export const percentInputValue = (percent: number): string => upToTwoDecimals.format(percent);

/** Cents → '50,00 €'. */
export const formatCents = (cents: Cents): string => formatCurrency(fromCents(cents));

/** Net, VAT and total of a price, exact to the cent (half-up), or null when an input is not valid. */
export function priceBreakdown(cost: string, vat: string): { net: Cents; vat: Cents; total: Cents } | null {
  const net = parseEuroInput(cost);
  const rate = parsePercentInput(vat);
  if (net === null || rate === null) return null;
  const total = amountWithVat(net, rate);
  return { net, vat: total - net, total };
}

const romeParts = new Intl.DateTimeFormat('it-IT', {
  timeZone: BILLING_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function partsOf(value: string | null | undefined): Record<string, string> | null {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return Object.fromEntries(romeParts.formatToParts(d).map((p) => [p.type, p.value]));
}

/** An ISO date-time → 'dd/mm/yyyy hh:mm' on Rome's clock (the seller's time zone), or 'N/D'. */
export function formatDateTime(value: string | null | undefined): string {
  const p = partsOf(value);
  return p ? `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}` : NOT_AVAILABLE;
}

/** An ISO date-time → the value of a datetime-local input ('2026-11-22T10:30', Rome's clock), or ''. */
export function toDateTimeLocal(value: string | null | undefined): string {
  const p = partsOf(value);
  return p ? `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}` : '';
}
