import { buildTestTemplate } from './helpers/test-database';

/**
 * Builds the PGlite template (migrations + full seed) once, before any worker starts: on a fresh
 * machine that takes several seconds, which would otherwise land in the first files' beforeAll
 * hooks (and the other worker's, waiting for it).
 */
export async function setup(): Promise<void> {
  if (!process.env.DATABASE_URL) await buildTestTemplate();
}
