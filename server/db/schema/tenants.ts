import { pgTable, text } from 'drizzle-orm/pg-core';
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
