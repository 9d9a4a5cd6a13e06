import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import { safeEqual } from '../lib/secrets';
import { isApiPath, isDocsPath, isHealthPath, isWebhookPath } from './request-context';

/**
 * Every call under /api carries `x-api-key` with one of the configured keys (API_KEYS), else 401.
 * Exempt: CORS preflights (browsers send no custom headers on them), /api/docs, which people
 * open in a browser tab that cannot add a header, /api/health (load balancers and probes; it
 * reveals only up or down), and provider webhooks (PayPal sends no key; they are trusted only after
 * the provider's signature check).
 */
export const apiKeyPlugin = fp<{ apiKeys: readonly string[] }>(
  (app, { apiKeys }, done) => {
    app.addHook('onRequest', async (request) => {
      if (
        request.method === 'OPTIONS' ||
        !isApiPath(request.url) ||
        isDocsPath(request.url) ||
        isWebhookPath(request.url)
      )
        return;
      if (isHealthPath(request.url)) return;
      // Tenant-key routes (/api/v1) take a tenant's own key instead (plugins/tenant-key.ts).
      if (request.routeOptions.config.access === 'apiKey') return;
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
