/**
 * Two-factor sign-in in the SPA (issue 23): the login page's second step, and enrolment from the
 * user menu (QR code, confirming code, recovery codes, then the active state).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { twoFactorMessages as m } from '../../../contract/two-factor';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, apiPost, fail, ok, recordRequests, server } from '../msw/server';

const loginUser = { id: 7, email: 'anna@rinnova.test', name: 'Anna', roleId: 2, defaultTenantId: 3 };

describe('login with two factors', () => {
  it('asks for the code after the password; a wrong code is said as a toast and on the field; the right one signs in', async () => {
    let tries = 0;
    server.use(
      apiPost('user/Login', () => ok({ secondFactor: true, challenge: 'sfida-1' })),
      apiPost('user/Login/second-factor', async ({ request }) => {
        tries += 1;
        const body = (await request.json()) as { challenge: string; code: string };
        expect(body.challenge).toBe('sfida-1');
        return body.code === '123456' ? ok({ token: 'jwt-2fa', user: loginUser }) : fail(400, m.codeInvalid);
      }),
    );
    const { user, router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'anna@rinnova.test');
    await user.type(screen.getByLabelText('Password'), 'segreta1');
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(await screen.findByRole('heading', { name: 'Verifica in due passaggi' })).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Verifica e accedi' }));
    expect(await screen.findByText(m.codeRequired)).toBeInTheDocument();
    expect(tries).toBe(0);

    const field = screen.getByLabelText('Codice a 6 cifre');
    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Verifica e accedi' }));
    expect(await screen.findByText(m.codeInvalid, { selector: 'p' })).toBeInTheDocument();
    await waitFor(() =>
      expect([...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent)).toContain(
        m.codeInvalid,
      ),
    );

    await user.clear(field);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verifica e accedi' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
    expect(window.localStorage.getItem('token')).toBe('jwt-2fa');
  });

  it('a recovery code instead of the app; a spent challenge leads back to e-mail and password', async () => {
    server.use(
      apiPost('user/Login', () => ok({ secondFactor: true, challenge: 'sfida-2' })),
      apiPost('user/Login/second-factor', () => fail(400, m.challengeInvalid)),
    );
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'anna@rinnova.test');
    await user.type(screen.getByLabelText('Password'), 'segreta1');
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    await user.click(
      await screen.findByRole('button', { name: 'Non hai il telefono? Usa un codice di recupero' }),
    );
    await user.type(screen.getByLabelText('Codice di recupero'), 'ABCD-EFGH');
    await user.click(screen.getByRole('button', { name: 'Verifica e accedi' }));
    expect(await screen.findByRole('heading', { name: 'Accedi a Rinnova' })).toBeInTheDocument();
  });
});

describe('enrolment from the user menu', () => {
  it('QR code and key, a confirming code, the recovery codes shown once, then active', async () => {
    let enabled = false;
    server.use(
      apiGet('user/two-factor', () =>
        ok({ available: true, enabled, recoveryCodesLeft: enabled ? 10 : 0, requiredByTenantIds: [] }),
      ),
      apiPost('user/two-factor/setup', () =>
        ok({
          otpauthUri: 'otpauth://totp/Rinnova:anna%40rinnova.test?secret=JBSWY3DPEHPK3PXP',
          secret: 'JBSWY3DPEHPK3PXP',
        }),
      ),
      apiPost('user/two-factor/enable', async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        if (code !== '654321') return fail(400, m.codeInvalid);
        enabled = true;
        return ok({ recoveryCodes: Array.from({ length: 10 }, (_, i) => `AAAA-BBB${i}`) }, m.enabled);
      }),
    );
    const calls = recordRequests();
    const { user } = renderApp('/', { role: Role.Admin, tenantId: 1, email: 'anna@rinnova.test' });
    await user.click(await screen.findByRole('button', { name: /Menu utente/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Accesso in due passaggi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accesso in due passaggi' });
    await user.click(await within(dialog).findByRole('button', { name: 'Attiva' }));
    expect(await within(dialog).findByTestId('two-factor-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    expect(
      await within(dialog).findByRole('img', { name: 'Codice QR per l’app di autenticazione' }),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Codice a 6 cifre'), '111111');
    await user.click(within(dialog).getByRole('button', { name: 'Conferma e attiva' }));
    expect(await within(dialog).findByText(m.codeInvalid)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Codice a 6 cifre'));
    await user.type(within(dialog).getByLabelText('Codice a 6 cifre'), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Conferma e attiva' }));
    const codes = await within(dialog).findByTestId('recovery-codes');
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(dialog).getByRole('button', { name: 'Ho salvato i codici' }));
    expect(await within(dialog).findByText(/Codici di recupero ancora validi: 10/)).toBeInTheDocument();
    const enable = calls.find((r) => r.url.endsWith('/user/two-factor/enable'));
    expect(enable?.headers.get('authorization')).toBe('Bearer test-token');
  });

  it('opens by itself when the selected tenant requires it of its Admins', async () => {
    server.use(
      apiGet('user/two-factor', () =>
        ok({ available: true, enabled: false, recoveryCodesLeft: 0, requiredByTenantIds: [1] }),
      ),
    );
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    const dialog = await screen.findByRole('dialog', { name: 'Accesso in due passaggi' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Il tenant selezionato richiede');
  });
});
