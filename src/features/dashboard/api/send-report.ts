/** 'Invia per email' (issue 14): POST report/send {month, email}; a job e-mails the month's PDF. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { reportMessages } from '../../../../contract/messages';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { reportFailure } from './report-failure';

export interface ReportSend {
  month: string;
  email: string;
}

export async function sendReport(
  body: ReportSend,
  tenantId: number | null,
): Promise<Envelope<{ jobId: string }>> {
  const res = await http.post<Envelope<{ jobId: string }>>('report/send', body, { tenantId });
  return res.data;
}

/** Variables: the month and the address (trimmed by the caller). Toasts the server's message once queued. */
export function useSendReport() {
  const tenantId = useSelectedTenantId();
  return useMutation({
    mutationFn: (body: ReportSend) => sendReport(body, tenantId),
    onSuccess: (env, { email }) => notify.success(env.message ?? reportMessages.queued(email)),
    meta: {
      errorMessage: reportFailure(reportMessages.sendFailed),
      logLabel: 'Invio del report non riuscito:',
    },
  });
}
