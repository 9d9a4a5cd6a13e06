import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { xsdErrors } from '../../server/modules/invoice/fatturapa';
import {
  accounts,
  api,
  apiLogin,
  expectNoHorizontalOverflow,
  login,
  pick,
  screenshot,
  screenshotDir,
  searchList,
  tenantIdByName,
  toast,
  DEMO_TENANT,
} from './support';
import {
  adminCalls,
  createCustomer,
  milanoId,
  planByName,
  stampOf,
  subscribeByTransfer,
} from './support/demo-tenant';

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const statusBadge = (page: Page) => page.locator('h1 + *').first();

/**
 * A company customer of Demo Srl made for this run (Partita IVA, SDI code, address in Milan) with
 * a Pro subscription whose bank transfer is recorded and approved, waiting for confirmation.
 */
async function subscriptionReadyToConfirm() {
  const call = await adminCalls();
  const stamp = stampOf();
  const name = `Ferri Impianti ${stamp} Srl`;
  const customerId = await createCustomer(call, {
    name,
    email: `amministrazione.${stamp}@ferri.example.com`,
    isCompany: true,
    vatCode: '12345678903',
    sdi: 'KRRH6B9',
    street: 'Via Dante 7',
    zip: '20121',
    municipality: await milanoId(call),
  });
  const pro = await planByName(call, 'Pro');
  const { id } = await subscribeByTransfer(call, customerId, pro.id, 'recorded');
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

const TLS_DIR = path.resolve(import.meta.dirname, '../fixtures/tls');

/** A PEC provider's SMTP server on loopback: what it received (envelope and raw message). */
async function loopbackPec() {
  const received: { to: string[]; raw: string }[] = [];
  // STARTTLS with the test CA's certificate (tests/fixtures/tls): PEC sending requires TLS, and
  // the e2e server trusts that CA (playwright.config.ts).
  const server = new SMTPServer({
    secure: false,
    key: readFileSync(path.join(TLS_DIR, 'localhost.key')),
    cert: readFileSync(path.join(TLS_DIR, 'localhost.pem')),
    logger: false,
    onAuth: (auth, _s, done) =>
      auth.password === 'e2e-pec-password' ? done(null, { user: auth.username }) : done(new Error('no')),
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test.describe('Admin: sending to the SdI by PEC, then a credit note', () => {
  test('PEC settings on the tenant, Invia allo SdI, the log shows it sent; Emetti nota di credito', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const pec = await loopbackPec();
    const session = await apiLogin(accounts.admin);
    const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
    try {
      const { id, name } = await subscriptionReadyToConfirm();
      const confirmed = await api('PUT', `/api/subscription/setActiveNoRenewal/${id}`, {
        token: session.token,
        tenantId,
      });
      expect(confirmed.status).toBe(200);

      // The billing profile's 'Invio PEC' tab.
      await login(page, accounts.admin, { to: `/tenant/${tenantId}` });
      await page.getByRole('tab', { name: 'Invio PEC' }).click();
      await page.getByLabel('Server SMTP della PEC').fill('127.0.0.1');
      await page.getByLabel('Porta SMTP').fill(String(pec.port));
      await page.getByLabel('Connessione SSL/TLS').uncheck();
      await page.getByLabel('Utente SMTP').fill('fatture@pec.demo.it');
      await page.getByLabel('Password SMTP').fill('e2e-pec-password');
      await expect(page.getByLabel('PEC dello SdI')).toHaveValue('sdi01@pec.fatturapa.it');
      await screenshot(page, 'tenant-pec-settings');
      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      await expect(page).toHaveURL(/\/tenant$/);

      await page.goto('/invoice');
      await searchList(page, name);
      const row = page.getByRole('table', { name: 'Fatture' }).locator('tbody tr').filter({ hasText: name });
      await expect(row).toContainText('Emessa');
      await row.getByRole('button', { name: 'Invio allo SdI (PEC)' }).click();
      const dialog = page.getByRole('dialog', { name: /^Invio allo SdI/ });
      await expect(dialog).toContainText('alla PEC dello SdI sdi01@pec.fatturapa.it');
      await dialog.getByRole('button', { name: 'Invia allo SdI' }).click();
      await expect(toast(page, /allo SdI avviato/)).toBeVisible();
      // The job engine sends it within its polling interval; the dialog looks again meanwhile.
      await expect(dialog.getByText('Inviata', { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(dialog).toContainText('Message-ID');
      await screenshot(page, 'invoice-send-dialog');
      expect(pec.received).toHaveLength(1);
      expect(pec.received[0]!.to).toEqual(['sdi01@pec.fatturapa.it']);
      expect(pec.received[0]!.raw).toMatch(/filename="?IT09876540155_[0-9A-Z]{5}\.xml/);
      // The SdI's delivery receipt, arrived in the PEC mailbox, loaded on the invoice.
      const fileName = /filename="?(IT09876540155_[0-9A-Z]{5}\.xml)/.exec(pec.received[0]!.raw)![1]!;
      await dialog.getByLabel('Carica ricevuta SdI (XML)').setInputFiles({
        name: `IT09876540155_RC_001.xml`,
        mimeType: 'application/xml',
        buffer: Buffer.from(
          `<?xml version="1.0" encoding="UTF-8"?><ns3:RicevutaConsegna xmlns:ns3="http://www.fatturapa.gov.it/sdi/messaggi/v1.0" versione="1.0"><IdentificativoSdI>5001</IdentificativoSdI><NomeFile>${fileName}</NomeFile><MessageId>1</MessageId></ns3:RicevutaConsegna>`,
        ),
      });
      await expect(toast(page, /consegnata al cliente dallo SdI/)).toBeVisible();
      await expect(dialog).toContainText('Consegnata al cliente dallo SdI.');
      await dialog.getByRole('button', { name: 'Chiudi', exact: true }).last().click();
      await expect(row).toContainText('Consegnata');

      // At 390 px: the card's send dialog.
      await page.setViewportSize({ width: 390, height: 844 });
      const card = page.getByRole('list', { name: 'Fatture' }).locator('> li').filter({ hasText: name });
      await card.getByRole('button', { name: 'Invio allo SdI (PEC)' }).click();
      await expect(dialog.getByText('Inviata', { exact: true })).toBeVisible();
      await expect(dialog).toContainText('Consegnata al cliente dallo SdI.');
      await expectNoHorizontalOverflow(page);
      await screenshot(page, 'invoice-send-dialog-390');
      await dialog.getByRole('button', { name: 'Chiudi', exact: true }).last().click();
      await page.setViewportSize({ width: 1280, height: 800 });

      // The credit note for a refunded payment, from the invoice's row.
      await row.getByRole('button', { name: 'Emetti nota di credito' }).click();
      await page.getByRole('textbox', { name: 'Motivo' }).fill('Pagamento rimborsato al cliente');
      await page.getByRole('button', { name: 'Emetti', exact: true }).click();
      await expect(toast(page, /^Nota di credito \d{4}\/\d{6} emessa\.$/)).toBeVisible();
      const notes = page
        .getByRole('table', { name: 'Fatture' })
        .locator('tbody tr')
        .filter({ hasText: name });
      await expect(notes.filter({ hasText: 'Nota di credito' })).toHaveCount(1);
      await expect(row.getByRole('button', { name: 'Emetti nota di credito' })).toHaveCount(0);
      await screenshot(page, 'invoice-credit-note');
    } finally {
      // Demo Srl back to sending through its intermediary.
      const current = await api<Record<string, unknown>>('GET', `/api/tenant/GetById/${tenantId}`, {
        token: session.token,
      });
      await api('PUT', '/api/tenant/Update', {
        token: session.token,
        body: { ...current.body.data, pecSmtpHost: '', pecSmtpUser: '' },
      });
      await pec.close();
    }
  });
});

/**
 * A customer of Demo Srl made for this run with no codice fiscale and no address, and two paid
 * payments of an exempt course (120,00 €, 0 % N4: the invoices will carry the bollo) waiting for
 * an invoice.
 */
async function customerWithTwoWaitingPayments() {
  const call = await adminCalls();
  const stamp = stampOf();
  const plan = await call<{ id: number }>('POST', '/api/plan/Create', {
    name: `Corso esente ${stamp}`,
    recurringCostBeforeVAT: 120,
    vatPercentage: 0,
    natura: 'N4',
    recurrenceType: 1,
    isActive: true,
  });
  expect(plan.status).toBe(200);
  const name = `Anna Neri ${stamp}`;
  const customerId = await createCustomer(call, { name, email: `anna.neri.${stamp}@example.it` });
  for (let i = 0; i < 2; i++) await subscribeByTransfer(call, customerId, plan.body.data!.id, 'confirmed');
  return { name };
}

test.describe('Admin: payments waiting for the customer’s data', () => {
  test('one row per customer; Completa i dati opens the form on the codice fiscale; Salva issues both invoices, counted in the bollo card', async ({
    page,
    browser,
  }) => {
    const { name } = await customerWithTwoWaitingPayments();
    await login(page, accounts.admin, { to: '/invoice' });
    const panel = page.getByRole('region', { name: /Pagamenti senza fattura/ });
    const row = panel.getByRole('listitem').filter({ hasText: name });
    await expect(row).toContainText('2 pagamenti in attesa · 240,00 €');
    await expect(row.getByText('Mancano: codice fiscale, indirizzo, CAP, comune')).toBeVisible();
    const bollo = page.getByRole('region', { name: 'Imposta di bollo (F24)' });
    await expect(bollo.getByRole('listitem')).toHaveCount(4);
    await screenshot(page, 'invoice-waiting-payments');
    const quarter = bollo.getByRole('listitem').nth(Math.floor(new Date().getMonth() / 3));
    const documentsBefore = await quarter.getByText(/fattur|Nessun documento/).textContent();

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone.newPage();
    await login(small, accounts.admin, { to: '/invoice' });
    await expect(small.getByRole('region', { name: /Pagamenti senza fattura/ })).toContainText(name);
    await expect(
      small.getByRole('region', { name: 'Imposta di bollo (F24)' }).getByRole('listitem'),
    ).toHaveCount(4);
    await expectNoHorizontalOverflow(small);
    await screenshot(small, 'invoice-waiting-payments-390');
    await phone.close();

    await row.getByRole('link', { name: 'Completa i dati', exact: true }).click();
    await expect(page).toHaveURL(/\/user\/\d+\?focus=fiscalCode$/);
    await expect(page.getByRole('textbox', { name: 'Codice fiscale' })).toBeFocused();
    await page.keyboard.type('NRENNA80A41H501T');
    await page.getByRole('tab', { name: 'Indirizzo di fatturazione' }).click();
    await page.getByRole('textbox', { name: 'Via' }).fill('Via Appia Nuova 10');
    await page.getByRole('textbox', { name: 'CAP' }).fill('00183');
    await pick(page, page.getByRole('combobox', { name: 'Regione' }), 'Lazio', 'Lazio');
    await pick(page, page.getByRole('combobox', { name: 'Provincia' }), 'Roma', 'Roma');
    await pick(page, page.getByRole('combobox', { name: 'Comune' }), 'Roma', 'Roma');
    await page.getByRole('button', { name: 'Salva' }).click();

    // Back on the invoices: the save issued both, the customer waits no more.
    await expect(page).toHaveURL(/\/invoice$/);
    await expect(heading1(page, 'Fatture')).toBeVisible();
    await expect(page.getByRole('region', { name: /Pagamenti senza fattura/ }).getByText(name)).toHaveCount(
      0,
    );
    await searchList(page, name);
    await expect(
      page.getByRole('table', { name: 'Fatture' }).locator('tbody tr').filter({ hasText: name }),
    ).toHaveCount(2);
    await expect(quarter).not.toHaveText(documentsBefore ?? '');
    await expect(quarter).toContainText(/\d+ fattur/);
  });
});

test.describe('a User', () => {
  test("sees only their own invoices in 'Le mie fatture', with downloads and no ZIP", async ({ page }) => {
    await login(page, accounts.cliente, { to: '/invoice' });
    // The tenant's list is staff's; a customer has their own (issue 28).
    await expect(heading1(page, 'Pagina non trovata')).toBeVisible();
    await page.goto('/my/invoices');
    await expect(heading1(page, 'Le mie fatture')).toBeVisible();
    const list = page.getByRole('list', { name: 'Le mie fatture' });
    await expect(list.getByRole('listitem').first()).toBeVisible();
    await expect(list.getByRole('button', { name: /^Scarica il PDF di / }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Scarica ZIP' })).toHaveCount(0);
    await expect(page.getByText('Pagamenti senza fattura')).toHaveCount(0);
  });
});
