/**
 * Migration 0030 (plan changes, issue 30: `plan_changes`, `payments.plan_change_id`) on a tenant database of its own made by
 * the previous release (migrations up to 0029_coupons): the start's upgrade applies it, and a
 * scheduled change can then be stored there — one per subscription (the partial unique index).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsFolder } from '../../../server/db/client';
import { tenants } from '../../../server/db/schema';
import { createTenantDatabases, type TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database';

let database: TestDatabase;
let dir: string;
let dataDir: string;
const opened: TenantDatabases[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-migrations-0029-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-tenant-data-'));
  await cp(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === '0029_coupons');
  expect(upTo).toBeGreaterThan(0);
  expect(journal.entries[upTo + 1]?.tag).toBe('0030_plan-changes');
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
});

afterAll(async () => {
  for (const t of opened.reverse()) await t.close().catch(() => undefined);
  await database?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const rowsOf = <T>(result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

const hasTable = async (tenancy: TenantDatabases, tenantId: number) =>
  rowsOf<{ n: number }>(
    await tenancy
      .connectionFor(tenantId)
      .execute(
        sql`select count(*)::int as n from information_schema.tables where table_name = 'plan_changes'`,
      ),
  )[0]!.n === 1;

it('0030 reaches a tenant database of the previous release at the upgrade', { timeout: 90_000 }, async () => {
  const [row] = await database.handle.db
    .insert(tenants)
    .values({ name: 'Tenant del rilascio prima dei cambi di piano' })
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
  expect(await hasTable(previous, tenantId)).toBe(false);
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
  expect(await hasTable(current, tenantId)).toBe(true);
  const indexes = rowsOf<{ indexname: string }>(
    await current
      .connectionFor(tenantId)
      .execute(sql`select indexname from pg_indexes where tablename = 'plan_changes' order by indexname`),
  ).map((r) => r.indexname);
  expect(indexes).toEqual(
    expect.arrayContaining([
      'plan_changes_one_scheduled_idx',
      'plan_changes_due_idx',
      'plan_changes_payment_idx',
    ]),
  );
  const paymentColumn = rowsOf<{ n: number }>(
    await current
      .connectionFor(tenantId)
      .execute(
        sql`select count(*)::int as n from information_schema.columns where table_name = 'payments' and column_name = 'plan_change_id'`,
      ),
  )[0]!.n;
  expect(paymentColumn).toBe(1);
  await current.drop(tenantId);
});
