import { expect, test } from '@playwright/test';
import {
  api,
  configAdmin,
  env,
  rememberPassword,
  screenshot,
  submitLoginForm,
  uiLogin,
  uniquePassword,
} from './support';

// The ADMIN_EMAIL SuperAdmin (playwright.config.ts) exists only for this test: its configured
// password works exactly once, to reach the reset form.
test('the configured SuperAdmin must choose a new password at first sign-in', async ({ page }) => {
  const newPassword = uniquePassword('Primo');
  await uiLogin(page, env.adminEmail, env.adminPassword);

  await expect(page).toHaveURL(/\/reset-password\?token=[^&]+$/);
  await expect(page.getByRole('heading', { name: 'Scegli una nuova password' })).toBeVisible();
  await screenshot(page, 'reset-password');

  const fresh = page.getByLabel('Nuova password', { exact: true });
  const confirm = page.getByLabel('Conferma password', { exact: true });
  const submit = page.getByRole('button', { name: 'Imposta la nuova password' });

  await fresh.fill('abc');
  await confirm.fill('abc');
  await submit.click();
  await expect(page.getByText('La password deve contenere almeno 6 caratteri.')).toBeVisible();
  await expect(fresh).toHaveAttribute('aria-invalid', 'true');

  await fresh.fill('abcdef');
  await confirm.fill('abcdeg');
  await submit.click();
  await expect(page.getByText('Le password non corrispondono.')).toBeVisible();
  await expect(page.getByText('La password deve contenere almeno 6 caratteri.')).toHaveCount(0);
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');

  await fresh.fill(newPassword);
  await confirm.fill(newPassword);
  await submit.click();
  await expect(page.getByText('La password è stata aggiornata con successo.')).toBeVisible();
  const shownAt = Date.now();
  await rememberPassword(configAdmin, newPassword);

  // Spec §4/§9: back to /login after 3 seconds, by itself.
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  const waited = Date.now() - shownAt;
  expect(waited, `redirected after ${waited} ms`).toBeGreaterThanOrEqual(2_500);

  // The configured password is spent; the new one signs in (a SuperAdmin: tenant selection).
  const old = await api('POST', '/api/user/Login', {
    body: { Email: env.adminEmail, Password: env.adminPassword },
  });
  expect(old.status).toBe(401);
  await submitLoginForm(page, env.adminEmail, newPassword);
  await expect(page.getByRole('heading', { name: 'Scegli il tenant' })).toBeVisible();
  await expect(
    page.getByText(`Seleziona lo spazio di lavoro in cui operare, ${env.adminEmail}.`),
  ).toBeVisible();
});
