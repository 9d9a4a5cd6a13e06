/** 'Esegui ora' on a recurring job: POST hangfire/trigger/{key}, one run enqueued now. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { hangfireKeys } from './hangfire-queries';

export async function triggerJob(jobKey: string): Promise<Envelope<{ id: string }>> {
  return (await http.post<Envelope<{ id: string }>>(apiPaths.hangfire.trigger(jobKey))).data;
}

/** Variables: the recurring job's key. Refreshes the page either way; a failure toasts the server's message, else the save error. */
export function useTriggerJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: triggerJob,
    onSettled: () => client.invalidateQueries({ queryKey: hangfireKeys }),
    meta: {
      errorMessage: serverMessageOr(messages.http.saveError),
      logLabel: 'Esecuzione del job non avviata:',
    },
  });
}
