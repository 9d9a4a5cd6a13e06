/**
 * `npm run tenants -- <command>`: the tenant databases from a terminal (issue 25). Reads the same
 * settings as the server (.env, DATABASE_URL or DATA_DIR). On the embedded database the server must
 * be stopped: one process at a time opens a data directory.
 *
 *   list            every tenant: where its database lives, its state and size
 *   where <id>      one tenant's database
 *   migrate         applies this release's migrations to every tenant database behind them
 *   backup <id> [file]            one tenant's backup (operations.ts)
 *   restore <id> <file>           one tenant's database from its backup; other tenants untouched
 *   export <id> [dir]             everything of one tenant, a zip (CSVs + backup)
 *   delete <id> --yes [--export <zip>] [dir]
 *                                 exports the tenant to dir (unless given an export), then deletes it
 *   move <id> <server>            the tenant's database to another server (PostgreSQL)
 */
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { asc } from 'drizzle-orm';
import { formatBytes } from '../../../contract/format-bytes';
import { loadConfig, MEMORY_DATA_DIR } from '../../config';
import { openDatabase } from '../client';
import type { DatabaseTarget } from '../client';
import { tenants } from '../schema';
import { describeTenantDatabase } from './describe';
import { HttpError } from '../../lib/http-error';
import { createTenantOperations } from './operations';
import type { TenantOperations } from './operations';
import { createTenantDatabases } from './tenant-databases';

const USAGE = `Uso: npm run tenants -- <comando>
  list                  tutti i tenant: dove vive il database, stato e dimensione
  where <id>            il database di un tenant
  migrate               applica le migrazioni ai database dei tenant che ne sono indietro
  backup <id> [file]    backup del database di un tenant (predefinito: tenant-<id>-<data>.backup)
  restore <id> <file>   ripristina il database di un tenant dal suo backup (gli altri non cambiano)
  export <id> [dir]     esporta tutto di un tenant in uno zip (CSV per Excel + backup)
  delete <id> --yes [--export <zip>] [dir]
                        esporta il tenant in dir (se non gli si dà un'esportazione), poi lo elimina:
                        database, voce della directory, iscrizioni
  move <id> <server>    sposta il database di un tenant su un altro server (PostgreSQL)`;

const COMMANDS = ['list', 'where', 'migrate', 'backup', 'restore', 'export', 'delete', 'move'];
const OPERATIONS = ['backup', 'restore', 'export', 'delete', 'move'];

/** A file name's date part: 20250131-142501 (local time of the machine). */
function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

export interface TenantsCliOptions {
  /** Other app instances' directory cache (default 5 s): a move or restore waits it out. Tests: 0. */
  directoryTtlMs?: number;
}

export async function runTenantsCli(
  argv: string[],
  out: (line: string) => void = console.log,
  cliOptions: TenantsCliOptions = {},
): Promise<number> {
  const flags = new Set(argv.filter((a) => a === '--yes'));
  const exportAt = argv.indexOf('--export');
  const givenExport = exportAt >= 0 ? argv[exportAt + 1] : undefined;
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(exportAt >= 0 && i === exportAt + 1));
  const [command, arg, second] = positional;
  const id = Number(arg);
  const operation = command !== undefined && OPERATIONS.includes(command);
  if (
    !command ||
    !COMMANDS.includes(command) ||
    (operation && !(Number.isInteger(id) && id > 0)) ||
    (['restore', 'move'].includes(command) && !second) ||
    (exportAt >= 0 && !givenExport)
  ) {
    out(USAGE);
    return command ? 2 : 0;
  }
  if (command === 'delete' && !flags.has('--yes')) {
    out(`Eliminare il tenant ${id} è definitivo: aggiungi --yes per confermare.`);
    return 2;
  }
  const config = loadConfig(process.env);
  const target: DatabaseTarget = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : config.dataDir === MEMORY_DATA_DIR
      ? { kind: 'pglite' }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
  const handle = await openDatabase(target);
  const tenancy = createTenantDatabases({
    control: handle,
    servers: config.tenantDatabaseServers,
    dataDir: config.databaseUrl || config.dataDir === MEMORY_DATA_DIR ? undefined : config.dataDir,
  });
  try {
    await handle.migrate();
    if (operation) {
      const ops = createTenantOperations({
        tenancy,
        ...(cliOptions.directoryTtlMs === undefined ? {} : { directoryTtlMs: cliOptions.directoryTtlMs }),
      });
      try {
        return await runOperation(ops, command, id, second, givenExport, out);
      } catch (error) {
        if (error instanceof HttpError) {
          out(error.message);
          return 1;
        }
        throw error;
      }
    }
    if (command === 'migrate') {
      const { upgraded, failed } = await tenancy.upgradeAll();
      out(`Database aggiornati: ${upgraded}${failed.length ? `; non riusciti: ${failed.join(', ')}` : ''}`);
      return failed.length ? 1 : 0;
    }
    const rows = await handle.db
      .select({ id: tenants.id, name: tenants.name })
      .from(tenants)
      .orderBy(asc(tenants.id));
    const chosen = command === 'where' ? rows.filter((r) => String(r.id) === arg) : rows;
    if (command === 'where' && chosen.length === 0) {
      out(`Tenant ${arg ?? ''} inesistente.`);
      return 2;
    }
    for (const row of chosen) {
      const placement = await tenancy.placementOf(row.id);
      const view = await describeTenantDatabase(handle.db, tenancy, row.id);
      out(
        [
          row.id,
          row.name,
          view.server,
          view.name,
          placement.state,
          view.sizeBytes === null ? '—' : formatBytes(view.sizeBytes),
        ].join('\t'),
      );
    }
    return 0;
  } finally {
    await tenancy.close();
    await handle.close();
  }
}

async function runOperation(
  ops: TenantOperations,
  command: string,
  id: number,
  second: string | undefined,
  givenExport: string | undefined,
  out: (line: string) => void,
): Promise<number> {
  const when = stamp(new Date());
  const exportTo = async (dir: string) => {
    await mkdir(dir, { recursive: true });
    const file = path.resolve(dir, `tenant-${id}-${when}.zip`);
    const manifest = await ops.exportTenant(id, file);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    out(
      `Esportazione del tenant ${id} scritta in ${file} (${manifest.tables.length} tabelle, ${rows} righe).`,
    );
    return file;
  };
  switch (command) {
    case 'backup': {
      const file = path.resolve(second ?? `tenant-${id}-${when}.backup`);
      await ops.backup(id, file);
      out(`Backup del tenant ${id} scritto in ${file} (${formatBytes((await stat(file)).size)}).`);
      return 0;
    }
    case 'restore': {
      const placement = await ops.restore(id, path.resolve(second ?? ''));
      out(
        `Tenant ${id} ripristinato da ${second}: database ${placement.database} sul server ${placement.server}.`,
      );
      return 0;
    }
    case 'export':
      await exportTo(second ?? '.');
      return 0;
    case 'delete': {
      const exportFile = givenExport ? path.resolve(givenExport) : await exportTo(second ?? '.');
      await ops.deleteTenant(id, { exportFile });
      out(`Tenant ${id} eliminato: database, voce della directory e iscrizioni rimossi.`);
      return 0;
    }
    case 'move': {
      const placement = await ops.move(id, second ?? '');
      out(`Tenant ${id} spostato sul server ${placement.server}: database ${placement.database}.`);
      return 0;
    }
    default:
      return 2;
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  // As the server does: .env, with variables already in the environment winning.
  if (existsSync('.env')) process.loadEnvFile('.env');
  runTenantsCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
