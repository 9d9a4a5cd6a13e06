import { defineConfig } from 'drizzle-kit';

/**
 * `npm run db:generate` diffs server/db/schema against the last snapshot and writes the next
 * versioned migration. The server applies them at start on PGlite and PostgreSQL alike.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
  ...(process.env.DATABASE_URL ? { dbCredentials: { url: process.env.DATABASE_URL } } : {}),
});
