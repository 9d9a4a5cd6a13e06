import fp from 'fastify-plugin';
import { looksLikeTenantKey, type ApiKeyScope } from '../../contract/integrations';
import { integrationMessages as m } from '../../contract/messages';
import type { Database } from '../db/client';
import { HttpError } from '../lib/http-error';
import { authenticateKey } from '../modules/integrations/api-keys.service';
import type { ApiRateLimiter } from '../modules/integrations/rate-limits';
import type { RequestLogWriter } from '../modules/integrations/request-log';

export interface TenantKeyContext {
  id: number;
  tenantId: number;
  scopes: ApiKeyScope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant API key of an `access: 'apiKey'` call (null elsewhere). */
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

/**
 * Tenant API keys on the routes declared `access: 'apiKey'` (the /api/v1 calls): the key must be
 * live now (not revoked, not expired: read from the database on every call, so a revocation is
 * immediate), the call counts against the key's and the tenant's limits (X-RateLimit-* on every
 * answer, 429 with Retry-After), then the route's scope is checked (403). The key acts in its own
 * tenant only (`request.tenantId`); every other route refuses a tenant key (api-key plugin: it is
 * not an app key; authentication: it is not a session). Each call is logged after its answer.
 */
export const tenantKeyPlugin = fp<{
  db: Database;
  limiter: ApiRateLimiter;
  requestLog: RequestLogWriter;
  now: () => Date;
}>(
  (app, { db, limiter, requestLog, now }, done) => {
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', async (request, reply) => {
      const config = request.routeOptions.config;
      if (config.access !== 'apiKey' || request.method === 'OPTIONS') return;
      const secret = presentedKey(request.headers);
      const key = secret ? await authenticateKey(db, secret, now()) : undefined;
      if (!key) throw new HttpError(401, m.keyInvalid);
      request.apiKey = key;
      request.tenantId = key.tenantId;
      const rate = await limiter.consume(key.tenantId, key.id);
      reply.header('X-RateLimit-Limit', String(rate.limit));
      reply.header('X-RateLimit-Remaining', String(rate.remaining));
      reply.header('X-RateLimit-Reset', String(rate.resetSeconds));
      if (!rate.allowed)
        throw new HttpError(429, m.rateLimited, { headers: { 'Retry-After': String(rate.resetSeconds) } });
      const scope = config.apiKeyScope;
      if (scope && !key.scopes.includes(scope)) throw new HttpError(403, m.keyScopeMissing(scope));
    });
    app.addHook('onResponse', async (request, reply) => {
      const key = request.apiKey;
      if (!key) return;
      requestLog.add({
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
    });
    done();
  },
  { name: 'tenant-key' },
);
