import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../contract/messages';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, apiPost, deferred, fail, ok, recordRequests, server } from '../msw/server';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function validToken() {
  server.use(apiGet('user/validate-reset-token', () => ok(null, 'Token valido.')));
}

async function fill(user: ReturnType<typeof renderApp>['user'], password: string, confirm: string) {
  await user.type(await screen.findByLabelText('Nuova password'), password);
  await user.type(screen.getByLabelText('Conferma password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Imposta la nuova password' }));
}

/** What the page's card shows (the toasts live outside <main>; the card is re-rendered per state). */
const inCard = <T,>(query: (card: ReturnType<typeof within>) => T) =>
  waitFor(() => query(within(screen.getByRole('main'))));

/** Spec §8: every message is a toast unless stated; exactly one toast says this text. */
async function expectOneToast(text: string) {
  await waitFor(() =>
    expect(
      [...document.querySelectorAll('.Toastify__toast')].filter((t) => t.textContent === text),
    ).toHaveLength(1),
  );
}

describe('/reset-password', () => {
  it('checks the token first, showing that it is checking', async () => {
    const gate = deferred();
    server.use(
      apiGet('user/validate-reset-token', async () => {
        await gate.promise;
        return ok(null);
      }),
    );
    const calls = recordRequests();
    renderApp('/reset-password?token=abc123');
    expect((await screen.findAllByText('Verifica del link in corso…')).length).toBeGreaterThan(0);
    gate.resolve();
    expect(await screen.findByLabelText('Nuova password')).toBeInTheDocument();
    expect(new URL(calls[0]!.url).searchParams.get('token')).toBe('abc123');
  });

  it('an invalid or expired token says so', async () => {
    server.use(apiGet('user/validate-reset-token', () => fail(400, 'Token non valido o scaduto.')));
    renderApp('/reset-password?token=scaduto');
    expect(await inCard((c) => c.getByRole('alert'))).toHaveTextContent(messages.resetPage.invalidToken);
    await expectOneToast(messages.resetPage.invalidToken);
    expect(screen.queryByLabelText('Nuova password')).not.toBeInTheDocument();
  });

  it('a success:false answer is invalid too', async () => {
    server.use(apiGet('user/validate-reset-token', () => fail(200, 'no')));
    renderApp('/reset-password?token=x');
    expect(await inCard((c) => c.getByText(messages.resetPage.invalidToken))).toBeInTheDocument();
    await expectOneToast(messages.resetPage.invalidToken);
  });

  it('without a token nothing is called and the link is invalid', async () => {
    const calls = recordRequests();
    renderApp('/reset-password');
    expect(await inCard((c) => c.getByText(messages.resetPage.invalidToken))).toBeInTheDocument();
    await expectOneToast(messages.resetPage.invalidToken);
    expect(calls).toHaveLength(0);
  });

  it('validates: passwords must match and have at least 6 characters', async () => {
    validToken();
    const calls = recordRequests();
    const { user } = renderApp('/reset-password?token=abc');
    await fill(user, 'abc', 'abc');
    expect(await screen.findByText(messages.password.tooShort)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Nuova password'));
    await user.clear(screen.getByLabelText('Conferma password'));
    await fill(user, 'segreta1', 'segreta2');
    expect(await screen.findByText(messages.password.mismatch)).toBeInTheDocument();
    expect(calls.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('success: message, then /login after 3 seconds', async () => {
    validToken();
    server.use(apiPost('user/reset-password', () => ok(null, 'Password aggiornata con successo.')));
    const calls = recordRequests();
    const { user, router } = renderApp('/reset-password?token=abc');
    await fill(user, 'segreta1', 'segreta1');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    expect(await screen.findByText('La password è stata aggiornata con successo.')).toBeInTheDocument();
    const post = calls.find((r) => r.method === 'POST')!;
    expect(await post.clone().json()).toEqual({ token: 'abc', newPassword: 'segreta1' });

    act(() => vi.advanceTimersByTime(2500));
    expect(currentUrl(router)).toBe('/reset-password?token=abc');
    act(() => vi.advanceTimersByTime(600));
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
  });

  it('failure: "Errore nel reset della password."', async () => {
    validToken();
    server.use(apiPost('user/reset-password', () => fail(400, 'Token non valido o scaduto.')));
    const { user, router } = renderApp('/reset-password?token=abc');
    await fill(user, 'segreta1', 'segreta1');
    expect((await screen.findAllByText(messages.resetPage.resetError)).length).toBeGreaterThan(0);
    expect(currentUrl(router)).toBe('/reset-password?token=abc');
  });
});
