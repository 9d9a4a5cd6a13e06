import { expect, test } from '@playwright/test';
import { accounts, getStorage, login, setStorage, signJwt, toast } from './support';

const EXPIRED_TOAST = 'La sessione è scaduta. Effettua nuovamente il login.';
const UNAUTHORIZED_TOAST = 'Accesso non autorizzato.';

/** A token the server itself would have issued an hour and a half ago, expired 30 minutes ago. */
function expiredTokenFor(user: { id: number; roleId: number }): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ sub: String(user.id), roleId: user.roleId, iat: now - 5400, exp: now - 1800 });
}

test.describe('Session expiry', () => {
  test('an expired token found at start: back to /login?sessionExpired=true with the expiry toast', async ({
    page,
  }) => {
    const { user } = await login(page, accounts.admin);
    await expect(page.getByRole('heading', { level: 1, name: /Benvenuto/ })).toBeVisible();
    await setStorage(page, { token: expiredTokenFor(user) });

    await page.goto('/region');
    await expect(page).toHaveURL(/\/login\?sessionExpired=true$/);
    await expect(toast(page, EXPIRED_TOAST)).toBeVisible();
    await expect(toast(page, EXPIRED_TOAST)).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
    expect(await getStorage(page, 'token')).toBeNull();
    expect(await getStorage(page, 'user')).toBeNull();
  });

  test('a request meeting the server’s 401 “Token scaduto” ends the session the same way', async ({
    page,
  }) => {
    const { user } = await login(page, accounts.admin, { to: '/region' });
    const rows = page.getByRole('table', { name: 'Lista di Region' }).locator('tbody tr');
    await expect(rows).toHaveCount(5);

    // The page keeps running with its session in memory; only the stored token (which every
    // request reads) has expired, so the server is the one who says so.
    await setStorage(page, { token: expiredTokenFor(user) });
    // Whichever request meets the 401 first ends the session (and cancels the others).
    const refused = page.waitForResponse((r) => r.url().includes('/api/') && r.status() === 401);
    await page.getByLabel('Mostra:').selectOption('10');
    const answer = (await (await refused).json()) as { message: string };
    expect(answer.message).toContain('scaduto');

    await expect(page).toHaveURL(/\/login\?sessionExpired=true$/);
    await expect(toast(page, EXPIRED_TOAST)).toBeVisible();
    expect(await getStorage(page, 'token')).toBeNull();
  });

  test('a garbage token: “Accesso non autorizzato.” and /login', async ({ page }) => {
    await login(page, accounts.admin);
    await setStorage(page, { token: 'not-a.real-token.at-all' });

    // The first of the page's requests the server refuses ends the session and cancels the
    // others: on a loaded machine that may be the frame's tenant list rather than the region list.
    const refused = page.waitForResponse((r) => r.url().includes('/api/') && r.status() === 401);
    await page.goto('/region');
    await refused;
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, UNAUTHORIZED_TOAST)).toBeVisible();
    await expect(toast(page, EXPIRED_TOAST)).toHaveCount(0);
    expect(await getStorage(page, 'token')).toBeNull();
  });

  test('a token signed with another secret is refused like garbage', async ({ page }) => {
    const { user } = await login(page, accounts.admin);
    const now = Math.floor(Date.now() / 1000);
    await setStorage(page, {
      token: signJwt(
        { sub: String(user.id), roleId: 1, iat: now, exp: now + 3600 },
        'someone-else-secret-0123456789abcdef',
      ),
    });
    // Every toast shown is recorded as it appears: on a loaded machine the page may take longer to
    // settle on /login than the toast stays on screen (5 s), and the toast counts as seen then too.
    // (In-page code as text: the e2e files are typed for Node, without the DOM.)
    await page.addInitScript({
      content: `
        window.toastsSeen = [];
        new MutationObserver(() => {
          for (const alert of document.querySelectorAll('.Toastify [role="alert"]')) {
            const text = alert.textContent || '';
            if (!window.toastsSeen.includes(text)) window.toastsSeen.push(text);
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });`,
    });
    await page.goto('/region');
    await expect(page).toHaveURL(/\/login$/);
    await expect
      .poll(() => page.evaluate<string[]>('window.toastsSeen'))
      .toContainEqual(expect.stringContaining(UNAUTHORIZED_TOAST));
  });
});
