/** 'Ricevi un link di accesso' on /login: POST user/request-login-link {Email} (no session). */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { loginLinkMessages } from '../../../../contract/login-link';
import { serverMessageOr } from '../../../lib/http-errors';

/**
 * The HTTP client is loaded with the first call, not with the sign-in page (issue 8: its first
 * load carries only what it shows).
 */
export const loadHttp = () => import('../../../lib/http').then((m) => m.http);

/** Always the same answer for any address: nothing tells whether it belongs to a customer. */
export async function requestLoginLink(email: string): Promise<void> {
  const http = await loadHttp();
  const res = await http.post<Envelope<null>>(
    apiPaths.user.requestLoginLink,
    { Email: email.trim() },
    { skipSessionRedirect: true, tenantId: null },
  );
  if (!res.data.success) throw new Error(res.data.message ?? loginLinkMessages.requestFailed);
}

/** Variables: the e-mail typed. A failure (e.g. 429 'Troppe richieste…') is toasted once. */
export function useRequestLoginLink() {
  return useMutation({
    mutationFn: requestLoginLink,
    meta: {
      errorMessage: serverMessageOr(loginLinkMessages.requestFailed),
      logLabel: 'Richiesta del link di accesso non riuscita:',
    },
  });
}
