import fastifyRateLimit from '@fastify/rate-limit';
import type { RateLimitOptions } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { clientAddressKey } from '../lib/client-address';
import { rateLimitStoreOn } from '../lib/shared-counters';
import type { SharedCounters } from '../lib/shared-counters';

/**
 * Rate limiting per client IP, opt-in per route (`config: { rateLimit: perIp(...) }`). When a
 * limit is hit the plugin sets `Retry-After` and throws a 429 error, which the error handler
 * turns into the Italian envelope. Limits come from configuration so tests can set them low.
 */
export const rateLimitPlugin = fp(
  async (app, options: { counters: SharedCounters }) => {
    // Counted in the shared counters: on PostgreSQL every app instance counts the same calls.
    await app.register(fastifyRateLimit, { global: false, store: rateLimitStoreOn(options.counters) });
  },
  { name: 'rate-limit' },
);

/** `max` calls per `windowMs` per client address (an IPv6 client by its /64: lib/client-address.ts). */
export function perIp(max: number, windowMs: number): RateLimitOptions {
  return { max, timeWindow: windowMs, keyGenerator: (request) => clientAddressKey(request.ip) };
}
