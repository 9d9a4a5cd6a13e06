/**
 * 'Disattiva il rinnovo' of the customer area (issue 28): the renewal of each own subscription
 * (`GET api/user/me/subscriptions/renewal`), turning it off with a reason and back on.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import type { OwnRenewal, RenewalStopInput } from '../../../../contract/schemas/renewal';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

const renewalsKey = (tenantId: number | null) => [
  ...queryKeys.entity(tenantId, 'subscription'),
  'me',
  'renewal',
];

export function useOwnRenewals() {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: renewalsKey(tenantId),
    queryFn: async () =>
      (
        await unwrap<{ items: OwnRenewal[] }>(
          http.get<Envelope<{ items: OwnRenewal[] }>>(apiPaths.user.myRenewals, { tenantId }),
        )
      )?.items ?? [],
    meta: { errorMessage: serverMessageOr(messages.http.loadError) },
  });
}

type Change = { kind: 'stop'; id: number; body: RenewalStopInput } | { kind: 'resume'; id: number };

/**
 * Off or on; the answer's Italian message is toasted and the subscriptions are read again (their
 * status moved). A 400's field errors are the dialog's (shown under their fields).
 */
export function useChangeRenewal() {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: Change) => {
      const res =
        change.kind === 'stop'
          ? await http.post<Envelope<OwnRenewal>>(apiPaths.user.cancelRenewal(change.id), change.body, {
              tenantId,
            })
          : await http.post<Envelope<OwnRenewal>>(apiPaths.user.resumeRenewal(change.id), undefined, {
              tenantId,
            });
      await unwrap(Promise.resolve(res));
      return res.data.message ?? null;
    },
    onSuccess: (message) => {
      if (message) notify.success(message);
      void client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
    },
    meta: { errorMessage: serverMessageOr(messages.http.saveError), silent: ['fieldErrors'] },
  });
}
