import { expect, test } from '@playwright/test';
import {
  accounts,
  env,
  expectCustomerArea,
  outboxSnapshot,
  rememberPassword,
  resetLinkOf,
  screenshot,
  submitLoginForm,
  toast,
  uniquePassword,
  waitForMail,
} from './support';

// cliente@ gets a new password here and keeps it (written down for later sign-ins); the
// forced-reset test uses another account.
test('password reset through the e-mailed link, which works only once', async ({ page }) => {
  const account = accounts.cliente;
  const newPassword = uniquePassword('Cliente');
  const before = await outboxSnapshot();

  await page.goto('/login');
  await page.getByRole('button', { name: 'Password dimenticata?' }).click();
  await expect(page.getByRole('heading', { name: 'Reimposta la password' })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  await screenshot(page, 'login-reset-mode');

  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Invia link di reset' }).click();
  await expect(toast(page, 'Email di reset inviata con successo!')).toBeVisible();

  const mail = await waitForMail((m) => m.to === account.email, before);
  expect(mail.subject).toBe('Rinnova: reimposta la tua password');
  const link = resetLinkOf(mail);
  expect(link.origin).toBe(new URL(env.baseUrl).origin);
  expect(mail.html).toContain(link.search.replaceAll('&', '&amp;'));

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Scegli una nuova password' })).toBeVisible();
  await page.getByLabel('Nuova password', { exact: true }).fill(newPassword);
  await page.getByLabel('Conferma password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Imposta la nuova password' }).click();
  await expect(page.getByText('La password è stata aggiornata con successo.')).toBeVisible();
  await rememberPassword(account, newPassword);
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await submitLoginForm(page, account.email, newPassword);
  await expectCustomerArea(page);
  // Signed in as this account: its e-mail on the user menu.
  await expect(page.getByRole('button', { name: `${account.email} – Menu utente` })).toBeVisible();

  // The same link a second time.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Link non valido' })).toBeVisible();
  await expect(page.getByRole('main').getByText('Token non valido o scaduto.')).toBeVisible();
  // Spec §8: every message is a toast unless stated.
  await expect(toast(page, 'Token non valido o scaduto.')).toBeVisible();
  await expect(page.getByLabel('Nuova password', { exact: true })).toHaveCount(0);
});
