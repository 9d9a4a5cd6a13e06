import type { IncomingHttpHeaders } from 'node:http';
import { and, eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { Role } from '../../contract/enums';
import { serverMessages } from '../../contract/messages';
import type { Database } from '../db/client';
import { tenants, userTenants } from '../db/schema';
import { HttpError } from '../lib/http-error';
import { twoFactorMessages } from '../../contract/two-factor';
import { accessOf } from './request-context';

/** The tenant id of an `X-Tenant-Id` value, or null when it is not a positive int4. */
export function tenantHeaderId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The `X-Tenant-Id` header's trimmed value, if any. */
export function tenantHeader(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-tenant-id'];
  return (Array.isArray(header) ? header[0] : header)?.trim();
}

/**
 * Resolves `X-Tenant-Id` into `request.tenantId` for signed-in calls, after checking the caller
 * may act there: a SuperAdmin in any existing tenant, others in the tenants where their
 * membership is active (a tenant's 'Utente Attivo' flag); otherwise 403. A header that is sent is always checked, even on routes that do not need it.
 * Missing on a route declared `tenant: 'required'`: 400 (a malformed request, not a refusal).
 */
export const tenantPlugin = fp<{ db: Database }>(
  (app, { db }, done) => {
    app.decorateRequest('tenantId', null);
    app.addHook('onRequest', async (request) => {
      const auth = request.auth;
      const required = !request.is404 && request.routeOptions.config.tenant === 'required';
      if (!auth) {
        // A tenant-key call acts in its key's tenant (modules/integrations/tenant-key.plugin.ts, which runs later); any
        // other route that acts inside a tenant is never reached anonymously (fails closed).
        if (required && accessOf(request) !== 'tenantKey')
          throw new HttpError(401, serverMessages.tokenMissing);
        return;
      }
      const raw = tenantHeader(request.headers);
      if (!raw) {
        if (required) throw new HttpError(400, serverMessages.tenantRequired);
        return;
      }
      const tenantId = tenantHeaderId(raw);
      if (tenantId === null) {
        throw new HttpError(400, serverMessages.invalidId, {
          errors: [`X-Tenant-Id: ${serverMessages.invalidId}`],
        });
      }
      if (auth.tenantAccess?.tenantId === tenantId) {
        if (!auth.tenantAccess.allowed) throw new HttpError(403, serverMessages.tenantForbidden);
        // A tenant that requires a second factor of its Admins: its calls wait until they enrol
        // (enrolment needs no tenant; the tenant list still answers, so the SPA can prompt).
        if (required && auth.tenantAccess.secondFactorMissing)
          throw new HttpError(403, twoFactorMessages.requiredByTenant);
        request.tenantId = tenantId;
        return;
      }
      const allowed =
        auth.roleId === Role.SuperAdmin
          ? await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId))
          : await db
              .select({ id: userTenants.tenantId })
              .from(userTenants)
              .where(
                and(
                  eq(userTenants.userId, auth.userId),
                  eq(userTenants.tenantId, tenantId),
                  eq(userTenants.isActive, true),
                ),
              );
      if (allowed.length === 0) throw new HttpError(403, serverMessages.tenantForbidden);
      request.tenantId = tenantId;
    });
    done();
  },
  { name: 'tenant', dependencies: ['authentication'] },
);
