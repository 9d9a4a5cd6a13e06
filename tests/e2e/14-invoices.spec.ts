import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { xsdErrors } from '../../server/modules/invoice/fatturapa';
import {
  accounts,
  api,
  apiLogin,
  expectNoHorizontalOverflow,
  login,
  screenshot,
  screenshotDir,
  searchList,
  tenantIdByName,
  DEMO_TENANT,
} from './support';

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const statusBadge = (page: Page) => page.locator('h1 + *').first();

/**
 * A company customer of Demo Srl made for this run (Partita IVA, SDI code, address in Milan) with
 * a Pro subscription whose bank transfer is recorded and approved, waiting for confirmation.
 */
async function subscriptionReadyToConfirm() {
  const session = await apiLogin(accounts.admin);
  const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    api<T>(method, url, { token: session.token, tenantId, body });
  const stamp = Date.now().toString(36);
  const towns = await call<{ options: { value: number; label: string }[] }>(
    'GET',
    '/api/municipality/getAllForSelect?searchTerm=Milano&pageSize=20',
  );
  const milano = towns.body.data?.options.find((m) => m.label.startsWith('Milano'));
  expect(milano).toBeDefined();
  const name = `Ferri Impianti ${stamp} Srl`;
  const created = await call<{ id: number }>('POST', '/api/user/Create', {
    name,
    email: `amministrazione.${stamp}@ferri.example.com`,
    roleId: 3,
    isActive: true,
    isCompany: true,
    vatCode: '12345678903',
    sdi: 'KRRH6B9',
    street: 'Via Dante 7',
    zip: '20121',
    municipality: milano!.value,
  });
  expect(created.status).toBe(200);
  const plans = await call<{ items: { id: number; name: string }[] }>('GET', '/api/plan/getAll?pageSize=100');
  const pro = plans.body.data!.items.find((p) => p.name === 'Pro')!;
  const sub = await call<{ id: number; payments: { id: number; amountDue: number }[] }>(
    'POST',
    '/api/subscription/Create',
    { userId: created.body.data!.id, planId: pro.id },
  );
  expect(sub.status).toBe(200);
  const id = sub.body.data!.id;
  const payment = sub.body.data!.payments[0]!;
  expect((await call('PUT', `/api/subscription/setPaymentWithBankTransfer/${id}`)).status).toBe(200);
  const transfer = await call('POST', '/api/BankTransfer/create', {
    paymentId: payment.id,
    amount: payment.amountDue,
    approvalDate: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(transfer.status).toBe(200);
  return { id, name };
}

test.describe('Admin: approving a bank transfer issues the invoice', () => {
  test('confirm, see it in Fatture, download its FatturaPA XML and courtesy PDF', async ({ page }) => {
    const { id, name } = await subscriptionReadyToConfirm();
    await login(page, accounts.admin, { to: `/subscription/${id}` });
    await expect(statusBadge(page)).toContainText('In attesa di bonifico bancario');
    await page.getByRole('button', { name: 'Conferma attivazione' }).click();
    await expect(statusBadge(page)).toContainText('Attiva, ma senza rinnovo automatico');

    await page.goto('/invoice');
    await expect(heading1(page, 'Fatture')).toBeVisible();
    await searchList(page, name);
    const table = page.getByRole('table', { name: 'Fatture' });
    const row = table.locator('tbody tr').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/\d{4}\/\d{6}/);
    await expect(row).toContainText('36,48 €'); // 29,90 + 22 %
    await expect(row).toContainText('6,58 €');
    await expect(row).toContainText('Codice SDI KRRH6B9');
    await expect(row).toContainText('Bonifico');
    await expect(row).toContainText('Emessa');
    await screenshot(page, 'invoice-list');

    const xmlDownload = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Scarica XML (FatturaPA)' }).click();
    const xmlFile = await xmlDownload;
    expect(xmlFile.suggestedFilename()).toMatch(/^IT09876540155_[0-9A-Z]{5}\.xml$/);
    const xml = readFileSync((await xmlFile.path())!, 'utf8');
    expect(xml).toContain('<CodiceDestinatario>KRRH6B9</CodiceDestinatario>');
    expect(xml).toContain('<ImportoTotaleDocumento>36.48</ImportoTotaleDocumento>');
    expect(xml).toContain(`<Denominazione>${name}</Denominazione>`);
    expect(await xsdErrors(xml)).toEqual([]);

    const pdfDownload = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Scarica PDF di cortesia' }).click();
    const pdfFile = await pdfDownload;
    expect(pdfFile.suggestedFilename()).toMatch(/^Fattura_\d{4}-\d{6}\.pdf$/);
    const pdfPath = path.join(screenshotDir, 'invoice.pdf');
    await pdfFile.saveAs(pdfPath);
    const textOfPdf = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(textOfPdf).toContain('FATTURA');
    expect(textOfPdf).toContain(name);
    expect(textOfPdf).toContain('Demo Srl');
    expect(textOfPdf).toContain('Totale documento');
    expect(textOfPdf).toContain('36,48 €');
    expect(textOfPdf).toContain('Codice SDI KRRH6B9');
    // The first page as a PNG, to look at.
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdfPath,
      path.join(screenshotDir, 'invoice-pdf'),
    ]);
    expect(readFileSync(path.join(screenshotDir, 'invoice-pdf.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  test('at 390 px the list is cards with their downloads', async ({ browser }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await login(page, accounts.admin, { to: '/invoice' });
    await expect(heading1(page, 'Fatture')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Fatture' }).locator('> li');
    await expect(cards.first()).toBeVisible();
    await expect(cards.first().getByRole('button', { name: 'Scarica PDF di cortesia' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'invoice-list-390');
    await context.close();
  });
});

test.describe('a User', () => {
  test('sees only their own invoices, with downloads and no ZIP', async ({ page }) => {
    await login(page, accounts.cliente, { to: '/invoice' });
    await expect(heading1(page, 'Fatture')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Scarica ZIP' })).toHaveCount(0);
    await expect(page.getByText('Pagamenti senza fattura')).toHaveCount(0);
  });
});
