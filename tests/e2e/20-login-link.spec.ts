import { expect, test } from '@playwright/test';
import {
  accounts,
  env,
  expectCustomerArea,
  expectNoHorizontalOverflow,
  outboxSnapshot,
  readOutbox,
  screenshot,
  toast,
  waitForMail,
  loginLinkOf,
} from './support';

/**
 * Signing in with a link (issue 28), as a customer does it: 'Ricevi un link di accesso' on /login,
 * the link read from the outbox, signed in on their area; the same link a second time is
 * refused with the way to ask for a new one. Screens at 390 and 1280 px.
 */

const REQUESTED = 'Se l’indirizzo è registrato, riceverai a breve un link di accesso.';
const INVALID = 'Il link di accesso non è valido o è scaduto. Richiedine uno nuovo.';

test('a customer asks for a sign-in link on /login, opens it from the e-mail and lands signed in, once', async ({
  page,
}) => {
  const account = accounts.cliente;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
    await screenshot(page, `login-with-link-action-${width}`);
    await page.getByRole('button', { name: 'Ricevi un link di accesso' }).click();
    await expect(page.getByRole('heading', { name: 'Accedi con un link' })).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `login-link-request-${width}`);
  }

  // An address nobody has: the same confirmation, and no e-mail.
  const before = await outboxSnapshot();
  await page.getByLabel('Email', { exact: true }).fill('nessuno.e2e@example.it');
  await page.getByRole('button', { name: 'Invia il link di accesso' }).click();
  await expect(page.getByText(REQUESTED)).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Invia di nuovo' }).click();
  const mail = await waitForMail((m) => m.to === account.email, before);
  expect(
    (await readOutbox()).filter((m) => !before.has(m.file) && m.to === 'nessuno.e2e@example.it'),
  ).toEqual([]);
  await expect(page.getByText(REQUESTED)).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await screenshot(page, 'login-link-requested-390');

  expect(mail.subject).toBe('Il tuo link di accesso a Rinnova');
  const link = loginLinkOf(mail);
  expect(link.origin).toBe(new URL(env.baseUrl).origin);
  expect(mail.html).toContain(`href="${link.href}"`);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${link.pathname}${link.search}`);
  await expectCustomerArea(page);
  await expect(page.getByRole('button', { name: `${account.email} – Menu utente` })).toBeVisible();

  // Signed out, the same link again: refused, with a way to ask for a new one.
  await page.getByRole('button', { name: /Menu utente/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Link di accesso non valido' })).toBeVisible();
  await expect(page.getByRole('main').getByText(INVALID)).toBeVisible();
  await expect(toast(page, INVALID)).toBeVisible();
  await screenshot(page, 'login-link-invalid-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await screenshot(page, 'login-link-invalid-390');
  await page.getByRole('link', { name: 'Richiedi un nuovo link' }).click();
  await expect(page).toHaveURL(/\/login\?mode=link$/);
  await expect(page.getByRole('heading', { name: 'Accedi con un link' })).toBeVisible();
});

test('the /login/link wait screen, at 390 and 1280 px', async ({ page }) => {
  // Held open until the photographs are taken; then the made-up token is refused.
  const pending: (() => void)[] = [];
  await page.route('**/api/user/login-link', async (route) => {
    await new Promise<void>((resolve) => pending.push(resolve));
    await route.continue().catch(() => undefined);
  });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/login/link?token=${'x'.repeat(43)}`);
    await expect(page.getByText('Stiamo aprendo la tua area…')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `login-link-wait-${width}`);
  }
  for (const resume of pending) resume();
  await expect(page.getByRole('heading', { name: 'Link di accesso non valido' })).toBeVisible();
});
