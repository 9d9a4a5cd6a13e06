/**
 * Issue 13: the back office as a new Italian user meets it, at 390 px (a phone) and 1280 px.
 * Every list and form: nothing wider than the screen, no internal field key in any visible text,
 * a screenshot kept under screenshots/back-office/. Then the flows: a field error from the server on
 * its field with the toast clear of the title and breadcrumb, sorting kept in the URL, 'Resetta'
 * on an empty filtered list, the ツ of the empty-list text drawn, the delete dialog naming its
 * item with Italian button names, a new plan staying open, the Partita IVA formats.
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  accounts,
  api,
  apiLogin,
  DEMO_TENANT,
  expectNoHorizontalOverflow,
  expectOpaque,
  login,
  screenshot,
  screenshotDir,
  submitLoginForm,
  tenantIdByName,
  toast,
} from './support';

const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const heading1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** A field key such as `vatCode:` or `apiUrl:` in text a person reads. */
const INTERNAL_KEY =
  /\b(name|code|zip|email|street|sdi|pec|phone|vatCode|apiUrl|apiKey|apiSecret|recurringCostBeforeVAT|vatPercentage|recurrenceType|featureName|planId|userId|municipalityId|regionId|provinceId|abbreviation|sort|filters\.\w+|billingAddress\.\w+):\s/;

async function expectNoInternalKey(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text, 'no internal field key in any visible text').not.toMatch(INTERNAL_KEY);
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The few DOM calls made inside `evaluate` callbacks, typed here: the e2e program has no DOM lib.
 * Use as `(globalThis as unknown as PageDom)` inside the callback (it runs in the page).
 */
interface PageRange {
  selectNodeContents(node: unknown): void;
  setStart(node: unknown, offset: number): void;
  setEnd(node: unknown, offset: number): void;
  getBoundingClientRect(): Box;
}
interface PageDom {
  document: {
    createRange(): PageRange;
    createTreeWalker(
      root: unknown,
      whatToShow: number,
    ): { nextNode(): { textContent: string | null } | null };
    fonts: Iterable<{ family: string; status: string }>;
    querySelector(selector: string): unknown;
    body: unknown;
  };
  getComputedStyle(element: unknown): { fontFamily: string; fontSize: string };
}
/** NodeFilter.SHOW_TEXT */
const SHOW_TEXT = 4;
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The visible toast covers neither the page title, any breadcrumb item, nor the page header's actions. */
async function expectToastClearOfTitle(page: Page): Promise<void> {
  const toast = page.locator('.Toastify__toast').first();
  await expect(toast).toBeVisible();
  // Settled where it lands (its entrance animation done).
  await expect.poll(() => toast.evaluate((el) => el.getAnimations().length)).toBe(0);
  const box = await toast.boundingBox();
  if (!box) throw new Error('toast has no box');
  const targets: Locator[] = [
    heading1(page),
    page.getByRole('navigation', { name: 'Percorso' }).locator('li'),
    // 'Crea Nuovo …', 'Esporta' and the other actions beside the title (issue 31).
    page.locator('main header').getByRole('link'),
    page.locator('main header').getByRole('button'),
  ];
  for (const target of targets) {
    for (const el of await target.all()) {
      // Where the text is drawn (a heading's box spans the whole column; its words do not).
      const b = await el.evaluate((node) => {
        const range = (globalThis as unknown as PageDom).document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      if (b.width > 0) expect(overlaps(box, b), `toast over ${await el.innerText()}`).toBe(false);
    }
  }
}

/** The main list title of each generic list, and whether it has a create screen of its own. */
const lists = [
  { path: '/region', title: 'Lista di Region' },
  { path: '/province', title: 'Lista di Province' },
  { path: '/municipality', title: 'Lista di Municipality' },
  { path: '/tenant', title: 'Lista Tenants' },
  { path: '/user', title: 'Lista Utenti' },
  { path: '/address', title: 'Lista Indirizzi' },
  { path: '/plan', title: 'Gestisci piani di abbonamento' },
  { path: '/feature', title: null },
  { path: '/planfeature', title: null },
  { path: '/paymentprovider', title: 'Configura PayPal' },
  { path: '/subscription', title: null },
] as const;

for (const width of [390, 1280] as const) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });
    const shot = (page: Page, name: string) => screenshot(page, `back-office/${width}-${name}`);

    test('every list and form fits the screen and shows no internal key', async ({ page }) => {
      test.setTimeout(240_000);
      await login(page, accounts.admin, { to: '/region' });
      for (const list of lists) {
        const slug = list.path.slice(1);
        await page.goto(list.path);
        if (list.title) await expect(heading1(page)).toHaveText(list.title);
        else await expect(heading1(page)).toBeVisible();
        // Rows (or the empty text) are on screen, not skeletons.
        await expect(page.getByTestId('skeleton-row')).toHaveCount(0);
        await expectNoHorizontalOverflow(page);
        await expectNoInternalKey(page);
        await shot(page, `${slug}-list`);

        const edit = page.getByRole('link', { name: 'Modifica' }).first();
        if (await edit.count()) {
          await edit.click();
          await expect(page).toHaveURL(new RegExp(`${list.path}/\\d+$`));
          await expect(page.locator('form[aria-busy]')).toHaveCount(0);
          await expectNoHorizontalOverflow(page);
          await expectNoInternalKey(page);
          await shot(page, `${slug}-edit`);
          await page.goto(list.path);
          await expect(heading1(page)).toBeVisible();
        }
        const create = page.getByRole('link', { name: /^Crea Nuov/ });
        if (await create.count()) {
          await create.first().click();
          await expect(heading1(page)).toBeVisible();
          await expectNoHorizontalOverflow(page);
          await expectNoInternalKey(page);
          await shot(page, `${slug}-new`);
        }
      }
      // The forms that are screens of their own.
      for (const path of ['/subscription/new', '/user-wizard']) {
        await page.goto(path);
        await expect(heading1(page)).toBeVisible();
        await expectNoHorizontalOverflow(page);
        await expectNoInternalKey(page);
        await shot(page, `${path.slice(1).replace('/', '-')}`);
      }
    });

    test('a duplicate region code is said on the Codice field; the toast keeps clear of the title', async ({
      page,
    }) => {
      const { token } = await apiLogin(accounts.admin);
      const existing = await api<{ items: { code: string }[] }>(
        'GET',
        '/api/region/getAll?pageSize=1&sort=code',
        {
          token,
        },
      );
      const taken = existing.body.data?.items[0]?.code ?? '';
      expect(taken).not.toBe('');
      await login(page, accounts.admin, { to: '/region/new' });
      await page.getByRole('textbox', { name: 'Nome' }).fill(`Doppione ${uniqueTag()}`);
      await page.getByRole('textbox', { name: 'Codice' }).fill(taken);
      await page.getByRole('button', { name: 'Crea', exact: true }).click();
      const code = page.getByRole('textbox', { name: 'Codice' });
      await expect(code).toHaveAccessibleDescription('Esiste già una regione con questo codice.');
      await expect(code).toHaveAttribute('aria-invalid', 'true');
      await expect(page).toHaveURL(/\/region\/new$/);
      await expectToastClearOfTitle(page);
      await expectNoInternalKey(page);
      await expectNoHorizontalOverflow(page);
      await shot(page, 'region-duplicate-code');
    });

    test('sorting by a column is kept in the URL; an empty filtered list offers Resetta', async ({
      page,
    }) => {
      await login(page, accounts.admin, { to: '/region' });
      const firstTitle = async () =>
        width === 390
          ? page.getByRole('list', { name: 'Lista di Region' }).locator('> li p').first().innerText()
          : page
              .getByRole('table', { name: 'Lista di Region' })
              .locator('tbody tr td.font-medium')
              .first()
              .innerText();
      if (width === 390) {
        await page
          .getByRole('combobox', { name: 'Ordina per' })
          .selectOption({ label: 'Nome (decrescente)' });
      } else {
        const header = page.getByRole('columnheader', { name: 'Nome' });
        await header.getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
        await expect(header).toHaveAttribute('aria-sort', 'ascending');
        await expect.poll(firstTitle).toBe('Abruzzo');
        await header.getByRole('button').click();
        await expect(header).toHaveAttribute('aria-sort', 'descending');
      }
      await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
      await expect.poll(firstTitle).toBe('Veneto');
      await shot(page, 'region-sorted');
      // Kept across a reload: it lives in the URL.
      await page.reload();
      await expect.poll(firstTitle).toBe('Veneto');

      await page.goto('/region?q=nessuna-regione-si-chiama-cosi');
      await expect(page.getByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeVisible();
      await expect(page.getByText(/Nessun risultato con questi filtri/)).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await shot(page, 'region-no-matches');
      await page.getByRole('button', { name: 'Resetta' }).last().click();
      await expect(page).not.toHaveURL(/q=/);
      await expect.poll(firstTitle).not.toBe('');
    });

    test('the empty-list text draws its ツ (a shipped glyph, never a missing-glyph box)', async ({
      page,
    }) => {
      const { token } = await apiLogin(accounts.superadmin);
      const created = await api<{ id: number }>('POST', '/api/tenant/Create', {
        token,
        body: { name: `Vuoto ${uniqueTag()}` },
      });
      expect(created.status).toBe(200);
      const tenantId = created.body.data?.id as number;
      await login(page, accounts.superadmin, { to: '/plan', tenant: tenantId });
      const empty = page.getByText('Ancora niente qui ¯\\_(ツ)_/¯');
      await expect(empty).toBeVisible();
      // The browser loaded the one-glyph font for ツ (unicode-range U+30C4), and it has the glyph.
      await expect
        .poll(() =>
          page.evaluate(() =>
            [...(globalThis as unknown as PageDom).document.fonts].some(
              (f) => f.family.includes('Rinnova Kana') && f.status === 'loaded',
            ),
          ),
        )
        .toBe(true);
      // On the page, ツ is drawn one em wide by the shipped glyph (a missing-glyph box is narrower).
      const drawn = await empty.evaluate((el, showText) => {
        const dom = globalThis as unknown as PageDom;
        const walker = dom.document.createTreeWalker(el, showText);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = n.textContent?.indexOf('ツ') ?? -1;
          if (at < 0) continue;
          const range = dom.document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + 1);
          return {
            width: range.getBoundingClientRect().width,
            em: parseFloat(dom.getComputedStyle(el).fontSize),
          };
        }
        return null;
      }, SHOW_TEXT);
      expect(drawn).not.toBeNull();
      expect(drawn?.width).toBeCloseTo(drawn?.em ?? 0, 0);
      await expectNoHorizontalOverflow(page);
      await shot(page, 'empty-list');
    });

    test('the delete dialog names what goes, in the app’s look, Italian down to its close button', async ({
      page,
    }) => {
      const name = `Da eliminare ${uniqueTag()}`;
      const { token } = await apiLogin(accounts.admin);
      const tenantId = await tenantIdByName(token, DEMO_TENANT);
      const made = await api<{ id: number }>('POST', '/api/feature/Create', {
        token,
        tenantId,
        body: { featureName: name, description: 'Una funzionalità di prova' },
      });
      expect(made.status).toBe(200);
      await login(page, accounts.admin, { to: `/feature?q=${encodeURIComponent(name)}` });
      await page.getByRole('button', { name: 'Elimina' }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Sei sicuro?' })).toBeVisible();
      await expect(dialog).toContainText(`Stai per eliminare ${'Funzionalità'}`);
      await expect(dialog.getByText(name, { exact: false })).toBeVisible();
      await expect(dialog).toContainText('Non potrai annullare questa operazione!');
      await expect(dialog.getByRole('button', { name: 'Chiudi questa finestra' })).toBeVisible();
      // The app's own button and card look, not SweetAlert2's purple default.
      const confirm = dialog.getByRole('button', { name: 'Sì, elimina!' });
      await expect(confirm).toHaveClass(/\bbtn-danger\b/);
      await expect(confirm).not.toHaveCSS('background-color', 'rgb(112, 102, 224)');
      const fonts = await page.evaluate(() => [
        (globalThis as unknown as PageDom).getComputedStyle(
          (globalThis as unknown as PageDom).document.querySelector('.swal2-popup'),
        ).fontFamily,
        (globalThis as unknown as PageDom).getComputedStyle((globalThis as unknown as PageDom).document.body)
          .fontFamily,
      ]);
      expect(fonts[0]).toBe(fonts[1]);
      await expect(page.locator('.swal2-popup')).toHaveCSS('border-radius', '12px');
      await shot(page, 'delete-dialog');
      await dialog.getByRole('button', { name: 'Sì, elimina!' }).click();
      await expect(page.getByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeVisible();
      await expect(page.getByText(/Nessun risultato con questi filtri/)).toBeVisible();
    });

    test('a new plan stays open for its features; a duplicate name is said on Nome', async ({ page }) => {
      const name = `Piano UX ${uniqueTag()}`;
      await login(page, accounts.admin, { to: '/plan' });
      await page.getByRole('link', { name: 'Crea Nuovo Piano' }).click();
      // As a person does: type once the form has faded in.
      await expectOpaque(page.locator('[data-visible]'));
      await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(name);
      await page.getByRole('combobox', { name: 'Ricorrenza' }).selectOption('1');
      const cost = page.getByRole('textbox', { name: 'Costo ricorrente (IVA esclusa)' });
      await cost.fill('49,5');
      await cost.blur();
      await expect(cost).toHaveValue('49,50');
      await expect(page.getByRole('textbox', { name: 'IVA (%)' })).toHaveValue('22,00');
      await shot(page, 'plan-new-filled');
      await page.getByRole('button', { name: 'Crea', exact: true }).click();
      await expect(page).toHaveURL(/\/plan\/\d+$/);
      await expect(heading1(page)).toHaveText('Modifica Piano');
      await expect(page.getByRole('button', { name: 'Aggiungi funzionalità' })).toBeVisible();
      await expectToastClearOfTitle(page);
      await shot(page, 'plan-created-stays');

      await page.goto('/plan/new');
      await expectOpaque(page.locator('[data-visible]'));
      await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(name.toUpperCase());
      await page.getByRole('combobox', { name: 'Ricorrenza' }).selectOption('1');
      await page.getByRole('textbox', { name: 'Costo ricorrente (IVA esclusa)' }).fill('10');
      await page.getByRole('button', { name: 'Crea', exact: true }).click();
      await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveAccessibleDescription(
        'Esiste già un piano con questo nome.',
      );
      await expectToastClearOfTitle(page);
      await expectNoInternalKey(page);
      await shot(page, 'plan-duplicate-name');
    });

    test('payment provider: required marks and one message per field, before anything is sent', async ({
      page,
    }) => {
      await login(page, accounts.admin, { to: '/paymentprovider/new' });
      let sent = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/paymentprovider/Create')) sent += 1;
      });
      for (const label of ['Nome', 'URL API', 'Client ID (API key)', 'Secret API']) {
        await expect(page.locator('label', { hasText: label }).first()).toContainText('*');
      }
      await page.getByRole('button', { name: 'Crea', exact: true }).click();
      await expect(page.getByText('Il nome è obbligatorio.')).toBeVisible();
      await expect(page.getByText('L’URL dell’API è obbligatorio.')).toBeVisible();
      await expect(page.getByText('Il Client ID (API key) è obbligatorio.')).toBeVisible();
      await expect(page.getByText('Il secret è obbligatorio per una nuova configurazione.')).toBeVisible();
      await expect(page.getByText('L’URL dell’API deve iniziare con https://')).toHaveCount(0);
      expect(sent).toBe(0);
      await expectNoHorizontalOverflow(page);
      await expectNoInternalKey(page);
      await shot(page, 'paymentprovider-required');
    });

    test('Partita IVA: a wrong check digit is said on the field; an EU number with its prefix is saved, back to the list', async ({
      page,
    }) => {
      await login(page, accounts.admin, { to: '/user?q=cliente' });
      const list = page.url().replace(/^https?:\/\/[^/]+/, '');
      await page.getByRole('link', { name: 'Modifica' }).first().click();
      const vat = page.getByRole('textbox', { name: 'Partita IVA' });
      await expect(page.getByRole('textbox', { name: 'Nome completo' })).not.toHaveValue('');
      await vat.fill('01234567890');
      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      await expect(vat).toHaveAccessibleDescription(/11 cifre.*DE123456789/);
      await expectToastClearOfTitle(page);
      await expectNoInternalKey(page);
      await shot(page, 'user-vat-invalid');
      await vat.fill('DE123456789');
      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${list.replace(/[?]/g, '\\?')}$`));
      await expect(page.getByText('DE123456789').first()).toBeVisible();
    });

    test('a User (customer) walks their own screens; the admin ones are no page to them', async ({
      page,
    }) => {
      await login(page, accounts.cliente);
      const screens = [
        { path: '/', slug: 'area', title: 'Area clienti' },
        { path: '/my/invoices', slug: 'my-invoices', title: 'Le mie fatture' },
        { path: '/my/billing', slug: 'my-billing', title: 'Dati di fatturazione' },
        { path: '/my/data', slug: 'my-data', title: 'I miei dati' },
        { path: '/subscription', slug: 'subscription-list', title: 'Pagina non trovata' },
        { path: '/address', slug: 'address-list', title: 'Pagina non trovata' },
        { path: '/hangfire', slug: 'hangfire-refused', title: 'Pagina non trovata' },
      ] as const;
      for (const s of screens) {
        await page.goto(s.path);
        await expect(heading1(page)).toHaveText(s.title);
        await expect(page.getByTestId('skeleton-row')).toHaveCount(0);
        await expectNoHorizontalOverflow(page);
        await expectNoInternalKey(page);
        await shot(page, `user-role-${s.slug}`);
      }
    });

    test('the frame: breadcrumb of an unknown path, and the e-mail in the top bar', async ({ page }) => {
      await login(page, accounts.superadmin, { to: '/una/pagina/che/non/esiste' });
      const crumbs = page.getByRole('navigation', { name: 'Percorso' });
      await expect(crumbs.getByRole('listitem').filter({ hasText: /\S/ })).toHaveText([
        'Home',
        'Pagina non trovata',
      ]);
      await expect(crumbs).not.toContainText('Una');
      await expectNoHorizontalOverflow(page);
      await shot(page, 'unknown-path');
      if (width === 1280) {
        const email = page.getByText(accounts.superadmin.email, { exact: true });
        await expect(email).toBeVisible();
        const cut = await email.evaluate((el) => el.scrollWidth > el.clientWidth);
        expect(cut, 'the whole e-mail shows').toBe(false);
        // Sorted by e-mail (its arrow shown), the user list's nine columns still fit the card.
        await page.goto('/user?sort=-email');
        const table = page.getByRole('table', { name: 'Lista Utenti' });
        await expect(page.getByRole('columnheader', { name: 'Indirizzo email' })).toHaveAttribute(
          'aria-sort',
          'descending',
        );
        const [tableWidth, cardWidth] = await table.evaluate((el) => [
          el.scrollWidth,
          (el.parentElement as unknown as { clientWidth: number }).clientWidth,
        ]);
        expect(tableWidth).toBeLessThanOrEqual(cardWidth);
        await shot(page, 'user-list-sorted');
      }
    });
  });
}

test('a failed sign-in: the message as a toast (spec §8), and the inline hint on the form', async ({
  page,
}) => {
  await page.goto('/login');
  await submitLoginForm(page, accounts.admin.email, 'sbagliata-davvero');
  await expect(page.getByTestId('login-error')).toHaveText('Email o password non corretti.');
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'Email o password non corretti.' }),
  ).toHaveCount(1);
  await screenshot(page, 'back-office/1280-login-error');
});

// Issue 25: below a tenant's form, a SuperAdmin reads where its database lives (an Admin's
// detail carries no database: tests/unit/tenant/tenant-database.test.tsx) and backs it up: the e2e
// server's demo tenants were split into databases of their own at its first start (start.ts).
// A tenant still in the control database (no operations, the split hint): the component tests.
const NOT_SPLIT = 'Nel database di controllo (non ancora separato)';

/** The card alone, in screenshots/tenant-database/ (the phone's fixed tenant bar hidden for the shot). */
async function cardShot(card: Locator, name: string): Promise<void> {
  await card.screenshot({
    path: path.join(screenshotDir, `tenant-database/${name}.png`),
    style: '.fixed.bottom-0 { visibility: hidden !important; }',
  });
}

for (const width of [390, 1280] as const) {
  test(`${width} px: a SuperAdmin reads where a tenant's database lives, and backs it up once it has its own`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await login(page, accounts.superadmin, { to: '/tenant' });
    await page.getByRole('link', { name: 'Modifica' }).first().click();
    await expect(page).toHaveURL(/\/tenant\/\d+$/);
    const card = page.getByRole('region', { name: 'Database del tenant' });
    // The demo tenants were split into databases of their own at the first start (start.ts).
    await expect(card.getByText('Database incorporato (questo server)')).toBeVisible();
    await expect(card.getByText(/^rinnova_t\d+$/)).toBeVisible();
    const size = card.locator('dt', { hasText: 'Dimensione' }).locator('xpath=following-sibling::dd');
    await expect(size).toHaveText(/^\d+(,\d)? (B|kB|MB|GB)$/);
    await expect(card.getByText(NOT_SPLIT)).toHaveCount(0);
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Scarica backup' }).click();
    expect((await download).suggestedFilename()).toMatch(/^tenant-\d+-\d{4}-\d{2}-\d{2}\.backup$/);
    await expect(toast(page, /^Backup scaricato: tenant-\d+-.+\.backup\.$/)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `tenant-database/${width}-tenant-database`);
    await cardShot(card, `${width}-tenant-database-card`);
  });

  // A tenant created now is born in its own database (npm start); deleting it asks for its name.
  test(`${width} px: a new tenant has its own database; deleting it asks for its name, then it is gone`, async ({
    page,
  }) => {
    const { token } = await apiLogin(accounts.superadmin);
    const name = `Bottega ${uniqueTag()} ${width}`;
    const created = await api<{ id: number }>('POST', '/api/tenant/Create', { token, body: { name } });
    expect(created.status).toBe(200);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await login(page, accounts.superadmin, { to: `/tenant/${created.body.data!.id}` });
    const card = page.getByRole('region', { name: 'Database del tenant' });
    await expect(card.getByText(new RegExp(`^rinnova_t${created.body.data!.id}$`))).toBeVisible();
    await card.getByRole('button', { name: 'Elimina il tenant…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Eliminare il tenant con tutti i suoi dati?')).toBeVisible();
    const typed = dialog.getByRole('textbox', { name: 'Per confermare scrivi il nome del tenant' });
    await typed.fill('Bottega');
    await dialog.getByRole('button', { name: 'Elimina definitivamente' }).click();
    await expect(
      dialog.getByText('Il nome non corrisponde: scrivilo esattamente come appare.'),
    ).toBeVisible();
    await screenshot(page, `tenant-database/${width}-tenant-delete-dialog`);
    await typed.fill(name);
    await dialog.getByRole('button', { name: 'Elimina definitivamente' }).click();
    await expect(
      toast(
        page,
        `Tenant «${name}» eliminato con tutti i suoi dati. L’esportazione completa è conservata sul server.`,
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/tenant$/);
    const gone = await api('GET', `/api/tenant/GetById/${created.body.data!.id}`, { token });
    expect(gone.status).toBe(404);
  });

  // The operations' layout on a phone and a desktop, whatever the e2e server's tenants are: the
  // detail is answered as a tenant with a database of its own and the servers as two, by
  // interception (nothing is clicked: the server would answer for the tenant it really has).
  test(`${width} px: the operations on a tenant's own database fit the screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.route('**/api/tenant/GetById/*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      body.data.database = { server: 'eu1', name: 'rinnova_t1', sizeBytes: 13_002_342 };
      await route.fulfill({ response, json: body });
    });
    await page.route('**/api/tenant/database/servers', (route) =>
      route.fulfill({ json: { success: true, message: null, data: ['control', 'eu1', 'eu2'] } }),
    );
    await login(page, accounts.superadmin, { to: '/tenant' });
    await page.getByRole('link', { name: 'Modifica' }).first().click();
    const card = page.getByRole('region', { name: 'Database del tenant' });
    await expect(card.getByText('12,4 MB')).toBeVisible();
    const buttons = [
      card.getByRole('button', { name: 'Scarica backup' }),
      card.getByRole('button', { name: 'Esporta tutti i dati' }),
      card.getByText('Ripristina da un backup…'),
      card.getByRole('button', { name: 'Sposta su un altro server' }),
      card.getByRole('button', { name: 'Elimina il tenant…' }),
    ];
    await expect(card.getByLabel('Ripristina da un backup…')).toHaveAttribute('type', 'file');
    await expect(card.getByRole('combobox', { name: 'Server di destinazione' })).toHaveValue('control');
    const cardBox = (await card.boundingBox())!;
    for (const button of buttons) {
      await expect(button).toBeVisible();
      const box = (await button.boundingBox())!;
      // Tappable, on one line, inside the card.
      expect(box.height, 'a button is 36-44 px tall').toBeGreaterThanOrEqual(36);
      expect(box.height).toBeLessThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      // On a phone, a button spans the card's content (thumb-wide, aligned with each other).
      if (width === 390) expect(box.width).toBeGreaterThan(cardBox.width - 64);
    }
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `tenant-database/${width}-tenant-database-operations`);
    await cardShot(card, `${width}-tenant-database-operations-card`);
  });
}
