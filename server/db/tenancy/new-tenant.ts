import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { tenancyMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import type { Database } from '../client';
import { tenants } from '../schema';
import type { TenantDatabases } from './tenant-databases';

/**
 * A tenant created by a SuperAdmin gets its own database before the Create answers (on the
 * configured server with the fewest tenants). If that fails the tenant is removed again and the
 * Create answers 503: a tenant is born in its own database, or not at all. Should the removal fail
 * too (something already references the row), the tenant stays in the control database, where it
 * works as before, and the answer says so; `npm run tenants -- split` moves it later.
 */
export async function ownDatabaseForNewTenant(
  tenancy: TenantDatabases,
  control: Database,
  tenantId: number,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await tenancy.create(tenantId);
  } catch (error) {
    log.error({ tenantId, err: error }, 'new tenant database not created');
    const removed = await control
      .delete(tenants)
      .where(eq(tenants.id, tenantId))
      .then(
        () => true,
        () => false,
      );
    throw new HttpError(503, removed ? tenancyMessages.createFailed : tenancyMessages.createdInControl);
  }
}
