import type { FastifyRequest } from 'fastify';
import { serverMessages } from '../../contract/messages';
import type { RoleId } from '../../contract/enums';
import { HttpError } from '../lib/http-error';

/** Who is calling, set by the authentication plugin from a verified token and the database. */
export interface AuthContext {
  userId: number;
  roleId: RoleId;
  email: string;
  /**
   * Whether the caller may act in the tenant of a well-formed `X-Tenant-Id`, read in the same
   * query as the account (one round trip per call); the tenant plugin decides with it.
   */
  tenantAccess?: { tenantId: number; allowed: boolean; secondFactorMissing?: boolean };
}

/**
 * Per-route access rules, declared on the route (`config`) and read by the api-key,
 * authentication, role, tenant and tenant-key plugins from the route the router matched
 * (`request.routeOptions.config`), never from the URL text: `/%61pi/…`, `/API/…` and every other
 * spelling that reaches a route meets that route's own checks. A route that declares nothing needs
 * the app key and a session (secure by default).
 */
export interface RouteAccess {
  /**
   * - 'public': nothing (health probe, provider webhooks checked by signature, the SPA's files and
   *   pages, the API reference);
   * - 'appKey': the app key (`x-api-key`) only, no session (sign-in, password reset, the payment page);
   * - 'user' (default): the app key and a signed-in session;
   * - 'tenantKey': a tenant API key (rnv_live_/rnv_test_) only, acting in its tenant (modules/integrations/tenant-key.plugin.ts).
   */
  access?: 'public' | 'appKey' | 'user' | 'tenantKey';
  /** Roles allowed; absent means any signed-in user. Refused (401) when nobody is signed in. */
  roles?: readonly RoleId[];
  /** 'required': the call acts inside the X-Tenant-Id tenant and answers 400 without it. */
  tenant?: 'required' | 'optional';
}

/** The access a route declared, with the default ('user') for a route that declares none. */
export function accessOf(request: FastifyRequest): NonNullable<RouteAccess['access']> {
  // The not-found handler (unknown paths: a 404, or the SPA's pages) reaches no handler of a route.
  if (request.is404) return 'public';
  return request.routeOptions.config.access ?? 'user';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    tenantId: number | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess['access'];
    roles?: RouteAccess['roles'];
    tenant?: RouteAccess['tenant'];
    /** The scope a tenant API key needs on an `access: 'tenantKey'` route. */
    apiKeyScope?: 'read' | 'write' | 'entitlements';
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** `tv`: the account's token version when the token was issued (users.token_version). */
    payload: { sub: string; roleId: RoleId; tv: number };
    user: { sub: string; roleId: RoleId; tv?: number; iat?: number; exp?: number };
  }
}

/** The caller of a route that requires sign-in (the authentication plugin guarantees it). */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new HttpError(401, serverMessages.tokenMissing);
  return request.auth;
}

/** The tenant of a route declared `tenant: 'required'` (the tenant plugin guarantees it). */
export function tenantOf(request: FastifyRequest): number {
  if (request.tenantId === null) throw new HttpError(400, serverMessages.tenantRequired);
  return request.tenantId;
}

/**
 * The path a request is served under, for presentation only (headers, the SPA fallback; never
 * for access): the matched route's own pattern, or the sent path for an unknown one.
 */
export function servedPathOf(request: FastifyRequest): string {
  const pattern = request.is404 ? undefined : request.routeOptions.url;
  return (pattern ?? request.url.split('?')[0] ?? '').toLowerCase();
}

/** Under /api (the routes' pattern, or the sent path of an unknown one). */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** The browsable API reference (opened by people in a browser tab). */
export function isDocsPath(path: string): boolean {
  return path === '/api/docs' || path.startsWith('/api/docs/');
}
