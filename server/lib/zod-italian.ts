import { z } from 'zod';
import { NUMBER_MESSAGE } from '../../contract/schemas/common';

export const REQUIRED_MESSAGE = 'Campo obbligatorio';
/** Coerced numbers see NaN both when missing and when not numeric, so one message says both. */
export { NUMBER_MESSAGE } from '../../contract/schemas/common';

/**
 * Validation messages in Italian (the API contract): zod's Italian locale, plus one plain
 * message for a missing or empty required field instead of the locale's technical wording.
 * Messages written in a schema (contract/schemas) take precedence over both.
 */
export function applyItalianZodMessages(): void {
  z.config(z.locales.it());
  z.config({
    customError: (issue) => {
      if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
        return REQUIRED_MESSAGE;
      if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1)
        return REQUIRED_MESSAGE;
      if (issue.code === 'invalid_type' && issue.expected === 'number' && Number.isNaN(issue.input)) {
        return NUMBER_MESSAGE;
      }
      return undefined;
    },
  });
}
