/**
 * Issue 27 as the three demo tenants live it: each sells a subscription from /subscription/new
 * with its 'Anteprima fattura', takes the payment, and its invoice is downloaded from Fatture and
 * checked (FatturaPA XML against the XSD and the SdI arithmetic, the courtesy PDF read back).
 * - Demo Srl (ordinary company) to a German GmbH: reverse charge, 0 % N2.1, bollo borne by it.
 * - Studio Rossi (commercialista: cassa TC02 4 %, ritenuta RT01) to a company that withholds.
 * - Sofia Bellini Illustrazioni (forfettario: rivalsa INPS 4 %, bollo to the customer) to a person.
 * Screenshots of the preview and of the PDF at 390 and 1280 px.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { fatturaErrors } from '../../server/modules/invoice/fatturapa';
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
} from './support';

interface Sale {
  slug: string;
  tenant: string;
  customer: { name: string; email: string };
  plan: string;
  /** Label → amount as the preview shows them, in order. */
  preview: [string, string][];
  netToPay: string;
  /** Elements of the FatturaPA file: tag → text (null: absent). */
  xml: Record<string, string | null>;
  /** What the courtesy PDF says (pdftotext -layout). */
  pdf: RegExp[];
}

const sales: Sale[] = [
  {
    slug: 'demo',
    tenant: 'Demo Srl',
    customer: { name: 'Lindner Medien GmbH', email: 'buchhaltung@lindner-medien.example.com' },
    plan: 'Enterprise',
    preview: [
      ['Enterprise', '990,00 €'],
      ['IVA (N2.1)', '0,00 €'],
      ['Totale documento', '990,00 €'],
      ['Netto a pagare', '990,00 €'],
    ],
    netToPay: '990.00',
    xml: {
      RegimeFiscale: 'RF01',
      CodiceDestinatario: 'XXXXXXX',
      Natura: 'N2.1',
      BolloVirtuale: 'SI',
      ImportoBollo: '2.00',
      ImportoTotaleDocumento: '990.00',
      ImportoPagamento: '990.00',
      TipoRitenuta: null,
    },
    pdf: [/Lindner Medien GmbH/, /Totale documento\s+990,00 €/, /inversione contabile/],
  },
  {
    slug: 'rossi',
    tenant: 'Studio Rossi',
    customer: { name: 'Ferretti Costruzioni Srl', email: 'amministrazione@ferretti-costruzioni.example.it' },
    plan: 'Consulenza mensile',
    // 150,00 + cassa 4 % 6,00 = 156,00; IVA 22 % 34,32; totale 190,32; ritenuta 20 % × 150,00.
    preview: [
      ['Consulenza mensile', '150,00 €'],
      ['Cassa previdenziale', '6,00 €'],
      ['IVA', '34,32 €'],
      ['Totale documento', '190,32 €'],
      ['Ritenuta d’acconto', '− 30,00 €'],
      ['Netto a pagare', '160,32 €'],
    ],
    netToPay: '160.32',
    xml: {
      RegimeFiscale: 'RF01',
      TipoRitenuta: 'RT01',
      ImportoRitenuta: '30.00',
      TipoCassa: 'TC02',
      ImportoContributoCassa: '6.00',
      ImportoTotaleDocumento: '190.32',
      ImportoPagamento: '160.32',
    },
    pdf: [
      /Totale documento\s+190,32 €/,
      /Ritenuta d'acconto 20,00 %\s+- 30,00 €/,
      /Netto a pagare\s+160,32 €/,
    ],
  },
  {
    slug: 'forfettario',
    tenant: 'Sofia Bellini Illustrazioni',
    customer: { name: 'Giorgia Sala', email: 'giorgia.sala@example.it' },
    plan: 'Corso di illustrazione digitale',
    // 120,00 + rivalsa INPS 4 % 4,80 = 124,80 N2.2 (over 77,47 €: bollo 2,00 to the customer).
    preview: [
      ['Corso di illustrazione digitale', '120,00 €'],
      ['Cassa previdenziale', '4,80 €'],
      ['IVA (N2.2)', '0,00 €'],
      ['Imposta di bollo', '2,00 €'],
      ['Totale documento', '126,80 €'],
      ['Netto a pagare', '126,80 €'],
    ],
    netToPay: '126.80',
    xml: {
      RegimeFiscale: 'RF19',
      BolloVirtuale: 'SI',
      ImportoBollo: '2.00',
      TipoCassa: 'TC22',
      ImportoTotaleDocumento: '126.80',
      ImportoPagamento: '126.80',
      TipoRitenuta: null,
    },
    pdf: [
      /Giorgia Sala/,
      /Imponibile\s+124,80 €/,
      /Imposta di bollo\s+2,00 €/,
      /Totale documento\s+126,80 €/,
      /Operazione in franchigia IVA/,
    ],
  },
];

const tagText = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;

/** /subscription/new with the customer and the plan picked; answers the preview region. */
async function previewOf(page: Page, sale: Sale) {
  await expect(page.getByRole('heading', { level: 1, name: 'Crea Sottoscrizione' })).toBeVisible();
  await pick(
    page,
    page.getByRole('combobox', { name: 'Cliente' }),
    sale.customer.name,
    `${sale.customer.name} (${sale.customer.email})`,
  );
  await pick(page, page.getByRole('combobox', { name: 'Piano' }), sale.plan, sale.plan);
  const preview = page.getByRole('region', { name: 'Anteprima fattura' });
  for (const [label, amount] of sale.preview)
    await expect(
      preview.locator('div').filter({ has: page.getByText(label, { exact: true }) }),
    ).toContainText(amount);
  return preview;
}

/** The PDF's first page as PNGs 390 and 1280 px wide, to look at. */
function pdfPictures(pdfPath: string, name: string) {
  for (const width of [390, 1280])
    execFileSync('pdftoppm', [
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      '-1',
      pdfPath,
      path.join(screenshotDir, `${name}-${width}`),
    ]);
}

async function mobilePreview(browser: Browser, sale: Sale, tenantId: number) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await login(page, accounts.superadmin, { to: '/subscription/new', tenant: tenantId });
  await previewOf(page, sale);
  await expectNoHorizontalOverflow(page);
  await screenshot(page, `21-preview-${sale.slug}-390`);
  await context.close();
}

for (const sale of sales) {
  test(`${sale.tenant}: preview, payment, invoice downloaded and checked`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    const session = await apiLogin(accounts.superadmin);
    const tenantId = await tenantIdByName(session.token, sale.tenant);
    const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      api<T>(method, url, { token: session.token, tenantId, body });

    await login(page, accounts.superadmin, { to: '/subscription/new', tenant: tenantId });
    await previewOf(page, sale);
    await screenshot(page, `21-preview-${sale.slug}-1280`);
    await page.getByRole('button', { name: 'Crea', exact: true }).click();
    await expect(page).toHaveURL(/\/subscription\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    // The amount asked is the net to pay; the transfer of that amount arrives and is approved.
    const sub = await call<{ payments: { id: number; amountDue: number }[] }>(
      'GET',
      `/api/subscription/GetById/${id}`,
    );
    const payment = sub.body.data!.payments[0]!;
    expect(payment.amountDue.toFixed(2)).toBe(sale.netToPay);
    expect((await call('PUT', `/api/subscription/setPaymentWithBankTransfer/${id}`)).status).toBe(200);
    const transfer = await call('POST', '/api/BankTransfer/create', {
      paymentId: payment.id,
      amount: payment.amountDue,
      approvalDate: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(transfer.status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'Conferma attivazione' }).click();
    await expect(page.locator('h1 + *').first()).toContainText('Attiva, ma senza rinnovo automatico');

    // Its invoice, found in Fatture by its number.
    const invoices = await call<{ items: { paymentId: number; number: string }[] }>(
      'GET',
      // The newest first: this run's invoice is on the first page.
      '/api/invoice/getAll?pageSize=50',
    );
    const invoice = invoices.body.data!.items.find((i) => i.paymentId === payment.id);
    expect(invoice, 'the payment has its invoice').toBeDefined();
    await page.goto('/invoice');
    await searchList(page, sale.customer.name);
    const row = page
      .getByRole('table', { name: 'Fatture' })
      .locator('tbody tr')
      .filter({ hasText: invoice!.number });
    await expect(row).toHaveCount(1);

    const xmlDownload = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Scarica XML (FatturaPA)' }).click();
    const xml = readFileSync((await (await xmlDownload).path())!, 'utf8');
    expect(await fatturaErrors(xml)).toEqual([]);
    for (const [tag, value] of Object.entries(sale.xml)) expect(tagText(xml, tag), tag).toBe(value);

    const pdfDownload = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Scarica PDF di cortesia' }).click();
    const pdfPath = path.join(screenshotDir, `21-invoice-${sale.slug}.pdf`);
    await (await pdfDownload).saveAs(pdfPath);
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    for (const expected of sale.pdf) expect(text).toMatch(expected);
    pdfPictures(pdfPath, `21-invoice-${sale.slug}`);

    await mobilePreview(browser, sale, tenantId);
  });
}

test('the plan screen previews the invoice for a kind of customer, at 1280 and 390 px', async ({
  page,
  browser,
}) => {
  const session = await apiLogin(accounts.superadmin);
  const tenantId = await tenantIdByName(session.token, 'Studio Rossi');
  const plans = await api<{ items: { id: number; name: string }[] }>('GET', '/api/plan/getAll?pageSize=100', {
    token: session.token,
    tenantId,
  });
  const plan = plans.body.data!.items.find((p) => p.name === 'Consulenza mensile')!;
  const check = async (p: Page, name: string) => {
    await login(p, accounts.superadmin, { to: `/plan/${plan.id}`, tenant: tenantId });
    const preview = p.getByRole('region', { name: 'Anteprima fattura' });
    // An Italian company withholds: 150,00 + 6,00 cassa + 34,32 IVA − 30,00 ritenuta.
    await expect(preview).toContainText('160,32 €');
    await preview
      .getByRole('combobox', { name: 'Per un cliente' })
      .selectOption({ label: 'Privato italiano' });
    await expect(preview).not.toContainText('Ritenuta');
    await expect(preview).toContainText('190,32 €');
    await expectNoHorizontalOverflow(p);
    await screenshot(p, name);
  };
  await check(page, '21-plan-preview-1280');
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await check(await context.newPage(), '21-plan-preview-390');
  await context.close();
});
