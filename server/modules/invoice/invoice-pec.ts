/**
 * Sending invoices to the SdI through the tenant's own PEC mailbox (issue 12), optional per
 * tenant: its SMTP server on the billing profile (Lista Tenants → Invio PEC), the sender is the
 * profile's PEC, the recipient the SdI's PEC address (sdi01@pec.fatturapa.it until the SdI assigns
 * another). One invoice per message, its FatturaPA file attached.
 *
 * The message goes out from a pg-boss job (`invoice-pec-send`), enqueued after the request's
 * commit, never inside a transaction:
 * 1. claim (one short unit of work): the invoice row locked, still 'issued', no other attempt under
 *    way → an `invoice_sends` row 'sending'. Two jobs for one invoice: the second finds the claim
 *    (or the invoice sent) and does nothing;
 * 2. the SMTP call, outside any transaction, through the outbound door and always over TLS
 *    (implicit or STARTTLS);
 * 3. outcome (another unit): 'sent' with the message id and the invoice issued → sent; or 'failed'
 *    with the Italian error, and nothing else changes (the job then fails, so pg-boss retries it;
 *    'Invia allo SdI' again is the manual retry).
 * Without PEC settings the invoices are downloaded and sent by the seller's intermediary.
 */
import { and, desc, eq, gte, inArray, notExists, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { pecMessages, serverMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { invoices, invoiceSends, tenants } from '../../db/schema';
import type { InvoiceSend } from '../../../contract/schemas/invoice';
import { HttpError } from '../../lib/http-error';
import { toSend } from './invoice.repository';
import type { Outbound } from '../../lib/outbound';
import type { SecretBox } from '../../lib/secret-box';
import type { JobDefinition } from '../../jobs/engine';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';

export const PEC_JOBS = { send: 'invoice-pec-send', auto: 'invoice-pec-auto' } as const;

/** An attempt older than this with no outcome (a crash mid-send) no longer blocks a new one. */
const CLAIM_MS = 10 * 60_000;
/** The automatic sending looks back this far for issued invoices never sent (see autoSendable). */
const AUTO_LOOKBACK_MS = 3 * 86_400_000;
const SMTP_TIMEOUT_MS = 30_000;

export interface PecDeps {
  connectionFor: (tenantId: number) => Database;
  /** The database of global data (the tenants and their settings). */
  shared: Database;
  uow: UnitOfWorkRunner;
  box: SecretBox;
  /** The door the SMTP connection is made through (lib/outbound). */
  outbound: Outbound;
  /** Test seam: more nodemailer options (a loopback server's test CA: `tls: { ca }`). */
  transportOptions?: Record<string, unknown>;
}

export interface PecSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
  to: string;
}

/** The tenant's PEC settings, or the missing fields named in Italian. */
export async function pecSettingsOf(
  db: Database,
  box: SecretBox,
  tenantId: number,
): Promise<{ settings: PecSettings | null; missing: string[]; sdiPec: string; autoSend: boolean }> {
  const [t] = await db
    .select({
      host: tenants.pecSmtpHost,
      port: tenants.pecSmtpPort,
      secure: tenants.pecSmtpSecure,
      user: tenants.pecSmtpUser,
      password: tenants.pecSmtpPasswordEncrypted,
      from: tenants.pec,
      to: tenants.sdiPec,
      autoSend: tenants.pecAutoSend,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!t) throw new HttpError(404, serverMessages.notFound);
  const missing: string[] = [];
  if (!t.host) missing.push(pecMessages.fieldHost);
  if (!t.user) missing.push(pecMessages.fieldUser);
  if (!t.password) missing.push(pecMessages.fieldPassword);
  if (!t.from) missing.push(pecMessages.fieldSender);
  const base = { missing, sdiPec: t.to, autoSend: t.autoSend };
  if (!t.host || !t.user || !t.password || !t.from) return { settings: null, ...base };
  const password = box.open(t.password, 'tenants.pec_smtp_password_encrypted', tenantId);
  if (password === null) return { settings: null, ...base, missing: [pecMessages.fieldPasswordUnreadable] };
  return {
    settings: {
      host: t.host,
      port: t.port ?? (t.secure ? 465 : 587),
      secure: t.secure,
      user: t.user,
      password,
      from: t.from,
      to: t.to,
    },
    ...base,
  };
}

/** An SMTP failure in Italian: what a person can act on, never a secret. */
export function italianSmtpError(error: unknown, s: Pick<PecSettings, 'host' | 'port'>): string {
  const e = error as {
    code?: string;
    originalCode?: string;
    responseCode?: number;
    response?: string;
    message?: string;
  };
  const server = `${s.host}:${s.port}`;
  // A certificate the server does not trust (unknown CA, self-signed, another name, expired).
  if (/CERT|SIGNATURE|SELF_SIGNED|ALTNAME|ERR_TLS|ERR_SSL/.test(e.originalCode ?? ''))
    return pecMessages.errorTls(server);
  switch (e.code) {
    case 'EAUTH':
      return pecMessages.errorAuth;
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'ETIMEDOUT':
    case 'EDNS':
    case 'ECONNREFUSED':
      return pecMessages.errorConnection(server);
    case 'ETLS':
      return pecMessages.errorTls(server);
    case 'EOUTBOUNDREFUSED':
      return pecMessages.errorPrivate(server);
    case 'EENVELOPE':
    case 'EMESSAGE':
      return pecMessages.errorRefused(String(e.response ?? e.message ?? '').slice(0, 300));
    default:
      return pecMessages.errorOther(String(e.response ?? e.message ?? error).slice(0, 300));
  }
}

/**
 * 'Invia allo SdI': checks the invoice can go (issued, PEC configured) and answers; the caller
 * enqueues the job after this (no transaction is open).
 */
export async function checkSendable(deps: PecDeps, tenantId: number, invoiceId: number): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const [inv] = await db
    .select({ status: invoices.status, format: invoices.format })
    .from(invoices)
    .where(and(eq(invoices.tenantId, tenantId), eq(invoices.id, invoiceId)));
  if (!inv) throw new HttpError(404, pecMessages.notFound);
  if (inv.status !== 'issued' && inv.status !== 'rejected') throw new HttpError(409, pecMessages.alreadySent);
  // An FPA12 must reach the SdI signed (DM 55/2013): unsigned by PEC it would be refused.
  if (inv.format === 'FPA12') throw new HttpError(409, pecMessages.unsignedPa);
  const { settings, missing } = await pecSettingsOf(db, deps.box, tenantId);
  if (!settings) throw new HttpError(409, pecMessages.notConfigured, { errors: missing });
}

type SendResult =
  | { outcome: 'sent'; sendId: number; messageId: string }
  | { outcome: 'failed'; sendId: number; error: string }
  | { outcome: 'skipped'; reason: string };

/** The send job's work for one invoice (see the file's comment). */
export async function sendInvoiceByPec(
  deps: PecDeps,
  tenantId: number,
  invoiceId: number,
  job: string = PEC_JOBS.send,
): Promise<SendResult> {
  const actor = { kind: 'system', job } as const;
  const db = deps.connectionFor(tenantId);
  const { settings, missing } = await pecSettingsOf(db, deps.box, tenantId);
  if (!settings) return { outcome: 'skipped', reason: `${pecMessages.notConfigured} ${missing.join(' ')}` };

  const claim = await deps.uow.run({ tenantId, actor }, async (w) => {
    const [inv] = await w.tx
      .select({
        status: invoices.status,
        xml: invoices.xml,
        fileName: invoices.fileName,
        number: invoices.numberText,
        documentType: invoices.documentType,
        format: invoices.format,
      })
      .from(invoices)
      .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.id, invoiceId)))
      .for('update');
    if (!inv) return { skip: pecMessages.notFound };
    if (inv.format === 'FPA12') return { skip: pecMessages.unsignedPa };
    // Issued, or rejected by the SdI and corrected: sent (again).
    if (inv.status !== 'issued' && inv.status !== 'rejected') return { skip: pecMessages.alreadySent };
    const [busy] = await w.tx
      .select({ id: invoiceSends.id })
      .from(invoiceSends)
      .where(
        and(
          eq(invoiceSends.tenantId, w.tenantId),
          eq(invoiceSends.invoiceId, invoiceId),
          eq(invoiceSends.status, 'sending'),
          gte(invoiceSends.at, new Date(w.now.getTime() - CLAIM_MS)),
        ),
      );
    if (busy) return { skip: pecMessages.inProgress };
    const [row] = await w.tx
      .insert(invoiceSends)
      .values({ tenantId: w.tenantId, invoiceId, at: w.now, to: settings.to, status: 'sending' })
      .returning({ id: invoiceSends.id });
    return { sendId: row!.id, ...inv };
  });
  if ('skip' in claim) return { outcome: 'skipped', reason: claim.skip ?? '' };

  // Outside any transaction: the SMTP conversation with the tenant's PEC provider.
  let result: { messageId: string } | { error: string };
  // Through the outbound door (the socket checked on its real remote address), always over TLS:
  // implicit (secure, 465) or STARTTLS, which requireTLS makes mandatory (never plain text), the
  // certificate checked against the host name.
  const transport = nodemailer.createTransport({
    ...deps.transportOptions,
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure,
    ignoreTLS: false,
    getSocket: deps.outbound.smtpSocket,
    auth: { user: settings.user, pass: settings.password },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    const kind = claim.documentType === 'TD04' ? 'Nota di credito' : 'Fattura';
    const info = await transport.sendMail({
      from: settings.from,
      to: settings.to,
      subject: `${claim.fileName}`,
      text: `${kind} elettronica ${claim.number}: file FatturaPA ${claim.fileName} in allegato.`,
      attachments: [{ filename: claim.fileName, content: claim.xml, contentType: 'application/xml' }],
    });
    result = { messageId: String(info.messageId ?? '') };
  } catch (error) {
    result = { error: italianSmtpError(error, settings) };
  } finally {
    transport.close();
  }

  return deps.uow.run({ tenantId, actor }, async (w) => {
    if ('error' in result) {
      await w.tx
        .update(invoiceSends)
        .set({ status: 'failed', error: result.error, finishedAt: w.now })
        .where(and(eq(invoiceSends.tenantId, w.tenantId), eq(invoiceSends.id, claim.sendId)));
      return { outcome: 'failed' as const, sendId: claim.sendId, error: result.error };
    }
    await w.tx
      .update(invoiceSends)
      .set({ status: 'sent', messageId: result.messageId.slice(0, 500), finishedAt: w.now })
      .where(and(eq(invoiceSends.tenantId, w.tenantId), eq(invoiceSends.id, claim.sendId)));
    await w.tx
      .update(invoices)
      .set({ status: 'sent', statusAt: w.now })
      .where(
        and(
          eq(invoices.tenantId, w.tenantId),
          eq(invoices.id, invoiceId),
          inArray(invoices.status, ['issued', 'rejected']),
        ),
      );
    return { outcome: 'sent' as const, sendId: claim.sendId, messageId: result.messageId };
  });
}

/** An invoice's sends, newest first (the invoice screen shows them). */
export async function sendsOf(db: Database, tenantId: number, invoiceId: number): Promise<InvoiceSend[]> {
  const rows = await db
    .select({
      id: invoiceSends.id,
      at: invoiceSends.at,
      to: invoiceSends.to,
      status: invoiceSends.status,
      messageId: invoiceSends.messageId,
      error: invoiceSends.error,
    })
    .from(invoiceSends)
    .where(and(eq(invoiceSends.tenantId, tenantId), eq(invoiceSends.invoiceId, invoiceId)))
    .orderBy(desc(invoiceSends.id));
  return rows.map(toSend);
}

/**
 * Issued invoices of the tenant never sent (no attempt at all) and issued in the last
 * AUTO_LOOKBACK_MS: what automatic sending picks up. The look-back keeps a tenant that turns
 * automatic sending on from mailing old invoices its intermediary may have sent already.
 */
async function autoSendable(db: Database, tenantId: number, now: Date): Promise<number[]> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.tenantId, tenantId),
        eq(invoices.status, 'issued'),
        // FPA12 go signed, by whoever signs them (DM 55/2013), never unsigned by PEC.
        eq(invoices.format, 'FPR12'),
        gte(invoices.createdAt, new Date(now.getTime() - AUTO_LOOKBACK_MS)),
        notExists(
          db
            .select({ one: sql`1` })
            .from(invoiceSends)
            .where(
              and(eq(invoiceSends.tenantId, invoices.tenantId), eq(invoiceSends.invoiceId, invoices.id)),
            ),
        ),
      ),
    )
    .orderBy(invoices.id)
    .limit(200);
  return rows.map((r) => r.id);
}

/** Tenants with automatic sending on and an SMTP server set. */
async function autoSendTenants(db: Database): Promise<number[]> {
  const rows = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.pecAutoSend, true), sql`${tenants.pecSmtpHost} is not null`));
  return rows.map((r) => r.id);
}

/**
 * The two PEC jobs: `invoice-pec-send` ({ tenantId, invoiceId }; fails when the SMTP call fails,
 * so pg-boss retries it with back-off) and `invoice-pec-auto` (every 5 minutes: for each tenant
 * with automatic sending, one send job per issued invoice never sent).
 */
export function invoicePecJobs(deps: PecDeps & { clock: () => Date }): JobDefinition[] {
  return [
    {
      name: PEC_JOBS.send,
      label: 'Invio fattura allo SdI via PEC',
      retryLimit: 2,
      retryDelaySeconds: 300,
      retryBackoff: true,
      async run(data) {
        const tenantId = Number(data.tenantId);
        const invoiceId = Number(data.invoiceId);
        if (!Number.isInteger(tenantId) || !Number.isInteger(invoiceId))
          return { skipped: 'dati del job non validi' };
        const result = await sendInvoiceByPec(deps, tenantId, invoiceId);
        if (result.outcome === 'failed') throw new Error(result.error);
        return result;
      },
    },
    {
      name: PEC_JOBS.auto,
      label: 'Invio automatico allo SdI delle fatture emesse',
      cron: '*/5 * * * *',
      retryLimit: 1,
      retryDelaySeconds: 60,
      retryBackoff: false,
      async run(_data, ctx) {
        let queued = 0;
        for (const tenantId of await autoSendTenants(deps.shared)) {
          for (const invoiceId of await autoSendable(deps.connectionFor(tenantId), tenantId, deps.clock())) {
            await ctx.enqueue(PEC_JOBS.send, { tenantId, invoiceId });
            queued++;
          }
        }
        return { queued };
      },
    },
  ];
}
