import { QueryClient } from '@tanstack/react-query';
import { isHttpError } from '../lib/http-errors';

/** 4xx answers are final; a network hiccup or 5xx is retried once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isHttpError(error)) return false;
  if (error.code === 'ERR_NETWORK') return false; // the catalogue already ended the session
  const status = error.response?.status ?? 0;
  return status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
