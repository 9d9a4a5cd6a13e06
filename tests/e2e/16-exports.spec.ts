/**
 * Issue 14 in Chromium: 'Esporta' on the subscription list exports the filtered list (every page)
 * as CSV and XLSX, checked row by row against the list call; the dashboard's 'Report PDF'
 * downloads the month's report, whose first page is rendered to PNG with pdftoppm (poppler-utils)
 * for a person to look at (tests/e2e/screenshots/exports/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Download, type Page } from '@playwright/test';
import {
  accounts,
  api,
  apiLogin,
  login,
  screenshot,
  screenshotDir,
  tenantIdByName,
  DEMO_TENANT,
} from './support';

const shots = path.join(screenshotDir, 'exports');

/** Emails of the subscriptions the list call answers for a filter, every page. */
async function listedEmails(filter: string): Promise<string[]> {
  const session = await apiLogin(accounts.admin);
  const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
  const res = await api<{ items: { user: { email: string } }[]; totalCount: number }>(
    'GET',
    `/api/subscription/getAll?page=1&pageSize=100&${filter}`,
    { token: session.token, tenantId },
  );
  expect(res.status).toBe(200);
  const data = res.body.data!;
  expect(data.items.length).toBe(data.totalCount);
  return data.items.map((s) => s.user.email);
}

async function exportAs(page: Page, format: 'CSV' | 'Excel (XLSX)'): Promise<Download> {
  await page.getByRole('button', { name: 'Esporta' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: format }).click(),
  ]);
  return download;
}

test.describe('exports and the PDF report', () => {
  test('the filtered subscription list as CSV and XLSX; the monthly PDF report', async ({ page }) => {
    await mkdir(shots, { recursive: true });
    const expected = await listedEmails('filters[status]=1');
    expect(expected.length).toBeGreaterThan(10); // more than one page of the screen (10 rows)

    await login(page, accounts.admin, { to: '/subscription?filters[status]=1&pageSize=10' });
    await expect(
      page.getByRole('table', { name: 'Gestisci Sottoscrizioni' }).locator('tbody tr'),
    ).toHaveCount(10);

    // CSV: Italian Excel's conventions, the filtered rows of every page.
    const csvDownload = await exportAs(page, 'CSV');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    expect(csvDownload.suggestedFilename()).toBe(`sottoscrizioni-demo-srl-${today}.csv`);
    const csvPath = path.join(shots, 'sottoscrizioni.csv');
    await csvDownload.saveAs(csvPath);
    const csv = readFileSync(csvPath);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Cliente;Email cliente;Piano;Importo;Data di inizio;Prossima fatturazione;Stato;Motivo disattivazione rinnovo;Rinnovo disattivato il',
    );
    const rows = lines.slice(1).map((l) => l.split(';'));
    expect(rows.map((r) => r[1])).toEqual(expected);
    expect(rows.every((r) => r[6] === 'Sottoscrizione attiva')).toBe(true);
    expect(
      rows.every((r) => /^\d+,\d{2}$/.test(r[3] ?? '') && /^\d{2}\/\d{2}\/\d{4}$/.test(r[4] ?? '')),
    ).toBe(true);

    // XLSX: the same rows, typed.
    const xlsxDownload = await exportAs(page, 'Excel (XLSX)');
    expect(xlsxDownload.suggestedFilename()).toBe(`sottoscrizioni-demo-srl-${today}.xlsx`);
    const xlsxPath = path.join(shots, 'sottoscrizioni.xlsx');
    await xlsxDownload.saveAs(xlsxPath);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsxPath);
    const sheet = workbook.worksheets[0]!;
    const emails: string[] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      emails.push(String(row.getCell(2).value));
      expect(typeof row.getCell(4).value).toBe('number');
      expect(row.getCell(5).value).toBeInstanceOf(Date);
    });
    expect(emails).toEqual(expected);

    // The menu as a person sees it, on a phone and on a desktop.
    await page.getByRole('button', { name: 'Esporta' }).click();
    await expect(page.getByRole('menu', { name: 'Esporta' })).toBeVisible();
    await screenshot(page, 'exports/export-menu-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'exports/export-menu-390');
    await page.keyboard.press('Escape');

    // The dashboard's monthly report: download, then its first page as a PNG.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const month = page.getByLabel('Mese del report');
    await expect(month).toHaveValue(today.slice(0, 7));
    await screenshot(page, 'exports/dashboard-report-1280');
    const [pdfDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Report PDF' }).click(),
    ]);
    expect(pdfDownload.suggestedFilename()).toBe(`report-demo-srl-${today.slice(0, 7)}.pdf`);
    const pdfPath = path.join(shots, 'report.pdf');
    await pdfDownload.saveAs(pdfPath);
    expect(readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-');
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
      path.join(shots, 'report-page-1'),
    ]);
    expect(existsSync(path.join(shots, 'report-page-1.png'))).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'exports/dashboard-report-390');
  });

  test("'Esporta' in the bank-transfer modal: the payment's transfers as CSV", async ({ page }) => {
    await mkdir(shots, { recursive: true });
    // A demo subscription waiting for its transfer, with transfers recorded on its payment.
    const session = await apiLogin(accounts.admin);
    const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
    const pending = await api<{ items: { id: number; payments: { id: number }[] }[] }>(
      'GET',
      '/api/subscription/getAll?page=1&pageSize=100&filters[status]=4',
      { token: session.token, tenantId },
    );
    let chosen: { id: number; transfers: { amount: number; paymentId: number }[] } | null = null;
    for (const s of pending.body.data!.items) {
      const paymentId = s.payments[0]?.id;
      if (paymentId === undefined) continue;
      const list = await api<{ items: { amount: number; paymentId: number }[] }>(
        'GET',
        `/api/BankTransfer/getAll?paymentId=${paymentId}&page=1&pageSize=100`,
        { token: session.token, tenantId },
      );
      if (list.body.data!.items.length > 0) {
        chosen = { id: s.id, transfers: list.body.data!.items };
        break;
      }
    }
    if (!chosen) throw new Error('no demo subscription with recorded transfers');

    await login(page, accounts.admin, { to: `/subscription/${chosen.id}` });
    await page.getByRole('button', { name: 'Gestisci bonifici' }).click();
    const modal = page.getByRole('dialog', { name: 'Gestisci bonifici' });
    await modal.getByRole('button', { name: 'Esporta' }).click();
    await expect(modal.getByRole('menu', { name: 'Esporta' })).toBeVisible();
    await screenshot(page, 'exports/bank-transfer-export-1280');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    expect(download.suggestedFilename()).toBe(`bonifici-demo-srl-${today}.csv`);
    const csvPath = path.join(shots, 'bonifici.csv');
    await download.saveAs(csvPath);
    const lines = readFileSync(csvPath).subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Pagamento;Importo (€);Data di approvazione;Registrato il');
    expect(lines.slice(1).map((l) => l.split(';').slice(0, 2))).toEqual(
      chosen.transfers.map((t) => [String(t.paymentId), t.amount.toFixed(2).replace('.', ',')]),
    );
    await expect(modal).toBeVisible(); // the download leaves the modal open

    await page.setViewportSize({ width: 390, height: 844 });
    await modal.getByRole('button', { name: 'Esporta' }).click();
    await expect(modal.getByRole('menu', { name: 'Esporta' })).toBeVisible();
    await screenshot(page, 'exports/bank-transfer-export-390');
  });
});
