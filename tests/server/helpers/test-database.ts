import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../../server/db/client';
import type { DatabaseHandle, DatabaseOptions } from '../../../server/db/client';
import { seedDatabase } from '../../../server/db/seed/seed';
import { createSecretBox } from '../../../server/lib/secret-box';
import { issueDemoInvoices } from '../../../server/modules/invoice/demo-invoices';

export const TEST_DEMO_PASSWORD = 'demo1234';
/** The test apps' JWT secret, also the key of the demo's encrypted provider secret. */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const seedOptions = {
  seedDemo: true,
  demoPassword: TEST_DEMO_PASSWORD,
  secretBox: createSecretBox(TEST_JWT_SECRET),
  demoInvoices: issueDemoInvoices,
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
  const handle = await openDatabase({ kind: 'pglite' }, { sharedEmbeddedProcess: true });
  return { handle, dispose: () => handle.close() };
}

async function openPostgres(adminUrl: string, options: DatabaseOptions): Promise<TestDatabase> {
  // A copy of the migrated, seeded template database (file level: a fraction of a second), built
  // once per run by the global setup.
  return createPostgres(adminUrl, options, await postgresTemplate(adminUrl));
}

/**
 * The PostgreSQL template for this schema version (`rinnova_tpl_<key>`): migrated, seeded and
 * started once (the job engine's schema inside), built under another name and renamed when
 * complete, so a half-built template is never copied. Older versions' templates are dropped.
 */
async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `rinnova_tpl_${await templateKey()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname like 'rinnova\\_tpl\\_%'",
    );
    if (rows.some((r) => r.datname === name)) return name;
    for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const building = await createPostgres(adminUrl);
  const buildingName = building.name;
  try {
    await building.handle.migrate();
    await seedDatabase(building.handle.db, seedOptions);
    await startAppOnce(building.handle);
    await building.handle.close();
    const renamer = new pg.Client({ connectionString: adminUrl });
    await renamer.connect();
    try {
      await renamer.query(`ALTER DATABASE ${buildingName} RENAME TO ${name}`);
    } finally {
      await renamer.end();
    }
    return name;
  } catch (error) {
    await building.dispose();
    throw error;
  }
}

/**
 * Started once on the template, the app leaves the job engine's schema and queues in it, so a
 * test file's app does not create them again (a second of every beforeAll).
 */
async function startAppOnce(handle: DatabaseHandle): Promise<void> {
  const { buildApp } = await import('../../../server/app');
  const { testConfig } = await import('./test-app');
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-template-outbox-'));
  try {
    const app = await buildApp({
      config: testConfig(),
      db: handle.db,
      jwtSecret: TEST_JWT_SECRET,
      outboxDir,
    });
    await app.ready();
    await app.close();
  } finally {
    await rm(outboxDir, { recursive: true, force: true });
  }
}

async function createPostgres(
  adminUrl: string,
  options: DatabaseOptions = {},
  template?: string,
): Promise<TestDatabase & { name: string }> {
  const name = `rinnova_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() }, options);
  return {
    name,
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
  // The database's process reads the dump file itself.
  // A test worker's databases share one process (PGlite's WebAssembly compiled once per worker).
  const handle = await openDatabase(
    { kind: 'pglite', loadDataDir: await templateDump() },
    { ...options, sharedEmbeddedProcess: true },
  );
  return { handle, dispose: () => handle.close() };
}

/** Hash of everything that shapes the template: migrations, seed code, schema, PGlite version. */
async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of [
    'server/db/migrations',
    'server/db/seed',
    'server/db/schema',
    'server/db/embedded',
    'server/jobs',
    // The demo seed computes its amounts and issues its invoices with these.
    'server/db/fiscal-profiles.ts',
    'server/modules/invoice',
    'contract',
  ]) {
    const files = (await stat(path.join(repoRoot, dir))).isFile()
      ? ['']
      : (await readdir(path.join(repoRoot, dir), { recursive: true })).sort();
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

/** Builds (or finds) the template of this run's database; the server project's global setup calls it once. */
export async function buildTestTemplate(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) await postgresTemplate(url);
  else await templateDump();
}

/** The path of the PGlite template dump (an uncompressed tar), built if missing. */
async function templateDump(): Promise<string> {
  const file = path.join(os.tmpdir(), `rinnova-test-template-${await templateKey()}.tar`);
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      await access(file);
      return file;
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
      await startAppOnce(handle);
      if (!handle.dumpDataDir) throw new Error('template must be PGlite');
      await handle.dumpDataDir(`${file}.tmp-${process.pid}`);
      await handle.close();
      await rename(`${file}.tmp-${process.pid}`, file);
      return file;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
