import { validationMessages } from '../../contract/validation/italian';
import { couponMessages, integrationMessages } from '../../contract/messages';

/** PostgreSQL error codes the API answers to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const PgErrorCode = {
  foreignKeyViolation: '23503',
  uniqueViolation: '23505',
} as const;

/**
 * The SQLSTATE of a database error, whichever driver raised it: drizzle wraps driver errors
 * (pg's DatabaseError, PGlite's) in DrizzleQueryError with the original as `cause`.
 */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a database error names (unique index, foreign key), whichever driver raised it. */
export function pgConstraint(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === 'string' && name) return name;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Unique constraints that stand for "this value is taken" on one field of a form: a duplicate is
 * answered 409 with that field's message ('code: Esiste già…'), so the form shows it in the field.
 */
export const uniqueFieldErrors: Readonly<Record<string, { field: string; message: string }>> = {
  regions_code_idx: { field: 'code', message: validationMessages.regionCodeTaken },
  plans_tenant_name_unique_idx: { field: 'name', message: validationMessages.planNameTaken },
  features_tenant_key_unique_idx: { field: 'key', message: integrationMessages.featureKeyTaken },
  coupons_tenant_code_unique_idx: { field: 'code', message: couponMessages.codeTaken },
};
