/**
 * Validation failures travel in the envelope's `errors` as 'fieldKey: Italian message' strings
 * (api-contract 'Wire conventions'). This is the one place that splits them: the server also
 * sends the result as `fieldErrors`, and the SPA attaches each message to its field. A person
 * never sees the key itself.
 */

/** A field path as the server writes it: `vatCode`, `billingAddress.street`, `filters.name`, `items[0].name`. */
const KEYED = /^([A-Za-z_$][\w$-]*(?:(?:\.[A-Za-z_$][\w$]*)|(?:\[\d+\])|(?:\.\d+))*):\s+([\s\S]+)$/;

export interface SplitError {
  /** The field key, or null for a message that belongs to no field. */
  field: string | null;
  /** The Italian message alone. */
  message: string;
}

/** 'vatCode: Partita IVA non valida…' → { field: 'vatCode', message: 'Partita IVA non valida…' }. */
export function splitFieldError(entry: string): SplitError {
  const m = KEYED.exec(entry.trim());
  if (!m) return { field: null, message: entry.trim() };
  return { field: m[1] as string, message: (m[2] as string).trim() };
}

/** The first message of each field, in order (one message per problem). */
export function fieldErrorsOf(errors: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const { field, message } = splitFieldError(e);
    if (field !== null && !(field in out)) out[field] = message;
  }
  return out;
}

/** The messages without their keys, duplicates dropped (for a toast or a list a person reads). */
export function plainMessages(errors: readonly string[]): string[] {
  return [...new Set(errors.map((e) => splitFieldError(e).message))];
}
