/** The background-jobs page's calls (SuperAdmin): counters, recent jobs, recurring jobs, retry. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/api-paths';
import type { Envelope } from '../../../contract/envelope';
import { unwrap } from '../../lib/entity-hooks';
import { messages } from '../../../contract/messages';
import { http } from '../../lib/http';
import { serverMessage } from '../../lib/http-errors';

/** The failure toast of these calls: the server's message, else the catalogue's save error. */
const serverMessageOrSaveError = (error: unknown) => serverMessage(error) ?? messages.http.saveError;

/** The page refreshes while open (spec: 'refreshed every few seconds'). */
export const REFRESH_MS = 5000;

export type JobStats = Record<string, number>;
export type JobState =
  'enqueued' | 'scheduled' | 'processing' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';
export interface RecentJob {
  /** The job's Italian name (the key when it has none). */
  label?: string;
  id: string;
  key: string;
  args: Record<string, unknown>;
  enqueuedAt: string;
  state?: JobState;
  error?: string | null;
  retryCount?: number;
  retryLimit?: number;
}
export interface RecurringJob {
  key: string;
  label: string;
  cron: string;
  timeZone: string;
}

const key = ['hangfire'] as const;

export function useJobStats() {
  return useQuery({
    queryKey: [...key, 'stats'],
    queryFn: () => unwrap<JobStats>(http.get(apiPaths.hangfire.stats)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}

export function useRecentJobs() {
  return useQuery({
    queryKey: [...key, 'recent'],
    queryFn: () => unwrap<RecentJob[]>(http.get(apiPaths.hangfire.recent)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}

export function useRecurringJobs() {
  return useQuery({
    queryKey: [...key, 'recurring'],
    queryFn: () => unwrap<RecurringJob[]>(http.get(apiPaths.hangfire.recurring)),
    retry: false,
  });
}

export function useRetryJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await http.post<Envelope<{ id: string }>>(apiPaths.hangfire.retry(id))).data,
    onSettled: () => client.invalidateQueries({ queryKey: key }),
    meta: { errorMessage: serverMessageOrSaveError },
  });
}

export function useTriggerJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (jobKey: string) =>
      (await http.post<Envelope<{ id: string }>>(apiPaths.hangfire.trigger(jobKey))).data,
    onSettled: () => client.invalidateQueries({ queryKey: key }),
    meta: { errorMessage: serverMessageOrSaveError },
  });
}
