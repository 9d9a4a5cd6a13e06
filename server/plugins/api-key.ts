import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import { safeEqual } from '../lib/secrets';
import { accessOf } from './request-context';

/**
 * The app key: a route declared `access: 'appKey'` or `'user'` (the default) needs `x-api-key`
 * with one of the configured keys (API_KEYS), else 401. Decided from the matched route's
 * declaration (plugins/request-context.ts), whatever spelling of the path was sent. Routes declared
 * `public` (health probe, provider webhooks, the SPA, the API reference) and `tenantKey` (a tenant's
 * own key, modules/integrations/tenant-key.plugin.ts) need none; so do CORS preflights, answered by @fastify/cors before
 * any route's handler.
 */
export const apiKeyPlugin = fp<{ apiKeys: readonly string[] }>(
  (app, { apiKeys }, done) => {
    app.addHook('onRequest', async (request) => {
      const access = accessOf(request);
      if (access === 'public' || access === 'tenantKey') return;
      const sent = request.headers['x-api-key'];
      const key = Array.isArray(sent) ? sent[0] : sent;
      // Compare with every key (no early exit), so timing does not reveal a near match.
      const valid = key !== undefined && apiKeys.map((k) => safeEqual(k, key)).includes(true);
      if (!valid) throw new HttpError(401, serverMessages.apiKeyMissing);
    });
    done();
  },
  { name: 'api-key' },
);
