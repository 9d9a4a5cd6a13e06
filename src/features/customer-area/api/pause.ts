/**
 * The customer's own pause of collection (issue 30) on one of their subscriptions:
 * `GET user/me/subscriptions/{id}/pause` (whether the tenant allows it), `POST …/pause {periods}`
 * ('Sospendi per N periodi') and `POST …/resume` ('Riprendi ora').
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export function useOwnPauseAllowed(id: number, enabled: boolean) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, 'subscription'), 'me', 'pause', id],
    queryFn: async () =>
      (await unwrap<{ allowed: boolean }>(
        http.get<Envelope<{ allowed: boolean }>>(apiPaths.user.myPause(id), { tenantId }),
      )) ?? { allowed: false },
    enabled,
    meta: { errorMessage: serverMessageOr(messages.http.loadError) },
  });
}

/** Pause ({periods}) or resume (null); the server's Italian message as a toast, the list read again. */
export function useOwnPause(id: number) {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (periods: number | null) => {
      const res = await http.post<Envelope<unknown>>(
        periods === null ? apiPaths.user.myResume(id) : apiPaths.user.myPause(id),
        periods === null ? {} : { periods },
        { tenantId },
      );
      await unwrap(Promise.resolve(res));
      return res.data.message ?? null;
    },
    onSuccess: (message) => {
      if (message) notify.success(message);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') }),
    meta: { errorMessage: serverMessageOr(messages.http.saveError) },
  });
}
