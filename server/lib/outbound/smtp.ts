/**
 * SMTP through the outbound door: nodemailer's `getSocket` hands it a TCP connection made by
 * `connectGuarded` (checked on its real remote address), on which nodemailer then starts TLS
 * itself: at once for implicit TLS (`secure`, port 465) or with STARTTLS, which `requireTLS`
 * makes mandatory (no plain-text fallback: a server that does not offer it fails with ETLS).
 * The certificate is checked against the host name as nodemailer always does.
 */
import type net from 'node:net';
import { connectGuarded } from './connect';

/** nodemailer's `getSocket` option (SMTP transport): the connection it should use. */
export type SmtpGetSocket = (
  options: { host?: string; port?: number; secure?: boolean; connectionTimeout?: number },
  callback: (error: Error | null, socketOptions: { connection: net.Socket } | false) => void,
) => void;

/** The `getSocket` every SMTP connection to a tenant's server (PEC) is made with. */
export function guardedSmtpSocket(guard: boolean, lookup?: net.LookupFunction): SmtpGetSocket {
  return (options, callback) => {
    const secure = options.secure === true;
    connectGuarded(
      {
        host: String(options.host ?? 'localhost'),
        port: Number(options.port ?? (secure ? 465 : 587)),
        guard,
        timeoutMs: Number(options.connectionTimeout ?? 30_000),
        ...(lookup ? { lookup } : {}),
      },
      (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), false);
        // nodemailer upgrades this socket to TLS itself (secure) or with STARTTLS (requireTLS).
        callback(null, { connection: socket });
      },
    );
  };
}
