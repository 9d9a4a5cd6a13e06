import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { accounts, expectDashboard, login, passwordOf, screenshot, uiLogin } from './support';

/**
 * Two-factor sign-in (issue 23), as a person does it: the Admin turns it on from the user menu
 * (scanning is stood in for by the key the dialog shows), signs out, signs in with password and
 * the app's code, then once with a recovery code, and finally turns it off.
 */

/** The app's code for the 30-second step `step` (the server accepts one step either side). */
function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: step * 30_000,
  });
}
const stepNow = () => Math.floor(Date.now() / 30_000);

async function openTwoFactor(page: Page) {
  await page.getByRole('button', { name: /Menu utente/ }).click();
  await page.getByRole('menuitem', { name: 'Accesso in due passaggi' }).click();
  return page.getByRole('dialog', { name: 'Accesso in due passaggi' });
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Menu utente/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('an Admin turns on two-factor sign-in, signs in with the app’s code and with a recovery code, turns it off', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin);
  await expectDashboard(page);

  const dialog = await openTwoFactor(page);
  await dialog.getByRole('button', { name: 'Attiva' }).click();
  await expect(dialog.getByRole('img', { name: 'Codice QR per l’app di autenticazione' })).toBeVisible();
  const secret = (await dialog.getByTestId('two-factor-secret').textContent())?.replace(/\s/g, '') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, 'two-factor-setup-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'two-factor-setup-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  const enrolledAt = stepNow();
  await dialog.getByLabel('Codice a 6 cifre').fill(codeAt(secret, enrolledAt));
  await dialog.getByRole('button', { name: 'Conferma e attiva' }).click();
  const codes = dialog.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await screenshot(page, 'two-factor-recovery-codes-1280');
  await dialog.getByRole('button', { name: 'Ho salvato i codici' }).click();
  await expect(dialog.getByText(/Codici di recupero ancora validi: 10/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Chiudi' }).click();

  // Signed out, then in with the password and the app's next code (the first one is spent).
  await signOut(page);
  await uiLogin(page, accounts.admin.email, passwordOf(accounts.admin));
  await expect(page.getByRole('heading', { name: 'Verifica in due passaggi' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'two-factor-login-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'two-factor-login-1280');
  await page
    .getByLabel('Codice a 6 cifre')
    .fill('000000' === codeAt(secret, enrolledAt + 1) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verifica e accedi' }).click();
  await expect(page.getByText(/Codice non valido/).first()).toBeVisible();
  await page.getByLabel('Codice a 6 cifre').fill(codeAt(secret, enrolledAt + 1));
  await page.getByRole('button', { name: 'Verifica e accedi' }).click();
  await expectDashboard(page);

  // Once more with a recovery code.
  await signOut(page);
  await uiLogin(page, accounts.admin.email, passwordOf(accounts.admin));
  await page.getByRole('button', { name: 'Non hai il telefono? Usa un codice di recupero' }).click();
  await page.getByLabel('Codice di recupero').fill(recovery[0]!);
  await page.getByRole('button', { name: 'Verifica e accedi' }).click();
  await expectDashboard(page);

  // Off again (with another recovery code), so the demo Admin signs in with a password alone.
  const settings = await openTwoFactor(page);
  await expect(settings.getByText(/Codici di recupero ancora validi: 9/)).toBeVisible();
  await settings.getByLabel(/Per disattivarlo/).fill(recovery[1]!);
  await settings.getByRole('button', { name: 'Disattiva' }).click();
  await expect(settings.getByRole('button', { name: 'Attiva' })).toBeVisible();
});
