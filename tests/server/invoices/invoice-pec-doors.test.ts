/**
 * The PEC mail server's doors (issue 23): sending requires TLS (implicit, or STARTTLS made
 * mandatory: a server without it never hears the password), with a certificate the server trusts;
 * the connection goes through the outbound door (in production a PEC server on this machine or a
 * private network is refused when saved and on the socket); changing the SMTP host asks for the
 * password again, so a stored password never goes to a server chosen after it.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pecMessages } from '../../../contract/messages';
import type { Invoice } from '../../../contract/schemas/invoice';
import type { Tenant } from '../../../contract/schemas/tenant';
import { invoices, invoiceSends, tenants } from '../../../server/db/schema';
import { secretRetypeMessages } from '../../../server/lib/outbound/provider-hosts';
import { PEC_JOBS } from '../../../server/modules/invoice/invoice-pec';
import { giveIban, movableClock, planId, userId } from '../billing/helpers';
import { client, createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer } from './helpers';

const clock = movableClock('2026-06-10T09:00:00.000Z');
const TLS_DIR = path.resolve(import.meta.dirname, '../../fixtures/tls');
const TEST_CA = readFileSync(path.join(TLS_DIR, 'ca.pem'));
const TLS = {
  key: readFileSync(path.join(TLS_DIR, 'localhost.key')),
  cert: readFileSync(path.join(TLS_DIR, 'localhost.pem')),
};
const USER = 'fatture@pec.demo.it';
const PASSWORD = 'pec-Segreta-42';

/** A loopback SMTP server counting connections, AUTH attempts (whether over TLS) and messages. */
async function smtpServer(options: SMTPServerOptions) {
  const seen = { connections: 0, auth: [] as boolean[], messages: 0 };
  const server = new SMTPServer({
    logger: false,
    ...options,
    onConnect(_session, done) {
      seen.connections++;
      done();
    },
    onAuth(auth, session, done) {
      seen.auth.push(session.secure);
      if (auth.username === USER && auth.password === PASSWORD) done(null, { user: USER });
      else done(new Error('Invalid username or password'));
    },
    onData(stream, _session, done) {
      stream.resume();
      stream.on('end', () => {
        seen.messages++;
        done();
      });
    },
  });
  // A client that gives up mid-handshake (an untrusted certificate) is an error on the server's side.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let ctx: TestContext;
let admin: ApiClient;
let demoId: number;
let plain: Awaited<ReturnType<typeof smtpServer>>;
let startTls: Awaited<ReturnType<typeof smtpServer>>;
let implicit: Awaited<ReturnType<typeof smtpServer>>;

beforeAll(async () => {
  [plain, startTls, implicit] = await Promise.all([
    smtpServer({ secure: false, disabledCommands: ['STARTTLS'], allowInsecureAuth: true }),
    smtpServer({ secure: false, ...TLS }),
    smtpServer({ secure: true, ...TLS }),
  ]);
  ctx = await createTestContext({ app: { now: clock.now, pecTransportOptions: { tls: { ca: TEST_CA } } } });
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await ctx.db.update(tenants).set({ pec: 'demosrl@pec.example.it' }).where(eq(tenants.id, demoId));
});
afterAll(async () => {
  await ctx?.close();
  await Promise.all([plain?.close(), startTls?.close(), implicit?.close()]);
});

async function save(api: ApiClient, values: Record<string, unknown>) {
  const current = await api.get<Tenant>(`/api/tenant/GetById/${demoId}`);
  return api.put<Tenant>('/api/tenant/Update', { ...current.body.data, ...values });
}

async function newInvoice(): Promise<Invoice> {
  const { sub } = await payByBankTransfer(
    admin,
    {
      userId: await userId(ctx, 'amministrazione@bianchi-consulting.example.com'),
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    },
    '2026-06-09T15:00:00Z',
  );
  // By its payment: the demo tenant's seeded year has more invoices than one page.
  const [row] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.paymentId, sub.payments[0]!.id));
  const shown = await admin.get<Invoice>(`/api/invoice/GetById/${row!.id}`);
  expect(shown.status, shown.raw).toBe(200);
  return shown.body.data!;
}

/** 'Invia allo SdI' on `app`, and its job run there: the send's outcome. */
async function sendOn(app: FastifyInstance, api: ApiClient, invoice: Invoice) {
  expect((await api.post(`/api/invoice/send/${invoice.id}`)).status).toBe(200);
  const [run] = await app.jobs!.drain({ names: [PEC_JOBS.send] });
  return run!;
}

describe('PEC requires TLS', () => {
  it('a server without STARTTLS never hears the password: the send fails, nothing else changes', async () => {
    const res = await save(admin, {
      pecSmtpHost: '127.0.0.1',
      pecSmtpPort: plain.port,
      pecSmtpSecure: false,
      pecSmtpUser: USER,
      pecSmtpPassword: PASSWORD,
    });
    expect(res.status, res.raw).toBe(200);
    const invoice = await newInvoice();
    const run = await sendOn(ctx.app, admin, invoice);
    expect(run).toMatchObject({ outcome: 'failed', error: pecMessages.errorTls(`127.0.0.1:${plain.port}`) });
    expect(plain.seen.connections).toBe(1);
    expect(plain.seen.auth).toEqual([]);
    expect(plain.seen.messages).toBe(0);
  });

  it('STARTTLS and implicit TLS both deliver, the password sent over TLS only', async () => {
    expect((await save(admin, { pecSmtpPort: startTls.port })).status).toBe(200);
    expect((await sendOn(ctx.app, admin, await newInvoice())).outcome).toBe('succeeded');
    expect(startTls.seen).toMatchObject({ auth: [true], messages: 1 });
    expect((await save(admin, { pecSmtpPort: implicit.port, pecSmtpSecure: true })).status).toBe(200);
    expect((await sendOn(ctx.app, admin, await newInvoice())).outcome).toBe('succeeded');
    expect(implicit.seen).toMatchObject({ auth: [true], messages: 1 });
  });

  it('a certificate the server does not trust is refused before the password is sent', async () => {
    // The same settings from an app without the test CA (the system's CAs only).
    const other = await ctx.buildAnotherApp({}, { now: clock.now });
    const token = await ctx.login(DEMO.admin, DEMO.password);
    const otherAdmin = client(other, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demoId) });
    const run = await sendOn(other, otherAdmin, await newInvoice());
    expect(run).toMatchObject({
      outcome: 'failed',
      error: pecMessages.errorTls(`127.0.0.1:${implicit.port}`),
    });
    expect(implicit.seen).toMatchObject({ auth: [true], messages: 1 });
  });
});

describe('a stored PEC password goes only to the server it was saved for', () => {
  it('changing the SMTP host without typing the password again is a 400 on it, and changes nothing', async () => {
    const [before] = await ctx.db.select().from(tenants).where(eq(tenants.id, demoId));
    for (const host of ['localhost', 'smtps.pec.attaccante.example']) {
      const res = await save(admin, { pecSmtpHost: host, pecSmtpPassword: null });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([`pecSmtpPassword: ${secretRetypeMessages.pecSmtpPassword}`]);
    }
    const [after] = await ctx.db.select().from(tenants).where(eq(tenants.id, demoId));
    expect(after).toEqual(before);
    // The same host in another case, or another port: no change of server.
    expect((await save(admin, { pecSmtpHost: '127.0.0.1.', pecSmtpPort: implicit.port })).status).toBe(200);
    // A new host with the password typed again is saved.
    const moved = await save(admin, { pecSmtpHost: 'localhost', pecSmtpPassword: PASSWORD });
    expect(moved.status, moved.raw).toBe(200);
  });
});

describe('in production (the outbound guard on)', () => {
  it('a PEC server on this machine or a private network is refused when saved and when sending', async () => {
    const guarded = await ctx.buildAnotherApp(
      { OUTBOUND_ALLOW_PRIVATE: 'false' },
      { now: clock.now, pecTransportOptions: { tls: { ca: TEST_CA } } },
    );
    const token = await ctx.login(DEMO.admin, DEMO.password);
    const guardedAdmin = client(guarded, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demoId) });
    for (const host of ['127.0.0.1', '2130706433', '10.0.0.5', 'localhost', '169.254.169.254']) {
      const res = await save(guardedAdmin, { pecSmtpHost: host, pecSmtpPassword: PASSWORD });
      expect(res.status, host).toBe(400);
      expect(res.body.errors).toEqual([`pecSmtpHost: ${secretRetypeMessages.pecHostPrivate}`]);
    }
    // Saved earlier (development) at loopback: the guarded app's send is refused on the socket.
    expect((await save(admin, { pecSmtpHost: '127.0.0.1', pecSmtpPassword: PASSWORD })).status).toBe(200);
    const before = { ...implicit.seen, auth: [...implicit.seen.auth] };
    const run = await sendOn(guarded, guardedAdmin, await newInvoice());
    expect(run).toMatchObject({
      outcome: 'failed',
      error: pecMessages.errorPrivate(`127.0.0.1:${implicit.port}`),
    });
    expect(implicit.seen).toEqual(before);
    const failed = await ctx.db.select().from(invoiceSends).where(eq(invoiceSends.status, 'failed'));
    expect(failed.map((f) => f.error)).toContain(pecMessages.errorPrivate(`127.0.0.1:${implicit.port}`));
  });
});
