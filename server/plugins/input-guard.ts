import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';

const NUL = '\u0000';
const MAX_DEPTH = 32;

/** Paths (`name`, `filters.city`, `items.0.name`) of every string or key holding a NUL byte. */
export function findNulBytes(value: unknown, path = '', depth = 0, found: string[] = []): string[] {
  if (found.length >= 20) return found;
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push(path);
    return found;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return found;
  // A raw body kept as bytes (the Stripe webhook): nothing in it is stored as text as it is.
  if (Buffer.isBuffer(value)) return found;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) {
      found.push(path || key.replaceAll(NUL, ''));
      continue;
    }
    findNulBytes(child, childPath, depth + 1, found);
  }
  return found;
}

/**
 * Values no column can store are refused before any route sees them: a NUL byte (U+0000) in the
 * path, the query string or the body (PostgreSQL text cannot hold it) is a 400 naming the field.
 * A preValidation hook on every route, present and future.
 */
export const inputGuardPlugin = fp(
  (app, _opts, done) => {
    const guard: preValidationHookHandler = (request, _reply, next) => {
      const fields = [
        ...findNulBytes(request.params),
        ...findNulBytes(request.query),
        ...findNulBytes(request.body),
      ];
      if (fields.length === 0) {
        next();
        return;
      }
      next(
        new HttpError(400, serverMessages.validation, {
          errors: [...new Set(fields)].map((f) =>
            f ? `${f}: ${serverMessages.invalidCharacters}` : serverMessages.invalidCharacters,
          ),
        }),
      );
    };
    // Added to every route (onRoute), so routes registered later are covered; it runs after the
    // case-insensitive key binding (which puts itself first), so fields are named as documented.
    app.addHook('onRoute', (route) => {
      const existing = route.preValidation;
      route.preValidation = existing
        ? [...(Array.isArray(existing) ? existing : [existing]), guard]
        : [guard];
    });
    done();
  },
  { name: 'input-guard' },
);
