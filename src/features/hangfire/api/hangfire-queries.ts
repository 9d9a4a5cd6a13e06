/** The background-jobs page's reads (SuperAdmin): counters, recent jobs, recurring jobs. */
import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

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

/** Every query of the page starts with this (a retry or a trigger refreshes them all). */
export const hangfireKeys = ['hangfire'] as const;

export function useJobStats() {
  return useQuery({
    queryKey: [...hangfireKeys, 'stats'],
    queryFn: () => unwrap<JobStats>(http.get(apiPaths.hangfire.stats)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}

export function useRecentJobs() {
  return useQuery({
    queryKey: [...hangfireKeys, 'recent'],
    queryFn: () => unwrap<RecentJob[]>(http.get(apiPaths.hangfire.recent)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}

export function useRecurringJobs() {
  return useQuery({
    queryKey: [...hangfireKeys, 'recurring'],
    queryFn: () => unwrap<RecurringJob[]>(http.get(apiPaths.hangfire.recurring)),
    retry: false,
  });
}
