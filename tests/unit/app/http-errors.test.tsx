import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { http } from '../../../src/lib/http';
import { apiGet, apiPost, fail, networkError, server } from '../msw/server';
import { currentUrl, renderApp } from './harness';

/** A signed-in Admin on a screen that makes no calls of its own. */
async function signedIn() {
  const app = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
  await screen.findByRole('heading', { name: 'Gestisci Sottoscrizioni' });
  return app;
}

describe('error catalogue (spec §8)', () => {
  it('401 with "scaduto": session-expired toast, token and user removed, /login?sessionExpired=true', async () => {
    server.use(apiGet('plan/getAll', () => fail(401, 'Token scaduto')));
    const { router } = await signedIn();

    await expect(http.get('plan/getAll')).rejects.toThrow();

    await waitFor(() => expect(currentUrl(router)).toBe('/login?sessionExpired=true'));
    expect(await screen.findByText(messages.http.sessionExpired)).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    // The login page's own expiry toast shares the id: the message is shown once.
    await screen.findByRole('button', { name: 'Accedi' });
    expect(screen.getAllByText(messages.http.sessionExpired)).toHaveLength(1);
  });

  it('any other 401: "Accesso non autorizzato." and /login', async () => {
    server.use(apiGet('plan/getAll', () => fail(401, 'Token non valido.')));
    const { router } = await signedIn();

    await expect(http.get('plan/getAll')).rejects.toThrow();

    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(await screen.findByText(messages.http.unauthorized)).toBeInTheDocument();
    expect(screen.queryByText(messages.http.sessionExpired)).not.toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('a network error runs the same routine', async () => {
    server.use(apiGet('plan/getAll', () => networkError()));
    const { router } = await signedIn();

    await expect(http.get('plan/getAll')).rejects.toMatchObject({ code: 'ERR_NETWORK' });

    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('other errors (403, 500) leave the session alone', async () => {
    server.use(
      apiGet('plan/getAll', () => fail(403, 'Operazione non consentita per il tuo ruolo.')),
      apiPost('plan/Create', () => fail(500, 'Errore')),
    );
    const { router } = await signedIn();

    await expect(http.get('plan/getAll')).rejects.toThrow();
    await expect(http.post('plan/Create', {})).rejects.toThrow();

    expect(currentUrl(router)).toBe('/subscription');
    expect(window.localStorage.getItem('token')).toBe('test-token');
  });

  it('a request flagged skipSessionRedirect handles its own 401', async () => {
    server.use(apiGet('plan/getAll', () => fail(401, 'Token scaduto')));
    const { router } = await signedIn();

    await expect(http.get('plan/getAll', { skipSessionRedirect: true })).rejects.toThrow();

    expect(currentUrl(router)).toBe('/subscription');
    expect(window.localStorage.getItem('token')).toBe('test-token');
    expect(screen.queryByText(messages.http.sessionExpired)).not.toBeInTheDocument();
  });

  it('without a session a public page is not redirected', async () => {
    server.use(apiGet('PaymentToken/validate', () => networkError()));
    const { router } = renderApp('/payment?token=abc');
    await screen.findByRole('heading', { name: 'Pagamento' });

    await expect(http.get('PaymentToken/validate')).rejects.toThrow();

    expect(currentUrl(router)).toBe('/payment?token=abc');
  });
});
