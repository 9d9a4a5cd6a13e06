import { expect, test, type Page } from '@playwright/test';
import {
  accounts,
  bodyRows,
  expectOpaque,
  login,
  openFilters,
  pick,
  range,
  screenshot,
  toast,
} from './support';

const pageLinks = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Paginazione' })
    .getByRole('button', { name: /^(Vai alla pagina|Pagina) \d+/ });

test.describe('Regions (Admin, real ISTAT data)', () => {
  test('list: 20 regions in pages of 5, page size 10/20, filter by name and reset', async ({ page }) => {
    await login(page, accounts.admin, { to: '/region' });
    await expect(page.getByRole('heading', { level: 1, name: 'Lista di Region' })).toBeVisible();
    const rows = bodyRows(page, 'Lista di Region');

    await expect(range(page)).toHaveText('1–5 di 20');
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText('Abruzzo');
    await expect(pageLinks(page)).toHaveText(['1', '2', '3', '4']);
    await expect(page.getByRole('columnheader')).toContainText(['Nome', 'Codice', 'Azioni']);
    await screenshot(page, 'region-list');

    await pageLinks(page).filter({ hasText: '4' }).click();
    await expect(range(page)).toHaveText('16–20 di 20');
    await expect(rows).toHaveCount(5);
    await expect(rows.last()).toContainText('Veneto');
    await expect(rows.last()).toContainText('05');

    const pageSize = page.getByLabel('Mostra:');
    await pageSize.selectOption('10');
    await expect(range(page)).toHaveText('1–10 di 20');
    await expect(rows).toHaveCount(10);
    await expect(pageLinks(page)).toHaveText(['1', '2']);
    await pageSize.selectOption('20');
    await expect(rows).toHaveCount(20);
    await expect(pageLinks(page)).toHaveText(['1']);

    const filters = await openFilters(page);
    const byName = filters.getByPlaceholder('Filtra per Nome');
    await byName.fill('tosc');
    await filters.getByRole('button', { name: 'Cerca', exact: true }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Toscana');
    await expect(range(page)).toHaveText('1–1 di 1');

    await filters.getByRole('button', { name: 'Resetta', exact: true }).click();
    await expect(byName).toHaveValue('');
    await expect(rows).toHaveCount(20);
    await expect(range(page)).toHaveText('1–20 di 20');
  });

  test('create, edit, delete (cancel keeps the row, confirm removes it)', async ({ page }) => {
    const tag = `e2e${Date.now().toString(36)}`;
    const name = `Regione ${tag}`;
    const renamed = `Regione ${tag} rinominata`;
    await login(page, accounts.admin, { to: '/region' });
    const rows = bodyRows(page, 'Lista di Region');

    await test.step('create', async () => {
      await page.getByRole('link', { name: 'Crea Nuovo Region' }).click();
      await expect(page).toHaveURL(/\/region\/new$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Crea Nuovo Region' })).toBeVisible();
      // The form fades in (spec §9: after about 100 ms).
      await expectOpaque(page.locator('[data-visible]'));
      await page.getByLabel('Nome').fill(name);
      await page.getByLabel('Codice').fill('E2');
      await screenshot(page, 'region-form');
      await page.getByRole('button', { name: 'Crea', exact: true }).click();
      await expect(toast(page, 'Nuovo elemento creato!')).toBeVisible();
      await expect(page).toHaveURL(/\/region$/);
      await expect(range(page)).toHaveText('1–5 di 21');
    });

    const filters = await openFilters(page);
    await filters.getByPlaceholder('Filtra per Nome').fill(tag);
    await filters.getByRole('button', { name: 'Cerca', exact: true }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole('cell')).toContainText([name, 'E2']);

    await test.step('edit', async () => {
      await rows.first().getByRole('link', { name: 'Modifica' }).click();
      await expect(page).toHaveURL(/\/region\/\d+$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Modifica Region' })).toBeVisible();
      await expectOpaque(page.locator('[data-visible]'));
      await expect(page.getByLabel('Nome')).toHaveValue(name);
      await expect(page.getByLabel('Codice')).toHaveValue('E2');
      await page.getByLabel('Nome').fill(renamed);
      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      await expect(toast(page, 'Elemento aggiornato!')).toBeVisible();
      // Back to the list, with the filter still applied.
      await expect(page).toHaveURL(new RegExp(`/region\\?.*${tag}`));
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(renamed);
    });

    await test.step('delete: Annulla keeps the row', async () => {
      await rows.first().getByRole('button', { name: 'Elimina' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Sei sicuro?' })).toBeVisible();
      await expect(dialog).toContainText('Non potrai annullare questa operazione!');
      await dialog.getByRole('button', { name: 'Annulla' }).click();
      await expect(dialog).toBeHidden();
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(renamed);
    });

    await test.step('delete: Sì, elimina! removes it', async () => {
      await rows.first().getByRole('button', { name: 'Elimina' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Sei sicuro?' })).toBeVisible();
      await dialog.getByRole('button', { name: 'Sì, elimina!' }).click();
      // The list is filtered: its empty state says nothing matches and offers 'Resetta'.
      await expect(page.getByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeVisible();
      await expect(page.getByText(/Nessun risultato con questi filtri/)).toBeVisible();
      await expect(page.getByText(renamed)).toHaveCount(0);

      await (await openFilters(page)).getByRole('button', { name: 'Resetta', exact: true }).click();
      await expect(range(page)).toHaveText('1–5 di 20');
    });
  });
});

test('provinces filtered by region (Veneto: 7, Padova among them)', async ({ page }) => {
  await login(page, accounts.admin, { to: '/province' });
  await expect(page.getByRole('heading', { level: 1, name: 'Lista di Province' })).toBeVisible();
  await expect(range(page)).toHaveText(/^1–5 di 107$/);
  const filters = await openFilters(page);
  await pick(page, filters.getByLabel('Regione'), 'Vene', 'Veneto');
  await filters.getByRole('button', { name: 'Cerca', exact: true }).click();

  await expect(range(page)).toHaveText('1–5 di 7');
  const rows = bodyRows(page, 'Lista di Province');
  await expect(rows).toHaveCount(5);
  for (const row of await rows.all()) await expect(row.getByRole('cell').nth(3)).toHaveText('Veneto');
  await expect(rows.filter({ hasText: 'Padova' })).toContainText('PD');
  await screenshot(page, 'province-list');
});

test('municipality search finds Abano Terme with CAP 35031 in Padova', async ({ page }) => {
  await login(page, accounts.cliente, { to: '/municipality' });
  // A customer has no geography screen (issue 28); the staff's list is the one searched below.
  await expect(page.getByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeVisible();
  await login(page, accounts.admin, { to: '/municipality' });
  await expect(page.getByRole('heading', { level: 1, name: 'Lista di Municipality' })).toBeVisible();
  const filters = await openFilters(page);
  await filters.getByPlaceholder('Filtra per Nome').fill('Abano Terme');
  await filters.getByRole('button', { name: 'Cerca', exact: true }).click();

  const rows = bodyRows(page, 'Lista di Municipality');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Abano Terme');
  await expect(rows.first()).toContainText('35031');
  await expect(rows.first()).toContainText('Padova');

  await filters.getByRole('button', { name: 'Resetta', exact: true }).click();
  await filters.getByPlaceholder('Filtra per Cap').fill('35031');
  await filters.getByRole('button', { name: 'Cerca', exact: true }).click();
  await expect(rows.filter({ hasText: 'Abano Terme' })).toHaveCount(1);
  await screenshot(page, 'municipality-list');
});
