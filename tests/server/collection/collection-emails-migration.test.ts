/**
 * Migration 0028 (the ladder's e-mails, `collection_settings.emails`) on a tenant database of its
 * own made by the previous release (migrations up to 0027, a ladder saved there): the start's
 * upgrade applies it as it applied 0027, the saved ladder stays and reads with the default texts,
 * and texts can then be stored there.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsFolder } from '../../../server/db/client';
import { collectionSettings, tenants } from '../../../server/db/schema';
import { createTenantDatabases, type TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { collectionSettingsOf } from '../../../server/modules/billing/collection.service';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database';

let database: TestDatabase;
let dir: string;
let dataDir: string;
const opened: TenantDatabases[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-migrations-0027-'));
  // On disk: the tenant's database outlives the previous release's process.
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-tenant-data-'));
  await cp(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === '0027_collection');
  expect(upTo).toBeGreaterThan(0);
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
});

afterAll(async () => {
  for (const t of opened.reverse()) await t.close().catch(() => undefined);
  await database?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const columnsOf = async (tenancy: TenantDatabases, tenantId: number) => {
  const result = await tenancy
    .connectionFor(tenantId)
    .execute(
      sql`select column_name from information_schema.columns where table_name = 'collection_settings' order by column_name`,
    );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    column_name: string;
  }[];
  return rows.map((r) => r.column_name);
};

// Creating a database runs initdb and every migration (embedded: a few seconds of WebAssembly).
it('0028 reaches a tenant database of the previous release at the upgrade', { timeout: 90_000 }, async () => {
  const [row] = await database.handle.db
    .insert(tenants)
    .values({ name: 'Tenant con database del rilascio precedente' })
    .returning({ id: tenants.id });
  const tenantId = row!.id;
  const previous = createTenantDatabases({
    control: database.handle,
    maxConnections: 2,
    idleMs: 60_000,
    dataDir,
    migrationsFolder: dir,
  });
  opened.push(previous);
  await previous.create(tenantId);
  expect(await columnsOf(previous, tenantId)).not.toContain('emails');
  await previous
    .connectionFor(tenantId)
    .execute(
      sql`insert into collection_settings (tenant_id, steps, grace_days, final_day) values (${tenantId}, '{1,5}', 6, 9)`,
    );
  await previous.close();
  opened.pop();

  const current = createTenantDatabases({
    control: database.handle,
    maxConnections: 2,
    idleMs: 60_000,
    dataDir,
  });
  opened.push(current);
  expect(await current.upgradeAll()).toEqual({ upgraded: 1, failed: [] });
  expect(await columnsOf(current, tenantId)).toContain('emails');
  const scope = { tenantId, tx: current.connectionFor(tenantId) };
  expect(await collectionSettingsOf(scope)).toEqual({
    steps: [1, 5],
    graceDays: 6,
    finalDay: 9,
    emails: { steps: [null, null], final: null },
  });
  await current
    .connectionFor(tenantId)
    .update(collectionSettings)
    .set({ emails: { steps: [{ subject: 'Ciao {cliente}', body: 'Testo' }], final: null } })
    .where(eq(collectionSettings.tenantId, tenantId));
  expect((await collectionSettingsOf(scope)).emails.steps).toEqual([
    { subject: 'Ciao {cliente}', body: 'Testo' },
    null,
  ]);
  await current.drop(tenantId);
});
