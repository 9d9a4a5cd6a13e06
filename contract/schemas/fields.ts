/**
 * Field schemas shared by several entity inputs. Forms send '' for an empty text box and null for
 * an empty number or select; both mean "absent" here.
 */
import { z } from 'zod';
import { idInput, idNumber } from './common';

/** '' and whitespace become null; other strings are trimmed; anything else passes through. */
export function blankToNull(value: unknown): unknown {
  if (typeof value === 'string') {
    const t = value.trim();
    return t === '' ? null : t;
  }
  return value;
}

/** An optional text: '' / null / absent → null; otherwise trimmed, at most `max`, then `check`ed. */
export function optionalText(max: number, check?: { test: (v: string) => boolean; message: string }) {
  const base = z.string().max(max);
  const checked = check ? base.refine(check.test, { message: check.message }) : base;
  return z.preprocess(blankToNull, checked.nullable().optional());
}

/** A required text: '' / whitespace / absent → `message`; otherwise trimmed, at most `max`. */
export function requiredText(max: number, message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: message }).min(1, { message }).max(max),
  );
}

/** An optional reference id: '' / null / 0 / absent → null; a string of digits is read as a number. */
export const optionalRef = z.preprocess((v) => {
  const b = blankToNull(v);
  if (b === 0 || b === '0') return null;
  return idInput(b);
}, idNumber(1).nullable().optional());

/** A required reference id with its own message for "absent". */
export function requiredRef(message: string) {
  return z.preprocess(
    (v) => {
      const b = blankToNull(v);
      if (b === 0 || b === '0') return undefined;
      return idInput(b);
    },
    idNumber(1, message),
  );
}

/** A required number ('' / null / absent → `required`; a numeric string is read as a number). */
export function requiredNumber(required: string, invalid: string) {
  return z.preprocess(
    (v) => {
      const b = blankToNull(v);
      if (typeof b === 'string') {
        const n = Number(b.replace(',', '.'));
        return Number.isNaN(n) ? b : n;
      }
      return b;
    },
    z.number({ error: (issue) => (issue.input === undefined || issue.input === null ? required : invalid) }),
  );
}

/** At most two decimals (money, percentages), tolerant of binary floating point. */
export function hasAtMostTwoDecimals(n: number): boolean {
  return Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
}

/**
 * Binds the keys of a nested object case-insensitively to `keys` (`{ Id, Name }` → `{ id, name }`);
 * the server does this for top-level body keys, nested objects and array items need it here.
 */
export function bindKeys(keys: readonly string[]) {
  const byLower = new Map(keys.map((k) => [k.toLowerCase(), k]));
  return (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') continue;
      const key = byLower.get(k.toLowerCase()) ?? k;
      if (key !== k && Object.hasOwn(value, key)) continue;
      out[key] = v;
    }
    return out;
  };
}
