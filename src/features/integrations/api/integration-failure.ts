import { messages } from '../../../../contract/messages';
import { serverMessageOr } from '../../../lib/http-errors';

/** The failure toast of the key and webhook actions: the server's message, else the catalogue's save error. */
export const serverMessageOrSaveError = serverMessageOr(messages.http.saveError);
