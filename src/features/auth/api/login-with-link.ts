/** /login/link?token=…: POST user/login-link {token}, which answers what Login answers. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { loginLinkMessages } from '../../../../contract/login-link';
import type { LoginResponse } from '../../../../contract/schemas/auth';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';

/** The session the link opens; a spent, expired or unknown link fails with a 400. */
export async function loginWithLink(token: string): Promise<LoginResponse> {
  const res = await http.post<Envelope<LoginResponse>>(
    apiPaths.user.loginLink,
    { token },
    { skipSessionRedirect: true, tenantId: null },
  );
  if (!res.data.success || !res.data.data) throw new Error(res.data.message ?? loginLinkMessages.invalid);
  return res.data.data;
}

/** One toast for a refused link, however often the page draws it. */
export const LOGIN_LINK_TOAST = 'login-link-failed';

/** Variables: the link's token. A failure is toasted once; the screen shows it too, with a way on. */
export function useLoginWithLink() {
  return useMutation({
    mutationFn: loginWithLink,
    meta: {
      errorMessage: serverMessageOr(loginLinkMessages.invalid),
      toastId: LOGIN_LINK_TOAST,
      logLabel: 'Accesso con il link non riuscito:',
    },
  });
}
