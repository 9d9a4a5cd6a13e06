import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { canonicalizeKeys } from '../lib/canonical-keys';

function objectKeys(schema: unknown): string[] | undefined {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Binds body and query keys case-insensitively to the route schema's spelling (`Email` → `email`,
 * `zIP` → `zip`, `email` → `EMAIL` for the contact form), as the contract asks. The key lists are
 * computed once per route, when it is registered; must be registered before the routes.
 */
export const caseInsensitiveKeysPlugin = fp(
  (app, _opts, done) => {
    app.addHook('onRoute', (route) => {
      const bodyKeys = objectKeys(route.schema?.body);
      const queryKeys = objectKeys(route.schema?.querystring);
      if (!bodyKeys && !queryKeys) return;
      const hook: preValidationHookHandler = (request, _reply, next) => {
        if (bodyKeys && isPlainObject(request.body)) request.body = canonicalizeKeys(request.body, bodyKeys);
        if (queryKeys && isPlainObject(request.query))
          request.query = canonicalizeKeys(request.query, queryKeys);
        next();
      };
      const existing = route.preValidation;
      route.preValidation = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook];
    });
    done();
  },
  { name: 'case-insensitive-keys' },
);
