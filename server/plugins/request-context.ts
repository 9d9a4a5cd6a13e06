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
  tenantAccess?: { tenantId: number; allowed: boolean };
}

/**
 * Per-route access rules, read by the api-key, authentication, role and tenant plugins.
 * Every /api route needs a signed-in user unless it says `access: 'public'` (deny by default).
 */
export interface RouteAccess {
  /** 'apiKey': a tenant API key (rnv_live_/rnv_test_) only, acting in its tenant (plugins/tenant-key.ts). */
  access?: 'public' | 'user' | 'apiKey';
  /** Roles allowed; absent means any signed-in user. */
  roles?: readonly RoleId[];
  /** 'required': the call acts inside the X-Tenant-Id tenant and answers 400 without it. */
  tenant?: 'required' | 'optional';
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
    /** The scope a tenant API key needs on an `access: 'apiKey'` route. */
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

/** API paths (case-insensitive, like the routes). */
export function isApiPath(url: string): boolean {
  const path = url.toLowerCase();
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
}

/** The browsable reference: opened by people in a browser, so it needs no key (documented). */
export function isDocsPath(url: string): boolean {
  const path = url.toLowerCase();
  return path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs?');
}

/** The probe of load balancers: no key, reveals only up or down. */
export function isHealthPath(url: string): boolean {
  const path = url.toLowerCase().split('?')[0];
  return path === '/api/health' || path === '/api/health/';
}

/** Provider webhooks (`/api/webhooks/{provider}/{tenantId}`): the provider sends no x-api-key. */
export function isWebhookPath(url: string): boolean {
  return url.toLowerCase().startsWith('/api/webhooks/');
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
