/**
 * The one door of every connection the server opens on its own towards an address someone else
 * chose: outbound webhooks, PayPal, Stripe, the tenants' PEC mail servers (and anything added
 * later: build it on `outbound`, never on bare `fetch`, `http.request` or `net.connect`).
 *
 * With the guard on (always in production; OUTBOUND_ALLOW_PRIVATE=false elsewhere), every socket
 * is checked on its real remote address when it connects (connect.ts) against one address policy
 * (address-policy.ts): loopback, private, link-local, CGNAT, multicast, reserved and unspecified
 * addresses are refused in every spelling. Redirects are never followed. Payment providers'
 * `apiUrl`s are pinned to the providers' official hosts (provider-hosts.ts). With the guard off
 * (development and tests, whose fakes listen on loopback) the same code runs without the checks.
 */
import type { LookupFunction } from 'node:net';
import { guardedSmtpSocket, type SmtpGetSocket } from './smtp';
import {
  GuardedHttpAgent,
  GuardedHttpsAgent,
  outboundFetchWith,
  outboundRequest,
  type OutboundRequestOptions,
  type OutboundResponse,
} from './http';

export { addressRefusal, hostRefusal, isPublicAddress } from './address-policy';
export { isOutboundRefused, OutboundRefused } from './connect';
export { OutboundTimeout, type OutboundResponse } from './http';

export interface Outbound {
  /** True: private destinations refused and provider hosts pinned (production). */
  readonly guard: boolean;
  /** Node agents for libraries that take one (the `stripe` package): every socket checked. */
  readonly agents: { http: GuardedHttpAgent; https: GuardedHttpsAgent };
  /** One HTTP call (no redirects); rejects on network failure, refusal or timeout. */
  request(url: string, options: OutboundRequestOptions): Promise<OutboundResponse>;
  /** A `fetch` of the same door (string bodies), each call limited to `timeoutMs`. */
  fetch(timeoutMs: number): typeof fetch;
  /** nodemailer's `getSocket` for SMTP servers chosen by a tenant. */
  readonly smtpSocket: SmtpGetSocket;
  /** Closes the kept-alive sockets (the app's onClose). */
  close(): void;
}

export interface OutboundOptions {
  /** Private, loopback and link-local destinations allowed (development and tests only). */
  allowPrivate: boolean;
  /** How long a TCP connection may take; default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Tests only: replaces name resolution (and its check), e.g. a name answered with a loopback
   * address unchecked, as a rebinding DNS server answers the second time; the connect-time
   * check on the socket must still refuse it.
   */
  lookup?: LookupFunction;
}

export function createOutbound(options: OutboundOptions): Outbound {
  const guard = !options.allowPrivate;
  const agentOptions = {
    guard,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    lookup: options.lookup,
  };
  const agents = { http: new GuardedHttpAgent(agentOptions), https: new GuardedHttpsAgent(agentOptions) };
  return {
    guard,
    agents,
    request: (url, requestOptions) => outboundRequest(agents, url, requestOptions),
    fetch: (timeoutMs) => outboundFetchWith(agents, timeoutMs),
    smtpSocket: guardedSmtpSocket(guard, options.lookup),
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
