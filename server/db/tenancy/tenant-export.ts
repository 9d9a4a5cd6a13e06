/**
 * Everything of one tenant in a form a seller can open (issue 25, operations): a zip with
 *
 *   LEGGIMI.txt                  what is inside, in Italian
 *   manifest.json                tenant, date, release (migrations), tables and row counts
 *   database/<tabella>.csv       every table of the tenant's own database that has rows
 *   controllo/<tabella>.csv      its rows still in the control database: the tenant's own row,
 *                                memberships (user_tenants), its members' identities (users), and
 *                                every other table with a tenant_id column
 *   backup/tenant-<id>.backup    the backup (backup-file.ts): what `npm run tenants -- restore` reads
 *
 * CSVs as the app's exports write them for Excel (csv-stringify, `;`, UTF-8 with BOM, CRLF), one
 * header row of column names. Columns holding secrets (password hashes, encrypted credentials,
 * token digests, TOTP secrets) are left out of the CSVs; they are in the backup, which only
 * Rinnova reads. The zip's comment carries `{"format":"rinnova-tenant-export","tenantId":…}`:
 * deleting a tenant checks the export it was given is of that tenant.
 */
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import yazl from 'yazl';
import type { Database } from '../client';
import { executeRows } from '../rows';
import type { BackupManifest } from './backup-file';

/** Columns never written to a CSV: secrets, sealed or hashed. */
const SECRET_COLUMN = /(password|secret|hash|encrypted|totp|token_digest|search_text)/i;
/** Geography is the ISTAT reference, the same for everyone: not the tenant's data. */
const REFERENCE_TABLES = new Set(['regions', 'provinces', 'municipalities']);
const BATCH = 2_000;

export interface ExportTable {
  /** Where it came from: `database` (the tenant's own) or `controllo` (the control database). */
  from: 'database' | 'controllo';
  table: string;
  rows: number;
  /** Columns left out (secrets). */
  omitted: string[];
}

export interface ExportManifest {
  format: 'rinnova-tenant-export';
  tenantId: number;
  tenantName: string | null;
  createdAt: string;
  migrations: number;
  tables: ExportTable[];
}

interface TableSource {
  db: Database;
  from: ExportTable['from'];
  table: string;
  /** The tenant's rows of it (none: every row). */
  where?: SQL;
}

async function publicTables(db: Database): Promise<string[]> {
  const rows = await executeRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((r) => r.name);
}

async function columnsOf(db: Database, table: string): Promise<string[]> {
  const rows = await executeRows<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
  );
  return rows.map((r) => r.name);
}

/** The tables to export: the tenant's database's, and its rows in the control database. */
export async function exportSources(
  control: Database,
  tenantDb: Database,
  tenantId: number,
): Promise<TableSource[]> {
  const sources: TableSource[] = [];
  for (const table of await publicTables(tenantDb))
    if (!REFERENCE_TABLES.has(table)) sources.push({ db: tenantDb, from: 'database', table });
  const withTenant = await executeRows<{ name: string }>(
    control,
    sql`select c.table_name as name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  sources.push({ db: control, from: 'controllo', table: 'tenants', where: sql`id = ${tenantId}` });
  sources.push({
    db: control,
    from: 'controllo',
    table: 'users',
    where: sql`id in (select user_id from user_tenants where tenant_id = ${tenantId})`,
  });
  for (const { name } of withTenant)
    if (name !== 'tenant_databases')
      sources.push({ db: control, from: 'controllo', table: name, where: sql`tenant_id = ${tenantId}` });
  return sources;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A table's rows as CSV, in batches (by physical row id: no ORDER BY over the whole table). */
async function* csvOf(
  source: TableSource,
  columns: string[],
  counted: { rows: number },
): AsyncGenerator<string> {
  const options = { delimiter: ';', record_delimiter: 'windows' } as const;
  yield stringify([columns], { ...options, bom: true });
  const list = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const filter = source.where ? sql` and (${source.where})` : sql``;
  let after = '(0,0)';
  for (;;) {
    const rows = await executeRows<Record<string, unknown>>(
      source.db,
      sql`select ctid::text as "__ctid", ${list} from ${sql.identifier(source.table)}
          where ctid > ${after}::tid${filter} order by ctid limit ${BATCH}`,
    );
    if (rows.length === 0) return;
    counted.rows += rows.length;
    yield stringify(
      rows.map((row) => columns.map((c) => cell(row[c]))),
      options,
    );
    after = String(rows[rows.length - 1]?.__ctid);
    if (rows.length < BATCH) return;
  }
}

async function hasRows(source: TableSource): Promise<boolean> {
  const filter = source.where ? sql` where ${source.where}` : sql``;
  const rows = await executeRows<{ one: number }>(
    source.db,
    sql`select 1 as one from ${sql.identifier(source.table)}${filter} limit 1`,
  );
  return rows.length > 0;
}

function readme(manifest: ExportManifest, backupName: string): string {
  const lines = [
    `Esportazione completa del tenant ${manifest.tenantId}${manifest.tenantName ? ` (${manifest.tenantName})` : ''}`,
    `Creata il ${manifest.createdAt} da Rinnova.`,
    '',
    'Contenuto:',
    '- database/<tabella>.csv: ogni tabella del database proprio del tenant che ha righe',
    '  (piani, abbonamenti, pagamenti, fatture, ...), una riga per record, con i nomi delle colonne.',
    "- controllo/<tabella>.csv: le righe del tenant ancora nel database di controllo: l'anagrafica",
    '  del tenant (tenants), gli iscritti (user_tenants) e le loro identità (users), e le altre',
    '  tabelle con la colonna tenant_id.',
    `- ${backupName}: il backup del database del tenant, ripristinabile con`,
    '  npm run tenants -- restore <id> <file> (lo legge solo Rinnova).',
    '- manifest.json: tabelle e numero di righe esportate.',
    '',
    'I file CSV si aprono con Excel o LibreOffice: separatore punto e virgola, codifica UTF-8,',
    'date in formato ISO 8601 (UTC). Le colonne con segreti (password, credenziali cifrate,',
    'impronte dei token, segreti TOTP) non sono nei CSV: sono solo nel backup.',
    '',
    'Tabelle:',
    ...manifest.tables.map(
      (t) =>
        `- ${t.from}/${t.table}.csv: ${t.rows} righe${t.omitted.length ? ` (omesse: ${t.omitted.join(', ')})` : ''}`,
    ),
  ];
  return lines.join('\r\n') + '\r\n';
}

/** Writes the export zip to `file` (under another name first: a half-written export is never taken for one). */
export async function writeTenantExport(
  file: string,
  input: {
    control: Database;
    tenantDb: Database;
    backup: { file: string; manifest: BackupManifest };
    createdAt: Date;
  },
): Promise<ExportManifest> {
  const { manifest: backupManifest } = input.backup;
  const tenantId = backupManifest.tenantId;
  const manifest: ExportManifest = {
    format: 'rinnova-tenant-export',
    tenantId,
    tenantName: backupManifest.tenantName,
    createdAt: input.createdAt.toISOString(),
    migrations: backupManifest.migrations,
    tables: [],
  };
  const zip = new yazl.ZipFile();
  const partial = `${file}.partial`;
  const written = pipeline(zip.outputStream, createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => undefined);
  try {
    const mtime = input.createdAt;
    for (const source of await exportSources(input.control, input.tenantDb, tenantId)) {
      if (!(await hasRows(source))) continue;
      const all = await columnsOf(source.db, source.table);
      const columns = all.filter((c) => !SECRET_COLUMN.test(c));
      const entry: ExportTable = {
        from: source.from,
        table: source.table,
        rows: 0,
        omitted: all.filter((c) => SECRET_COLUMN.test(c)),
      };
      // One table at a time: the next is read once this one's entry is written.
      const counted = { rows: 0 };
      const stream = Readable.from(csvOf(source, columns, counted));
      const done = new Promise<void>((resolve, reject) => {
        stream.once('end', resolve);
        stream.once('error', reject);
      });
      zip.addReadStream(stream, `${source.from}/${source.table}.csv`, { mtime });
      await done;
      entry.rows = counted.rows;
      manifest.tables.push(entry);
    }
    const backupName = `backup/tenant-${tenantId}.backup`;
    zip.addFile(input.backup.file, backupName, { mtime, compress: false });
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), 'manifest.json', { mtime });
    zip.addBuffer(Buffer.from(readme(manifest, backupName)), 'LEGGIMI.txt', { mtime });
    zip.end({
      forceZip64Format: false,
      comment: JSON.stringify({ format: manifest.format, tenantId, createdAt: manifest.createdAt }),
    });
    await written;
    await rename(partial, file);
    return manifest;
  } catch (error) {
    (zip.outputStream as unknown as Readable).destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/** The export comment of a zip written by writeTenantExport, or null (not a file, not a zip, not ours). */
export async function readExportComment(
  file: string,
): Promise<{ format: string; tenantId: number; createdAt: string } | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    // The end-of-central-directory record: signature PK\5\6, comment length at 20, comment at 22.
    for (let at = length - 22; at >= 0; at--) {
      if (tail.readUInt32LE(at) !== 0x06054b50) continue;
      const commentLength = tail.readUInt16LE(at + 20);
      try {
        const parsed = JSON.parse(tail.subarray(at + 22, at + 22 + commentLength).toString('utf8')) as {
          format: string;
          tenantId: number;
          createdAt: string;
        };
        return parsed.format === 'rinnova-tenant-export' ? parsed : null;
      } catch {
        return null;
      }
    }
    return null;
  } finally {
    await handle.close();
  }
}
