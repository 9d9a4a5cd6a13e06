import { expect, test } from '@playwright/test';
import {
  accounts,
  apiLogin,
  DEMO_TENANT,
  expectCustomerArea,
  expectDashboard,
  getStorage,
  passwordOf,
  screenshot,
  submitLoginForm,
  tenantIdByName,
  toast,
  uiLogin,
} from './support';

test.describe('Sign-in through the login form', () => {
  test('SuperAdmin chooses Demo Srl on the tenant selection screen, then lands on the dashboard', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
    await screenshot(page, 'login');
    await submitLoginForm(page, accounts.superadmin.email, passwordOf(accounts.superadmin));

    // No default tenant: the stand-alone selection screen with the logo, on every path.
    const screen = page.getByRole('main');
    await expect(screen.getByRole('heading', { name: 'Scegli il tenant' })).toBeVisible();
    await expect(screen.locator('img[src="/logo.svg"]')).toBeVisible();
    await expect(screen.getByText('Seleziona un tenant', { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Percorso' })).toHaveCount(0);
    expect(await getStorage(page, 'selectedTenantId')).toBeNull();
    await screenshot(page, 'tenant-selection');

    await page.getByLabel('Tenant attuale:').click();
    await page.getByRole('option', { name: DEMO_TENANT, exact: true }).click();

    await expect(
      page.getByRole('dialog').getByRole('heading', { name: 'Tenant Selezionata!' }),
    ).toBeVisible();
    await expectDashboard(page);
    const { token } = await apiLogin(accounts.superadmin);
    expect(await getStorage(page, 'selectedTenantId')).toBe(String(await tenantIdByName(token, DEMO_TENANT)));
    // The SuperAdmin's compact selector in the top bar now shows the chosen tenant.
    await expect(page.getByRole('banner').getByText(DEMO_TENANT, { exact: true })).toBeVisible();
  });

  for (const who of ['admin', 'cliente'] as const) {
    test(`${who} goes straight to the home of their default tenant`, async ({ page }) => {
      const account = accounts[who];
      await uiLogin(page, account.email, passwordOf(account));

      // Staff land on the dashboard, a customer on their 'Area clienti' (issue 28).
      if (who === 'admin') await expectDashboard(page);
      else await expectCustomerArea(page);
      // Signed in as this account: its e-mail on the user menu.
      await expect(page.getByRole('button', { name: `${account.email} – Menu utente` })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Scegli il tenant' })).toHaveCount(0);
      // Only a SuperAdmin has the tenant selector.
      await expect(page.getByText('Tenant attuale:')).toHaveCount(0);

      const { user } = await apiLogin(account);
      expect(user.defaultTenantId).not.toBeNull();
      expect(await getStorage(page, 'selectedTenantId')).toBe(String(user.defaultTenantId));
      const stored = JSON.parse((await getStorage(page, 'user')) ?? 'null') as {
        email: string;
        role: number;
      };
      expect(stored).toMatchObject({ email: account.email, role: account.roleId });
      if (who === 'admin') await screenshot(page, 'dashboard');
    });
  }

  test('a wrong password shows the server’s message and keeps the login form', async ({ page }) => {
    await uiLogin(page, accounts.admin.email, 'not-the-password');

    await expect(page.getByTestId('login-error')).toHaveText('Email o password non corretti.');
    // One error, in the form: no toast repeating it.
    await expect(toast(page, 'Email o password non corretti.')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
    expect(await getStorage(page, 'token')).toBeNull();
  });
});
