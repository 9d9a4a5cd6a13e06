/**
 * Operations on one tenant's database (issue 25): backup and restore (only that tenant changes;
 * a backup of another tenant, of a newer release or not a backup at all is refused), the export a
 * seller opens, the delete (only with an export; database, directory entry, memberships and
 * members left with nothing gone; another tenant untouched) and, on PostgreSQL, the move to
 * another server (rows kept, the old database gone; a failed move undone). On PGlite (default)
 * and on PostgreSQL (DATABASE_URL).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyMessages } from '../../../contract/messages';
import { executeRows } from '../../../server/db/rows';
import { plans, tenantDatabases, tenants, users, userTenants } from '../../../server/db/schema';
import { readBackupManifest, writeBackupFile } from '../../../server/db/tenancy/backup-file';
import { createTenantOperations } from '../../../server/db/tenancy/operations';
import type { MoveStep, TenantOperations } from '../../../server/db/tenancy/operations';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { readExportComment } from '../../../server/db/tenancy/tenant-export';
import { openTestDatabase } from '../helpers/test-database';
import type { TestDatabase } from '../helpers/test-database';

const adminUrl = process.env.DATABASE_URL;
const onPostgres = Boolean(adminUrl);
let database: TestDatabase;
let tenancy: TenantDatabases;
let ops: TenantOperations;
let dir: string;
/** a, b, d: databases of their own; c: still in the control database. */
let ids: { a: number; b: number; c: number; d: number };
let failAt: MoveStep | undefined;

beforeAll(async () => {
  database = await openTestDatabase();
  tenancy = createTenantDatabases({
    control: database.handle,
    // A second "server": the same PostgreSQL under another name (a move's target).
    servers: adminUrl ? { second: adminUrl, refusing: 'postgres://postgres@127.0.0.1:1/postgres' } : {},
    directoryTtlMs: 0,
  });
  ops = createTenantOperations({
    tenancy,
    directoryTtlMs: 0,
    onStep: (step) => {
      if (step === failAt) throw new Error(`guasto provocato dopo ${step}`);
    },
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-ops-test-'));
  const rows = await database.handle.db
    .insert(tenants)
    .values(['Operazioni A', 'Operazioni B', 'Operazioni C', 'Operazioni D'].map((name) => ({ name })))
    .returning({ id: tenants.id });
  const [a, b, c, d] = rows.map((r) => r.id) as [number, number, number, number];
  ids = { a, b, c, d };
  for (const id of [a, b, d]) await tenancy.create(id, onPostgres ? 'control' : undefined);
}, 120_000);

afterAll(async () => {
  for (const id of Object.values(ids ?? {})) await tenancy?.drop(id).catch(() => undefined);
  await tenancy?.close();
  await database?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const addPlan = (tenantId: number, name: string) =>
  tenancy
    .connectionFor(tenantId)
    .insert(plans)
    .values({ tenantId, name, recurringCostBeforeVat: '10.00', recurrenceType: 1 })
    .execute();

const planNames = async (tenantId: number) =>
  (
    await tenancy
      .connectionFor(tenantId)
      .select({ name: plans.name })
      .from(plans)
      .where(eq(plans.tenantId, tenantId))
      .orderBy(asc(plans.name))
  ).map((r) => r.name);

/** Everything of a tenant's plans, and its directory entry's version. */
async function fingerprint(tenantId: number): Promise<string> {
  const [row] = await executeRows<{ digest: string | null }>(
    tenancy.connectionFor(tenantId),
    sql`select md5(string_agg(p::text, '|' order by p.id)) as digest from plans p`,
  );
  await tenancy.invalidate(tenantId);
  const placement = await tenancy.placementOf(tenantId);
  return `${row?.digest ?? ''}:${placement.database}:${placement.version}`;
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

describe('operations on one tenant', () => {
  it(
    'backup, change, restore: the tenant’s rows are back, another tenant is untouched',
    { timeout: 60_000 },
    async () => {
      const { a, b } = ids;
      await addPlan(a, 'Piano salvato');
      await addPlan(b, 'Piano di un altro');
      const before = await fingerprint(b);
      const file = path.join(dir, 'a.backup');
      const manifest = await ops.backup(a, file);
      expect(manifest).toMatchObject({
        format: 'rinnova-tenant-backup',
        tenantId: a,
        kind: onPostgres ? 'postgres' : 'embedded',
        migrations: tenancy.release().migrations,
      });
      expect((await readBackupManifest(file)).manifest).toEqual(manifest);
      // The password of a server URL is never in the file (pg_dump gets it through its environment).
      expect((await readFile(file)).includes(Buffer.from('postgres://'))).toBe(false);

      await tenancy
        .connectionFor(a)
        .update(plans)
        .set({ name: 'Piano cambiato' })
        .where(eq(plans.tenantId, a))
        .execute();
      await addPlan(a, 'Piano aggiunto dopo');
      expect(await planNames(a)).toEqual(['Piano aggiunto dopo', 'Piano cambiato']);
      const old = await tenancy.placementOf(a);

      const placement = await ops.restore(a, file);
      expect(placement.state).toBe('ready');
      expect(await planNames(a)).toEqual(['Piano salvato']);
      expect(await fingerprint(b)).toBe(before);
      expect(await planNames(b)).toEqual(['Piano di un altro']);
      if (onPostgres) {
        expect(placement.database).toMatch(new RegExp(`_t${a}_r\\d+$`));
        expect(await databaseExists(old.database ?? '')).toBe(false);
      }
      // A backup of an older release is migrated when restored (here: nothing left to apply).
      const older = path.join(dir, 'a-older.backup');
      const { offset } = await readBackupManifest(file);
      const payload = path.join(dir, 'payload');
      await writeFile(payload, (await readFile(file)).subarray(offset));
      await writeBackupFile(older, { ...manifest, migrations: manifest.migrations - 3 }, payload);
      await ops.restore(a, older);
      expect(await planNames(a)).toEqual(['Piano salvato']);
      expect(await fingerprint(b)).toBe(before);
    },
  );

  it('refuses a backup of another tenant, of a newer release, or not a backup; and a tenant without its database', async () => {
    const { a, b, c } = ids;
    const file = path.join(dir, 'a-for-b.backup');
    const manifest = await ops.backup(a, file);
    const before = await fingerprint(b);
    await expect(ops.restore(b, file)).rejects.toMatchObject({
      statusCode: 400,
      message: tenancyMessages.backupOfAnotherTenant(a, b),
    });
    const payload = path.join(dir, 'payload-newer');
    await writeFile(payload, 'x');
    const newer = path.join(dir, 'newer.backup');
    await writeBackupFile(newer, { ...manifest, migrations: manifest.migrations + 1 }, payload);
    await expect(ops.restore(a, newer)).rejects.toMatchObject({
      statusCode: 400,
      message: tenancyMessages.backupFromNewerRelease(manifest.migrations + 1, manifest.migrations),
    });
    const junk = path.join(dir, 'junk.backup');
    await writeFile(junk, 'non sono un backup\n');
    await expect(ops.restore(a, junk)).rejects.toMatchObject({ message: tenancyMessages.notABackup });
    expect(await fingerprint(b)).toBe(before);
    await expect(ops.backup(c, path.join(dir, 'c.backup'))).rejects.toMatchObject({
      statusCode: 409,
      message: tenancyMessages.noOwnDatabase,
    });
    await expect(ops.move(c, 'second')).rejects.toMatchObject({
      message: onPostgres ? tenancyMessages.noOwnDatabase : tenancyMessages.moveEmbedded,
    });
  });

  it('a restore that fails changes nothing for the tenant', { timeout: 60_000 }, async () => {
    const { a } = ids;
    const file = path.join(dir, 'a-broken.backup');
    const manifest = await ops.backup(a, file);
    const before = await fingerprint(a);
    // A payload cut short: the new database cannot be made from it.
    const { offset } = await readBackupManifest(file);
    const payload = path.join(dir, 'payload-broken');
    const whole = await readFile(file);
    await writeFile(payload, whole.subarray(offset, offset + Math.floor((whole.length - offset) / 2)));
    const broken = path.join(dir, 'broken.backup');
    await writeBackupFile(broken, manifest, payload);
    await expect(ops.restore(a, broken)).rejects.toMatchObject({ statusCode: 500 });
    expect(await fingerprint(a)).toBe(before);
    expect(await planNames(a)).toEqual(['Piano salvato']);
    expect((await tenancy.placementOf(a)).state).toBe('ready');
  });

  it('an export holds the tenant’s tables as CSV and its backup', { timeout: 60_000 }, async () => {
    const { a } = ids;
    const zip = path.join(dir, 'a.zip');
    const manifest = await ops.exportTenant(a, zip);
    expect(manifest.tables).toContainEqual(
      expect.objectContaining({ from: 'database', table: 'plans', rows: 1 }),
    );
    expect(manifest.tables).toContainEqual(
      expect.objectContaining({ from: 'controllo', table: 'tenants', rows: 1 }),
    );
    expect(await readExportComment(zip)).toMatchObject({ format: 'rinnova-tenant-export', tenantId: a });
    const bytes = await readFile(zip);
    for (const name of ['LEGGIMI.txt', 'manifest.json', 'database/plans.csv', `backup/tenant-${a}.backup`])
      expect(bytes.includes(Buffer.from(name)), name).toBe(true);
  });

  it(
    'delete: only with an export of that tenant; then its database, entry, memberships and lone members go',
    { timeout: 60_000 },
    async () => {
      const { b, d } = ids;
      await addPlan(d, 'Piano da eliminare');
      const db = database.handle.db;
      const [lone, shared] = await db
        .insert(users)
        .values([
          { email: `solo-d-${d}@example.it`, roleId: 3, defaultTenantId: d },
          { email: `anche-b-${d}@example.it`, roleId: 3, defaultTenantId: d },
        ])
        .returning({ id: users.id });
      await db.insert(userTenants).values([
        { userId: lone?.id ?? 0, tenantId: d },
        { userId: shared?.id ?? 0, tenantId: d },
        { userId: shared?.id ?? 0, tenantId: b },
      ]);
      const before = await fingerprint(b);
      const placement = await tenancy.placementOf(d);

      await expect(ops.deleteTenant(d, { exportFile: path.join(dir, 'assente.zip') })).rejects.toMatchObject({
        statusCode: 409,
        message: tenancyMessages.exportRequired,
      });
      const ofA = path.join(dir, 'a.zip');
      await expect(ops.deleteTenant(d, { exportFile: ofA })).rejects.toMatchObject({
        message: tenancyMessages.exportOfAnotherTenant,
      });
      expect(await planNames(d)).toEqual(['Piano da eliminare']);

      const zip = path.join(dir, 'd.zip');
      await ops.exportTenant(d, zip);
      await ops.deleteTenant(d, { exportFile: zip });

      expect(await db.select().from(tenants).where(eq(tenants.id, d))).toEqual([]);
      expect(await db.select().from(tenantDatabases).where(eq(tenantDatabases.tenantId, d))).toEqual([]);
      expect(await db.select().from(userTenants).where(eq(userTenants.tenantId, d))).toEqual([]);
      expect(
        await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, lone?.id ?? 0)),
      ).toEqual([]);
      const [kept] = await db
        .select({ id: users.id, defaultTenantId: users.defaultTenantId })
        .from(users)
        .where(eq(users.id, shared?.id ?? 0));
      expect(kept).toEqual({ id: shared?.id, defaultTenantId: null });
      expect(
        await db
          .select()
          .from(userTenants)
          .where(and(eq(userTenants.tenantId, b), eq(userTenants.userId, shared?.id ?? 0))),
      ).toHaveLength(1);
      if (onPostgres) expect(await databaseExists(placement.database ?? '')).toBe(false);
      expect(await fingerprint(b)).toBe(before);
    },
  );

  it.runIf(!onPostgres)(
    'embedded on disk: the restored files take the place of the old ones',
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(dir, 'data');
      const onDisk = createTenantDatabases({ control: database.handle, dataDir, directoryTtlMs: 0 });
      const diskOps = createTenantOperations({ tenancy: onDisk, directoryTtlMs: 0 });
      const [row] = await database.handle.db
        .insert(tenants)
        .values({ name: 'Su disco' })
        .returning({ id: tenants.id });
      const id = row?.id ?? 0;
      try {
        await onDisk.create(id);
        const add = (name: string) =>
          onDisk
            .connectionFor(id)
            .insert(plans)
            .values({ tenantId: id, name, recurringCostBeforeVat: '1.00', recurrenceType: 1 })
            .execute();
        await add('Su disco prima');
        const file = path.join(dir, 'disk.backup');
        await diskOps.backup(id, file);
        await add('Su disco dopo');
        await diskOps.restore(id, file);
        const names = async () =>
          (await onDisk.connectionFor(id).select({ name: plans.name }).from(plans)).map((r) => r.name);
        expect(await names()).toEqual(['Su disco prima']);
        // Closed and opened again from its directory: the restored files are the tenant's.
        await onDisk.close();
        const reopened = createTenantDatabases({ control: database.handle, dataDir });
        try {
          expect(
            (await reopened.connectionFor(id).select({ name: plans.name }).from(plans)).map((r) => r.name),
          ).toEqual(['Su disco prima']);
          expect(
            (await readdir(path.join(dataDir, 'tenants')))
              .filter((f) => !f.endsWith('.tar') && !f.endsWith('.lock'))
              .sort(),
          ).toEqual([String(id)]);
        } finally {
          await reopened.drop(id);
          await reopened.close();
        }
      } finally {
        await onDisk.close();
      }
    },
  );

  describe.runIf(onPostgres)('move (PostgreSQL)', () => {
    it(
      'moves the tenant to another server: rows kept, the old database gone',
      { timeout: 60_000 },
      async () => {
        const { a, b } = ids;
        const before = await fingerprint(b);
        const source = await tenancy.placementOf(a);
        const moved = await ops.move(a, 'second');
        expect(moved).toMatchObject({ server: 'second', state: 'ready' });
        expect(moved.version).toBeGreaterThan(source.version);
        expect(await tenancy.placementOf(a)).toMatchObject({ server: 'second', database: moved.database });
        expect(await planNames(a)).toEqual(['Piano salvato']);
        await addPlan(a, 'Scritto dopo lo spostamento');
        expect(await planNames(a)).toEqual(['Piano salvato', 'Scritto dopo lo spostamento']);
        expect(await databaseExists(source.database ?? '')).toBe(false);
        expect(await fingerprint(b)).toBe(before);
        await expect(ops.move(a, 'second')).rejects.toMatchObject({
          message: tenancyMessages.sameServer('second'),
        });
        await expect(ops.move(a, 'altrove')).rejects.toMatchObject({
          message: tenancyMessages.unknownServer('altrove'),
        });
      },
    );

    it(
      'a move that fails is undone: ready and writable on the source, nothing left on the target',
      {
        timeout: 60_000,
      },
      async () => {
        const { b } = ids;
        const source = await tenancy.placementOf(b);
        // A target server that refuses connections.
        await expect(ops.move(b, 'refusing')).rejects.toMatchObject({ statusCode: 500 });
        expect(await tenancy.placementOf(b)).toMatchObject({ server: source.server, state: 'ready' });
        await addPlan(b, 'Scritto dopo il primo guasto');
        // A failure after the copy was made on the target: the copy goes too.
        const names = async () => {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          const { rows } = await client.query<{ datname: string }>(
            'select datname from pg_database where datname like $1',
            [`%_t${b}%`],
          );
          await client.end();
          return rows.map((r) => r.datname).sort();
        };
        const databasesBefore = await names();
        failAt = 'restored';
        try {
          await expect(ops.move(b, 'second')).rejects.toMatchObject({
            statusCode: 500,
            message: expect.stringContaining('guasto provocato dopo restored'),
          });
        } finally {
          failAt = undefined;
        }
        expect(await names()).toEqual(databasesBefore);
        expect(await tenancy.placementOf(b)).toMatchObject({
          server: source.server,
          database: source.database,
          state: 'ready',
        });
        await addPlan(b, 'Scritto dopo il secondo guasto');
        expect(await planNames(b)).toEqual([
          'Piano di un altro',
          'Scritto dopo il primo guasto',
          'Scritto dopo il secondo guasto',
        ]);
      },
    );
  });
});
