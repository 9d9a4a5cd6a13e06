/**
 * The file of one tenant's backup (issue 25, operations): a small manifest, then the database.
 *
 *   RINNOVA-TENANT-BACKUP 1\n
 *   {"format":"rinnova-tenant-backup","tenantId":7,"kind":"postgres",…}\n
 *   <payload: `pg_dump -Fc` of the tenant's database, or the embedded database's tar dump>
 *
 * The manifest lets a restore refuse a backup of another tenant, of a newer release (more
 * migrations than this one has) or of the other kind of database, before touching anything.
 * Also the PostgreSQL client tools (pg_dump, pg_restore), run with the server's URL given through
 * the environment (PGHOST, PGUSER, PGPASSWORD…): never on a command line, where `ps` shows it.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import process from 'node:process';
import { tenancyMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';

const MAGIC = 'RINNOVA-TENANT-BACKUP 1\n';
/** The manifest's line is short; anything longer is not one of our files. */
const HEAD_BYTES = 16 * 1024;

export type BackupKind = 'postgres' | 'embedded';

export interface BackupManifest {
  format: 'rinnova-tenant-backup';
  tenantId: number;
  tenantName: string | null;
  kind: BackupKind;
  /** How many migrations the backed-up database had (this release's count when the directory is current). */
  migrations: number;
  /** ISO 8601. */
  createdAt: string;
  /** Where it was taken from (information only). */
  server: string;
  database: string;
}

/** Writes `manifest` then the payload file to `file` (created 0600). */
export async function writeBackupFile(
  file: string,
  manifest: BackupManifest,
  payload: string,
): Promise<void> {
  const out = createWriteStream(file, { mode: 0o600 });
  out.write(MAGIC + JSON.stringify(manifest) + '\n');
  await pipeline(createReadStream(payload), out);
}

/** The manifest of a backup file and where its payload starts; a 400 when it is not a backup. */
export async function readBackupManifest(
  file: string,
): Promise<{ manifest: BackupManifest; offset: number }> {
  const handle = await open(file, 'r').catch(() => {
    throw new HttpError(400, tenancyMessages.notABackup);
  });
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, MAGIC.length).toString('latin1') !== MAGIC)
      throw new HttpError(400, tenancyMessages.notABackup);
    const end = head.indexOf(0x0a, MAGIC.length);
    if (end < 0) throw new HttpError(400, tenancyMessages.notABackup);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(head.subarray(MAGIC.length, end).toString('utf8')) as BackupManifest;
    } catch {
      throw new HttpError(400, tenancyMessages.notABackup);
    }
    if (
      manifest.format !== 'rinnova-tenant-backup' ||
      !Number.isInteger(manifest.tenantId) ||
      !Number.isInteger(manifest.migrations) ||
      (manifest.kind !== 'postgres' && manifest.kind !== 'embedded')
    )
      throw new HttpError(400, tenancyMessages.notABackup);
    return { manifest, offset: end + 1 };
  } finally {
    await handle.close();
  }
}

/** Copies the payload of a backup file (from `offset`) to `to`. */
export async function extractPayload(file: string, offset: number, to: string): Promise<void> {
  await pipeline(createReadStream(file, { start: offset }), createWriteStream(to, { mode: 0o600 }));
}

/**
 * The environment for a PostgreSQL client tool connecting to `database` on the server of `url`:
 * the inherited PG* variables removed (they would override nothing we mean), the URL's parts in
 * their place, the password in PGPASSWORD only.
 */
export function pgToolEnv(url: string, database: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('PG')) env[key] = value;
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, ''));
  env.PGHOST = host || 'localhost';
  env.PGPORT = parsed.port || '5432';
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  env.PGDATABASE = database;
  env.PGAPPNAME = 'rinnova-tenants';
  env.PGCONNECT_TIMEOUT = '10';
  return env;
}

/** Runs a PostgreSQL client tool; rejects with its last lines of stderr (never its environment). */
export function runPgTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', (error) => reject(new Error(`${command}: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${command} (${signal ?? `uscita ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' ')}`,
          ),
        );
    });
  });
}
