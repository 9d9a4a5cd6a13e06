/**
 * A private PostgreSQL cluster for the benchmark: Debian's binaries (/usr/lib/postgresql/N/bin),
 * initdb into a temporary folder owned by the postgres user (PostgreSQL refuses to run as root),
 * listening on 127.0.0.1 only. Stopped and removed by `stop()`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { createTenantDatabases, tenantDatabaseName } from '../../server/db/tenancy/tenant-databases';

export interface BenchPostgres {
  url: string;
  stop(): void;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions)
    if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  return null;
}

/** Starts a cluster, or answers why it cannot (no binaries, not root). */
export function startPostgres(port = Number(process.env.BENCH_PG_PORT ?? 5499)): BenchPostgres | string {
  const bin = binDir();
  if (!bin) return 'PostgreSQL non installato (apt-get install postgresql)';
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rinnova-bench-pg-'));
  const run = (cmd: string, args: string[]) => {
    if (asPostgres)
      execFileSync('su', ['postgres', '-c', [path.join(bin, cmd), ...args].map((a) => `'${a}'`).join(' ')], {
        stdio: 'ignore',
      });
    else execFileSync(path.join(bin, cmd), args, { stdio: 'ignore' });
  };
  if (asPostgres) execFileSync('chown', ['postgres:postgres', dir]);
  run('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust']);
  run('pg_ctl', [
    '-D',
    `${dir}/data`,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB`,
    '-w',
    '-l',
    `${dir}/log`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', `${dir}/data`, '-m', 'fast', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The URL of a tenant's own database on the bench's cluster (issue 25: each demo tenant lives in a
 * database of its own; the control database keeps identities, memberships and the directory), read
 * from the tenants directory as the server reads it. Fails if the tenant is still in the control
 * database: a bench that seeds there measures nothing the product reads.
 */
export async function tenantDatabaseUrl(controlUrl: string, tenantId: number): Promise<string> {
  const control = await openDatabase({ kind: 'postgres', url: controlUrl });
  const tenancy = createTenantDatabases({ control });
  try {
    const placement = await tenancy.placementOf(tenantId);
    const controlName = new URL(controlUrl).pathname.replace(/^\//, '');
    if (placement.database !== tenantDatabaseName(controlName, tenantId))
      throw new Error(`tenant ${tenantId} is not in its own database: ${JSON.stringify(placement)}`);
    return tenancy.urlOf(placement.server, placement.database);
  } finally {
    await tenancy.close();
    await control.close();
  }
}
