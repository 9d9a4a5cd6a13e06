/**
 * The plan's features: `POST plan/associateFeatures/{planId}` with the whole new list, which
 * replaces the old one; `data` is the list as saved.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import type { Plan, PlanFeatureItem } from '../../../../contract/schemas/plan';
import { planResource } from '../../../entities/plan/plan.resource';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export type NewFeature = { featureName: string; description: string | null };

export function associateFeatures(planId: number, list: NewFeature[], tenantId: number | null) {
  return unwrap<PlanFeatureItem[]>(
    http.post<Envelope<PlanFeatureItem[]>>(apiPaths.plan.associateFeatures(planId), list, { tenantId }),
  );
}

/**
 * Variables: the new list. `purpose` picks the inline table's failure toast (adding or removing a
 * feature). Puts the saved list on the plan's detail at once, then refreshes the tenant's plans.
 */
export function useAssociateFeatures(planId: number, purpose: 'add' | 'remove') {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (list: NewFeature[]) => associateFeatures(planId, list, tenantId),
    onSuccess: async (data) => {
      const detailKey = queryKeys.detail(tenantId, planResource.name, planId);
      if (Array.isArray(data)) {
        client.setQueryData<Plan | null>(detailKey, (old) => (old ? { ...old, planFeatures: data } : old));
      }
      await client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, planResource.name) });
    },
    meta:
      purpose === 'add'
        ? {
            errorMessage: messages.inlineTable.saveError,
            logLabel: 'Errore nel salvataggio delle funzionalità del piano:',
          }
        : {
            errorMessage: messages.inlineTable.deleteError,
            logLabel: 'Errore nella rimozione della funzionalità del piano:',
          },
  });
}
