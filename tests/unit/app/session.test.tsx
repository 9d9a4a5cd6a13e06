import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { getSession, parseStoredUser, restoreSession, tokenExpiryMs } from '../../../src/lib/session';
import { currentUrl, renderApp } from './harness';

function jwt(payload: object): string {
  const b64 = (o: object) =>
    btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.signature`;
}

describe('session restore rules (spec §4)', () => {
  it('restores a token with a valid stored user', () => {
    window.localStorage.setItem('token', 't1');
    window.localStorage.setItem('user', JSON.stringify({ email: 'a@b.it', role: 2 }));
    expect(restoreSession()).toBe('restored');
    expect(getSession()).toEqual({ token: 't1', user: { email: 'a@b.it', role: 2 } });
  });

  it.each([
    ['the string "undefined"', 'undefined'],
    ['invalid JSON', '{email: oops'],
    ['JSON without a role', JSON.stringify({ email: 'a@b.it' })],
    ['an unknown role', JSON.stringify({ email: 'a@b.it', role: 9 })],
  ])('removes the token when the stored user is %s', (_label, raw) => {
    window.localStorage.setItem('token', 't1');
    window.localStorage.setItem('user', raw);
    expect(restoreSession()).toBe('invalid');
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('removes the token when no user is stored', () => {
    window.localStorage.setItem('token', 't1');
    expect(restoreSession()).toBe('invalid');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('without a token nobody is signed in', () => {
    window.localStorage.setItem('user', JSON.stringify({ email: 'a@b.it', role: 2 }));
    expect(restoreSession()).toBe('anonymous');
    expect(getSession()).toBeNull();
  });

  it('parses the optional fields kept beside email and role', () => {
    expect(
      parseStoredUser(JSON.stringify({ email: 'a@b.it', role: 1, id: 4, name: null, defaultTenantId: 7 })),
    ).toEqual({ email: 'a@b.it', role: 1, id: 4, name: null, defaultTenantId: 7 });
  });

  it('reads a JWT exp (base64url payload) and ignores other tokens', () => {
    expect(tokenExpiryMs(jwt({ sub: 1, exp: 2_000_000_000 }))).toBe(2_000_000_000_000);
    expect(tokenExpiryMs('not-a-jwt')).toBeNull();
    expect(tokenExpiryMs('a.%%%.c')).toBeNull();
  });
});

describe('session at start, rendered', () => {
  it('a valid session opens the requested screen', async () => {
    const { router } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { name: 'Gestisci Sottoscrizioni' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/subscription');
  });

  it('a token with a broken user goes to /login without the token', async () => {
    const { router } = renderApp('/subscription', {
      storage: { token: 't1', user: 'undefined', selectedTenantId: '1' },
    });
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Accedi' })).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('a broken user at / also goes to /login (not the landing page)', async () => {
    const { router } = renderApp('/', { storage: { token: 't1', user: '{bad json' } });
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
  });

  it('without a session a private path goes to /login', async () => {
    const { router } = renderApp('/region/3');
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
  });

  it('an already expired JWT ends the session as expired', async () => {
    const expired = jwt({ sub: 1, exp: Math.floor(Date.now() / 1000) - 60 });
    const { router } = renderApp('/subscription', {
      storage: { token: expired, user: JSON.stringify({ email: 'a@b.it', role: 2 }), selectedTenantId: '1' },
    });
    await waitFor(() => expect(currentUrl(router)).toBe('/login?sessionExpired=true'));
    expect(await screen.findByText(messages.login.sessionExpired)).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });
});
