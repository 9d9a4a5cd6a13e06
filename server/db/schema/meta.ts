import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per seed step that completed, so a restart never seeds twice. */
export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
