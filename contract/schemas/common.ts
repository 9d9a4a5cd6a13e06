import { z } from 'zod';

/** The largest id a column holds (PostgreSQL integer / serial). */
export const MAX_ID = 2_147_483_647;
/** Said of a missing or malformed id (and of any non-number where a number is expected). */
export const NUMBER_MESSAGE = 'Numero mancante o non valido';

const DIGITS = /^\s*\d{1,10}\s*$/;

/**
 * How an id arrives: a JSON number, or a string of decimal digits (forms, query strings, paths).
 * Nothing else becomes a number: `true`, `[7]`, `'0x10'`, `'1e3'` stay as they are and fail the
 * number check, so an id is a positive integer in range and nothing else.
 */
export function idInput(value: unknown): unknown {
  return typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;
}

/** A number that is an id: integer, 1 … MAX_ID (or 0 … MAX_ID when 0 means "new"). */
export const idNumber = (min: 0 | 1 = 1, message: string = NUMBER_MESSAGE) =>
  z.number({ error: message }).int({ message }).min(min, { message }).max(MAX_ID, { message });

/** An id in a body: absent, '', 0 or null means "new". */
export const optionalId = z.preprocess(
  (v) => (v === '' ? null : idInput(v)),
  idNumber(0).optional().nullable(),
);
/** A required id (body or path): a positive integer up to MAX_ID. */
export const requiredId = z.preprocess(idInput, idNumber(1));

export const trimmed = (max: number) => z.string().trim().max(max);
