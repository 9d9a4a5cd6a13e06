/**
 * The outbound door on real sockets: servers on loopback stand in for an internal service an
 * attacker would aim at. With the guard on, nothing reaches them (not a request, not a TLS
 * handshake, not an SMTP command), whether the address is a literal, a name resolved to it, or a
 * name whose resolution is swapped after the check (the connect-time check on the socket's real
 * remote address). With the guard off (development, tests) the same code reaches them. Redirects
 * are never followed.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound, isOutboundRefused, type Outbound } from '../../../server/lib/outbound';

/** A TCP server that counts connections and the bytes it was sent (it never answers). */
async function tcpProbe() {
  const seen = { connections: 0, bytes: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.on('data', (chunk) => (seen.bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    port,
    /** Resolves when the server has seen `n` connections close (the client gave up). */
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server answering 200 'ok', or a redirect to `redirectTo`. */
async function httpServer(redirectTo?: () => string) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    if (redirectTo) {
      res.writeHead(302, { location: redirectTo() });
      return res.end();
    }
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    requests,
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A resolver that answers 127.0.0.1 for every name, unchecked (a rebinding DNS server). */
const rebinding: net.LookupFunction = (_hostname, options, callback) => {
  const cb = callback as (e: null, a: string | { address: string; family: number }[], f?: number) => void;
  if ((options as { all?: boolean }).all) return cb(null, [{ address: '127.0.0.1', family: 4 }]);
  cb(null, '127.0.0.1', 4);
};

let open: Outbound;
let guarded: Outbound;
let rebound: Outbound;
beforeAll(() => {
  open = createOutbound({ allowPrivate: true, connectTimeoutMs: 5000 });
  guarded = createOutbound({ allowPrivate: false, connectTimeoutMs: 5000 });
  rebound = createOutbound({ allowPrivate: false, connectTimeoutMs: 5000, lookup: rebinding });
});
afterAll(() => {
  for (const o of [open, guarded, rebound]) o.close();
});

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call went through');
}

describe('HTTP through the door', () => {
  it('with the guard off, reaches a loopback server (development and tests)', async () => {
    const target = await httpServer();
    try {
      const res = await open.request(`${target.url}/hook`, { method: 'POST', body: '{}', timeoutMs: 5000 });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('ok');
      expect(target.requests).toEqual(['POST /hook']);
    } finally {
      await target.close();
    }
  });

  it('with the guard on, refuses loopback in every spelling before connecting', async () => {
    const probe = await tcpProbe();
    try {
      for (const host of [
        '127.0.0.1',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        '[::7f00:1]',
        '[64:ff9b::7f00:1]',
        '[::1]',
        '0.0.0.0',
        '0x7f000001',
        '2130706433',
        'localhost',
      ]) {
        for (const scheme of ['http', 'https']) {
          const error = await refusal(
            guarded.request(`${scheme}://${host}:${probe.port}/`, { method: 'GET', timeoutMs: 5000 }),
          );
          expect(isOutboundRefused(error), `${scheme}://${host}: ${String(error)}`).toBe(true);
        }
      }
      expect(probe.seen).toEqual({ connections: 0, bytes: 0 });
    } finally {
      await probe.close();
    }
  });

  it('checks the socket’s real remote address at connect time: a name re-resolved to loopback gets no byte', async () => {
    const probe = await tcpProbe();
    try {
      for (const scheme of ['http', 'https']) {
        const error = await refusal(
          rebound.request(`${scheme}://hooks.example.com:${probe.port}/x`, {
            method: 'POST',
            body: '{"secret":"s"}',
            timeoutMs: 5000,
          }),
        );
        expect(isOutboundRefused(error), String(error)).toBe(true);
        expect((error as { address?: string }).address).toBe('127.0.0.1');
      }
      // The TCP connections were made (the lookup was not checked) but not a byte was sent:
      // neither the request nor a TLS ClientHello.
      expect(probe.seen.connections).toBe(2);
      expect(probe.seen.bytes).toBe(0);
    } finally {
      await probe.close();
    }
  });

  it('the Node agents (what the stripe package uses) go through the same check', async () => {
    const probe = await tcpProbe();
    try {
      const error = await refusal(
        new Promise((resolve, reject) => {
          const req = http.request(
            { host: 'api.example.com', port: probe.port, path: '/', agent: rebound.agents.http },
            resolve,
          );
          req.on('error', reject);
          req.end();
        }),
      );
      expect(isOutboundRefused(error)).toBe(true);
      expect(probe.seen.bytes).toBe(0);
    } finally {
      await probe.close();
    }
  });

  it('does not follow redirects: the 3xx is the answer and its target is never called', async () => {
    const inner = await httpServer();
    const outer = await httpServer(() => `${inner.url}/internal`);
    try {
      const res = await open.request(`${outer.url}/start`, { method: 'GET', timeoutMs: 5000 });
      expect(res.status).toBe(302);
      expect(inner.requests).toEqual([]);
      const viaFetch = await open.fetch(5000)(`${outer.url}/start`, { method: 'GET' });
      expect(viaFetch.status).toBe(302);
      expect(viaFetch.ok).toBe(false);
      expect(inner.requests).toEqual([]);
    } finally {
      await Promise.all([inner.close(), outer.close()]);
    }
  });

  it('gives up after the timeout with a TimeoutError', async () => {
    const probe = await tcpProbe();
    try {
      const error = await refusal(
        open.request(`http://127.0.0.1:${probe.port}/`, { method: 'GET', timeoutMs: 200 }),
      );
      expect((error as Error).name).toBe('TimeoutError');
    } finally {
      await probe.close();
    }
  });
});

describe('SMTP through the door', () => {
  const send = (outbound: Outbound, host: string, port: number) =>
    nodemailer
      .createTransport({
        host,
        port,
        secure: false,
        requireTLS: true,
        connectionTimeout: 5000,
        getSocket: outbound.smtpSocket,
      } as Parameters<typeof nodemailer.createTransport>[0])
      .sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'x', text: 'x' });

  it('with the guard on, a PEC server on loopback (literal, name, or re-resolved name) hears nothing', async () => {
    const probe = await tcpProbe();
    try {
      for (const [outbound, host] of [
        [guarded, '127.0.0.1'],
        [guarded, 'localhost'],
        [rebound, 'smtp.example.com'],
      ] as const) {
        const error = await refusal(send(outbound, host, probe.port));
        expect(String(error), host).toContain('rete privata o locale');
      }
      expect(probe.seen.bytes).toBe(0);
    } finally {
      await probe.close();
    }
  });
});
