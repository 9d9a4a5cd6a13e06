import { foreignKey, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantSearchIndexes } from './columns';
import { municipalities } from './geography';
import { tenantColumn } from './tenants';
import { userTenants } from './users';

/**
 * Addresses of a tenant. `user_id` (optional) makes the address a user's own: a User sees only
 * those. It references the membership, so the owner is a member of the same tenant and a user
 * who still owns addresses cannot be removed from it (409).
 */
export const addresses = pgTable(
  'addresses',
  {
    id: id(),
    tenantId: tenantColumn(),
    userId: integer('user_id'),
    street: text('street').notNull(),
    zip: text('zip').notNull(),
    municipalityId: integer('municipality_id')
      .notNull()
      .references(() => municipalities.id),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: 'addresses_user_membership_fk',
      columns: [t.userId, t.tenantId],
      foreignColumns: [userTenants.userId, userTenants.tenantId],
    }),
    ...tenantSearchIndexes('addresses', 'street', t.tenantId, t.street, t.id),
    index('addresses_tenant_user_idx').on(t.tenantId, t.userId),
    index('addresses_municipality_id_idx').on(t.municipalityId),
  ],
);
