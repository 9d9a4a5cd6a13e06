import { MutationCache, QueryCache, QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { isHttpError, reportFailure, type ErrorMeta } from '../lib/http-errors';

declare module '@tanstack/react-query' {
  interface Register {
    /** `meta` of a query or mutation: how its failure is reported (lib/http-errors.ts ErrorMeta). */
    queryMeta: ErrorMeta & Record<string, unknown>;
    mutationMeta: ErrorMeta & Record<string, unknown>;
  }
}

/** 4xx answers are final; a network hiccup or 5xx is retried once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isHttpError(error)) return false;
  if (error.code === 'ERR_NETWORK') return false; // the catalogue already ended the session
  const status = error.response?.status ?? 0;
  return status >= 500;
}

/**
 * The SPA's cache. Its one error path: a failed query or mutation whose `meta` declares an
 * `errorMessage` is logged once and toasted once (lib/http-errors.ts reportFailure), so screens
 * never write `console.error(...); notify.error(...)` themselves.
 */
export function createQueryClient(defaults?: DefaultOptions): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => reportFailure(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportFailure(error, mutation.meta),
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000, ...defaults?.queries },
      mutations: { retry: false, ...defaults?.mutations },
    },
  });
}
