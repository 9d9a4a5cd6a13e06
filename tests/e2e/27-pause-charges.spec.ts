import { expect, test, type Page } from '@playwright/test';
import { accounts, expectNoHorizontalOverflow, login, screenshot, toast } from './support';
import {
  adminCalls,
  createCustomer,
  milanoId,
  planByName,
  stampOf,
  subscribeByTransfer,
} from './support/demo-tenant';

/**
 * 'Sospendi incasso' / 'Riprendi ora' (issue 30) as the seller sees it: a subscription paid by
 * bank transfer is paused for two periods with its entitlements suspended (the dialog previews the
 * next charge), the 'Incasso' card and the history show the pause, the billing date moved by two
 * months; 'Riprendi ora' after confirming brings it back. Looked at in 1280 and 390 px.
 */

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const romeDay = (iso: string) =>
  new Intl.DateTimeFormat('it-IT', {
    timeZone: 'Europe/Rome',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(iso));
/** The same Rome wall-clock time `months` later, clamped to the month's end (the server's rule). */
function addMonths(iso: string, months: number): string {
  const [y, m, day] = romeDay(iso).split('/').reverse().map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const dd = String(Math.min(day, last)).padStart(2, '0');
  const mm = String(target.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${target.getUTCFullYear()}`;
}

async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `pause-charges/${width}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('Admin pauses the collection of a subscription for two periods, resumes it, and adds a one-off charge paid at once', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const name = `Marta Pausa ${stamp}`;
  const customerId = await createCustomer(call, {
    name,
    email: `marta.pausa.${stamp}@example.it`,
    fiscalCode: 'RSSMRA80A01H501U',
    street: 'Via Torino 12',
    zip: '20123',
    municipality: await milanoId(call),
  });
  const basic = await planByName(call, 'Basic');
  const { id } = await subscribeByTransfer(call, customerId, basic.id, 'confirmed');
  const before = await call<{ nextBillingDate: string; startDate: string }>(
    'GET',
    `/api/subscription/GetById/${id}`,
  );
  const next = before.body.data!.nextBillingDate;

  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin, { to: `/subscription/${id}` });
  await expect(heading1(page, 'Modifica Sottoscrizione')).toBeVisible();
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Incasso', exact: true }) });
  await expect(card).toContainText('la sottoscrizione resta nel suo stato');
  await shots(page, 'subscription');

  await card.getByRole('button', { name: 'Sospendi incasso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sospendi incasso' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    `Nessun addebito dal ${romeDay(next)}; prossimo addebito il ${addMonths(next, 1)}.`,
  );
  await dialog.getByLabel('Periodi da sospendere').selectOption('2');
  await dialog.getByText('Sospese', { exact: true }).click();
  const until = addMonths(next, 2);
  await expect(dialog).toContainText(`prossimo addebito il ${until}.`);
  await shots(page, 'pause-dialog');
  await dialog.getByRole('button', { name: 'Sospendi incasso' }).click();
  await expect(toast(page, `Incasso sospeso: il prossimo addebito è il ${until}.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(`Nessun addebito dal ${romeDay(next)} al ${until}.`);
  await expect(card).toContainText('Funzionalità durante la sospensione: sospese');
  await expect(page.getByRole('list', { name: 'Cronologia della sottoscrizione' })).toContainText(
    'Incasso sospeso',
  );
  await expect(page.getByRole('textbox', { name: 'Prossima fatturazione' })).toHaveValue(until);
  await shots(page, 'paused');

  await card.getByRole('button', { name: 'Riprendi ora' }).click();
  const confirm = page.getByRole('dialog', { name: 'Riprendere l’incasso ora?' });
  await expect(confirm).toBeVisible();
  await shots(page, 'resume-dialog');
  await confirm.getByRole('button', { name: 'Riprendi ora' }).click();
  await expect(toast(page, `Incasso ripreso: il prossimo addebito è il ${romeDay(next)}.`)).toBeVisible();
  await expect(card).toContainText('la sottoscrizione resta nel suo stato');
  await expect(card.getByRole('button', { name: 'Sospendi incasso' })).toBeVisible();
  const after = await call<{ nextBillingDate: string; pause: unknown }>(
    'GET',
    `/api/subscription/GetById/${id}`,
  );
  expect(after.body.data).toMatchObject({ nextBillingDate: next, pause: null });

  // A one-off charge, collected at once.
  const charges = page.locator('section', {
    has: page.getByRole('heading', { name: 'Addebiti una tantum', exact: true }),
  });
  await charges.getByRole('button', { name: 'Addebito una tantum' }).click();
  const add = page.getByRole('dialog', { name: 'Addebito una tantum' });
  await expect(add).toBeVisible();
  await add.getByLabel('Descrizione').fill('Configurazione dominio');
  await add.getByLabel('Quantità').fill('2');
  await add.getByLabel('Prezzo unitario (IVA esclusa, €)').fill('45,50');
  await shots(page, 'one-off-dialog');
  await add.getByRole('button', { name: 'Aggiungi addebito' }).click();
  await expect(toast(page, 'Addebito una tantum creato.')).toBeVisible();
  await expect(add).toBeHidden();
  const item = charges.getByRole('listitem').filter({ hasText: 'Configurazione dominio' });
  await expect(item).toContainText('Da incassare');
  await expect(item).toContainText('111,02 €');
  await shots(page, 'one-off-pending');

  // Paid at once ('Segna come pagato', by the API): 'Pagato', and its invoice issued.
  const list = await call<{ id: number; paymentId: number; amountDue: number }[]>(
    'GET',
    `/api/subscription/charges/${id}`,
  );
  const created = list.body.data![0]!;
  expect(created.amountDue).toBe(111.02);
  const paid = await call('POST', `/api/collection/markPaid/${created.paymentId}`, {
    amount: 111.02,
    approvalDate: new Date(Date.now() - 60_000).toISOString(),
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  await page.reload();
  await expect(item).toContainText('Pagato');
  await expect(item.getByRole('button')).toHaveCount(0);
  const issued = await call<{ items: { paymentId: number; total: number }[] }>(
    'GET',
    '/api/invoice/getAll?page=1&pageSize=50',
  );
  expect(issued.body.data!.items.find((i) => i.paymentId === created.paymentId)?.total).toBe(111.02);
  await shots(page, 'one-off-paid');
});
