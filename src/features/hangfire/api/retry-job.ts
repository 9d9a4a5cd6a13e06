/** 'Riprova' on a failed job: POST hangfire/retry/{id}, the job enqueued again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { hangfireKeys } from './hangfire-queries';

export async function retryJob(id: string): Promise<Envelope<{ id: string }>> {
  return (await http.post<Envelope<{ id: string }>>(apiPaths.hangfire.retry(id))).data;
}

/** Variables: the job's id. Refreshes the page either way; a failure toasts the server's message, else the save error. */
export function useRetryJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSettled: () => client.invalidateQueries({ queryKey: hangfireKeys }),
    meta: {
      errorMessage: serverMessageOr(messages.http.saveError),
      logLabel: 'Nuovo tentativo del job non riuscito:',
    },
  });
}
