import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../contract/messages';
import { config } from '../../../src/lib/config';
import { recordRequests, server } from '../msw/server';
import { fillContactForm, renderLanding } from './helpers';

const externalUrl = 'https://moduli.example.test/serve/rinnova';
// The build-time setting is read when the form is sent: set for this file, put back after (the
// worker's other files share the module).
const settings = config as { contactFormUrl: string };
const defaultUrl = settings.contactFormUrl;
beforeAll(() => {
  settings.contactFormUrl = externalUrl;
});
afterAll(() => {
  settings.contactFormUrl = defaultUrl;
});

describe('contact form with an external form service (VITE_CONTACT_FORM_URL)', () => {
  it('posts the fields url-encoded to the service, not to the project server', async () => {
    let body = '';
    let contentType: string | null = null;
    server.use(
      http.post(externalUrl, async ({ request }) => {
        contentType = request.headers.get('content-type');
        body = await request.text();
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const calls = recordRequests();
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('status')).toHaveTextContent(messages.contact.success);
    expect(calls.map((r) => r.url)).toEqual([externalUrl]);
    expect(contentType).toMatch(/application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({
      EMAIL: 'giulia@studiorossi.it',
      MESSAGGIO: 'Vorrei incassare le consulenze mensili con PayPal.',
      OPT_IN: '1',
      email_address_check: '',
      locale: 'it',
    });
    expect(f.email.value).toBe('');
  });

  it('counts an opaque (no-cors) answer as sent', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue({ type: 'opaque', ok: false, status: 0 } as Response);
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('status')).toHaveTextContent(messages.contact.success);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(url).toBe(externalUrl);
    expect(init).toMatchObject({ method: 'POST', mode: 'no-cors' });
    fetchSpy.mockRestore();
  });

  it('shows the error alert when the service is unreachable', async () => {
    server.use(http.post(externalUrl, () => HttpResponse.error()));
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.contact.error);
    expect(f.email.value).toBe('giulia@studiorossi.it');
  });

  it('shows the error alert when the service answers with an error status', async () => {
    server.use(http.post(externalUrl, () => new HttpResponse(null, { status: 500 })));
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.contact.error);
  });
});
