/**
 * Outbound webhooks: the wire (issue 24 cut webhooks.service.ts along its seams). Job and signal names,
 * the retry schedule, the signature header, the endpoint URL check and the POST through the
 * outbound door. See webhook-emit.ts (in the unit of work), webhook-endpoints.service.ts (the
 * screen) and webhook-sender.ts (the delivery job).
 */
import { createHmac } from 'node:crypto';
import { integrationMessages as m, serverMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import { hostRefusal, isOutboundRefused, type Outbound } from '../../lib/outbound';

export const WEBHOOK_SIGNAL = 'webhooks';
export const WEBHOOK_JOB = 'webhook-deliveries';
const HOUR = 3_600_000;
export const GIVE_UP_AFTER_MS = 24 * HOUR;

/** Delay before the next try after `attempts` failed tries: 1, 4, 16, 64, 256 minutes, then 8 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 4 ** Math.max(0, attempts - 1), 8 * HOUR);
}

/** The signature header's value for a body sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

// ---------------------------------------------------------------- the URL (checked again at connect time)

/**
 * 400 field errors for an endpoint URL: http(s), no credentials; with the outbound guard on
 * (production) https and no host that names this machine or a private network in any spelling
 * (the host as the URL parser reads it: `[::ffff:a9fe:a9fe]`, `0x7f000001` → 127.0.0.1). A name
 * is checked again on every delivery, on the socket's real remote address (lib/outbound).
 */
export function checkEndpointUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fieldError('url', m.urlInvalid);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw fieldError('url', m.urlInvalid);
  if (!allowPrivate) {
    if (url.protocol !== 'https:') throw fieldError('url', m.urlHttpsRequired);
    if (hostRefusal(url.hostname) !== null) throw fieldError('url', m.urlPrivate);
  }
  return url;
}

function fieldError(field: string, message: string) {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One POST through the outbound door with a timeout; never throws. Redirects are not followed
 * (a 3xx is a failure); the answer's body is read up to 64 KiB and dropped.
 */
export async function postJson(
  outbound: Outbound,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const target = new URL(url);
    // Refused at once when the literal says so: no connection is tried.
    if (outbound.guard && hostRefusal(target.hostname) !== null) return done(null, m.urlPrivate);
  } catch {
    return done(null, m.urlInvalid);
  }
  try {
    const res = await outbound.request(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxResponseBytes: 65_536,
    });
    return done(res.status, null);
  } catch (error) {
    if (isOutboundRefused(error)) return done(null, m.urlPrivate);
    return done(null, (error as Error).message.slice(0, 300));
  }
}
