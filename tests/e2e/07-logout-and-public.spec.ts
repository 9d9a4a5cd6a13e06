import { expect, test } from '@playwright/test';
import { accounts, expectDashboard, getStorage, login } from './support';

test('Logout from the user menu goes to /login and forgets the session', async ({ page }) => {
  await login(page, accounts.admin);
  await expectDashboard(page);

  await page.getByRole('button', { name: `${accounts.admin.email} – Menu utente` }).click();
  const menu = page.getByRole('menu', { name: 'Menu utente' });
  await expect(menu).toContainText(accounts.admin.email);
  await expect(menu).toContainText('Admin');
  await menu.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  expect(await getStorage(page, 'token')).toBeNull();
  expect(await getStorage(page, 'user')).toBeNull();
  expect(await getStorage(page, 'selectedTenantId')).toBeNull();

  // Signed out, a protected path sends back to /login, and / is the public landing page.
  await page.goto('/region');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: /Gli abbonamenti dei tuoi clienti/ }),
  ).toBeVisible();
});

test('without a session: / is the landing page, /region and unknown paths go to /login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('heading', { level: 1, name: /Gli abbonamenti dei tuoi clienti/ }),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Percorso' })).toHaveCount(0);

  for (const path of ['/region', '/tenant', '/qualcosa/che-non-esiste']) {
    await page.goto(path);
    await expect(page, `${path} without a session`).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  }
});
