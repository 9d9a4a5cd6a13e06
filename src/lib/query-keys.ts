import type { ListQuery } from '../../contract/envelope';

/**
 * Query keys start with the tenant id, so that switching tenant never shows one tenant's rows
 * under another (architecture guide).
 */
export const queryKeys = {
  all: (tenantId: number | null) => ['tenant', tenantId] as const,
  entity: (tenantId: number | null, entity: string) => ['tenant', tenantId, entity] as const,
  list: (tenantId: number | null, entity: string, query: ListQuery) =>
    ['tenant', tenantId, entity, 'list', query] as const,
  detail: (tenantId: number | null, entity: string, id: number) =>
    ['tenant', tenantId, entity, 'detail', id] as const,
  select: (tenantId: number | null, entity: string, query: unknown) =>
    ['tenant', tenantId, entity, 'select', query] as const,
  tenants: () => ['tenants'] as const,
};
