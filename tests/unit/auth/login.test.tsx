import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../contract/messages';
import { config } from '../../../src/lib/config';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, apiPost, deferred, fail, ok, recordRequests, server } from '../msw/server';

afterEach(() => {
  vi.restoreAllMocks();
});

const loginUser = { id: 7, email: 'anna@rinnova.test', name: 'Anna', roleId: 2, defaultTenantId: 3 };

async function fillAndSubmit(
  user: ReturnType<typeof renderApp>['user'],
  email = 'anna@rinnova.test',
  password = 'segreta1',
) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Accedi' }));
}

describe('login page', () => {
  it('requires e-mail and password, with Italian messages, and calls nothing', async () => {
    const calls = recordRequests();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Accedi' }));
    expect(await screen.findByText(messages.wizard.emailRequired)).toBeInTheDocument();
    expect(screen.getByText('La password è obbligatoria.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('success: stores token, user {email, role} and the default tenant, goes to /', async () => {
    server.use(apiPost('user/Login', () => ok({ token: 'jwt-1', user: loginUser })));
    const calls = recordRequests();
    const { user, router } = renderApp('/login');

    await fillAndSubmit(user);

    await waitFor(() => expect(currentUrl(router)).toBe('/'));
    expect(
      await screen.findByRole('heading', { name: 'Benvenuto, Anna. Cosa vuoi fare oggi con Rinnova?' }),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBe('jwt-1');
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({
      email: 'anna@rinnova.test',
      role: 2,
    });
    expect(window.localStorage.getItem('selectedTenantId')).toBe('3');
    expect(await calls[0]!.clone().json()).toEqual({ Email: 'anna@rinnova.test', Password: 'segreta1' });
    expect(calls[0]!.headers.get('x-api-key')).toBe(config.apiKey);
  });

  it('success without a default tenant clears the stored one (tenant selection follows)', async () => {
    server.use(
      apiPost('user/Login', () => ok({ token: 'jwt-1', user: { ...loginUser, defaultTenantId: null } })),
      apiGet('tenant/getAll', () => ok({ items: [{ id: 1, name: 'Acme' }], totalCount: 1 })),
    );
    const { user } = renderApp('/login', { storage: { selectedTenantId: '9' } });
    await fillAndSubmit(user);
    expect(await screen.findByRole('heading', { name: 'Scegli il tenant' })).toBeInTheDocument();
    expect(window.localStorage.getItem('selectedTenantId')).toBeNull();
  });

  it('shows a loading state while the call is in flight', async () => {
    const gate = deferred();
    server.use(
      apiPost('user/Login', async () => {
        await gate.promise;
        return ok({ token: 'jwt-1', user: loginUser });
      }),
    );
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    const busy = await screen.findByRole('button', { name: /Accesso in corso/ });
    expect(busy).toBeDisabled();
    gate.resolve();
    await screen.findByRole('heading', { name: /^Benvenuto, .+\. Cosa vuoi fare oggi con Rinnova\?$/ });
  });

  it('wrong credentials: the server message, no logout routine, no session', async () => {
    server.use(apiPost('user/Login', () => fail(401, 'Email o password non corretti.')));
    const { user, router } = renderApp('/login');
    await fillAndSubmit(user);
    expect((await screen.findAllByText('Email o password non corretti.')).length).toBeGreaterThan(0);
    expect(screen.queryByText(messages.http.unauthorized)).not.toBeInTheDocument();
    expect(currentUrl(router)).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('a failure without a message shows "Errore durante il login"; a new attempt clears it', async () => {
    let attempt = 0;
    const gate = deferred();
    server.use(
      apiPost('user/Login', async () => {
        attempt += 1;
        if (attempt === 1) return new HttpResponse('boom', { status: 500 });
        await gate.promise;
        return fail(401, 'Email o password non corretti.');
      }),
    );
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    expect(await screen.findByTestId('login-error')).toHaveTextContent(messages.login.defaultError);
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    await waitFor(() => expect(screen.queryByTestId('login-error')).not.toBeInTheDocument());
    gate.resolve();
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Email o password non corretti.');
    // Spec §8: the message is a toast (issue 31), and the form keeps its inline hint.
    expect(screen.getByTestId('login-error')).toHaveAttribute('role', 'alert');
    await waitFor(() =>
      expect([...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent)).toContain(
        'Email o password non corretti.',
      ),
    );
  });

  it('409 with data.resetUrl: forced reset, goes to its path and query', async () => {
    server.use(
      apiPost('user/Login', () =>
        fail(409, 'È necessario impostare una nuova password prima di accedere.', {
          resetUrl: 'http://altro-host.example/reset-password?token=forza123',
        }),
      ),
      apiGet('user/validate-reset-token', () => ok(null, 'Token valido.')),
    );
    const { user, router } = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(currentUrl(router)).toBe('/reset-password?token=forza123'));
    expect(await screen.findByLabelText('Nuova password')).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('sessionExpired=true shows the info toast', async () => {
    renderApp('/login?sessionExpired=true');
    expect(await screen.findByText(messages.login.sessionExpired)).toBeInTheDocument();
  });

  it('a signed-in user opening /login goes home', async () => {
    const { router } = renderApp('/login', { role: 2, tenantId: 1 });
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
  });
});

describe('password-reset request mode', () => {
  it('asks only for the e-mail and confirms the request', async () => {
    server.use(apiPost('user/request-password-reset', () => ok(null, 'ok')));
    const calls = recordRequests();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Password dimenticata?' }));

    expect(screen.getByRole('heading', { name: 'Reimposta la password' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Invia link di reset' }));
    expect(await screen.findByText(messages.wizard.emailRequired)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Email'), 'anna@rinnova.test');
    await user.click(screen.getByRole('button', { name: 'Invia link di reset' }));
    expect(await screen.findByText(messages.login.resetRequestSuccess)).toBeInTheDocument();
    expect(await calls[0]!.clone().json()).toEqual({ Email: 'anna@rinnova.test' });
  });

  it('reports a failed request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiPost('user/request-password-reset', () => fail(500, 'Errore interno')));
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Password dimenticata?' }));
    await user.type(screen.getByLabelText('Email'), 'anna@rinnova.test');
    await user.click(screen.getByRole('button', { name: 'Invia link di reset' }));
    expect(await screen.findByText(messages.login.resetRequestError)).toBeInTheDocument();
  });

  it('can go back to the login form', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Password dimenticata?' }));
    await user.click(screen.getByRole('button', { name: 'Torna al login' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });
});
