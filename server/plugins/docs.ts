import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { declarePublic } from './route-access';

/**
 * The OpenAPI document, built from the routes' zod schemas, and its browsable reference at
 * /api/docs (JSON at /api/docs/json). Registered before the routes so it sees them all.
 */
export const docsPlugin = fp(
  async (app) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Rinnova API',
          description:
            'Pagamenti ricorrenti e gestione abbonamenti. Ogni chiamata sotto /api richiede l’intestazione x-api-key; ' +
            'le chiamate autenticate anche Authorization: Bearer <token> (da POST /api/user/Login) e, dove indicato, X-Tenant-Id. ' +
            'Ogni risposta JSON è { success, message, data, errors? }.',
          version: '1.0.0',
        },
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            tenant: { type: 'apiKey', in: 'header', name: 'X-Tenant-Id' },
            // The /api/v1 calls (issue 15): a tenant's own key, instead of x-api-key and a session.
            tenantKey: {
              type: 'http',
              scheme: 'bearer',
              description: 'Chiave API del tenant (rnv_live_… / rnv_test_…), anche come x-api-key',
            },
          },
        },
        security: [{ apiKey: [], bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    // Opened by people in a browser tab, which cannot add a header: public.
    await app.register(async (reference) => {
      declarePublic(reference);
      await reference.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    });
  },
  { name: 'docs' },
);
