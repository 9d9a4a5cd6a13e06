/**
 * Sending invoices to the SdI through the tenant's own PEC mailbox, against a loopback SMTP
 * server (smtp-server): the settings on the billing profile (password write-only, encrypted), the
 * 'Invia allo SdI' call enqueuing a pg-boss job, one message per invoice with its XML attached,
 * each attempt logged, issued → sent, a failure logged in Italian and nothing else changed, the
 * retry, automatic sending, and who may do what.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pecMessages, receiptMessages } from '../../../contract/messages';
import type { Invoice, InvoiceSend, PecStatus } from '../../../contract/schemas/invoice';
import { SECRET_MASK } from '../../../contract/schemas/payment-provider';
import type { Tenant } from '../../../contract/schemas/tenant';
import { invoiceSends, invoices, tenants } from '../../../server/db/schema';
import { PEC_JOBS } from '../../../server/modules/invoice/invoice-pec';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { giveIban, movableClock, planId, userId } from '../billing/helpers';
import { payByBankTransfer, setCustomer, withoutDemoInvoices } from './helpers';

const clock = movableClock('2026-06-10T09:00:00.000Z');
const TLS_DIR = path.resolve(import.meta.dirname, '../../fixtures/tls');
const TEST_CA = readFileSync(path.join(TLS_DIR, 'ca.pem'));
const TLS_SERVER = {
  key: readFileSync(path.join(TLS_DIR, 'localhost.key')),
  cert: readFileSync(path.join(TLS_DIR, 'localhost.pem')),
};
const PASSWORD = 'pec-Segreta-42';
let ctx: TestContext;
let admin: ApiClient;
let smtp: SMTPServer;
let smtpPort: number;
const received: { from: string; to: string[]; mail: Parsed }[] = [];

interface Parsed {
  messageId: string;
  subject: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** What the test reads of a MIME message nodemailer wrote: Message-ID, subject, attachments. */
function parseMime(raw: string): Parsed {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const header = (name: string, text: string) =>
    new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
      .exec(text)?.[1]
      ?.replace(/\r?\n[ \t]+/g, ' ')
      .trim() ?? '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
  const attachments: Parsed['attachments'] = [];
  if (boundary) {
    const body = rest.join('\r\n\r\n');
    for (const part of body.split(`--${boundary}`)) {
      const [partHead = '', ...partBody] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const disposition = header('Content-Disposition', partHead);
      if (!/^attachment/i.test(disposition)) continue;
      const encoded = partBody.join('\n');
      attachments.push({
        filename: /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? '',
        contentType: header('Content-Type', partHead),
        content: /base64/i.test(header('Content-Transfer-Encoding', partHead))
          ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64')
          : Buffer.from(encoded),
      });
    }
  }
  return { messageId: header('Message-ID', head), subject: header('Subject', head), attachments };
}
let demoId: number;
let basic: number;
let customer: number;

beforeAll(async () => {
  // STARTTLS with a certificate of the test CA (tests/fixtures/tls): PEC sending requires TLS.
  smtp = new SMTPServer({
    secure: false,
    ...TLS_SERVER,
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'fatture@pec.demo.it' && auth.password === PASSWORD)
        done(null, { user: auth.username });
      else done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          mail: parseMime(Buffer.concat(chunks).toString('utf8')),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext({ app: { now: clock.now, pecTransportOptions: { tls: { ca: TEST_CA } } } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  customer = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const jobs = () => {
  const engine = ctx.app.jobs;
  if (!engine) throw new Error('no job engine');
  return engine;
};

async function newInvoice(): Promise<Invoice> {
  const { sub } = await payByBankTransfer(admin, { userId: customer, planId: basic }, '2026-06-09T15:00:00Z');
  const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
  const found = list.body.data!.items.find((i) => i.paymentId === sub.payments[0]!.id);
  expect(found?.status).toBe('issued');
  return found!;
}

async function tenantRow() {
  const [row] = await ctx.db.select().from(tenants).where(eq(tenants.id, demoId));
  return row!;
}

async function saveSettings(values: Record<string, unknown>) {
  const current = await admin.get<Tenant>(`/api/tenant/GetById/${demoId}`);
  const res = await admin.put<Tenant>('/api/tenant/Update', { ...current.body.data, ...values });
  expect(res.status, res.raw).toBe(200);
  return res;
}

async function sendsOf(id: number) {
  const res = await admin.get<{ items: InvoiceSend[] }>(`/api/invoice/sends/${id}`);
  expect(res.status).toBe(200);
  return res.body.data!.items;
}

describe('sending an invoice to the SdI by PEC', () => {
  let invoice: Invoice;

  it('without PEC settings: the call explains that the intermediary sends it, and nothing is written', async () => {
    invoice = await newInvoice();
    const status = await admin.get<PecStatus>('/api/invoice/pecStatus');
    expect(status.body.data).toMatchObject({
      configured: false,
      sdiPec: 'sdi01@pec.fatturapa.it',
      autoSend: false,
    });
    expect(status.body.data!.missing).toEqual([
      pecMessages.fieldHost,
      pecMessages.fieldUser,
      pecMessages.fieldPassword,
    ]);
    const res = await admin.post(`/api/invoice/send/${invoice.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(pecMessages.notConfigured);
    expect(res.body.errors).toContain(pecMessages.fieldHost);
    expect(await jobs().drain({ names: [PEC_JOBS.send] })).toEqual([]);
    expect(await ctx.db.select().from(invoiceSends)).toEqual([]);
  });

  it('SMTP settings on the billing profile: the password is write-only, stored encrypted, kept when absent', async () => {
    const bad = await admin.put('/api/tenant/Update', {
      ...(await admin.get<Tenant>(`/api/tenant/GetById/${demoId}`)).body.data,
      pecSmtpHost: 'smtp pec',
      pecSmtpPort: 70000,
      sdiPec: 'non-una-pec',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pecSmtpHost: Server SMTP non valido/),
        expect.stringMatching(/^pecSmtpPort: Porta SMTP non valida/),
        expect.stringMatching(/^sdiPec: /),
      ]),
    );
    expect((await tenantRow()).pecSmtpHost).toBeNull();

    const saved = await saveSettings({
      pecSmtpHost: '127.0.0.1',
      pecSmtpPort: smtpPort,
      pecSmtpSecure: false,
      pecSmtpUser: 'fatture@pec.demo.it',
      pecSmtpPassword: 'sbagliata',
    });
    expect(saved.raw).not.toContain('sbagliata');
    expect(saved.body.data).toMatchObject({
      pecSmtpHost: '127.0.0.1',
      pecSmtpPort: smtpPort,
      pecSmtpSecure: false,
      pecSmtpUser: 'fatture@pec.demo.it',
      pecSmtpPassword: SECRET_MASK,
      sdiPec: 'sdi01@pec.fatturapa.it',
      pecAutoSend: false,
    });
    const stored = (await tenantRow()).pecSmtpPasswordEncrypted!;
    expect(stored).toMatch(/^v2\./);
    expect(stored).not.toContain('sbagliata');
    // Sent back with the mask (as the form does): the stored password stays.
    await saveSettings({ pecSmtpPassword: SECRET_MASK });
    expect((await tenantRow()).pecSmtpPasswordEncrypted).toBe(stored);
    const list = await admin.get('/api/tenant/getAll');
    expect(list.raw).not.toContain('sbagliata');
    expect(list.raw).not.toContain(stored);
    const status = await admin.get<PecStatus>('/api/invoice/pecStatus');
    expect(status.body.data).toMatchObject({
      configured: true,
      missing: [],
      sender: 'demosrl@pec.example.it',
    });
  });

  it('a failed send is logged with its Italian error and changes nothing else', async () => {
    const before = (await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0];
    const res = await admin.post<Invoice>(`/api/invoice/send/${invoice.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.message).toBe(pecMessages.queued(invoice.number));
    // Nothing is sent inside the request: the job does it.
    expect(await sendsOf(invoice.id)).toEqual([]);
    const [run] = await jobs().drain({ names: [PEC_JOBS.send] });
    expect(run).toMatchObject({ outcome: 'failed', error: pecMessages.errorAuth });
    expect(received).toHaveLength(0);
    const sends = await sendsOf(invoice.id);
    expect(sends).toEqual([
      {
        id: expect.any(Number),
        at: '2026-06-10T09:00:00.000Z',
        to: 'sdi01@pec.fatturapa.it',
        status: 'failed',
        statusName: 'Non riuscito',
        messageId: null,
        error: pecMessages.errorAuth,
      },
    ]);
    const after = (await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0];
    expect(after).toEqual(before);
    const shown = await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`);
    expect(shown.body.data).toMatchObject({
      status: 'issued',
      lastSend: { status: 'failed', error: pecMessages.errorAuth },
    });
  });

  it('the retry sends one message to the SdI’s PEC with the XML attached; the invoice is sent', async () => {
    clock.set('2026-06-10T09:30:00.000Z');
    await saveSettings({ pecSmtpPassword: PASSWORD });
    expect((await admin.post(`/api/invoice/send/${invoice.id}`)).status).toBe(200);
    // The same invoice asked twice before the job runs: one message all the same.
    expect((await admin.post(`/api/invoice/send/${invoice.id}`)).status).toBe(200);
    const runs = await jobs().drain({ names: [PEC_JOBS.send] });
    expect(runs.map((r) => r.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(received).toHaveLength(1);
    const message = received[0]!;
    expect(message.from).toBe('demosrl@pec.example.it');
    expect(message.to).toEqual(['sdi01@pec.fatturapa.it']);
    expect(message.mail.attachments).toHaveLength(1);
    const attachment = message.mail.attachments[0]!;
    expect(attachment.filename).toBe(invoice.fileName);
    const xml = (await admin.get(`/api/invoice/xml/${invoice.id}`)).raw;
    expect(attachment.content.toString('utf8')).toBe(xml);

    const sends = await sendsOf(invoice.id);
    expect(sends.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(sends[0]).toMatchObject({ at: '2026-06-10T09:30:00.000Z', error: null });
    expect(sends[0]!.messageId).toBe(message.mail.messageId);
    const shown = await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`);
    expect(shown.body.data).toMatchObject({
      status: 'sent',
      statusName: 'Inviata',
      lastSend: { status: 'sent' },
    });

    const again = await admin.post(`/api/invoice/send/${invoice.id}`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(pecMessages.alreadySent);
    // A job for it left in the queue does nothing.
    await jobs().enqueue(PEC_JOBS.send, { tenantId: demoId, invoiceId: invoice.id });
    const [late] = await jobs().drain({ names: [PEC_JOBS.send] });
    expect(late?.output).toMatchObject({ outcome: 'skipped' });
    expect(received).toHaveLength(1);
  });

  it('only the tenant’s Admins send and read the log; another tenant gets 404', async () => {
    const other = await newInvoice();
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cliente.post(`/api/invoice/send/${other.id}`)).status).toBe(403);
    expect((await cliente.get(`/api/invoice/sends/${invoice.id}`)).status).toBe(403);
    expect((await cliente.get('/api/invoice/pecStatus')).status).toBe(403);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect((await rossi.post(`/api/invoice/send/${other.id}`)).status).toBe(404);
    expect((await rossi.get(`/api/invoice/sends/${invoice.id}`)).status).toBe(404);
    expect(await jobs().drain({ names: [PEC_JOBS.send] })).toEqual([]);
    expect(await sendsOf(other.id)).toEqual([]);
  });

  it('automatic sending picks up each issued invoice never sent, once', async () => {
    await saveSettings({ pecAutoSend: true });
    const fresh = await newInvoice();
    const runs = await jobs().runJobNow(PEC_JOBS.auto);
    // The auto job queues the invoices never attempted (the one of the previous test and this one).
    expect(runs.filter((r) => r.name === PEC_JOBS.auto)[0]?.output).toEqual({ queued: 2 });
    await jobs().drain({ names: [PEC_JOBS.send] });
    expect(received).toHaveLength(3);
    expect(received.map((r) => r.mail.attachments[0]?.filename)).toContain(fresh.fileName);
    const rows = await ctx.db
      .select({ status: invoices.status })
      .from(invoices)
      .where(and(eq(invoices.tenantId, demoId)))
      .orderBy(asc(invoices.id));
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const second = await jobs().runJobNow(PEC_JOBS.auto);
    expect(second.filter((r) => r.name === PEC_JOBS.auto)[0]?.output).toEqual({ queued: 0 });
    expect(received).toHaveLength(3);
  });

  it('an FPA12 is never sent unsigned: the call says to sign it, the automatic sending leaves it', async () => {
    const body = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
    await setCustomer(ctx, 'Demo Srl', body, {
      paOfficeCode: 'UFABCD',
      publicAdministration: true,
      cig: 'Z1A2B3C4D5',
    });
    const { sub } = await payByBankTransfer(admin, { userId: body, planId: basic }, '2026-06-09T16:00:00Z');
    const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const pa = list.body.data!.items.find((i) => i.paymentId === sub.payments[0]!.id)!;
    expect(pa).toMatchObject({ status: 'issued' });
    const [row] = await ctx.db
      .select({ format: invoices.format })
      .from(invoices)
      .where(eq(invoices.id, pa.id));
    expect(row?.format).toBe('FPA12');
    const before = received.length;
    const res = await admin.post(`/api/invoice/send/${pa.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(pecMessages.unsignedPa);
    const runs = await jobs().runJobNow(PEC_JOBS.auto);
    expect(runs.filter((r) => r.name === PEC_JOBS.auto)[0]?.output).toEqual({ queued: 0 });
    await jobs().drain({ names: [PEC_JOBS.send] });
    expect(received).toHaveLength(before);
    expect(await sendsOf(pa.id)).toEqual([]);
  });

  it('the SdI’s receipts: scarto → Scartata with its errors and sent again, consegna → Consegnata', async () => {
    const receipt = (root: string, fileName: string, extra = '') =>
      `<?xml version="1.0" encoding="UTF-8"?><ns3:${root} xmlns:ns3="http://www.fatturapa.gov.it/sdi/messaggi/v1.0" versione="1.0"><IdentificativoSdI>4242</IdentificativoSdI><NomeFile>${fileName}</NomeFile>${extra}<MessageId>99</MessageId></ns3:${root}>`;
    const scarto = receipt(
      'NotificaScarto',
      invoice.fileName,
      '<ListaErrori><Errore><Codice>00305</Codice><Descrizione>1.4.1.1.2 IdCodice non valido</Descrizione></Errore></ListaErrori>',
    );
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cliente.post('/api/invoice/sdiReceipt', { xml: scarto })).status).toBe(403);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const foreign = await rossi.post('/api/invoice/sdiReceipt', { xml: scarto });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(receiptMessages.unknownFile(invoice.fileName));
    const junk = await admin.post('/api/invoice/sdiReceipt', { xml: '<FatturaElettronica/>' });
    expect(junk.status).toBe(400);
    expect(junk.body.message).toBe(receiptMessages.unreadable);
    expect((await admin.post('/api/invoice/sdiReceipt', {})).status).toBe(400);

    const rejected = await admin.post<Invoice>('/api/invoice/sdiReceipt', { xml: scarto });
    expect(rejected.status, rejected.raw).toBe(200);
    expect(rejected.body.message).toBe(receiptMessages.rejected(invoice.number));
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      statusName: 'Scartata',
      sdiNote: '00305 – 1.4.1.1.2 IdCodice non valido',
    });
    // Corrected and sent again: one more message, the invoice is sent again.
    expect((await admin.post(`/api/invoice/send/${invoice.id}`)).status).toBe(200);
    await jobs().drain({ names: [PEC_JOBS.send] });
    expect(received).toHaveLength(4);
    expect((await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`)).body.data?.status).toBe('sent');

    const mc = await admin.post('/api/invoice/sdiReceipt', {
      xml: receipt('NotificaMancataConsegna', invoice.fileName),
    });
    expect(mc.status).toBe(200);
    expect(mc.body.message).toBe(receiptMessages.notDelivered(invoice.number));
    expect((await admin.get<Invoice>(`/api/invoice/GetById/${invoice.id}`)).body.data?.status).toBe('sent');

    const consegna = receipt(
      'RicevutaConsegna',
      invoice.fileName,
      '<DataOraRicezione>2026-06-10T10:00:00</DataOraRicezione>',
    );
    const delivered = await admin.post<Invoice>('/api/invoice/sdiReceipt', { xml: consegna });
    expect(delivered.body.data).toMatchObject({
      status: 'delivered',
      statusName: 'Consegnata',
      sdiNote: null,
    });
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row).toMatchObject({ sdiId: '4242', status: 'delivered' });
    expect((await admin.post('/api/invoice/sdiReceipt', { xml: consegna })).body.message).toBe(
      receiptMessages.already(invoice.number),
    );
    const late = await admin.post('/api/invoice/sdiReceipt', { xml: scarto });
    expect(late.status).toBe(409);
    expect((await admin.post(`/api/invoice/send/${invoice.id}`)).status).toBe(409);
  });
});
