import fp from 'fastify-plugin';
import { looksLikeTenantKey, type ApiKeyScope } from '../../../contract/integrations';
import { integrationMessages as m } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { sha256 } from '../../lib/secrets';
import { keyLookup } from './api-keys.service';
import type { ApiRateLimiter } from './rate-limits';
import type { RequestLogWriter } from './request-log';

export interface TenantKeyContext {
  id: number;
  tenantId: number;
  scopes: ApiKeyScope[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Starts the route's read-only query while the key is being checked, in the tenant this process
     * has seen the key belong to (an id and tenant never change); the handler uses it only once the
     * key was found live, in scope and within its limits, and discards it otherwise.
     */
    apiKeyPrefetch?: (request: FastifyRequest, tenantId: number) => void;
  }
  interface FastifyRequest {
    /** The tenant API key of an `access: 'tenantKey'` call (null elsewhere). */
    apiKey: TenantKeyContext | null;
  }
}

/** The key of `Authorization: Bearer rnv_…`, else of `x-api-key: rnv_…`. */
function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();
  const authorization = first(headers.authorization);
  if (authorization && /^bearer\s+/i.test(authorization)) {
    const token = authorization.replace(/^bearer\s+/i, '');
    if (looksLikeTenantKey(token)) return token;
  }
  const header = first(headers['x-api-key']);
  return looksLikeTenantKey(header) ? header : undefined;
}

/** Digests of keys seen live, with their id and tenant (facts that never change). */
const KNOWN_KEYS_MAX = 10_000;

/**
 * Tenant API keys on the routes declared `access: 'tenantKey'` (the /api/v1 calls): the key must be
 * live now (not revoked, not expired: read from the database on every call, so a revocation is
 * immediate in every process), the call counts against the key's and the tenant's limits
 * (X-RateLimit-* on every answer, 429 with Retry-After), then the route's scope is checked (403).
 * The key acts in its own tenant only (`request.tenantId`); every other route refuses a tenant key
 * (api-key plugin: it is not an app key; authentication: it is not a session).
 *
 * The key's tenant comes from the control database's directory (`api_key_directory`, by digest);
 * its row, which decides (revoked, expired, scopes), from the tenant's own database.
 * Round trips: the look-up, the rate-limit count and the route's own read (`apiKeyPrefetch`) run
 * side by side when this process has seen the key live before (its id and tenant are remembered by
 * digest; its validity never is). If the
 * look-up then finds the key revoked or expired, the answer is 401 and the key is forgotten, so
 * such a key counts at most once per process against its tenant's limit.
 * Each call is logged before its answer leaves (onSend): see request-log.ts.
 */
export const tenantKeyPlugin = fp<{
  /** The control database: the key directory (digest → tenant). */
  db: Database;
  /** The tenant's database: the key's row. */
  connectionFor: (tenantId: number) => Database;
  limiter: ApiRateLimiter;
  requestLog: RequestLogWriter;
  now: () => Date;
}>(
  (app, { db, connectionFor, limiter, requestLog, now }, done) => {
    const lookup = keyLookup(db, connectionFor);
    const known = new Map<string, { id: number; tenantId: number }>();
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', async (request, reply) => {
      const config = request.routeOptions.config;
      if (config.access !== 'tenantKey' || request.method === 'OPTIONS') return;
      const secret = presentedKey(request.headers);
      if (!secret) throw new HttpError(401, m.keyInvalid);
      const digest = sha256(secret);
      const seen = known.get(digest);
      const early = seen ? limiter.consume(seen.tenantId, seen.id) : null;
      // Settled here so that a refusal below leaves no unhandled rejection behind.
      early?.catch(() => undefined);
      if (seen) config.apiKeyPrefetch?.(request, seen.tenantId);
      // A digest seen before: its tenant is known, one read in the tenant's database; else the
      // directory first. An unknown key, a listed one without its row, a revoked or expired one:
      // the same 401 whatever the reason (nothing tells which tenant a bad key would be of).
      const key = await lookup(digest, now(), seen?.tenantId);
      if (!key) {
        known.delete(digest);
        throw new HttpError(401, m.keyInvalid);
      }
      const same = seen !== undefined && seen.id === key.id && seen.tenantId === key.tenantId;
      if (!same) {
        if (known.size >= KNOWN_KEYS_MAX) known.delete(known.keys().next().value as string);
        known.set(digest, { id: key.id, tenantId: key.tenantId });
      }
      request.apiKey = key;
      request.tenantId = key.tenantId;
      const rate = await (same && early ? early : limiter.consume(key.tenantId, key.id));
      reply.header('X-RateLimit-Limit', String(rate.limit));
      reply.header('X-RateLimit-Remaining', String(rate.remaining));
      reply.header('X-RateLimit-Reset', String(rate.resetSeconds));
      if (!rate.allowed)
        throw new HttpError(429, m.rateLimited, { headers: { 'Retry-After': String(rate.resetSeconds) } });
      const scope = config.apiKeyScope;
      if (scope && !key.scopes.includes(scope)) throw new HttpError(403, m.keyScopeMissing(scope));
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const key = request.apiKey;
      if (!key) return payload;
      await requestLog.write({
        tenantId: key.tenantId,
        apiKeyId: key.id,
        at: now(),
        method: request.method,
        // The path only: query strings may carry customer e-mails.
        path: request.url.split('?')[0]?.slice(0, 300) ?? '',
        status: reply.statusCode,
        durationMs: Math.max(0, Math.round(reply.elapsedTime)),
        ip: request.ip ?? null,
      });
      return payload;
    });
    done();
  },
  { name: 'tenant-key' },
);
