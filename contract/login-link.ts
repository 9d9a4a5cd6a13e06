/**
 * Signing in with a link (issue 28, api-contract 'Customer area'): a customer needs no password.
 * The login page sends one on request (`POST api/user/request-login-link`), and every e-mail
 * Rinnova sends a customer carries one to their area. A link is single-use, short-lived and stored
 * only as a digest; `POST api/user/login-link {token}` answers what Login answers. The texts and
 * numbers the SPA and the server share; no schema library here (schemas/auth.ts has the bodies).
 */

/** The SPA route an e-mailed link opens: `/login/link?token=…`. */
export const LOGIN_LINK_PATH = '/login/link';

export function loginLinkPath(token: string): string {
  return `${LOGIN_LINK_PATH}?token=${encodeURIComponent(token)}`;
}

/** The login page opened on 'Ricevi un link di accesso' (to ask for a new link). */
export const LOGIN_LINK_REQUEST_PATH = '/login?mode=link';

/** A link asked for on the login page: 15 minutes. */
export const REQUESTED_LOGIN_LINK_TTL_MS = 15 * 60_000;

/**
 * The link carried by the e-mails Rinnova sends a customer on its own (bank-transfer
 * instructions, reminders, a new account's welcome): 24 hours, since such an e-mail is rarely read
 * the minute it arrives. Once spent or expired, the page asks for a new one.
 */
export const MAILED_LOGIN_LINK_TTL_MS = 24 * 3_600_000;

export const loginLinkMessages = {
  /** The one answer of a request, whoever the address belongs to. */
  requested: 'Se l’indirizzo è registrato, riceverai a breve un link di accesso.',
  invalid: 'Il link di accesso non è valido o è scaduto. Richiedine uno nuovo.',
  requestFailed: 'Errore nell’invio della richiesta del link di accesso.',
  /** The login page's action. */
  requestAction: 'Ricevi un link di accesso',
  emailSubject: 'Il tuo link di accesso a Rinnova',
} as const;
