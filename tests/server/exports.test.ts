/**
 * Exports and the monthly PDF report (issue 14), on the demo data of the test database:
 * - `GET api/{entity}/export`: a filtered or searched export holds exactly the list's rows (all
 *   pages), in Italian CSV (BOM, `;`, dd/mm/yyyy, decimal comma) and typed XLSX read back with
 *   exceljs; never another tenant's rows; roles like getAll; the provider secret never appears;
 *   formula-looking cells are neutralised; a bad filter is a 400 before any byte of a file;
 * - `GET api/report/pdf`: its extracted text holds the tenant's name and the KPIs;
 * - `POST api/report/send`: the job mails the PDF once, through the outbox.
 */
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSummary } from '../../contract/schemas/dashboard';
import type { Subscription } from '../../contract/schemas/subscription';
import { SECRET_MASK } from '../../contract/schemas/payment-provider';
import type { JobEngine } from '../../server/jobs/engine';
import { JOB_NAMES } from '../../server/modules/billing/billing-jobs';
import { csvCell, neutralise, setExportBatchSize } from '../../server/crud/export';
import { dataOf } from './helpers/entity-checks';
import { API_KEY, createTestContext, DEMO, type ApiClient, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let jobs: JobEngine;
const tokens: Record<string, string> = {};

/** Exports read 7 rows a batch here: the demo lists cross several batch boundaries. */
const BATCH = 7;

beforeAll(async () => {
  ctx = await createTestContext({ beforeReady: (app) => setExportBatchSize(app, BATCH) });
  admin = await ctx.as('admin', 'Demo Srl');
  if (!ctx.app.jobs) throw new Error('job engine missing');
  jobs = ctx.app.jobs;
  for (const role of ['admin', 'superadmin', 'cliente'] as const)
    tokens[role] = await ctx.login(DEMO[role], DEMO.password);
});
afterAll(async () => ctx?.close());

/** A raw GET (bytes kept) as a demo account in a tenant. */
async function fetchAs(
  role: 'admin' | 'superadmin' | 'cliente',
  tenant: string | null,
  url: string,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'x-api-key': API_KEY, authorization: `Bearer ${tokens[role]}` };
  if (tenant) headers['x-tenant-id'] = String(await ctx.tenantId(tenant));
  return ctx.app.inject({ method: 'GET', url, headers });
}

/** CSV text → rows of cells (`;`, double-quoted cells with "" escapes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

function csvOf(res: LightMyRequestResponse): string[][] {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  const bytes = res.rawPayload;
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM
  return parseCsv(bytes.subarray(3).toString('utf8'));
}

async function sheetOf(res: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

async function allSubscriptions(api: ApiClient, query: string): Promise<Subscription[]> {
  const res = await api.get<{ items: Subscription[]; totalCount: number }>(
    `/api/subscription/getAll?pageSize=100&${query}`,
  );
  const data = dataOf(res);
  expect(data.items.length).toBe(data.totalCount);
  return data.items;
}

const romeDay = (iso: string) =>
  new Intl.DateTimeFormat('it-IT', {
    timeZone: 'Europe/Rome',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(iso));
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());

const SUBSCRIPTION_HEADER = [
  'Cliente',
  'Email cliente',
  'Piano',
  'Importo',
  'Data di inizio',
  'Prossima fatturazione',
  'Stato',
  'Motivo disattivazione rinnovo',
  'Rinnovo disattivato il',
];

describe('list exports', () => {
  it('a filtered subscription export holds exactly the filtered rows, in Italian CSV and typed XLSX', async () => {
    const active = await allSubscriptions(admin, 'filters[status]=1');
    const all = await allSubscriptions(admin, '');
    expect(active.length).toBeGreaterThan(1);
    expect(active.length).toBeLessThan(all.length); // the filter matters

    const res = await fetchAs('admin', 'Demo Srl', '/api/subscription/export?format=csv&filters[status]=1');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="sottoscrizioni-demo-srl-${today()}.csv"`,
    );
    const [header, ...rows] = csvOf(res);
    expect(header).toEqual(SUBSCRIPTION_HEADER);
    expect(rows.map((r) => r[1])).toEqual(active.map((s) => s.user.email)); // same rows, same order
    const first = active[0] as Subscription;
    expect(rows[0]).toEqual([
      first.user.name ?? first.user.email,
      first.user.email,
      first.plan.name,
      first.amountDue.toFixed(2).replace('.', ','),
      romeDay(first.startDate),
      romeDay(first.nextBillingDate),
      'Sottoscrizione attiva',
      '',
      '',
    ]);
    expect(rows.every((r) => /^\d{2}\/\d{2}\/\d{4}$/.test(r[4] ?? ''))).toBe(true);

    // Search: the export follows searchTerm like the list does.
    const term = first.plan.name.slice(0, 3);
    const searched = await allSubscriptions(admin, `searchTerm=${encodeURIComponent(term)}`);
    const bySearch = csvOf(
      await fetchAs('admin', 'Demo Srl', `/api/subscription/export?searchTerm=${encodeURIComponent(term)}`),
    );
    expect(bySearch.slice(1).map((r) => r[1])).toEqual(searched.map((s) => s.user.email));

    // XLSX: the same rows, typed cells, bold frozen header.
    const sheet = await sheetOf(
      await fetchAs('admin', 'Demo Srl', '/api/subscription/export?format=xlsx&filters[status]=1'),
    );
    expect(sheet.rowCount).toBe(active.length + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(SUBSCRIPTION_HEADER);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const amount = sheet.getRow(2).getCell(4);
    expect(amount.type).toBe(ExcelJS.ValueType.Number);
    expect(amount.value).toBe(first.amountDue);
    expect(amount.numFmt).toContain('€');
    const start = sheet.getRow(2).getCell(5);
    expect(start.type).toBe(ExcelJS.ValueType.Date);
    expect(start.numFmt).toBe('dd/mm/yyyy');
    const d = start.value as Date;
    expect(
      `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`,
    ).toBe(romeDay(first.startDate));
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual('Cliente'.length);
    const emails: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) emails.push(String(row.getCell(2).value));
    });
    expect(emails).toEqual(active.map((s) => s.user.email));
  });

  it('never crosses tenants, and checks roles like the list', async () => {
    const demoEmails = new Set((await allSubscriptions(admin, '')).map((s) => s.user.email));
    const rossi = await fetchAs('superadmin', 'Studio Rossi', '/api/subscription/export');
    expect(rossi.headers['content-disposition']).toContain('sottoscrizioni-studio-rossi-');
    const rossiRows = csvOf(rossi).slice(1);
    expect(rossiRows.length).toBeGreaterThan(0);
    expect(rossiRows.filter((r) => demoEmails.has(r[1] ?? ''))).toEqual([]);

    const demoPlans = csvOf(await fetchAs('admin', 'Demo Srl', '/api/plan/export')).slice(1);
    const rossiPlans = csvOf(await fetchAs('superadmin', 'Studio Rossi', '/api/plan/export')).slice(1);
    const rossiPlanList = dataOf(
      await (
        await ctx.as('superadmin', 'Studio Rossi')
      ).get<{ items: { name: string }[] }>('/api/plan/getAll?pageSize=100'),
    ).items;
    expect(rossiPlans.map((r) => r[0])).toEqual(rossiPlanList.map((p) => p.name));
    expect(demoPlans.length).toBeGreaterThan(0);

    // An admin of Demo Srl cannot export Studio Rossi (the tenant check of every call).
    expect((await fetchAs('admin', 'Studio Rossi', '/api/subscription/export')).statusCode).toBe(403);
    // No tenant on a tenant-scoped list: 400, as getAll.
    expect((await fetchAs('admin', null, '/api/plan/export')).statusCode).toBe(400);
    // Roles: a User may not export the user list nor the jobs; their own subscriptions only.
    expect((await fetchAs('cliente', 'Demo Srl', '/api/user/export')).statusCode).toBe(403);
    expect((await fetchAs('admin', null, '/api/hangfire/export')).statusCode).toBe(403);
    const own = csvOf(await fetchAs('cliente', 'Demo Srl', '/api/subscription/export')).slice(1);
    expect(new Set(own.map((r) => r[1]))).toEqual(new Set([DEMO.cliente]));
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect(own.length).toBe((await allSubscriptions(cliente, '')).length);

    // Global reference data: no tenant in the file name; the filter applies.
    const regions = await fetchAs('superadmin', null, '/api/region/export?filters[name]=lomb');
    expect(regions.headers['content-disposition']).toBe(`attachment; filename="regioni-${today()}.csv"`);
    expect(csvOf(regions)).toEqual([
      ['Nome', 'Codice'],
      ['Lombardia', '03'],
    ]);
    // The job list (SuperAdmin), as XLSX.
    const jobsSheet = await sheetOf(await fetchAs('superadmin', null, '/api/hangfire/export?format=xlsx'));
    expect((jobsSheet.getRow(1).values as unknown[]).slice(1, 6)).toEqual([
      'Job',
      'Chiave',
      'Argomenti',
      'Accodato il',
      'Stato',
    ]);
  });

  it('masks the provider secret and neutralises formula cells', async () => {
    const secret = 'EFx-segreto-da-non-esportare-42';
    dataOf(
      await admin.post('/api/paymentprovider/Create', {
        name: 'PayPal export',
        apiUrl: 'https://api-m.sandbox.paypal.com',
        apiKey: '@client-id',
        apiSecret: secret,
        isActive: false,
      }),
    );
    for (const format of ['csv', 'xlsx']) {
      const res = await fetchAs('admin', 'Demo Srl', `/api/paymentprovider/export?format=${format}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.includes(secret)).toBe(false);
      expect(res.rawPayload.includes('v1.')).toBe(false); // nor its ciphertext
    }
    const providers = csvOf(
      await fetchAs('admin', 'Demo Srl', '/api/paymentprovider/export?searchTerm=export'),
    );
    expect(providers).toEqual([
      ['Nome', 'URL API', 'Client ID (API key)', 'Secret API', 'Modalità', 'Attivo'],
      ['PayPal export', 'https://api-m.sandbox.paypal.com', "'@client-id", SECRET_MASK, 'sandbox', 'No'],
    ]);

    // (Names are trimmed on input: the tab and carriage-return cases are checked on the rule below.)
    const names = ['=HYPERLINK("http://x.example","clic")', '+SUM(1;2)', '-2+3', '@cmd'];
    for (const name of names)
      dataOf(
        await admin.post('/api/plan/Create', {
          name,
          recurringCostBeforeVAT: 10,
          vatPercentage: 22,
          recurrenceType: 1,
          isActive: true,
        }),
      );
    const csv = csvOf(await fetchAs('admin', 'Demo Srl', '/api/plan/export?sort=name'));
    const exported = csv.slice(1).map((r) => r[0]);
    for (const name of names) expect(exported).toContain(`'${name}`);
    expect(exported).not.toContain(names[0]);
    const sheet = await sheetOf(await fetchAs('admin', 'Demo Srl', '/api/plan/export?format=xlsx'));
    const cells: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push(row.getCell(1).value);
    });
    for (const name of names) expect(cells).toContain(`'${name}`);
    expect(sheet.getRow(2).getCell(2).type).toBe(ExcelJS.ValueType.Number); // money stays a number
    // The one rule, also for a carriage return; numbers (negative amounts) are not text.
    expect(neutralise('\r=1')).toBe("'\r=1");
    expect(neutralise('\t=1')).toBe("'\t=1");
    expect(neutralise('Mario')).toBe('Mario');
    expect(csvCell('money', -12.5)).toBe('-12,50');
    expect(csvCell('money', 1234.005)).toBe('1234,01');
    // Instants in Rome's wall clock on both sides of each DST change (01:00 UTC).
    expect(csvCell('datetime', '2026-03-29T00:59:00Z')).toBe('29/03/2026 01:59');
    expect(csvCell('datetime', '2026-03-29T01:00:00Z')).toBe('29/03/2026 03:00');
    expect(csvCell('datetime', new Date('2026-10-25T00:59:00Z'))).toBe('25/10/2026 02:59');
    expect(csvCell('datetime', new Date('2026-10-25T01:00:00Z'))).toBe('25/10/2026 02:00');
    expect(csvCell('date', '2026-12-31T23:30:00Z')).toBe('01/01/2027');
    expect(csvCell('date', '2026-12-31')).toBe('31/12/2026');
  });

  it('reads every list in keyset batches in its own order, across batch boundaries', async () => {
    // Every page of a list, as the screen reads them.
    async function everyPage<T>(api: ApiClient, url: string): Promise<T[]> {
      const items: T[] = [];
      for (let page = 1; ; page++) {
        const data = dataOf(
          await api.get<{ items: T[] }>(`${url}${url.includes('?') ? '&' : '?'}pageSize=100&page=${page}`),
        );
        items.push(...data.items);
        if (data.items.length < 100) return items;
      }
    }
    const column = async (role: 'admin' | 'superadmin', tenant: string | null, url: string, n: number) =>
      csvOf(await fetchAs(role, tenant, url))
        .slice(1)
        .map((r) => r[n]);

    // Customers: some without a name (NULL keys come last, after the batches of named ones), in
    // the natural order and in each sortable order (text, boolean with ties, a joined column).
    const demo = await ctx.tenantId('Demo Srl');
    await ctx.db.execute(
      sql`update user_tenants set name = null where tenant_id = ${demo} and user_id in (
            select user_id from user_tenants where tenant_id = ${demo} order by user_id desc limit 3)`,
    );
    const superadmin = await ctx.as('superadmin', 'Demo Srl');
    for (const sort of ['', 'name', '-name', 'email', 'isCompany', '-isCompany', '-roleName', 'isActive']) {
      const q = sort ? `?sort=${sort}` : '';
      const listed = await everyPage<{ email: string; name: string | null }>(admin, `/api/user/getAll${q}`);
      expect(listed.length).toBeGreaterThan(2 * BATCH);
      if (sort === '') expect(listed.slice(-3).map((u) => u.name)).toEqual([null, null, null]);
      expect(await column('admin', 'Demo Srl', `/api/user/export${q}`, 1), sort).toEqual(
        listed.map((u) => u.email),
      );
    }
    // A search and a filter with them (fewer rows, still several batches).
    const searched = await everyPage<{ email: string }>(
      superadmin,
      '/api/user/getAll?searchTerm=e&sort=-name',
    );
    expect(await column('superadmin', 'Demo Srl', '/api/user/export?searchTerm=e&sort=-name', 1)).toEqual(
      searched.map((u) => u.email),
    );

    // Municipalities of a province (global data): by name, by zip, and by province (one key for
    // every row: only the id orders them, across batches), each both ways.
    const province = dataOf(
      await superadmin.get<{ items: { id: number }[] }>('/api/province/getAll?searchTerm=Sondrio'),
    ).items[0];
    if (!province) throw new Error('no province of Sondrio');
    for (const sort of ['', '-name', 'zip', 'province', '-province']) {
      const q = `filters[provinceId]=${province.id}${sort ? `&sort=${sort}` : ''}`;
      const listed = await everyPage<{ name: string }>(superadmin, `/api/municipality/getAll?${q}`);
      expect(listed.length).toBeGreaterThan(5 * BATCH);
      expect(await column('superadmin', null, `/api/municipality/export?${q}`, 0), sort).toEqual(
        listed.map((m) => m.name),
      );
    }

    // Subscriptions (newest first, keyset on the id) and bank transfers (oldest first).
    const subscriptions = await allSubscriptions(admin, '');
    expect(subscriptions.length).toBeGreaterThan(2 * BATCH);
    expect(await column('admin', 'Demo Srl', '/api/subscription/export', 1)).toEqual(
      subscriptions.map((s) => s.user.email),
    );
    const transfers = await everyPage<{ paymentId: number; createdAt: string }>(
      admin,
      '/api/BankTransfer/getAll',
    );
    expect(transfers.length).toBeGreaterThan(BATCH);
    expect(await column('admin', 'Demo Srl', '/api/BankTransfer/export', 0)).toEqual(
      transfers.map((t) => String(t.paymentId)),
    );
    const onePayment = transfers[0]?.paymentId;
    expect(await column('admin', 'Demo Srl', `/api/BankTransfer/export?paymentId=${onePayment}`, 0)).toEqual(
      transfers.filter((t) => t.paymentId === onePayment).map((t) => String(t.paymentId)),
    );
    // Another tenant's payment: 404, as the list.
    const rossiTransfers = await everyPage<{ paymentId: number }>(
      await ctx.as('superadmin', 'Studio Rossi'),
      '/api/BankTransfer/getAll',
    );
    const foreign = rossiTransfers[0]?.paymentId;
    if (foreign !== undefined) {
      const res = await fetchAs('superadmin', 'Demo Srl', `/api/BankTransfer/export?paymentId=${foreign}`);
      expect(res.statusCode).toBe(404);
    }

    // Invoices (issue date, then id, newest first) and the job list (newest first).
    const invoices = await everyPage<{ number: string }>(admin, '/api/invoice/getAll');
    expect(await column('admin', 'Demo Srl', '/api/invoice/export', 0)).toEqual(
      invoices.map((i) => i.number),
    );
    for (let i = 0; i < 2 * BATCH + 3; i++) await jobs.enqueue(JOB_NAMES.expireTokens, { export: i });
    const recent = dataOf(
      await (await ctx.as('superadmin')).get<{ key: string }[]>('/api/hangfire/recent?limit=200'),
    );
    expect(recent.length).toBeGreaterThan(BATCH);
    expect(recent.length).toBeLessThan(200);
    expect(await column('superadmin', null, '/api/hangfire/export', 1)).toEqual(recent.map((j) => j.key));
  });

  it('a bad filter or format is an ordinary 400 envelope, not a broken file', async () => {
    const badFilter = await admin.get('/api/subscription/export?filters[nope]=1');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.errors).toEqual(['filters.nope: filtro non supportato']);
    const badCrud = await admin.get('/api/plan/export?filters[colore]=blu');
    expect(badCrud.status).toBe(400);
    const badFormat = await admin.get('/api/plan/export?format=pdf');
    expect(badFormat.status).toBe(400);
    expect(badFormat.headers['content-type']).toContain('application/json');
  });
});

describe('monthly PDF report', () => {
  it('holds the tenant, the period and the KPIs of the dashboard; tenant-scoped; Admin only', async () => {
    const summary = dataOf(await admin.get<DashboardSummary>('/api/dashboard/summary'));
    const res = await fetchAs('admin', 'Demo Srl', '/api/report/pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const month = today().slice(0, 7);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="report-demo-srl-${month}.pdf"`);
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { totalPages, text } = await extractText(pdf, { mergePages: true });
    expect(totalPages).toBeGreaterThanOrEqual(2);
    const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
    const plain = (s: string) => s.replace(/\s+/g, ' ');
    const flat = plain(text);
    expect(flat).toContain('Demo Srl');
    expect(flat).toContain('Entrate ricorrenti mensili (MRR)');
    expect(flat).toContain(plain(eur.format(summary.mrrCents / 100)));
    expect(flat).toContain('Abbonamenti attivi');
    expect(flat).toContain(`Abbonamenti attivi ${summary.activeSubscriptions}`);
    expect(flat).toContain('Tasso di churn del mese');
    expect(flat).toContain(`Nuovi clienti nel mese ${summary.newCustomersThisMonth}`);
    expect(flat).toContain('Fatturato ultimi 12 mesi');
    expect(flat).toContain('Nuove sottoscrizioni del mese');
    expect(flat).toContain('Bonifici in attesa');
    expect(flat).toContain(`Pagina 1 di ${totalPages}`);
    const period = new Intl.DateTimeFormat('it-IT', {
      month: 'long',
      year: 'numeric',
      timeZone: 'Europe/Rome',
    }).format(new Date());
    expect(flat).toContain(`Periodo: ${period}`);

    // Another tenant's report names that tenant and none of Demo's customers.
    const rossi = await fetchAs('superadmin', 'Studio Rossi', '/api/report/pdf');
    const rossiText = plain(
      (await extractText(await getDocumentProxy(new Uint8Array(rossi.rawPayload)), { mergePages: true }))
        .text,
    );
    expect(rossiText).toContain('Studio Rossi');
    expect(rossiText).not.toContain('Demo Srl');
    const demoCustomers = (await allSubscriptions(admin, '')).map((s) => s.user.email);
    expect(demoCustomers.filter((c) => rossiText.includes(c))).toEqual([]);

    // A past month is that month's window; a future or malformed month is a 400; a User: 403.
    const past = await fetchAs('admin', 'Demo Srl', '/api/report/pdf?month=2026-01');
    expect(past.statusCode).toBe(200);
    expect(
      plain(
        (await extractText(await getDocumentProxy(new Uint8Array(past.rawPayload)), { mergePages: true }))
          .text,
      ),
    ).toContain('Periodo: gennaio 2026');
    expect((await admin.get('/api/report/pdf?month=2999-01')).status).toBe(400);
    expect((await admin.get('/api/report/pdf?month=2026-13')).status).toBe(400);
    expect((await fetchAs('cliente', 'Demo Srl', '/api/report/pdf')).statusCode).toBe(403);
  });

  it('POST report/send: the job mails the PDF once, through the outbox', async () => {
    const bad = await admin.post('/api/report/send', { email: 'non-una-email' });
    expect(bad.status).toBe(400);
    const before = (await ctx.outbox()).length;
    const res = await admin.post<{ jobId: string; month: string }>('/api/report/send', {
      email: 'Commercialista@Studio.it',
    });
    const { jobId, month } = dataOf(res);
    expect(res.body.message).toBe(
      'Report in preparazione: arriverà a commercialista@studio.it entro pochi minuti.',
    );
    expect(await ctx.outbox()).toHaveLength(before); // nothing before the job runs

    const processed = await jobs.drain({ names: ['report-send'] });
    expect(processed).toEqual([
      expect.objectContaining({
        id: jobId,
        outcome: 'succeeded',
        output: expect.objectContaining({ sent: true }),
      }),
    ]);
    const mails = (await ctx.outbox()).slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe('commercialista@studio.it');
    expect(mail.subject).toContain('Demo Srl');
    expect(mail.attachments).toHaveLength(1);
    const attachment = mail.attachments![0]!;
    expect(attachment).toMatchObject({
      filename: `report-demo-srl-${month}.pdf`,
      contentType: 'application/pdf',
    });
    const bytes = Buffer.from(attachment.contentBase64, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true }))
      .text;
    expect(text).toContain('Demo Srl');

    // The same job run again (a retry after a crash before it completed) sends nothing more.
    const def = jobs.definitions.find((d) => d.name === 'report-send')!;
    const again = await def.run(
      { tenantId: await ctx.tenantId('Demo Srl'), month, email: 'commercialista@studio.it' },
      { jobId, retryCount: 1, log: ctx.app.log, enqueue: async () => null },
    );
    expect(again).toMatchObject({ sent: false });
    expect((await ctx.outbox()).slice(before)).toHaveLength(1);
  });
});
