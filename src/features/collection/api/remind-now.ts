/**
 * 'Sollecita ora': POST api/collection/remind/{paymentId}, the next reminder e-mail now (a fresh
 * link, or the transfer instructions). The server's message is the toast; a 409 (paid, exhausted)
 * is a toast with its reason.
 */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { notify } from '../../../lib/notify';
import { collectionText } from '../collection-text';
import { collectionPaths, useInvalidateCollection } from './collection-queries';

export async function remindNow(paymentId: number): Promise<Envelope<unknown>> {
  const res = await http.post<Envelope<unknown>>(collectionPaths.remind(paymentId));
  return res.data;
}

/** Variables: the payment's id. */
export function useRemindNow() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: remindNow,
    onSuccess: (env) => {
      notify.success(env?.message || collectionText.overdue.reminded);
      void invalidate();
    },
    meta: {
      errorMessage: serverMessageOr(collectionText.overdue.remindFailed),
      logLabel: 'Sollecito non inviato:',
    },
  });
}
