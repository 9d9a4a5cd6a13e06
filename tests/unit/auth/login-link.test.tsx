/**
 * Signing in with a link (issue 28): 'Ricevi un link di accesso' on /login and the /login/link
 * screen the e-mailed link opens.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginLinkMessages } from '../../../contract/login-link';
import { messages } from '../../../contract/messages';
import { config } from '../../../src/lib/config';
import { currentUrl, renderApp } from '../app/harness';
import { apiPost, deferred, fail, ok, recordRequests, server } from '../msw/server';

afterEach(() => {
  vi.restoreAllMocks();
});

const customer = { id: 21, email: 'giulia@rinnova.test', name: 'Giulia', roleId: 3, defaultTenantId: 3 };
/** The card's own alert (toasts are alerts too). */
const cardAlert = () => within(screen.getByRole('main')).getByRole('alert');
const toasts = () => [...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent);

describe('/login: Ricevi un link di accesso', () => {
  it('asks only for the e-mail, sends it trimmed with the app key, confirms without telling whether it exists', async () => {
    server.use(apiPost('user/request-login-link', () => ok(null, loginLinkMessages.requested)));
    const calls = recordRequests();
    const { user, router } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Ricevi un link di accesso' }));

    expect(screen.getByRole('heading', { name: 'Accedi con un link' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invia il link di accesso' }));
    expect(await screen.findByText(messages.wizard.emailRequired)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Email'), '  giulia@rinnova.test ');
    await user.click(screen.getByRole('button', { name: 'Invia il link di accesso' }));
    expect(
      await screen.findByText('Se l’indirizzo è registrato, riceverai a breve un link di accesso.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/vale 15 minuti e si può usare una sola volta/)).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).pathname).toBe('/api/user/request-login-link');
    expect(await calls[0]!.clone().json()).toEqual({ Email: 'giulia@rinnova.test' });
    expect(calls[0]!.headers.get('x-api-key')).toBe(config.apiKey);
    expect(calls[0]!.headers.get('x-tenant-id')).toBeNull();
    // Nothing signed in, still on /login; the button now sends again.
    expect(currentUrl(router)).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Invia di nuovo' })).toBeInTheDocument();
  });

  it('shows a loading state while the request is in flight', async () => {
    const gate = deferred();
    server.use(
      apiPost('user/request-login-link', async () => {
        await gate.promise;
        return ok(null, loginLinkMessages.requested);
      }),
    );
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Ricevi un link di accesso' }));
    await user.type(screen.getByLabelText('Email'), 'giulia@rinnova.test');
    await user.click(screen.getByRole('button', { name: 'Invia il link di accesso' }));
    expect(await screen.findByRole('button', { name: /Invio in corso/ })).toBeDisabled();
    gate.resolve();
    expect(await screen.findByText(loginLinkMessages.requested)).toBeInTheDocument();
  });

  it('too many requests: the server’s message as a toast, no confirmation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiPost('user/request-login-link', () => fail(429, 'Troppe richieste. Riprova tra qualche istante.')),
    );
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Ricevi un link di accesso' }));
    await user.type(screen.getByLabelText('Email'), 'giulia@rinnova.test');
    await user.click(screen.getByRole('button', { name: 'Invia il link di accesso' }));
    await waitFor(() => expect(toasts()).toContain('Troppe richieste. Riprova tra qualche istante.'));
    expect(screen.queryByText(loginLinkMessages.requested)).not.toBeInTheDocument();
  });

  it('back to the password form; /login?mode=link opens the request directly', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Ricevi un link di accesso' }));
    await user.click(screen.getByRole('button', { name: 'Accedi con la password' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();

    renderApp('/login?mode=link');
    expect(await screen.findByRole('heading', { name: 'Accedi con un link' })).toBeInTheDocument();
  });
});

describe('/login/link', () => {
  it('signs in with the token once, stores the session as Login does and goes home', async () => {
    let calls = 0;
    server.use(
      apiPost('user/login-link', async ({ request }) => {
        calls += 1;
        expect(await request.json()).toEqual({ token: 'tok-123' });
        return ok({ token: 'jwt-link', user: customer });
      }),
    );
    const { router } = renderApp('/login/link?token=tok-123', { storage: { selectedTenantId: '9' } });
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
    expect(window.localStorage.getItem('token')).toBe('jwt-link');
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({
      email: customer.email,
      role: 3,
    });
    expect(window.localStorage.getItem('selectedTenantId')).toBe('3');
    expect(calls).toBe(1);
  });

  it('shows the wait while the link is checked', async () => {
    const gate = deferred();
    server.use(
      apiPost('user/login-link', async () => {
        await gate.promise;
        return ok({ token: 'jwt-link', user: customer });
      }),
    );
    const { router } = renderApp('/login/link?token=tok-123');
    expect(await screen.findByText('Stiamo aprendo la tua area…')).toBeInTheDocument();
    gate.resolve();
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
  });

  it('a spent or expired link: the Italian message (card and one toast) and a way to ask for a new one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiPost('user/login-link', () => fail(400, loginLinkMessages.invalid)));
    const { user, router } = renderApp('/login/link?token=usato');
    expect(await screen.findByRole('heading', { name: 'Link di accesso non valido' })).toBeInTheDocument();
    expect(cardAlert()).toHaveTextContent(
      'Il link di accesso non è valido o è scaduto. Richiedine uno nuovo.',
    );
    await waitFor(() => expect(toasts().filter((t) => t === loginLinkMessages.invalid)).toHaveLength(1));
    // A 400 is no lost session: no logout routine.
    expect(screen.queryByText(messages.http.unauthorized)).not.toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Richiedi un nuovo link' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/login?mode=link'));
    expect(await screen.findByRole('heading', { name: 'Accedi con un link' })).toBeInTheDocument();
  });

  it('without a token: the same message, and no call', async () => {
    const calls = recordRequests();
    renderApp('/login/link');
    expect(await screen.findByRole('heading', { name: 'Link di accesso non valido' })).toBeInTheDocument();
    expect(cardAlert()).toHaveTextContent(loginLinkMessages.invalid);
    expect(screen.getByRole('link', { name: 'Accedi con la password' })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(0);
  });

  it('a server failure says so, without claiming the link is spent', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiPost('user/login-link', () => new HttpResponse('boom', { status: 500 })));
    renderApp('/login/link?token=tok-123');
    expect(await screen.findByRole('heading', { name: 'Accesso non riuscito' })).toBeInTheDocument();
    expect(cardAlert()).not.toHaveTextContent(loginLinkMessages.invalid);
  });
});
