/**
 * The collection screens' reads (issue 29, contract/schemas/collection.ts): the overdue payments
 * with their age buckets ('Incassi in sospeso') and the tenant's ladder ('Solleciti'), plus the
 * one refresh every collection write runs. The writes are one file each beside this one.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AgeBucketKey, CollectionSettings, OverdueList } from '../../../../contract/schemas/collection';
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export const COLLECTION = 'collection';

/** The contract's calls (relative to api/). */
export const collectionPaths = apiPaths.collection;

export interface OverdueQuery {
  page: number;
  pageSize: number;
  searchTerm: string;
  bucket: AgeBucketKey | null;
}

/** The query's parameters as the server reads them (empty criteria left out). */
export function overdueParams(q: Omit<OverdueQuery, 'page' | 'pageSize'>): Record<string, string> {
  const params: Record<string, string> = {};
  const term = q.searchTerm.trim();
  if (term) params.searchTerm = term;
  if (q.bucket) params['filters[bucket]'] = q.bucket;
  return params;
}

/** `GET api/collection/overdue`: a page of overdue payments and the tenant's totals per bucket. */
export function useOverdueList(q: OverdueQuery) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, COLLECTION), 'overdue', q],
    queryFn: () =>
      unwrap<OverdueList>(
        http.get(collectionPaths.overdue, {
          params: { page: q.page, pageSize: q.pageSize, ...overdueParams(q) },
          tenantId,
        }),
      ),
    enabled: tenantId !== null,
    placeholderData: keepPreviousData,
    meta: { logLabel: 'Incassi in sospeso non caricati:' },
  });
}

/** `GET api/collection/settings`: the tenant's ladder and its e-mails. */
export function useLadder() {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, COLLECTION), 'settings'],
    queryFn: () => unwrap<CollectionSettings>(http.get(collectionPaths.settings, { tenantId })),
    enabled: tenantId !== null,
  });
}

/** Refreshes every collection query of the tenant, and its subscriptions (their 'In ritardo'). */
export function useInvalidateCollection() {
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, COLLECTION) }),
      client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') }),
      client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'dashboard') }),
    ]);
  }, [client, tenantId]);
}
