/**
 * HTTP(S) through the outbound door: agents whose every socket comes from `connectGuarded`
 * (checked on its real remote address before the request or the TLS handshake starts), for
 * anything that takes a Node agent (the `stripe` package), and `outboundRequest`/`outboundFetch`
 * on top of them for the rest (webhooks, PayPal). Redirects are never followed: a 3xx is the
 * answer, and a caller that wants a 2xx treats it as a failure.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import type tls from 'node:tls';
import { connectGuarded } from './connect';

export interface GuardedAgentOptions {
  guard: boolean;
  /** How long the TCP connection may take. */
  connectTimeoutMs: number;
  /** Tests only (see ConnectOptions.lookup). */
  lookup?: net.LookupFunction | undefined;
}

type CreateCallback = (error: Error | null, socket: Duplex) => void;
type AgentConnectOptions = http.ClientRequestArgs & tls.ConnectionOptions;

/** Plain HTTP (loopback fakes in development and tests; webhooks to http:// there). */
export class GuardedHttpAgent extends http.Agent {
  constructor(private readonly outbound: GuardedAgentOptions) {
    super({ keepAlive: true, timeout: 30_000 });
  }

  override createConnection(options: AgentConnectOptions, callback: CreateCallback): undefined {
    connectGuarded(
      {
        host: String(options.host ?? 'localhost'),
        port: Number(options.port ?? 80),
        guard: this.outbound.guard,
        timeoutMs: this.outbound.connectTimeoutMs,
        ...(this.outbound.lookup ? { lookup: this.outbound.lookup } : {}),
      },
      (error, socket) => callback(error, socket as net.Socket),
    );
    return undefined;
  }
}

/** HTTPS: TLS starts on the checked socket (certificate and SNI as Node's https.Agent does them). */
export class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly outbound: GuardedAgentOptions) {
    super({ keepAlive: true, timeout: 30_000 });
  }

  override createConnection(options: AgentConnectOptions, callback: CreateCallback): undefined {
    connectGuarded(
      {
        host: String(options.host ?? 'localhost'),
        port: Number(options.port ?? 443),
        guard: this.outbound.guard,
        timeoutMs: this.outbound.connectTimeoutMs,
        ...(this.outbound.lookup ? { lookup: this.outbound.lookup } : {}),
      },
      (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), socket as net.Socket);
        // https.Agent's own createConnection: tls.connect on our socket, with its TLS session cache.
        const secure = (
          https.Agent.prototype as unknown as {
            createConnection(this: https.Agent, o: object): tls.TLSSocket;
          }
        ).createConnection.call(this, { ...options, socket });
        callback(null, secure);
      },
    );
    return undefined;
  }
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface OutboundRequestOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole call: connecting, sending and reading the answer. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Larger answers fail (an endpoint cannot fill the server's memory). Default 1 MiB. */
  maxResponseBytes?: number;
}

export class OutboundTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`nessuna risposta entro ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** One HTTP call through the agents; rejects on a network failure, a refusal or the timeout. */
export function outboundRequest(
  agents: { http: http.Agent; https: https.Agent },
  url: string,
  options: OutboundRequestOptions,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      return reject(error as Error);
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:')
      return reject(new Error(`protocollo non ammesso: ${target.protocol}`));
    const secure = target.protocol === 'https:';
    const limit = options.maxResponseBytes ?? 1_048_576;
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const timer = setTimeout(
      () => request.destroy(new OutboundTimeout(options.timeoutMs)),
      options.timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    const request = (secure ? https : http).request(
      target,
      {
        method: options.method,
        agent: secure ? agents.https : agents.http,
        headers: {
          ...options.headers,
          ...(body ? { 'Content-Length': String(body.length) } : {}),
        },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            request.destroy(new Error(`risposta oltre ${limit} byte`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        });
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The subset of `fetch` the PayPal adapter uses (method, headers, string body, signal), made by
 * `outboundRequest`: the same door, no redirects. Errors carry fetch's names ('TimeoutError',
 * 'AbortError') so callers read them alike.
 */
export function outboundFetchWith(
  agents: { http: http.Agent; https: https.Agent },
  timeoutMs: number,
): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
      throw new TypeError('outboundFetch: only string bodies');
    const res = await outboundRequest(agents, url, {
      method: init.method ?? 'GET',
      headers,
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
      timeoutMs,
      ...(init.signal ? { signal: init.signal } : {}),
    }).catch((error: unknown) => {
      const signal = init.signal;
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : error;
      throw error;
    });
    if (res.status < 200 || res.status > 599) throw new Error(`stato HTTP inatteso: ${res.status}`);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) responseHeaders.append(name, v);
    }
    return new Response(NULL_BODY_STATUS.has(res.status) ? null : res.body, {
      status: res.status,
      headers: responseHeaders,
    });
  }) as typeof fetch;
}
