import { downloadErrorMessage } from '../../../lib/download-file';

/**
 * The failure toast of the report calls: the call's text followed by the server's reason (read
 * from the bytes of the PDF's answer, or from the envelope), or the text alone.
 */
export const reportFailure = (text: string) => (error: unknown) => {
  const reason = downloadErrorMessage(error);
  return reason ? `${text} ${reason}` : text;
};
