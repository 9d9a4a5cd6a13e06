/** 'Sospendi incasso' and 'Riprendi ora' (issue 30): POST subscription/pause/{id} and resume/{id}. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { PauseInput, SubscriptionPause } from '../../../../contract/schemas/pause';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { pauseText as t } from '../pause-text';
import { useInvalidateSubscriptions } from './subscription-queries';

export function pauseSubscription(id: number, body: PauseInput, tenantId: number | null) {
  return unwrap<SubscriptionPause>(http.post(apiPaths.subscription.pause(id), body, { tenantId }));
}

export function resumeSubscription(id: number, tenantId: number | null) {
  return unwrap<{ nextBillingDate: string }>(http.post(apiPaths.subscription.resume(id), {}, { tenantId }));
}

/** Variables: the subscription's id and the pause. Refreshes the tenant's subscriptions either way. */
export function usePauseSubscription() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: ({ id, ...body }: PauseInput & { id: number }) => pauseSubscription(id, body, tenantId),
    onSettled: () => void invalidate(),
    meta: {
      errorMessage: serverMessageOr(t.pauseFailed),
      logLabel: 'Sospensione dell’incasso non riuscita:',
    },
  });
}

export function useResumeSubscription() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (id: number) => resumeSubscription(id, tenantId),
    onSettled: () => void invalidate(),
    meta: {
      errorMessage: serverMessageOr(t.resumeFailed),
      logLabel: 'Ripresa dell’incasso non riuscita:',
    },
  });
}
