/**
 * 'Segna come pagato': POST api/collection/markPaid/{paymentId} {amount, approvalDate, note?},
 * the bank transfer recorded and the payment recovered (its invoice issued once).
 */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { MarkPaidInput } from '../../../../contract/schemas/collection';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { collectionText } from '../collection-text';
import { collectionPaths, useInvalidateCollection } from './collection-queries';

export async function markPaid({
  paymentId,
  body,
}: {
  paymentId: number;
  body: MarkPaidInput;
}): Promise<Envelope<unknown>> {
  const res = await http.post<Envelope<unknown>>(collectionPaths.markPaid(paymentId), body);
  return res.data;
}

/** The dialog shows the server's field errors and reasons itself: no generic toast on failure. */
export function useMarkPaid() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: markPaid,
    onSuccess: (env) => {
      notify.success(env?.message || collectionText.markPaid.done);
      void invalidate();
    },
  });
}
