/**
 * `npm run tenants -- <command>`: the tenant databases from a terminal (issue 25). Reads the same
 * settings as the server (.env, DATABASE_URL or DATA_DIR). On the embedded database the server must
 * be stopped: one process at a time opens a data directory.
 *
 *   list            every tenant: where its database lives, its state and size
 *   where <id>      one tenant's database
 *   migrate         applies this release's migrations to every tenant database behind them
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { asc } from 'drizzle-orm';
import { formatBytes } from '../../../contract/format-bytes';
import { loadConfig, MEMORY_DATA_DIR } from '../../config';
import { openDatabase } from '../client';
import type { DatabaseTarget } from '../client';
import { tenants } from '../schema';
import { describeTenantDatabase } from './describe';
import { createTenantDatabases } from './tenant-databases';

const USAGE = `Uso: npm run tenants -- <comando>
  list          tutti i tenant: dove vive il database, stato e dimensione
  where <id>    il database di un tenant
  migrate       applica le migrazioni ai database dei tenant che ne sono indietro`;

export async function runTenantsCli(
  argv: string[],
  out: (line: string) => void = console.log,
): Promise<number> {
  const [command, arg] = argv;
  if (!command || !['list', 'where', 'migrate'].includes(command)) {
    out(USAGE);
    return command ? 2 : 0;
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
