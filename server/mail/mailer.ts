import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { SignInLinkRequest } from './sign-in-link';

/** A file sent with a message; the bytes travel base64-encoded (the outbox keeps JSON). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  attachments?: MailAttachment[];
  /**
   * Not sent: marks the outbox row, so work that may run twice (a job retried after a crash
   * between commit and completion) sees the message is already queued.
   */
  idempotencyKey?: string;
  /**
   * A customer's e-mail asks for a sign-in link to their area, issued and filled in when it is
   * sent (sign-in-link.ts); never reaches the transport.
   */
  signIn?: SignInLinkRequest;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** What a file in the outbox holds: one JSON object per message. */
export interface OutboxEntry extends MailMessage {
  from: string;
  createdAt: string;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}

/** SMTP when SMTP_URL is set; otherwise the outbox folder, so flows work on a fresh machine. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : outboxMailer(options);
}

function smtpMailer(smtpUrl: string, { from, log }: MailerOptions): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ idempotencyKey: _key, signIn: _signIn, attachments, ...message }) {
      const info = await transport.sendMail({
        from,
        ...message,
        ...(attachments
          ? {
              attachments: attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: Buffer.from(a.contentBase64, 'base64'),
              })),
            }
          : {}),
      });
      log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'e-mail inviata');
    },
    close: () => transport.close(),
  };
}

/**
 * Writes `<outboxDir>/<ISO time>-<random>.json` ({ to, from, subject, text, html, replyTo?,
 * createdAt }). Written to a temporary name then renamed, so a reader polling the folder never
 * sees half a file; names sort by time.
 */
function outboxMailer({ outboxDir, from, log }: MailerOptions): Mailer {
  return {
    async send(message) {
      // Messages hold live reset links: owner-only, like the rest of DATA_DIR.
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const createdAt = new Date().toISOString();
      const name = `${createdAt.replaceAll(':', '-').replace('.', '-')}-${randomBytes(4).toString('hex')}.json`;
      const file = path.join(outboxDir, name);
      const entry: OutboxEntry = { ...message, from, createdAt };
      await writeFile(`${file}.tmp`, JSON.stringify(entry, null, 2), { encoding: 'utf8', mode: 0o600 });
      await rename(`${file}.tmp`, file);
      log.info({ to: message.to, subject: message.subject, file }, `e-mail scritta nell'outbox: ${file}`);
    },
    close: () => undefined,
  };
}
