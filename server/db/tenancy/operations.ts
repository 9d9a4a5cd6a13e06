/**
 * Operations on ONE tenant that has a database of its own (issue 25): backup, restore, export,
 * delete, move. `npm run tenants` (cli.ts) and the SuperAdmin's calls
 * (modules/tenant/tenant-database.routes.ts) run them. A tenant whose rows are still in the
 * control database (placement.database null) is refused with tenancyMessages.noOwnDatabase.
 *
 * - backup: `pg_dump -Fc` of its database (PostgreSQL), or the embedded database's tar dump,
 *   behind a manifest (backup-file.ts).
 * - restore: into a NEW database first (PostgreSQL `<name>_r<ms>`; embedded: a new PGlite, under
 *   `tenants/<id>.restore-<ms>` when on disk), checked (the tenant's row is there) and migrated
 *   if the backup is of an older release; only then the tenant is made 'unavailable', other
 *   instances' cached placements let expire, the directory switched to the new database (new
 *   version: pools of the old one retired) and the old database dropped. A failure before the
 *   switch drops the new database: nothing changed for the tenant. Other tenants are not touched.
 * - exportTenant: tenant-export.ts (a zip a seller opens: CSVs + the backup).
 * - deleteTenant: only with an export of that tenant; in one control transaction its rows in the
 *   control database (every table with tenant_id: memberships, outbox, …), the members left with
 *   no membership (not SuperAdmins) and the tenant's row (its directory entry cascades); then its
 *   database is dropped. A row that cannot go (a table referencing the tenant's rows without a
 *   tenant_id) refuses the whole delete: nothing changes.
 * - move (PostgreSQL): read-only (directory state, and the database's own default, so a
 *   connection of any instance reconnects read-only once every backend is ended), dump, create
 *   and restore on the target, compare row counts table by table, switch the directory (server,
 *   version, ready), drop the source. A failure before the switch drops what was made on the
 *   target and makes the source writable and 'ready' again.
 */
import { reconcileMembers } from '../members';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { tenancyMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import type { DatabaseHandle } from '../client';
import { executeRows } from '../rows';
import * as schema from '../schema';
import { tenants } from '../schema';
import { extractPayload, pgToolEnv, readBackupManifest, runPgTool, writeBackupFile } from './backup-file';
import type { BackupManifest } from './backup-file';
import { readExportComment, writeTenantExport } from './tenant-export';
import type { ExportManifest } from './tenant-export';
import { EMBEDDED_SERVER, tenantDatabaseName } from './tenant-databases';
import type { TenantDatabases, TenantPlacement } from './tenant-databases';

/** The steps of a move, in order (tests fail a move at one of them through `onStep`). */
export type MoveStep = 'readOnly' | 'dumped' | 'created' | 'restored' | 'verified';

export interface TenantOperationsOptions {
  tenancy: TenantDatabases;
  /** The control database (default: the one `tenancy` lists its tenants in). */
  control?: DatabaseHandle;
  /**
   * How long other app instances may trust a cached directory entry (their `directoryTtlMs`,
   * default 5 s): a move or a restore waits that long after changing the state before it relies
   * on every instance having seen it. Tests pass a tiny one.
   */
  directoryTtlMs?: number;
  /** Where temporary dumps go (default the OS temp directory). */
  tmpDir?: string;
  /** pg_dump and pg_restore (default: from PATH). */
  pgDump?: string;
  pgRestore?: string;
  now?: () => Date;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Tests: called after each step of a move; what it throws fails the move there. */
  onStep?: (step: MoveStep) => void | Promise<void>;
}

export interface TenantOperations {
  backup(tenantId: number, file: string): Promise<BackupManifest>;
  restore(tenantId: number, file: string): Promise<TenantPlacement>;
  exportTenant(tenantId: number, file: string): Promise<ExportManifest>;
  deleteTenant(tenantId: number, options: { exportFile: string }): Promise<void>;
  move(tenantId: number, targetServer: string): Promise<TenantPlacement>;
}

const FOREIGN_KEY_VIOLATION = '23503';

function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function detailOf(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  const cause = (error as { cause?: unknown }).cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause instanceof Error && !message.includes(cause.message)
    ? `${message} (${cause.message})`
    : message;
}

export function createTenantOperations(options: TenantOperationsOptions): TenantOperations {
  const { tenancy } = options;
  const control = options.control ?? tenancy.control;
  const embedded = control.kind === 'pglite';
  const ttl = options.directoryTtlMs ?? 5_000;
  const now = options.now ?? (() => new Date());
  const pgDump = options.pgDump ?? 'pg_dump';
  const pgRestore = options.pgRestore ?? 'pg_restore';
  const release = () => tenancy.release();

  const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

  async function scratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), 'rinnova-tenant-'));
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The tenant's placement, refused unless it exists and has a database of its own. */
  async function ownPlacement(tenantId: number): Promise<TenantPlacement & { database: string }> {
    const [row] = await control.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
    if (!row) throw new HttpError(404, tenancyMessages.tenantNotFound(tenantId));
    await tenancy.invalidate(tenantId);
    const placement = await tenancy.placementOf(tenantId);
    if (placement.database === null) throw new HttpError(409, tenancyMessages.noOwnDatabase);
    return placement as TenantPlacement & { database: string };
  }

  const withServer = <T>(server: string, work: (client: pg.Client) => Promise<T>) =>
    tenancy.withServer(server, work);

  async function dropDatabase(server: string, database: string): Promise<void> {
    await withServer(server, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }

  async function tenantName(tenantId: number): Promise<string | null> {
    const [row] = await control.db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    return row?.name ?? null;
  }

  /** The migrations the tenant's database has applied (drizzle's journal in it). */
  async function appliedMigrations(tenantId: number): Promise<number> {
    const [row] = await executeRows<{ n: number }>(
      tenancy.connectionFor(tenantId),
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    return row?.n ?? 0;
  }

  /** `pg_dump -Fc` of a database to `file`. */
  function dumpPostgres(server: string, database: string, file: string): Promise<void> {
    return runPgTool(
      pgDump,
      ['-Fc', '--no-owner', '--no-acl', '-f', file],
      pgToolEnv(tenancy.urlOf(server, 'postgres'), database),
    );
  }

  /** Restores a `pg_dump -Fc` file into an existing, empty database (one transaction: all or nothing). */
  function restorePostgres(server: string, database: string, file: string): Promise<void> {
    return runPgTool(
      pgRestore,
      ['--no-owner', '--no-acl', '--single-transaction', '--exit-on-error', '-d', database, file],
      pgToolEnv(tenancy.urlOf(server, 'postgres'), database),
    );
  }

  /** The backup of the tenant's database to `file` (written under another name, renamed when complete). */
  async function backup(tenantId: number, file: string): Promise<BackupManifest> {
    const placement = await ownPlacement(tenantId);
    const manifest: BackupManifest = {
      format: 'rinnova-tenant-backup',
      tenantId,
      tenantName: await tenantName(tenantId),
      kind: embedded ? 'embedded' : 'postgres',
      migrations: await appliedMigrations(tenantId),
      createdAt: now().toISOString(),
      server: placement.server,
      database: placement.database,
    };
    await scratch(async (dir) => {
      const payload = path.join(dir, 'payload');
      try {
        if (embedded) await tenancy.dumpEmbedded(tenantId, payload);
        else await dumpPostgres(placement.server, placement.database, payload);
      } catch (error) {
        throw new HttpError(500, tenancyMessages.backupFailed(detailOf(error)));
      }
      const partial = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.partial`);
      try {
        await writeBackupFile(partial, manifest, payload);
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    });
    return manifest;
  }

  /** Row counts of every table of a database (move: the copy must hold what the source holds). */
  async function rowCounts(url: string): Promise<Record<string, number>> {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    try {
      const { rows: tables } = await client.query<{ schema: string; name: string }>(
        `select table_schema as schema, table_name as name from information_schema.tables
         where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
         order by 1, 2`,
      );
      const counts: Record<string, number> = {};
      for (const t of tables) {
        const { rows } = await client.query<{ n: string }>(
          `select count(*)::text as n from "${t.schema.replace(/"/g, '""')}"."${t.name.replace(/"/g, '""')}"`,
        );
        counts[`${t.schema}.${t.name}`] = Number(rows[0]?.n ?? 0);
      }
      return counts;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Checks a restored database before it is put in place: the tenant's row is there; migrates an older one. */
  async function prepareRestored(pool: pg.Pool, tenantId: number, manifest: BackupManifest): Promise<void> {
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from tenants where id = $1', [
      tenantId,
    ]);
    if ((rows[0]?.n ?? 0) !== 1) throw new Error(`il backup non contiene il tenant ${tenantId}`);
    if (manifest.migrations < release().migrations)
      await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder: release().migrationsFolder });
  }

  async function restore(tenantId: number, file: string): Promise<TenantPlacement> {
    const { manifest, offset } = await readBackupManifest(file);
    if (manifest.tenantId !== tenantId)
      throw new HttpError(400, tenancyMessages.backupOfAnotherTenant(manifest.tenantId, tenantId));
    if (manifest.migrations > release().migrations)
      throw new HttpError(
        400,
        tenancyMessages.backupFromNewerRelease(manifest.migrations, release().migrations),
      );
    if (manifest.kind !== (embedded ? 'embedded' : 'postgres'))
      throw new HttpError(400, tenancyMessages.backupOfOtherKind(manifest.kind));
    const placement = await ownPlacement(tenantId);
    if (placement.state === 'readOnly') throw new HttpError(409, tenancyMessages.notReady(placement.state));
    return scratch(async (dir) => {
      const payload = path.join(dir, 'payload');
      await extractPayload(file, offset, payload);
      if (embedded) {
        try {
          await tenancy.replaceEmbedded(tenantId, payload, (pool) =>
            prepareRestored(pool, tenantId, manifest),
          );
        } catch (error) {
          throw new HttpError(500, tenancyMessages.restoreFailed(detailOf(error)));
        }
        const restored = await tenancy.record(
          { tenantId, server: placement.server, database: placement.database, state: 'ready' },
          release().migrations,
        );
        await membersNow(tenantId);
        return restored;
      }
      const fresh = `${tenantDatabaseName(controlName(), tenantId)}_r${now().getTime()}`;
      let unavailable = false;
      let switched = false;
      try {
        await withServer(placement.server, (c) => c.query(`CREATE DATABASE ${fresh}`));
        await restorePostgres(placement.server, fresh, payload);
        const pool = new pg.Pool({ connectionString: tenancy.urlOf(placement.server, fresh), max: 1 });
        pool.on('error', () => {});
        try {
          await prepareRestored(pool, tenantId, manifest);
        } finally {
          await pool.end().catch(() => undefined);
        }
        // The swap: the tenant unavailable until every instance has seen it, then the new database in.
        unavailable = true;
        await tenancy.setState(tenantId, 'unavailable');
        await pause(ttl);
        const recorded = await tenancy.record(
          { tenantId, server: placement.server, database: fresh, state: 'ready' },
          release().migrations,
        );
        switched = true;
        await membersNow(tenantId);
        await dropDatabase(placement.server, placement.database).catch((error: unknown) =>
          options.log?.warn(
            { tenantId, database: placement.database, err: error },
            'old tenant database not dropped',
          ),
        );
        return recorded;
      } catch (error) {
        if (switched) throw error;
        await dropDatabase(placement.server, fresh).catch(() => undefined);
        if (unavailable) await tenancy.setState(tenantId, placement.state).catch(() => undefined);
        throw new HttpError(500, tenancyMessages.restoreFailed(detailOf(error)));
      }
    });
  }

  /** The restored database's members as the control database knows them now (db/members.ts). */
  async function membersNow(tenantId: number): Promise<void> {
    const found = await reconcileMembers(control.db, tenancy.connectionFor(tenantId), tenantId, now());
    if (found.added + found.deactivated > 0)
      options.log?.info({ tenantId, ...found }, 'restored tenant database: members reconciled');
  }

  function controlName(): string {
    return control.url ? decodeURIComponent(new URL(control.url).pathname.slice(1)) : 'rinnova';
  }

  async function exportTenant(tenantId: number, file: string): Promise<ExportManifest> {
    await ownPlacement(tenantId);
    return scratch(async (dir) => {
      const backupFile = path.join(dir, `tenant-${tenantId}.backup`);
      const manifest = await backup(tenantId, backupFile);
      return writeTenantExport(file, {
        control: control.db,
        tenantDb: tenancy.connectionFor(tenantId),
        backup: { file: backupFile, manifest },
        createdAt: now(),
      });
    });
  }

  async function deleteTenant(tenantId: number, { exportFile }: { exportFile: string }): Promise<void> {
    const placement = await ownPlacement(tenantId);
    const exported = (await stat(exportFile).catch(() => null))?.isFile()
      ? await readExportComment(exportFile)
      : null;
    if (!exported) throw new HttpError(409, tenancyMessages.exportRequired);
    if (exported.tenantId !== tenantId) throw new HttpError(409, tenancyMessages.exportOfAnotherTenant);
    await tenancy.setState(tenantId, 'unavailable');
    try {
      await control.db.transaction(async (tx) => {
        const members = await executeRows<{ id: number }>(
          tx,
          sql`select user_id as id from user_tenants where tenant_id = ${tenantId}`,
        );
        const tables = await executeRows<{ name: string }>(
          tx,
          sql`select c.table_name as name from information_schema.columns c
              join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
              where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
                and c.table_name <> 'tenant_databases'`,
        );
        // Referencing tables first: a delete refused by a foreign key waits for the next pass.
        let pending = tables.map((t) => t.name);
        for (let pass = 0; pending.length > 0 && pass <= tables.length; pass++) {
          const refused: string[] = [];
          for (const table of pending) {
            try {
              await tx.transaction((sp) =>
                sp.execute(sql`delete from ${sql.identifier(table)} where tenant_id = ${tenantId}`),
              );
            } catch (error) {
              if (codeOf(error) !== FOREIGN_KEY_VIOLATION) throw error;
              refused.push(table);
            }
          }
          if (refused.length === pending.length) break;
          pending = refused;
        }
        if (pending.length > 0)
          throw new HttpError(
            409,
            tenancyMessages.deleteRefused(`restano righe collegate al tenant in ${pending.join(', ')}`),
          );
        await tx.execute(
          sql`update users set default_tenant_id = null where default_tenant_id = ${tenantId}`,
        );
        const ids = members.map((m) => m.id);
        if (ids.length > 0)
          await tx.execute(
            sql`delete from users u where u.id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) and u.role_id <> 1 and not exists (select 1 from user_tenants ut where ut.user_id = u.id)`,
          );
        // The tenant's row; its directory entry goes with it (on delete cascade).
        await tx.delete(tenants).where(eq(tenants.id, tenantId));
      });
    } catch (error) {
      await tenancy.setState(tenantId, placement.state).catch(() => undefined);
      if (error instanceof HttpError) throw error;
      throw new HttpError(409, tenancyMessages.deleteRefused(detailOf(error)));
    }
    await tenancy.drop(tenantId, placement);
  }

  async function move(tenantId: number, target: string): Promise<TenantPlacement> {
    if (embedded) throw new HttpError(400, tenancyMessages.moveEmbedded);
    const placement = await ownPlacement(tenantId);
    if (target === EMBEDDED_SERVER || !tenancy.servers().includes(target))
      throw new HttpError(400, tenancyMessages.unknownServer(target));
    if (placement.server === target) throw new HttpError(409, tenancyMessages.sameServer(target));
    if (placement.state !== 'ready') throw new HttpError(409, tenancyMessages.notReady(placement.state));
    const source = placement.database;
    const migrations = await appliedMigrations(tenantId);
    const step = async (name: MoveStep) => options.onStep?.(name);
    let created: string | undefined;
    let switched: TenantPlacement | undefined;
    try {
      switched = await scratch(async (dir) => {
        // Read-only: in the directory (this instance's pool retired at once, others' on expiry) and
        // in the database's own default, so every backend ended now reconnects read-only.
        await tenancy.setState(tenantId, 'readOnly');
        await withServer(placement.server, async (c) => {
          await c.query(`ALTER DATABASE ${source} SET default_transaction_read_only = on`);
          await pause(ttl);
          await c.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [source],
          );
        });
        await step('readOnly');
        const dump = path.join(dir, 'dump');
        await dumpPostgres(placement.server, source, dump);
        await step('dumped');
        const name = await withServer(target, async (c) => {
          const base = tenantDatabaseName(controlName(), tenantId);
          const { rows } = await c.query('select 1 from pg_database where datname = $1', [base]);
          const chosen = rows.length === 0 ? base : `${base}_m${now().getTime()}`;
          await c.query(`CREATE DATABASE ${chosen}`);
          return chosen;
        });
        created = name;
        await step('created');
        await restorePostgres(target, name, dump);
        await step('restored');
        const [before, after] = await Promise.all([
          rowCounts(tenancy.urlOf(placement.server, source)),
          rowCounts(tenancy.urlOf(target, name)),
        ]);
        const differ = Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
        if (differ.length > 0) throw new Error(`righe diverse dopo la copia in ${differ.join(', ')}`);
        await step('verified');
        return tenancy.record({ tenantId, server: target, database: name, state: 'ready' }, migrations);
      });
    } catch (error) {
      if (created) await dropDatabase(target, created).catch(() => undefined);
      await withServer(placement.server, (c) =>
        c.query(`ALTER DATABASE ${source} RESET default_transaction_read_only`),
      ).catch(() => undefined);
      await tenancy.setState(tenantId, 'ready').catch(() => undefined);
      throw new HttpError(500, tenancyMessages.moveFailed(detailOf(error)));
    }
    // Switched: the source goes (connections other instances still hold to it are ended).
    await dropDatabase(placement.server, source).catch((error: unknown) =>
      options.log?.warn(
        { tenantId, database: source, err: error },
        'moved tenant: source database not dropped',
      ),
    );
    return switched;
  }

  return { backup, restore, exportTenant, deleteTenant, move };
}
