import type { SQL } from 'drizzle-orm';
import type { Database } from './client';

/** The rows of a raw SQL query, whichever driver runs it (pg answers `{ rows }`, PGlite too, some an array). */
export async function executeRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}
