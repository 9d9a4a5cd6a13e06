import { buildTestTemplate } from './helpers/test-database';

/**
 * Builds the test database template (migrations + full seed + the job engine's schema) once,
 * before any worker starts: a PGlite dump, or a PostgreSQL template database with DATABASE_URL.
 * On a fresh machine that takes several seconds, which would otherwise land in the first files'
 * beforeAll hooks (PostgreSQL: in every file's).
 */
export async function setup(): Promise<void> {
  await buildTestTemplate();
}
