/** The dashboard's one call (`GET api/dashboard/summary`), keyed by tenant; always fresh on mount. */
import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { DashboardSummary } from '../../../../contract/schemas/dashboard';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export function useDashboardSummary(enabled: boolean) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, 'dashboard'), 'summary'],
    queryFn: () => unwrap<DashboardSummary>(http.get(apiPaths.dashboard.summary, { tenantId })),
    enabled: enabled && tenantId !== null,
    // A subscription activated a moment ago shows when the dashboard opens again.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
