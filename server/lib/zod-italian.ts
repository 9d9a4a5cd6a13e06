import { z } from 'zod';

export const REQUIRED_MESSAGE = 'Campo obbligatorio';

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
      return undefined;
    },
  });
}
