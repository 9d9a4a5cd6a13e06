import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../../server/db/client';
import type { DatabaseHandle, DatabaseOptions } from '../../../server/db/client';
import { seedDatabase } from '../../../server/db/seed/seed';
import { createSecretBox } from '../../../server/lib/secret-box';

export const TEST_DEMO_PASSWORD = 'demo1234';
/** The test apps' JWT secret, also the key of the demo's encrypted provider secret. */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const seedOptions = {
  seedDemo: true,
  demoPassword: TEST_DEMO_PASSWORD,
  secretBox: createSecretBox(TEST_JWT_SECRET),
};

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Closes the connection and, on PostgreSQL, drops the per-file database. */
  dispose(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A fresh database for one test file, migrated and seeded (full ISTAT geography + demo tenants
 * and accounts). With DATABASE_URL: a new uniquely named PostgreSQL database, dropped afterwards.
 * Otherwise an in-memory PGlite loaded from a template dump, built once per schema version
 * and cached in the OS temp dir: a cold PGlite with migrations and seed takes several seconds,
 * loading the dump well under one.
 */
export async function openTestDatabase(options: DatabaseOptions = {}): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgres(url, options) : openPglite(options);
}

/**
 * A fresh database with nothing in it, not even migrations (migration tests): a new PostgreSQL
 * database with DATABASE_URL (dropped by dispose), else an in-memory PGlite.
 */
export async function openEmptyDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) return createPostgres(url);
  const handle = await openDatabase({ kind: 'pglite' });
  return { handle, dispose: () => handle.close() };
}

async function openPostgres(adminUrl: string, options: DatabaseOptions): Promise<TestDatabase> {
  const database = await createPostgres(adminUrl, options);
  await database.handle.migrate();
  await seedDatabase(database.handle.db, seedOptions);
  return database;
}

async function createPostgres(adminUrl: string, options: DatabaseOptions = {}): Promise<TestDatabase> {
  const name = `rinnova_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() }, options);
  return {
    handle,
    async dispose() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

async function openPglite(options: DatabaseOptions): Promise<TestDatabase> {
  const dump = await templateDump();
  const handle = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([dump]) }, options);
  return { handle, dispose: () => handle.close() };
}

/** Hash of everything that shapes the template: migrations, seed code, schema, PGlite version. */
async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of ['server/db/migrations', 'server/db/seed', 'server/db/schema', 'server/jobs']) {
    const files = (await readdir(path.join(repoRoot, dir), { recursive: true })).sort();
    for (const file of files) {
      const full = path.join(repoRoot, dir, file);
      if ((await stat(full)).isFile()) hash.update(file).update(await readFile(full));
    }
  }
  const pglite = JSON.parse(
    await readFile(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version).update(TEST_DEMO_PASSWORD).update(TEST_JWT_SECRET);
  return hash.digest('hex').slice(0, 16);
}

/** Builds (or finds) the cached template; the server project's global setup calls it once. */
export async function buildTestTemplate(): Promise<void> {
  await templateDump();
}

async function templateDump(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `rinnova-test-template-${await templateKey()}.tar`);
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      return await readFile(file);
    } catch {
      // not built yet
    }
    try {
      await mkdir(lock); // atomic: one test worker builds, the others wait
    } catch {
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 120_000) await rm(lock, { recursive: true, force: true }); // a crashed builder
      if (attempt > 600) throw new Error('timed out waiting for the test database template');
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      const handle = await openDatabase({ kind: 'pglite' });
      await handle.migrate();
      await seedDatabase(handle.db, seedOptions);
      // Started once here, the app leaves the job engine's schema and queues in the template, so
      // a test file's app does not create them again (a second of every beforeAll).
      const { buildApp } = await import('../../../server/app');
      const { testConfig } = await import('./test-app');
      const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-template-outbox-'));
      const app = await buildApp({
        config: testConfig(),
        db: handle.db,
        jwtSecret: TEST_JWT_SECRET,
        outboxDir,
      });
      await app.ready();
      await app.close();
      await rm(outboxDir, { recursive: true, force: true });
      if (!handle.pglite) throw new Error('template must be PGlite');
      const blob = await handle.pglite.dumpDataDir('none');
      await handle.close();
      const buffer = Buffer.from(await blob.arrayBuffer());
      await writeFile(`${file}.tmp-${process.pid}`, buffer);
      await rename(`${file}.tmp-${process.pid}`, file);
      return buffer;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
