import { messages } from '../../contract/messages';

/** Display formats of the product (spec §9): EUR in it-IT, dd/mm/yyyy, Sì/No, 'N/D' when missing. */
export const NOT_AVAILABLE = messages.common.notAvailable;

const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const day = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** null, undefined, '' and whitespace-only strings are "missing" and show as 'N/D'. */
export function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** Reads a dotted path (`region.name`); any missing link gives undefined. */
export function getPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function toNumber(value: unknown): number | null {
  if (isMissing(value) || typeof value === 'boolean') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** 1234.5 → '1.234,50 €'. Numeric strings (money as exact decimals on the wire) are accepted. */
export function formatCurrency(value: unknown): string {
  const n = toNumber(value);
  return n === null ? NOT_AVAILABLE : eur.format(n);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: unknown): Date | null {
  if (isMissing(value)) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    // A calendar date without time is that day everywhere, not UTC midnight shifted by the zone.
    const m = DATE_ONLY.exec(value.trim());
    if (m) return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  }
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An ISO date or date-time → 'dd/mm/yyyy' in the browser's time zone. */
export function formatDate(value: unknown): string {
  const d = toDate(value);
  return d === null ? NOT_AVAILABLE : day.format(d);
}

/** true → 'Sì', false → 'No' (also 'true'/'false' strings); anything else 'N/D'. */
export function formatBool(value: unknown): string {
  if (value === true || value === 'true') return messages.common.yes;
  if (value === false || value === 'false') return messages.common.no;
  return NOT_AVAILABLE;
}

/** Plain text cell: the value as a string, or 'N/D'. */
export function formatText(value: unknown): string {
  if (isMissing(value)) return NOT_AVAILABLE;
  if (typeof value === 'object') return NOT_AVAILABLE;
  return String(value);
}

/**
 * A number typed the Italian way or the other: '49,50', '49.50', '1.234,50', '1,234.50', ' 22 '
 * all read; the last of ',' and '.' is the decimal separator when both appear, the other one
 * groups thousands. Anything else (letters, two decimal marks, empty) is null.
 */
export function parseDecimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  let s = value.trim().replace(/\s+/g, '').replace(/€|%/g, '');
  if (s === '') return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const group = decimal === ',' ? '.' : ',';
    s = s.split(group).join('');
    if (decimal === ',') s = s.replace(',', '.');
  } else if (lastComma >= 0) {
    if (s.indexOf(',') !== lastComma) return null;
    s = s.replace(',', '.');
  } else if (lastDot >= 0 && s.indexOf('.') !== lastDot) {
    return null;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** 49.5 → '49,50' (Italian decimal comma, `places` decimals, no grouping: what an input shows). */
export function formatDecimalInput(value: number, places: number): string {
  return value.toFixed(places).replace('.', ',');
}

const percent = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 22 → '22,00 %' (VAT and other percentages, two decimals, Italian locale). */
export function formatPercent(value: unknown): string {
  const n = toNumber(value);
  return n === null ? NOT_AVAILABLE : `${percent.format(n)} %`;
}
