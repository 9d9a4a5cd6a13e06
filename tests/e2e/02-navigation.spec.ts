import { expect, test, type Page } from '@playwright/test';
import { accounts, login, screenshot } from './support';

/** Spec §2 route table, sidebar rows in table order, per role (plus issue 15's integrations). */
const sidebarFor = {
  superadmin: [
    'Lista Tenants',
    'Lista Utenti',
    'Gestisci Sottoscrizioni',
    'Crea Sottoscrizione',
    'Fatture',
    'Incassi in sospeso',
    'Configura PayPal',
    'Gestisci piani di abbonamento',
    'Coupon',
    'Chiavi API',
    'Webhook',
    'Status aggiornamento subscription',
  ],
  admin: [
    'Lista Tenants',
    'Lista Utenti',
    'Gestisci Sottoscrizioni',
    'Crea Sottoscrizione',
    'Fatture',
    'Incassi in sospeso',
    'Configura PayPal',
    'Gestisci piani di abbonamento',
    'Coupon',
    'Chiavi API',
    'Webhook',
  ],
  cliente: ['Area clienti', 'Le mie fatture', 'Dati di fatturazione', 'I miei dati'],
} as const;

async function openSidebar(page: Page) {
  await page.getByRole('button', { name: 'Apri menu principale' }).click();
  const panel = page.getByRole('dialog', { name: 'Menu principale' });
  await expect(panel).toBeVisible();
  // The 300 ms slide-in has finished when the panel's right edge meets the window's.
  await expect
    .poll(async () => {
      const box = await panel.boundingBox();
      return box ? Math.round(box.x + box.width) : -1;
    })
    .toBe(page.viewportSize()?.width);
  return panel;
}

test.describe('Sidebar per role', () => {
  for (const who of ['superadmin', 'admin', 'cliente'] as const) {
    test(`${who} sees exactly the entries of their role`, async ({ page }) => {
      await login(page, accounts[who]);
      const panel = await openSidebar(page);

      const links = panel.getByRole('navigation', { name: 'Menu principale' }).getByRole('link');
      await expect(links).toHaveText([...sidebarFor[who]]);
      if (who === 'superadmin') await screenshot(page, 'sidebar-open');

      // A link closes the panel and opens its screen.
      const [entry, url, title] =
        who === 'cliente'
          ? (['Le mie fatture', /\/my\/invoices$/, 'Le mie fatture'] as const)
          : (['Gestisci Sottoscrizioni', /\/subscription$/, 'Gestisci Sottoscrizioni'] as const);
      await links.filter({ hasText: entry }).click();
      await expect(page).toHaveURL(url);
      await expect(panel).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    });
  }

  test('a click outside the panel closes it', async ({ page }) => {
    await login(page, accounts.admin);
    const panel = await openSidebar(page);
    await page.mouse.click(40, 400);
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: 'Apri menu principale' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  test('a customer opening /tenant by URL finds no such page (issue 28: the back office is not theirs)', async ({
    page,
  }) => {
    await login(page, accounts.cliente, { to: '/tenant' });
    await expect(page.getByRole('heading', { name: 'Pagina non trovata' })).toBeVisible();
    await expect(
      page.getByText('L’indirizzo che hai aperto non corrisponde a nessuna pagina.'),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Lista Tenants' })).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);
  });
});

/** Lightness of a computed CSS colour (0 black … 1 white), for rgb() and oklch() alike. */
function lightness(color: string): number {
  const oklch = /oklch\(\s*([\d.]+)(%?)/.exec(color);
  if (oklch) return Number(oklch[1]) / (oklch[2] === '%' ? 100 : 1);
  const rgb = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(color);
  if (!rgb) throw new Error(`Unreadable colour: ${color}`);
  const [r, g, b] = [rgb[1], rgb[2], rgb[3]].map((c) => Number(c) / 255) as [number, number, number];
  return (Math.max(r, g, b) + Math.min(r, g, b)) / 2;
}

test('breadcrumb on /region/new: Home › Regioni › Nuova regione, the last greyed and current', async ({
  page,
}) => {
  await login(page, accounts.admin, { to: '/region/new' });
  const crumbs = page.getByRole('navigation', { name: 'Percorso' }).getByRole('listitem');
  await expect(crumbs).toHaveText(['Home', 'Regioni', 'Nuova regione']);

  const home = crumbs.nth(0).getByRole('link', { name: 'Home' });
  await expect(home).toHaveAttribute('href', '/');
  await expect(crumbs.nth(1).getByRole('link', { name: 'Regioni' })).toHaveAttribute('href', '/region');
  const last = crumbs.nth(2).getByText('Nuova regione');
  await expect(last).toHaveAttribute('aria-current', 'page');
  await expect(crumbs.nth(2).getByRole('link')).toHaveCount(0);

  const color = (el: typeof last) =>
    el.evaluate(
      (node) =>
        (globalThis as unknown as { getComputedStyle(n: unknown): { color: string } }).getComputedStyle(node)
          .color,
    );
  const [homeColor, lastColor] = [await color(home), await color(last)];
  expect(lightness(lastColor), `last crumb ${lastColor} should be lighter than ${homeColor}`).toBeGreaterThan(
    lightness(homeColor) + 0.1,
  );

  // The crumb links work.
  await crumbs.nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/\/region$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lista di Region' })).toBeVisible();
});
