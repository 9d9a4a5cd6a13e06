/**
 * React Query hooks generated from an entity declaration: `createEntityHooks(resource)` (cached
 * per declaration by `entityHooks(resource)`). Keys come from query-keys.ts and start with the
 * tenant id, so one tenant's rows are never drawn under another.
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryMeta,
} from '@tanstack/react-query';
import { isAxiosError, type AxiosResponse } from 'axios';
import { apiPaths } from '../../contract/api-paths';
import type { Envelope, Paged, SelectQuery, SelectResult } from '../../contract/envelope';
import { plainMessages, splitFieldError } from '../../contract/field-errors';
import { http } from './http';
import { queryKeys } from './query-keys';
import type { FormValues, ResourceDef } from './resource';
import { useSelectedTenantId } from './tenant-store';

export type Row = { id: number } & Record<string, unknown>;
export type FilterValue = string | boolean | number | null | undefined;

/** A list query as screens hold it: filters may be empty ('' / false / null) and are dropped before sending. */
export interface LooseQuery {
  page: number;
  pageSize: number;
  searchTerm?: string;
  filters?: Record<string, FilterValue>;
  selectedIds?: number[];
  /** `sort=key` / `sort=-key` (lists only). */
  sort?: string;
}

/** An answer whose envelope says `success: false` although the status was 2xx. */
export class EnvelopeError extends Error {
  readonly envelope: Envelope<unknown>;
  constructor(envelope: Envelope<unknown>) {
    super(envelope.message ?? 'success: false');
    this.name = 'EnvelopeError';
    this.envelope = envelope;
  }
}

/** The `data` of an envelope answer; a `success: false` answer throws EnvelopeError. */
export async function unwrap<T>(request: Promise<AxiosResponse<Envelope<T>>>): Promise<T | null> {
  const { data } = await request;
  if (data && typeof data === 'object' && data.success === false) throw new EnvelopeError(data);
  return data?.data ?? null;
}

/** The envelope of a failed call, if the server sent one. */
export function failureEnvelope(error: unknown): Partial<Envelope<unknown>> | null {
  if (error instanceof EnvelopeError) return error.envelope;
  if (isAxiosError(error)) {
    const body: unknown = error.response?.data;
    if (body && typeof body === 'object') return body as Partial<Envelope<unknown>>;
  }
  return null;
}

/**
 * The server's validation messages (`errors`, without their field keys), or its `message`: what a
 * person may read in a toast or under a form. A key such as `vatCode:` is never part of it.
 */
export function serverErrors(error: unknown): string[] {
  const env = failureEnvelope(error);
  if (!env) return [];
  if (Array.isArray(env.errors) && env.errors.length > 0) return plainMessages(env.errors.map(String));
  return typeof env.message === 'string' && env.message ? [env.message] : [];
}

export interface ServerFieldErrors {
  /** First message per field key, as the server named the field ('vatCode', 'billingAddress.zip'). */
  fields: Record<string, string>;
  /** Messages that name no field (or the envelope's message when there are no `errors`). */
  general: string[];
  /** Every message without its key, in order (a plan form toasts the first, spec §8). */
  all: string[];
}

/**
 * A failed save split by field: the envelope's `fieldErrors` when the server sends them, else its
 * 'field: message' `errors` parsed here (any backend that honours the contract).
 */
export function serverFieldErrors(error: unknown): ServerFieldErrors {
  const env = failureEnvelope(error);
  const fields: Record<string, string> = {};
  const general: string[] = [];
  const entries = Array.isArray(env?.errors) ? env.errors.map(String) : [];
  for (const entry of entries) {
    const { field, message } = splitFieldError(entry);
    if (field === null) general.push(message);
    else if (!(field in fields)) fields[field] = message;
  }
  if (env?.fieldErrors && typeof env.fieldErrors === 'object') {
    for (const [field, message] of Object.entries(env.fieldErrors)) {
      if (typeof message === 'string' && !(field in fields)) fields[field] = message;
    }
  }
  const all = serverErrors(error);
  if (entries.length === 0 && Object.keys(fields).length === 0) general.push(...all);
  return { fields, general: [...new Set(general)], all };
}

/** A short human description of a failure (server message first, never a field key). */
export function errorText(error: unknown): string {
  const env = failureEnvelope(error);
  if (env && typeof env.message === 'string' && env.message) return splitFieldError(env.message).message;
  return error instanceof Error ? error.message : String(error);
}

/** A filter value that restricts the list (not empty text, false, null or NaN). */
export function hasValue(v: FilterValue): v is string | number | true {
  if (v === undefined || v === null || v === false) return false;
  if (typeof v === 'string') return v.trim() !== '';
  return !(typeof v === 'number' && Number.isNaN(v));
}

/** Drops empty text, false booleans and empty ids so equal queries share one cache entry. */
export function normalizeQuery(query: LooseQuery): SelectQuery {
  const filters: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(query.filters ?? {})) {
    if (hasValue(value)) filters[key] = typeof value === 'string' ? value.trim() : value;
  }
  const out: SelectQuery = { page: query.page, pageSize: query.pageSize, filters };
  const term = query.searchTerm?.trim();
  if (term) out.searchTerm = term;
  if (query.selectedIds && query.selectedIds.length > 0) out.selectedIds = [...query.selectedIds];
  if (query.sort) out.sort = query.sort;
  return out;
}

/**
 * Query-string parameters of getAll / getAllForSelect. Filters travel as explicit
 * `filters[key]` keys (axios percent-encodes the brackets; servers decode them); empty ones are
 * not sent.
 */
export function toParams(query: LooseQuery): Record<string, string | number> {
  const q = normalizeQuery(query);
  const params: Record<string, string | number> = { page: q.page, pageSize: q.pageSize };
  if (q.searchTerm) params.searchTerm = q.searchTerm;
  if (q.selectedIds && q.selectedIds.length > 0) params.selectedIds = q.selectedIds.join(',');
  if (q.sort) params.sort = q.sort;
  for (const [key, value] of Object.entries(q.filters ?? {})) {
    if (hasValue(value)) params[`filters[${key}]`] = typeof value === 'boolean' ? 'true' : value;
  }
  return params;
}

/**
 * `tenantId`: the tenant of the query key, sent as X-Tenant-Id so an answer is always cached
 * under the tenant it belongs to (storage may change under a running query, e.g. from another tab).
 */
export async function fetchList<T>(
  entity: string,
  query: LooseQuery,
  signal?: AbortSignal,
  tenantId?: number | null,
): Promise<Paged<T>> {
  const data = await unwrap<Paged<T>>(
    http.get(apiPaths.entity(entity).getAll, { params: toParams(query), signal, tenantId }),
  );
  return {
    items: data?.items ?? [],
    totalCount: data?.totalCount ?? 0,
    ...(data?.totalCountCapped ? { totalCountCapped: true } : {}),
  };
}

export async function fetchSelect(
  entity: string,
  query: LooseQuery,
  signal?: AbortSignal,
  tenantId?: number | null,
): Promise<SelectResult> {
  const data = await unwrap<SelectResult>(
    http.get(apiPaths.entity(entity).getAllForSelect, { params: toParams(query), signal, tenantId }),
  );
  return { options: data?.options ?? [], totalCount: data?.totalCount ?? 0 };
}

/** Options of `api/{entity}/getAllForSelect`; usable for any entity by name (no cross-entity imports). */
export function useSelectOptions(entity: string, query: LooseQuery, options: { enabled?: boolean } = {}) {
  const tenantId = useSelectedTenantId();
  const q = normalizeQuery(query);
  return useQuery({
    queryKey: queryKeys.select(tenantId, entity, q),
    queryFn: ({ signal }) => fetchSelect(entity, q, signal, tenantId),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function createEntityHooks<T extends { id: number }>(resource: ResourceDef<T>) {
  const name = resource.name;
  const paths = apiPaths.entity(name);

  /** A write acts in the tenant the screen shows, then refreshes that tenant's rows of the entity. */
  function useEntityMutation<V>(write: (vars: V, tenantId: number | null) => Promise<unknown>) {
    const client = useQueryClient();
    const tenantId = useSelectedTenantId();
    return useMutation({
      mutationFn: (vars: V) => write(vars, tenantId),
      onSuccess: () =>
        Promise.all(
          [name, ...(resource.refreshes ?? [])].map((entity) =>
            client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, entity) }),
          ),
        ),
    });
  }

  return {
    resource,
    useList(query: LooseQuery) {
      const tenantId = useSelectedTenantId();
      const q = normalizeQuery(query);
      return useQuery({
        queryKey: queryKeys.list(tenantId, name, q),
        queryFn: ({ signal }) => fetchList<T>(name, q, signal, tenantId),
        // Keep the previous page on screen while the next one loads (no flash of skeletons).
        placeholderData: keepPreviousData,
      });
    },
    /** `meta`: how a failed read is reported (lib/http-errors.ts ErrorMeta); without it the screen does. */
    useDetail(id: number | null, options: { meta?: QueryMeta } = {}) {
      const tenantId = useSelectedTenantId();
      return useQuery({
        queryKey: queryKeys.detail(tenantId, name, id ?? 0),
        queryFn: () => unwrap<T>(http.get(paths.getById(id ?? 0), { tenantId })),
        enabled: id !== null,
        retry: false,
        meta: options.meta,
      });
    },
    useCreate() {
      return useEntityMutation((body: FormValues, tenantId) =>
        unwrap<T>(http.post(paths.create, body, { tenantId })),
      );
    },
    useUpdate() {
      return useEntityMutation((body: FormValues & { id: number }, tenantId) =>
        unwrap<T>(http.put(paths.update, body, { tenantId })),
      );
    },
    useDelete() {
      return useEntityMutation((id: number, tenantId) =>
        unwrap<unknown>(http.delete(paths.remove(id), { tenantId })),
      );
    },
    useSelectOptions(query: LooseQuery, options?: { enabled?: boolean }) {
      return useSelectOptions(name, query, options);
    },
  };
}

export type EntityHooks<T extends { id: number } = Row> = ReturnType<typeof createEntityHooks<T>>;

const cache = new WeakMap<object, EntityHooks<Row>>();

/** The hooks of a declaration, created once per declaration object. */
export function entityHooks<T extends { id: number }>(resource: ResourceDef<T>): EntityHooks<Row> {
  let hooks = cache.get(resource);
  if (!hooks) {
    hooks = createEntityHooks(resource as unknown as ResourceDef<Row>);
    cache.set(resource, hooks);
  }
  return hooks;
}
