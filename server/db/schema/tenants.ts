import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, searchableNameIndexes } from './columns';

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    name: text('name').notNull(),
    configuration: text('configuration'),
    createdAt: createdAt(),
  },
  (t) => [...searchableNameIndexes('tenants', t.name, t.id)],
);

/**
 * The tenant column of a tenant-scoped table. Its key must be `tenantId` (the CRUD repository
 * filters and stamps it); deleting a tenant that still owns rows is refused (409).
 */
export const tenantColumn = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id);
