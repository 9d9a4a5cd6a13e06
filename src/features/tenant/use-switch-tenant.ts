import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { queryKeys } from '../../lib/query-keys';
import { setSelectedTenantId } from '../../lib/tenant-store';
import { showTenantSelectedAlert } from './tenant-alert';

const tenantListKey = queryKeys.tenants()[0];

/**
 * Selecting a tenant: cancel what is in flight, drop every cached row (query keys start with the
 * tenant id, the tenant list itself is global and kept), persist the choice, confirm it with
 * 'Tenant Selezionata!' and go to / (spec §2, §4).
 */
export function useSwitchTenant() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (tenant: { id: number; name: string }) => {
      const scoped = { predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== tenantListKey };
      await queryClient.cancelQueries(scoped);
      queryClient.removeQueries(scoped);
      setSelectedTenantId(tenant.id);
      void showTenantSelectedAlert(tenant.name).catch((e: unknown) => console.error(e));
      navigate('/');
    },
    [queryClient, navigate],
  );
}
