import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { isRoleId } from '../../contract/enums';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import type { RouteAccess } from './request-context';

const ACCESS = new Set(['public', 'appKey', 'user', 'tenantKey']);

/** One route of the table, with the access it declared (tests walk it; docs print it). */
export interface RouteTableEntry {
  method: string;
  url: string;
  access: NonNullable<RouteAccess['access']>;
  roles: readonly number[] | undefined;
  tenant: RouteAccess['tenant'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, with its declared access (`config`), in registration order. */
    routeTable(): RouteTableEntry[];
  }
}

/**
 * Why a request target is refused (400) before routing can read it, or null when it is a plain
 * origin-form path: `/a/b?q`. Refused: absolute-form (`http://x/api/…`), authority and asterisk
 * forms, and paths a proxy or the router could read two ways: empty segments (`//api`), dot
 * segments (`/api/./`, `/api/../`, also as `%2e`), encoded slashes or backslashes (`%2f`, `%5c`, `\`).
 */
export function requestTargetProblem(target: string): string | null {
  if (!target.startsWith('/')) return 'not origin-form';
  const pathname = target.split('?', 1)[0] ?? '';
  if (pathname.includes('\\') || /%(2f|5c)/i.test(pathname)) return 'encoded separator';
  const segments = pathname.slice(1).split('/');
  for (const [index, raw] of segments.entries()) {
    const segment = raw.replace(/%2e/gi, '.');
    if (segment === '.' || segment === '..') return 'dot segment';
    // A trailing slash is one empty last segment (`/api/plan/`), which the router tells apart.
    if (segment === '' && index < segments.length - 1) return 'empty segment';
  }
  return null;
}

/**
 * The door of every request, registered before any other hook and any route:
 * - a request target that is not a plain origin-form path answers 400 (the router would match a
 *   decoded, case-folded path while a proxy or a log reads another);
 * - every route is checked as it is added (a declaration the plugins cannot read is a start-up
 *   error, not a route open to anyone) and recorded in `app.routeTable`.
 * Access itself is decided by the api-key, authentication, role, tenant and tenant-key plugins
 * from `request.routeOptions.config` (see request-context.ts).
 */
export const routeAccessPlugin = fp(
  (app, _opts, done) => {
    // The route options themselves, read when asked: a context's own onRoute hook (declarePublic)
    // may still change a route's config after this one has seen it.
    const routes: RouteOptions[] = [];
    app.decorate('routeTable', () =>
      routes.flatMap((route) => {
        const config = (route.config ?? {}) as RouteAccess;
        return [route.method].flat().map((method) => ({
          method,
          url: route.url,
          access: config.access ?? 'user',
          roles: config.roles,
          tenant: config.tenant,
        }));
      }),
    );
    app.addHook('onRoute', (route) => {
      const config = (route.config ?? {}) as RouteAccess;
      if (config.access !== undefined && !ACCESS.has(config.access))
        throw new Error(`route ${route.url}: access '${String(config.access)}' sconosciuto`);
      if (config.roles !== undefined && (config.roles.length === 0 || !config.roles.every(isRoleId)))
        throw new Error(`route ${route.url}: roles non validi`);
      // @fastify/cors's catch-all OPTIONS route: the preflight is answered by its hook before any
      // access check (browsers send no credentials on it) and the route itself reaches no
      // handler of ours (an empty answer, or not found when CORS is off for that origin).
      if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...config, access: 'public' };
      routes.push(route);
    });
    app.addHook('onRequest', async (request) => {
      if (requestTargetProblem(request.raw.url ?? '') !== null)
        throw new HttpError(400, serverMessages.badRequestTarget);
    });
    done();
  },
  { name: 'route-access' },
);

/**
 * An onRoute hook that declares every route of its context public: for routes added by
 * third-party plugins that take no route config (the SPA's static files, the API reference).
 */
export function declarePublic(context: FastifyInstance): void {
  context.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...(route.config as object), access: 'public' };
  });
}
