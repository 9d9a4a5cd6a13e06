import { expect, test, type Page } from '@playwright/test';
import {
  accounts,
  api,
  apiLogin,
  expectNoHorizontalOverflow,
  expectToastOnce,
  login,
  pick,
  readOutbox,
  screenshot,
  tenantIdByName,
  DEMO_TENANT,
} from './support';

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const statusBadge = (page: Page) => page.locator('h1 + *').first();

/** A customer of Demo Srl made for this run, so the test never depends on earlier data. */
async function freshCustomer(): Promise<{ name: string; email: string }> {
  const session = await apiLogin(accounts.admin);
  const tenant = await tenantIdByName(session.token, DEMO_TENANT);
  const stamp = Date.now().toString(36);
  const customer = { name: `Giovanna Test ${stamp}`, email: `giovanna.${stamp}@example.com` };
  const res = await api('POST', '/api/user/Create', {
    token: session.token,
    tenantId: tenant,
    body: { ...customer, roleId: 3, isActive: true },
  });
  expect(res.status).toBe(200);
  return customer;
}

test.describe('Admin: a subscription paid by bank transfer', () => {
  test('create, switch to bank transfer, record an approved transfer, confirm: the badge turns yellow', async ({
    page,
  }) => {
    const customer = await freshCustomer();
    await login(page, accounts.admin, { to: '/subscription/new' });
    await expect(heading1(page, 'Crea Sottoscrizione')).toBeVisible();
    await page.getByRole('button', { name: 'Crea', exact: true }).click();
    await expect(page.getByText('Seleziona un utente e un piano.')).toBeVisible();

    await pick(
      page,
      page.getByRole('combobox', { name: 'Cliente' }),
      customer.name,
      `${customer.name} (${customer.email})`,
    );
    await pick(page, page.getByRole('combobox', { name: 'Piano' }), 'Pro', 'Pro');
    await expect(page.getByText('Seleziona un utente e un piano.')).toBeHidden();
    // Prefilled from the plan: 29,90 € + 22 % = 36,48 €, live.
    await expect(page.getByRole('textbox', { name: /Costo/ })).toHaveValue('29,90');
    const summary = page.getByRole('complementary', { name: 'Riepilogo' });
    await expect(summary).toContainText('36,48 €');
    const vat = page.getByRole('textbox', { name: 'IVA (%)' });
    await vat.fill('10');
    await expect(summary).toContainText('32,89 €'); // 29,90 × 1,10 = 32,89
    await vat.fill('22');
    await expect(summary).toContainText('36,48 €');
    await screenshot(page, 'subscription-new');
    await page.getByRole('button', { name: 'Crea', exact: true }).click();

    await expect(page).toHaveURL(/\/subscription\/\d+$/);
    await expect(heading1(page, 'Modifica Sottoscrizione')).toBeVisible();
    await expect(page.getByText('Prossimo passo')).toBeVisible();
    await expect(statusBadge(page)).toContainText('Sottoscrizione non attiva');

    await page.getByRole('button', { name: 'Imposta pagamento con bonifico' }).click();
    const dialog = page.getByRole('dialog', { name: 'Impostare il pagamento con bonifico?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Sì, imposta il bonifico' }).click();
    await expect(statusBadge(page)).toContainText('In attesa di bonifico bancario');
    const mail = (await readOutbox()).find(
      (m) => m.to === customer.email && m.subject.includes('istruzioni per il bonifico'),
    );
    expect(mail?.subject).toBe('Demo Srl: istruzioni per il bonifico (Pro)');
    expect(mail?.text).toContain('36,48');
    expect(mail?.text).toMatch(/Causale: RNV-\d+-\d{6}/);

    await page.getByRole('button', { name: 'Gestisci bonifici' }).click();
    const modal = page.getByRole('dialog', { name: 'Gestisci bonifici' });
    await expect(modal.getByRole('region', { name: 'Istruzioni per il bonifico' })).toContainText(
      'IT60X0542811101000000123456',
    );
    await modal.getByRole('button', { name: 'Aggiungi bonifico' }).click();
    await modal.getByRole('textbox', { name: /Importo/ }).fill('36,48');
    await modal.getByLabel('Data di approvazione').fill('2026-01-15T10:30');
    await modal.getByRole('button', { name: 'Salva', exact: true }).click();
    await expectToastOnce(page, 'Elemento salvato con successo!');
    await expect(modal.getByText('Importo coperto: puoi confermare l’attivazione.')).toBeVisible();
    await screenshot(page, 'subscription-bank-transfers');
    await modal.getByRole('button', { name: 'Chiudi' }).first().click();
    await expect(modal).toHaveCount(0);

    await page.getByRole('button', { name: 'Conferma attivazione' }).click();
    await expect(statusBadge(page)).toContainText('Attiva, ma senza rinnovo automatico');
    const timeline = page.getByRole('list', { name: 'Cronologia della sottoscrizione' });
    await expect(timeline.getByRole('listitem')).toHaveCount(3);
    await screenshot(page, 'subscription-detail');

    // In the list: the yellow badge, and no action left for this row.
    await page.goto(`/subscription?q=${encodeURIComponent(customer.name)}`);
    const table = page.getByRole('table', { name: 'Gestisci Sottoscrizioni' });
    const row = table.locator('tbody tr').filter({ hasText: customer.name });
    await expect(row).toHaveCount(1);
    const badge = row.getByText('Attiva, ma senza rinnovo automatico');
    await expect(badge).toHaveClass(/yellow/);
    await expect(row.getByRole('button')).toHaveCount(0);
    await screenshot(page, 'subscription-list');
  });
});

test.describe('a customer sees only their own subscriptions', () => {
  test("as cards in their 'Area clienti'; the admin list is no page to them", async ({ page }) => {
    await login(page, accounts.cliente, { to: '/subscription' });
    await expect(heading1(page, 'Pagina non trovata')).toBeVisible();
    await page.goto('/');
    await expect(heading1(page, 'Area clienti')).toBeVisible();
    const cards = page.getByRole('list', { name: 'I tuoi abbonamenti' }).locator('> li');
    // The demo's customer has one Active subscription and one waiting for its payment.
    await expect(cards).toHaveCount(2);
    await expect(cards.filter({ hasText: 'Attivo' })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'Da pagare' })).toHaveCount(1);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Crea Sottoscrizione' })).toHaveCount(0);
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the list is a stack of cards with their actions, and the detail fits the screen', async ({
    page,
  }) => {
    await login(page, accounts.admin, { to: '/subscription' });
    await expect(heading1(page, 'Gestisci Sottoscrizioni')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Gestisci Sottoscrizioni' }).locator('> li');
    await expect(cards).toHaveCount(5);
    await expect(cards.first().getByText('Importo')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'mobile-subscription-list');
    await cards.first().getByRole('link', { name: 'Modifica' }).click();
    await expect(heading1(page, 'Modifica Sottoscrizione')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'mobile-subscription-detail');
    await page.goto('/subscription/new');
    await expect(heading1(page, 'Crea Sottoscrizione')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'mobile-subscription-new');
  });
});
