import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { TENANT_LIST_PAGE_SIZE } from '../../../contract/enums';
import type { Envelope, Paged } from '../../../contract/envelope';
import { apiPaths } from '../../../contract/api-paths';
import { messages } from '../../../contract/messages';
import { http } from '../../lib/http';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { queryKeys } from '../../lib/query-keys';
import { endSession } from '../../lib/session';

export interface TenantOption {
  id: number;
  name: string;
}

export async function fetchTenants(): Promise<TenantOption[]> {
  const res = await http.get<Envelope<Paged<TenantOption>>>(apiPaths.tenantList, {
    params: { page: 1, pageSize: TENANT_LIST_PAGE_SIZE },
  });
  if (!res.data.success) throw new Error(res.data.message ?? 'tenant list failed');
  return (res.data.data?.items ?? []).map((t) => ({ id: t.id, name: t.name }));
}

/**
 * The tenants the signed-in user may select (page 1, size 100; spec §7). A failure shows
 * 'Errore nel recupero delle tenant…' (the error path, once) and sends the user to /login,
 * history replaced (spec §8); 401 and network errors were already handled by the error catalogue.
 */
export function useTenantList() {
  const query = useQuery({
    queryKey: queryKeys.tenants(),
    queryFn: fetchTenants,
    meta: {
      errorMessage: messages.tenant.loadError,
      toastId: 'tenant-load-error',
      logLabel: 'Elenco dei tenant non caricato:',
    },
  });
  const { error } = query;
  useEffect(() => {
    if (!error || isHandledByInterceptor(error)) return;
    endSession('tenantLoadFailed');
  }, [error]);
  return query;
}
