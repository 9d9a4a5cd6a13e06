import { expect, test, type Page } from '@playwright/test';
import {
  accounts,
  expectCustomerArea,
  expectNoHorizontalOverflow,
  login,
  loginLinkOf,
  outboxSnapshot,
  screenshot,
  toast,
  waitForMail,
} from './support';
import {
  adminCalls,
  createCustomer,
  milanoId,
  planByName,
  stampOf,
  subscribeByTransfer,
} from './support/demo-tenant';

/**
 * Collection of a late bank transfer (issue 29), as the people involved see it. A customer's
 * transfer fell due ten days ago and has not arrived. The daily `dunning` job, run now from
 * /hangfire, makes it overdue and e-mails the reminder of the ladder's day 7: the transfer's data
 * and the sign-in link, which opens the customer's area on what they owe. The seller finds it in
 * 'Incassi in sospeso', records the transfer with 'Segna come pagato', and sees it recovered: gone
 * from the list, 'Recuperato' on the subscription with its collection history, the invoice
 * issued. The new screens are looked at in 390 and 1280 px.
 */

const DAY_MS = 86_400_000;
const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const euro = (amount: number) => amount.toFixed(2).replace('.', ',');

/** `settle`: what shows the screen has laid out again at the new width (charts resize after a reload). */
async function shots(page: Page, name: string, settle?: () => Promise<void>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (settle) {
      await page.reload();
      await settle();
    }
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `collection/${width}-${name}`);
  }
}

test('a late transfer: the reminder reaches the customer with a working link, the seller records it and sees it recovered', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const name = `Lucia Ferraro ${stamp}`;
  const email = `lucia.ferraro.${stamp}@example.it`;
  const customerId = await createCustomer(call, {
    name,
    email,
    fiscalCode: 'RSSMRA80A01H501U',
    street: 'Corso Buenos Aires 3',
    zip: '20124',
    municipality: await milanoId(call),
  });
  const basic = await planByName(call, 'Basic');
  const startDate = new Date(Date.now() - 10 * DAY_MS).toISOString();
  const { id: subscriptionId, payment } = await subscribeByTransfer(call, customerId, basic.id, 'pending', {
    startDate,
  });
  const amount = euro(payment.amountDue);

  // The platform's operator runs the daily job now, as /hangfire allows.
  const before = await outboxSnapshot();
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.superadmin, { to: '/hangfire' });
  await page.getByRole('button', { name: 'Esegui ora: Solleciti di pagamento (incassi in ritardo)' }).click();
  await expect(page.getByText('Job accodato: parte entro pochi secondi.')).toBeVisible();
  const reminder = await waitForMail(
    (m) => m.to === email && m.subject.includes('pagamento in sospeso'),
    before,
    60_000,
  );
  expect(reminder.subject).toBe('Demo Srl: pagamento in sospeso per «Basic»');
  expect(reminder.text).toContain('10 giorni di ritardo');
  expect(reminder.text).toMatch(/IBAN: IT\d{2}[A-Z0-9]+/);
  expect(reminder.text).toContain(`Importo: ${amount}`);
  expect(reminder.text).toContain(`Causale: ${payment.causale}`);

  // The customer opens their area from the reminder: what they owe, with the transfer's data.
  const customer = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await customer.newPage();
  const link = loginLinkOf(reminder);
  await phone.goto(`${link.pathname}${link.search}`);
  await expectCustomerArea(phone);
  const due = phone.getByRole('region', { name: 'Da pagare ora' });
  await expect(due).toContainText('Basic');
  await expect(due).toContainText(amount);
  await due.getByRole('button', { name: 'Paga ora' }).click();
  const transfer = phone.getByRole('region', { name: 'Dati per il bonifico' });
  await expect(transfer).toContainText(payment.causale);
  await shots(phone, 'customer-reminded');

  // The seller: 'Incassi in sospeso' lists it in 8–30 days, reminder 3 of 4.
  await login(page, accounts.admin, { to: '/collection' });
  await expect(heading1(page, 'Incassi in sospeso')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Cerca cliente o piano' }).fill(name);
  await page.getByRole('button', { name: 'Cerca', exact: true }).click();
  const table = page.getByRole('table', { name: 'Incassi in sospeso' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(amount);
  await expect(row).toContainText('3 di 4');
  await shots(page, 'overdue');

  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole('button', { name: 'Segna come pagato' }).click();
  const dialog = page.getByRole('dialog', { name: 'Segna come pagato' });
  await expect(dialog.getByRole('textbox', { name: /Importo ricevuto/ })).toHaveValue(amount);
  await dialog.getByRole('textbox', { name: /Nota/ }).fill('CRO 0000123456');
  await dialog.getByRole('button', { name: 'Segna come pagato' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Pagamento registrato: incasso recuperato.')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  // Recovered: on the subscription, its payment reads 'Recuperato', its history says how.
  await page.goto(`/subscription/${subscriptionId}`);
  const payments = page.getByRole('table', { name: 'Pagamenti' });
  const paid = payments.getByRole('row').filter({ hasText: payment.causale });
  await expect(paid).toContainText('Recuperato');
  await paid.getByRole('button', { name: `Storico incasso: ${payment.causale}` }).click();
  const history = page.getByRole('dialog', { name: `Storico incasso di ${payment.causale}` });
  const events = history.getByRole('list', { name: 'Eventi dell’incasso' });
  await expect(events).toContainText('Sollecito inviato');
  await expect(events).toContainText('Segnato come pagato');
  await expect(events).toContainText('CRO 0000123456');
  await expect(events).toContainText('Incassato in ritardo');
  await shots(page, 'payment-history');
  await page.keyboard.press('Escape');

  // The customer's invoice was issued with the recovery, once.
  await phone.goto('/my/invoices');
  const invoices = phone.getByRole('list', { name: 'Le mie fatture' });
  await expect(invoices.getByRole('listitem')).toHaveCount(1);
  await expect(invoices).toContainText(amount);
  await customer.close();
});

test('the seller’s collection screens: the ladder and its e-mails, the dashboard’s Incassi', async ({
  page,
}) => {
  await login(page, accounts.admin, { to: '/collection/settings' });
  await expect(heading1(page, 'Solleciti')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Sequenza dei solleciti' })).toBeVisible();
  await shots(page, 'ladder');

  // The day-3 reminder's text, personalised: the preview is the e-mail the server would send.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Sollecito 2 · giorno 3' }).click();
  const subject = page.getByRole('textbox', { name: 'Oggetto' });
  await subject.fill('Promemoria da {fornitore}: {piano} in attesa');
  const preview = page.frameLocator('iframe[title="Anteprima dell’e-mail: Sollecito 2 · giorno 3"]');
  await expect(preview.locator('body')).toContainText('IBAN');
  await expect(page.getByText('Promemoria da Demo Srl: Professional in attesa')).toBeVisible();
  await shots(page, 'ladder-email');
  await page.getByRole('button', { name: 'Salva', exact: true }).click();
  await expect(toast(page, 'Solleciti salvati.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Sollecito 2 · giorno 3' }).click();
  await expect(page.getByRole('textbox', { name: 'Oggetto' })).toHaveValue(
    'Promemoria da {fornitore}: {piano} in attesa',
  );

  await page.goto('/');
  const card = page.getByRole('region', { name: 'Incassi' });
  await shots(page, 'dashboard', async () => {
    await expect(card).toContainText('Recuperati questo mese');
    await expect(card.getByRole('link', { name: 'Incassi in sospeso' })).toBeVisible();
  });
});
