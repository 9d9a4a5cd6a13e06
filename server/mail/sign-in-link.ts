/**
 * The sign-in link of a customer's e-mail (issue 28), issued when the e-mail is sent, never
 * before: a message asks for one (`MailMessage.signIn`) and holds placeholders where it goes; the
 * mailer wrapper below issues the token (app.ts passes the auth module's issuer) and fills them.
 * So an outbox row never holds a usable link, a message retried after a failed send gets a fresh
 * one, and the units that queue customer e-mails (billing, jobs, in a tenant's database) never
 * write the control database's tokens themselves.
 */
import { LOGIN_LINK_REQUEST_PATH } from '../../contract/login-link';
import { escapeHtml } from '../lib/html';
import type { Mailer, MailMessage } from './mailer';

/** Where the link goes, in the text and in an `href`. */
export const SIGN_IN_URL = '{{link-di-accesso}}';
/** Where the login page's address goes, opened on the request of a new link. */
export const LOGIN_PAGE_URL = '{{pagina-di-accesso}}';
/** Around a part that is left out when the account may not have a link (not a customer any more). */
export const SIGN_IN_OPEN = '<!--accesso-->';
export const SIGN_IN_CLOSE = '<!--/accesso-->';

/**
 * Why a link is made: 'request' — the message is the link (asked for on the login page; not sent
 * when the account may not have one); 'mail' — an e-mail that carries one besides its purpose
 * (sent without it when the account may not have one).
 */
export type SignInLinkOrigin = 'request' | 'mail';

export interface SignInLinkRequest {
  userId: number;
  origin: SignInLinkOrigin;
}

/** A link issued for one message: its URL, and how to void it if the message is not sent. */
export interface IssuedSignInLink {
  url: string;
  revoke(): Promise<void>;
}

/** Issues a link for the account, or null when it may not have one (only active customers may). */
export type SignInLinkIssuer = (request: SignInLinkRequest) => Promise<IssuedSignInLink | null>;

const blocks = new RegExp(`${escapeRegExp(SIGN_IN_OPEN)}[\\s\\S]*?${escapeRegExp(SIGN_IN_CLOSE)}`, 'g');

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The message with its placeholders filled with `url`, or its sign-in parts left out (null). */
export function fillSignInLink(message: MailMessage, url: string | null): MailMessage {
  const { signIn: _request, ...rest } = message;
  if (url === null)
    return { ...rest, text: rest.text.replace(blocks, ''), html: rest.html.replace(blocks, '') };
  const login = new URL(LOGIN_LINK_REQUEST_PATH, url).href;
  const fill = (body: string, escape: (v: string) => string) =>
    body
      .replaceAll(SIGN_IN_OPEN, '')
      .replaceAll(SIGN_IN_CLOSE, '')
      .replaceAll(SIGN_IN_URL, escape(url))
      .replaceAll(LOGIN_PAGE_URL, escape(login));
  return { ...rest, text: fill(rest.text, (v) => v), html: fill(rest.html, escapeHtml) };
}

/** The mailer that fills the sign-in links of the messages that ask for one, then sends. */
export function signInLinkMailer(mailer: Mailer, issue: SignInLinkIssuer): Mailer {
  return {
    async send(message) {
      if (!message.signIn) return mailer.send(message);
      const link = await issue(message.signIn);
      if (!link && message.signIn.origin === 'request') return;
      try {
        await mailer.send(fillSignInLink(message, link?.url ?? null));
      } catch (error) {
        // Not sent: the link it carried is voided; the retry issues another.
        await link?.revoke().catch(() => undefined);
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
