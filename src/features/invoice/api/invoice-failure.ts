/** The failure toasts of the invoice writes (the server's Italian reasons, never a field key). */
import { errorText, serverErrors } from '../../../lib/entity-hooks';

/** Retry and credit note: the server's reasons (e.g. what is still missing), else its message. */
export const reasonsOrMessage = (error: unknown): string => serverErrors(error).join(' ') || errorText(error);

/** Send and SdI receipt: the server's message followed by its reasons (each said once). */
export const messageAndReasons = (error: unknown): string =>
  [...new Set([errorText(error), ...serverErrors(error)].filter(Boolean))].join(' ');
