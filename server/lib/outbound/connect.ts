/**
 * The socket every server-initiated connection is made on (outbound/index.ts). With the guard on
 * (production, or OUTBOUND_ALLOW_PRIVATE=false) the remote address is checked three times, the
 * last one being the rule:
 * 1. an IP literal is refused before any packet is sent (net.connect skips name resolution for it);
 * 2. a name is resolved by a lookup that refuses an answer holding any refused address, so no
 *    connection is even attempted to it;
 * 3. when the TCP connection is up, on the socket's real remote address (`socket.remoteAddress`):
 *    the socket is handed to its user (the HTTP agent, TLS, the SMTP client) only after this
 *    check, so not a byte of a request, a TLS handshake or an SMTP command reaches a refused
 *    address. A name that resolves to another address on a second lookup (DNS rebinding), or any
 *    path that skipped the lookup, meets it here.
 */
import dns from 'node:dns';
import net from 'node:net';
import { addressRefusal } from './address-policy';

/** The error a refused destination fails with (code EOUTBOUNDREFUSED; the message is Italian). */
export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(
    /** Why (an ipaddr.js range name): for logs, never shown to a tenant. */
    readonly reason: string,
    readonly address: string,
  ) {
    super('Indirizzo non ammesso: punta a una rete privata o locale.');
    this.name = 'OutboundRefused';
  }
}

export function isOutboundRefused(error: unknown): error is OutboundRefused {
  return (error as { code?: unknown } | null)?.code === 'EOUTBOUNDREFUSED';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses an answer holding any refused address (net.connect's `lookup`). */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses ?? [];
    for (const entry of list) {
      const reason = addressRefusal(entry.address);
      if (reason !== null) return callback(new OutboundRefused(reason, entry.address), '', 4);
    }
    if (list.length === 0) return callback(new OutboundRefused('noAddress', hostname), '', 4);
    if (options.all) return callback(null, list);
    const first = list[0] as dns.LookupAddress;
    callback(null, first.address, first.family);
  });
}

export interface ConnectOptions {
  host: string;
  port: number;
  /** false: the guard is off (development and tests on loopback). */
  guard: boolean;
  /** How long the TCP connection may take (the name's resolution included). */
  timeoutMs: number;
  /**
   * Replaces the name resolution (and its check). Tests only: a resolver that answers loopback
   * unchecked, as a rebinding DNS server answers the second time, to show the connect-time check.
   */
  lookup?: net.LookupFunction;
}

/**
 * A TCP connection to host:port, handed to `callback` once it is up and its remote address passed
 * the check; a refused or failed connection is destroyed and `callback` gets the error. Nothing
 * is ever written to the socket before the callback.
 */
export function connectGuarded(
  options: ConnectOptions,
  callback: (error: Error | null, socket?: net.Socket) => void,
): void {
  const host = options.host.startsWith('[') ? options.host.slice(1, -1) : options.host;
  if (options.guard && net.isIP(host) !== 0) {
    const reason = addressRefusal(host);
    if (reason !== null) {
      const error = new OutboundRefused(reason, host);
      process.nextTick(() => callback(error));
      return;
    }
  }
  let settled = false;
  const finish = (error: Error | null, socket?: net.Socket) => {
    if (settled) return;
    settled = true;
    callback(error, socket);
  };
  const socket = net.connect({
    host,
    port: options.port,
    ...(options.lookup
      ? { lookup: options.lookup }
      : options.guard
        ? { lookup: guardedLookup as unknown as net.LookupFunction }
        : {}),
  });
  // The first listener of 'connect': it runs before anything queued on the socket is flushed.
  socket.once('connect', () => {
    socket.setTimeout(0);
    socket.removeListener('error', onError);
    socket.removeListener('timeout', onTimeout);
    const remote = socket.remoteAddress ?? '';
    const reason = options.guard ? addressRefusal(remote) : null;
    if (reason !== null) {
      const error = new OutboundRefused(reason, remote);
      socket.destroy();
      return finish(error);
    }
    finish(null, socket);
  });
  const onError = (error: Error) => {
    socket.destroy();
    finish(error);
  };
  const onTimeout = () => {
    const error = Object.assign(new Error(`connessione non riuscita entro ${options.timeoutMs} ms`), {
      code: 'ETIMEDOUT',
    });
    socket.destroy();
    finish(error);
  };
  socket.once('error', onError);
  socket.setTimeout(options.timeoutMs, onTimeout);
}
