import { screen, waitFor, within } from '@testing-library/react';
import { http as mswHttp, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { http } from '../../../src/lib/http';
import { installHttpErrorHandling } from '../../../src/lib/http-errors';
import { apiPost, deferred, fail, networkError, ok, recordRequests, server } from '../msw/server';
import { renderApp } from '../app/harness';
import { contactFields, fillContactForm, renderLanding, stubCanvas } from './helpers';

// The app installs the error catalogue at bootstrap; the form must opt out of its logout routine.
beforeAll(() => installHttpErrorHandling(http));

const required = messages.contact.required;

function errorOf(field: HTMLElement): string | null {
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('contact form validation', () => {
  it('flags all three required fields when submitted empty, and sends nothing', async () => {
    const calls = recordRequests();
    const { user } = renderLanding();
    const f = contactFields();

    await user.click(f.submit);

    expect(await screen.findAllByText(required)).toHaveLength(3);
    for (const field of [f.email, f.message, f.optIn]) {
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(errorOf(field)).toBe(required);
    }
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['email', 'Email'],
    ['message', 'Messaggio'],
    ['optIn', 'consenso'],
  ] as const)('requires %s (%s) on its own', async (skip, _label) => {
    const calls = recordRequests();
    const { user } = renderLanding();
    const f = await fillContactForm(user, { skip: [skip] });

    await user.click(f.submit);

    expect(await screen.findByText(required)).toBeInTheDocument();
    expect(screen.getAllByText(required)).toHaveLength(1);
    expect(errorOf(f[skip])).toBe(required);
    expect(f[skip]).toHaveAttribute('aria-invalid', 'true');
    for (const other of (['email', 'message', 'optIn'] as const).filter((k) => k !== skip)) {
      expect(f[other]).toHaveAttribute('aria-invalid', 'false');
      expect(f[other]).not.toHaveAttribute('aria-describedby');
    }
    expect(calls).toHaveLength(0);
  });

  it('treats a message of only spaces as empty', async () => {
    const { user } = renderLanding();
    const f = contactFields();
    await user.type(f.email, 'giulia@studiorossi.it');
    await user.type(f.message, '    ');
    await user.click(f.optIn);
    await user.click(f.submit);

    expect(await screen.findByText(required)).toBeInTheDocument();
    expect(errorOf(f.message)).toBe(required);
  });

  it('rejects a malformed e-mail with the invalid-format message', async () => {
    const calls = recordRequests();
    const { user } = renderLanding();
    const f = await fillContactForm(user, { email: 'giulia@' });

    await user.click(f.submit);

    expect(await screen.findByText(messages.contact.invalid)).toBeInTheDocument();
    expect(errorOf(f.email)).toBe(messages.contact.invalid);
    expect(f.email).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('clears an inline error once the field is corrected', async () => {
    const { user } = renderLanding();
    const f = await fillContactForm(user, { email: 'giulia@' });
    await user.click(f.submit);
    await screen.findByText(messages.contact.invalid);

    await user.type(f.email, 'studiorossi.it');

    await waitFor(() => expect(screen.queryByText(messages.contact.invalid)).not.toBeInTheDocument());
    expect(f.email).toHaveAttribute('aria-invalid', 'false');
  });
});

describe('contact form hidden fields', () => {
  it('has an empty, unreachable honeypot and the Italian locale', () => {
    const { container } = renderLanding();
    const honeypot = container.querySelector<HTMLInputElement>('input[name="email_address_check"]');
    const locale = container.querySelector<HTMLInputElement>('input[name="locale"]');

    expect(honeypot).not.toBeNull();
    expect(honeypot!.value).toBe('');
    expect(honeypot!.tabIndex).toBe(-1);
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot).toHaveAttribute('aria-hidden', 'true');
    // Not exposed to assistive technology: the only text boxes are Email and Messaggio.
    expect(screen.getAllByRole('textbox').map((el) => el.getAttribute('name'))).toEqual([
      'EMAIL',
      'MESSAGGIO',
    ]);

    expect(locale).not.toBeNull();
    expect(locale!.type).toBe('hidden');
    expect(locale!.value).toBe('it');
  });

  it('uses the field names and attributes of the spec', () => {
    renderLanding();
    const f = contactFields();
    expect(f.email).toHaveAttribute('name', 'EMAIL');
    expect(f.message).toHaveAttribute('name', 'MESSAGGIO');
    expect(f.message).toHaveAttribute('rows', '4');
    expect(f.optIn).toHaveAttribute('name', 'OPT_IN');
    expect(f.optIn).toHaveAttribute('value', '1');
  });
});

describe('contact form submission to the project server', () => {
  it('posts the fields as JSON with the API key, shows the success message and resets', async () => {
    let body: unknown;
    server.use(
      apiPost('contact', async ({ request }) => {
        body = await request.json();
        return ok(null, 'Messaggio ricevuto.');
      }),
    );
    const calls = recordRequests();
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('status')).toHaveTextContent(messages.contact.success);
    expect(body).toEqual({
      EMAIL: 'giulia@studiorossi.it',
      MESSAGGIO: 'Vorrei incassare le consulenze mensili con PayPal.',
      OPT_IN: '1',
      email_address_check: '',
      locale: 'it',
    });
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).pathname).toBe('/api/contact');
    expect(calls[0]!.headers.get('x-api-key')).toBeTruthy();
    expect(f.email.value).toBe('');
    expect(f.message.value).toBe('');
    expect(f.optIn.checked).toBe(false);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('disables the button while sending', async () => {
    const gate = deferred();
    server.use(
      apiPost('contact', async () => {
        await gate.promise;
        return ok(null);
      }),
    );
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    const busy = await screen.findByRole('button', { name: 'Invio in corso…' });
    expect(busy).toBeDisabled();
    gate.resolve();
    expect(await screen.findByRole('button', { name: 'Invia messaggio' })).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent(messages.contact.success);
  });

  it('shows the error alert after a 400 and keeps what was typed', async () => {
    server.use(apiPost('contact', () => fail(400, 'Dati non validi.', null, ['EMAIL'])));
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.contact.error);
    expect(screen.getByRole('status')).not.toHaveTextContent(messages.contact.success);
    expect(f.email.value).toBe('giulia@studiorossi.it');
    expect(f.optIn.checked).toBe(true);
  });

  it('shows the error alert after a network error, without ending any session', async () => {
    server.use(apiPost('contact', () => networkError()));
    // A visitor who is also signed in (another tab): the landing form must not sign them out.
    window.localStorage.setItem('token', 'sessione-aperta');
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.contact.error);
    expect(window.localStorage.getItem('token')).toBe('sessione-aperta');
    expect(f.message.value).not.toBe('');
  });

  it('explains a 429 rate limit', async () => {
    server.use(apiPost('contact', () => fail(429, 'Troppe richieste.')));
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.contact.error);
    expect(alert).toHaveTextContent(/riprova tra qualche minuto/);
  });

  it('treats a 200 whose envelope says success:false as a failure', async () => {
    server.use(
      mswHttp.post('*/api/contact', () =>
        HttpResponse.json({ success: false, message: 'Errore', data: null }, { status: 200 }),
      ),
    );
    const { user } = renderLanding();
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.contact.error);
  });

  it('replaces an earlier error with the success message on a later attempt', async () => {
    server.use(apiPost('contact', () => fail(400, 'Dati non validi.')));
    const { user } = renderLanding();
    const f = await fillContactForm(user);
    await user.click(f.submit);
    await screen.findByRole('alert');

    server.use(apiPost('contact', () => ok(null)));
    await user.click(f.submit);

    expect(await screen.findByText(messages.contact.success)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('contact form outcome as a toast (spec §8: every message is a toast unless stated)', () => {
  const toasts = () => [...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent);

  it('a sent message: the success toast, and the form says it too', async () => {
    server.use(apiPost('contact', () => ok(null)));
    stubCanvas();
    const { user } = renderApp('/');
    await screen.findByRole('button', { name: 'Invia messaggio' });
    const f = await fillContactForm(user);

    await user.click(f.submit);

    expect(await screen.findByRole('status')).toHaveTextContent(messages.contact.success);
    await waitFor(() => expect(toasts()).toEqual([messages.contact.success]));
  });

  it('a refused message: the error toast, and the form says it too', async () => {
    server.use(apiPost('contact', () => fail(400, 'Dati non validi.')));
    stubCanvas();
    const { user } = renderApp('/');
    await screen.findByRole('button', { name: 'Invia messaggio' });
    const f = await fillContactForm(user);

    await user.click(f.submit);

    await waitFor(() => expect(toasts()).toEqual([messages.contact.error]));
    const form = f.submit.closest('form')!;
    expect(within(form).getByRole('alert')).toHaveTextContent(messages.contact.error);
  });
});
