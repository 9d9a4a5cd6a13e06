import { isAxiosError } from 'axios';
import type { z } from 'zod';
import type { contactSchema } from '../../../contract/schemas/contact';
import type { Envelope } from '../../../contract/envelope';
import { apiPaths } from '../../../contract/api-paths';
import { config } from '../../lib/config';
import { http } from '../../lib/http';

export type ContactPayload = z.output<typeof contactSchema>;

export type ContactResult = { ok: true } | { ok: false; reason: 'invalid' | 'rate-limited' | 'failed' };

/**
 * Sends the contact form. With VITE_CONTACT_FORM_URL set, the fields go to that external
 * marketing-form service as a urlencoded POST (a CORS-safelisted request, so `no-cors` works and
 * no preflight is needed); the service answers opaquely, so an opaque response counts as sent.
 * Otherwise they go as JSON to the project's own server, POST {apiBase}/contact.
 */
export async function sendContact(payload: ContactPayload): Promise<ContactResult> {
  const externalUrl = config.contactFormUrl;
  return externalUrl ? sendToExternalForm(externalUrl, payload) : sendToServer(payload);
}

async function sendToExternalForm(url: string, payload: ContactPayload): Promise<ContactResult> {
  const body = new URLSearchParams({
    EMAIL: payload.EMAIL,
    MESSAGGIO: payload.MESSAGGIO,
    OPT_IN: '1',
    email_address_check: payload.email_address_check,
    locale: payload.locale,
  });
  try {
    const response = await fetch(url, {
      method: 'POST',
      mode: 'no-cors',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      // A string body (not the URLSearchParams object) is serialised the same by every fetch.
      body: body.toString(),
    });
    return response.type === 'opaque' || response.ok ? { ok: true } : { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}

async function sendToServer(payload: ContactPayload): Promise<ContactResult> {
  try {
    // A visitor without a session: a failure here is the form's to report, not a logout.
    const { data } = await http.post<Envelope<unknown>>(apiPaths.contact, payload, {
      skipSessionRedirect: true,
    });
    return data.success === false ? { ok: false, reason: 'failed' } : { ok: true };
  } catch (error) {
    const status = isAxiosError(error) ? error.response?.status : undefined;
    if (status === 400) return { ok: false, reason: 'invalid' };
    if (status === 429) return { ok: false, reason: 'rate-limited' };
    return { ok: false, reason: 'failed' };
  }
}
