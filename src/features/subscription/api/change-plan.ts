/**
 * 'Cambia piano' (issue 30): `POST api/subscription/changePlan/{id} {planId, when, preview}` — the
 * preview (a read: nothing changes on the server) and the change made — and
 * `POST api/subscription/cancelPlanChange/{id}` for a change scheduled for a later day.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import type { PlanChangePreview } from '../../../../contract/invoice/plan-change';
import type {
  PlanChangeApi,
  PlanChangeRequest,
  PlanChangeResult,
  PlanChangeWhen,
} from '../../../entities/subscription/plan-change-dialog';
import { postPlanChange } from '../../../entities/subscription/plan-change-call';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { ProrationLink } from '../proration-link';
import { subscriptionText as t } from '../subscription-text';
import { SUBSCRIPTION, useInvalidateSubscriptions } from './subscription-queries';

export type { PlanChangeRequest, PlanChangeResult, PlanChangeWhen };

export function previewPlanChange(id: number, body: PlanChangeRequest, tenantId: number | null) {
  return unwrap<PlanChangePreview>(
    http.post(apiPaths.subscription.changePlan(id), { ...body, preview: true }, { tenantId }),
  );
}

/**
 * The preview of the change the dialog describes (none until a plan, and a day when 'In una
 * data', are chosen). The last one stays on screen while the next loads. A refused preview is the
 * dialog's to show (on its field, or above the figures): no toast.
 */
export function usePlanChangePreview(id: number, body: PlanChangeRequest | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, SUBSCRIPTION), 'changePlanPreview', id, body],
    queryFn: () => previewPlanChange(id, body!, tenantId),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
}

/** Variables: the change. Refreshes the subscriptions and the invoices (the credit note), refused or not. */
export function useChangePlan(id: number) {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (body: PlanChangeRequest) =>
      postPlanChange(apiPaths.subscription.changePlan(id), body, tenantId),
    onSettled: () =>
      void Promise.all([
        invalidate(),
        client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'invoice') }),
      ]),
    meta: {
      errorMessage: serverMessageOr(t.actionFailed),
      logLabel: 'Cambio di piano non riuscito:',
    },
  });
}

/** Variables: the subscription's id. */
export function useCancelPlanChange() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: async (id: number) => {
      const res = await http.post<Envelope<{ canceled: boolean }>>(
        apiPaths.subscription.cancelPlanChange(id),
        {},
        { tenantId },
      );
      const data = await unwrap<{ canceled: boolean }>(Promise.resolve(res));
      return { ...data, message: res.data?.message ?? null };
    },
    onSettled: () => void invalidate(),
    meta: {
      errorMessage: serverMessageOr(t.actionFailed),
      logLabel: 'Annullamento del cambio di piano non riuscito:',
    },
  });
}

/** The dialog's calls for the Admin (the plan picker chooses among every active plan). */
export const adminPlanChangeApi: PlanChangeApi = {
  usePreview: usePlanChangePreview,
  useChange: useChangePlan,
  // Issue 30: a proration left to pay gets its card payment link.
  ProrationLink,
};
