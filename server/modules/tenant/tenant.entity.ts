import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { Role } from '../../../contract/enums';
import type { Tenant } from '../../../contract/schemas/tenant';
import { tenantInputSchema } from '../../../contract/schemas/tenant';
import { tenants, userTenants } from '../../db/schema';
import type { EntityDefinition } from '../crud/entity';
import { byName, windowed } from '../crud/window';

const tenantItem: z.ZodType<Tenant> = z.object({
  id: z.number(),
  name: z.string(),
  configuration: z.string().nullable(),
});

/**
 * Tenants: a SuperAdmin sees, creates and deletes any; everyone else sees the tenants they
 * belong to (active memberships), and an Admin may update those. Needs no X-Tenant-Id: the tenant selector reads it
 * before a tenant is chosen.
 */
export const tenantEntity: EntityDefinition<typeof tenants, Tenant, typeof tenantInputSchema> = {
  name: 'tenant',
  table: tenants,
  id: tenants.id,
  scope: {
    kind: 'rows',
    filter: (caller, db) =>
      caller.roleId === Role.SuperAdmin
        ? undefined
        : inArray(
            tenants.id,
            db
              .select({ id: userTenants.tenantId })
              .from(userTenants)
              .where(and(eq(userTenants.userId, caller.userId), eq(userTenants.isActive, true))),
          ),
  },
  searchColumns: [tenants.name],
  filters: { name: { column: tenants.name, kind: 'text' } },
  item: tenantItem,
  input: tenantInputSchema,
  label: (t) => t.name,
  list: (db, window) =>
    windowed(
      db
        .select({ id: tenants.id, name: tenants.name, configuration: tenants.configuration })
        .from(tenants)
        .orderBy(...byName(tenants.name, tenants.id))
        .$dynamic(),
      window,
    ),
  toRow: (input) => ({ name: input.name, configuration: input.configuration ?? null }),
  roles: {
    create: [Role.SuperAdmin],
    update: [Role.SuperAdmin, Role.Admin],
    remove: [Role.SuperAdmin],
  },
};
