/**
 * The customer's own 'Cambia piano' (issue 30) on one of their subscriptions:
 * `GET user/me/subscriptions/{id}/changePlan` (whether the tenant allows it, the plans offered)
 * and `POST …/changePlan {planId, when, preview}` — the Admin's computation, the same dialog.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import type { PlanChangePreview } from '../../../../contract/invoice/plan-change';
import { messages } from '../../../../contract/messages';
import { postPlanChange } from '../../../entities/subscription/plan-change-call';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import type {
  PlanChangeApi,
  PlanChangeRequest,
  PlanChoice,
} from '../../../entities/subscription/plan-change-dialog';

export interface OwnPlanOptions {
  allowed: boolean;
  plans: PlanChoice[];
}

const ownKey = (tenantId: number | null, id: number) => [
  ...queryKeys.entity(tenantId, 'subscription'),
  'me',
  'changePlan',
  id,
];

/** Whether the tenant lets its customers change plan, and the plans offered for this subscription. */
export function useOwnPlanOptions(id: number, enabled = true) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: ownKey(tenantId, id),
    queryFn: async () =>
      (await unwrap<OwnPlanOptions>(
        http.get<Envelope<OwnPlanOptions>>(apiPaths.user.myChangePlan(id), { tenantId }),
      )) ?? { allowed: false, plans: [] },
    enabled,
    meta: { errorMessage: serverMessageOr(messages.http.loadError) },
  });
}

/** The preview (nothing changes on the server); a refused one is the dialog's to show. */
function useOwnPlanChangePreview(id: number, body: PlanChangeRequest | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...ownKey(tenantId, id), 'preview', body],
    queryFn: () =>
      unwrap<PlanChangePreview>(
        http.post(apiPaths.user.myChangePlan(id), { ...body!, preview: true }, { tenantId }),
      ),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
}

/** The change made; the subscriptions and invoices are read again (new plan, proration, credit note). */
function useOwnChangePlan(id: number) {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanChangeRequest) => postPlanChange(apiPaths.user.myChangePlan(id), body, tenantId),
    onSettled: () =>
      void Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') }),
        client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'invoice') }),
      ]),
    meta: {
      errorMessage: serverMessageOr(messages.http.saveError),
      logLabel: 'Cambio di piano non riuscito:',
    },
  });
}

/** The dialog's calls for the customer, with the plans the server offers. */
export function ownPlanChangeApi(plans: PlanChoice[]): PlanChangeApi {
  return { usePreview: useOwnPlanChangePreview, useChange: useOwnChangePlan, plans, forCustomer: true };
}
