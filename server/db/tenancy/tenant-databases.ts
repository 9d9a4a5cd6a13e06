/**
 * Where each tenant's data lives, and the connections to it (issue 25; contract 'Tenancy').
 *
 * The control database holds the directory (`tenant_databases`): for each tenant, the server its
 * database is on and the database's name. A tenant with no entry, or whose entry names no
 * database, still has its rows in the control database (every install made before databases per
 * tenant) and is served by the control database's pool, exactly as before.
 *
 * `connectionFor(tenantId)` answers at once a drizzle database for the tenant; its pool is a
 * router that finds the tenant's placement on first use (cached; re-read after `directoryTtlMs`,
 * or at once after `invalidate`), then connects:
 * - PostgreSQL: a small pool per tenant database (`perTenant` connections), opened lazily, its
 *   connections closed after `idleMs` without use, all tenant pools under one cap
 *   (`maxConnections`): at the cap a new connection waits, an idle tenant pool is closed for it, and
 *   a connection given back while others wait is closed rather than kept.
 * - Embedded: each tenant's PGlite, under `<dataDir>/tenants/<id>`, is opened beside the control
 *   database in the same database process on first use and closed once idle.
 * A tenant whose database cannot be reached (stopped, dropped, 'unavailable' in the directory)
 * fails with TenantDatabaseUnavailable: a 503 with an Italian message, on that tenant's calls only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, getTableColumns, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { tenancyMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import { markEmbedded, migrationsFolder as defaultMigrations } from '../client';
import type { Database, DatabaseHandle } from '../client';
import { startEmbeddedDatabase } from '../embedded/embedded';
import { copyGeography } from './reference-data';
import { executeRows } from '../rows';
import type { EmbeddedDatabase } from '../embedded/embedded';
import * as schema from '../schema';
import { tenantDatabases, tenants } from '../schema';

export type TenantDatabaseState = 'ready' | 'readOnly' | 'unavailable';

/** A directory entry: `database` null means the tenant's rows are in the control database. */
export interface TenantPlacement {
  tenantId: number;
  server: string;
  database: string | null;
  state: TenantDatabaseState;
  version: number;
}

/** The control database's own server in the directory. */
export const CONTROL_SERVER = 'control';
/** The embedded database process in the directory. */
export const EMBEDDED_SERVER = 'embedded';

/**
 * The name of a tenant's database: the control database's name (so two installs, or two test
 * files, on one server never share a name; 'rinnova' for the server's default 'postgres') and the
 * tenant's id. Lower case, digits and underscores only: a safe PostgreSQL identifier.
 */
export function tenantDatabaseName(controlDatabase: string, tenantId: number): string {
  return `${tenantDatabaseBase(controlDatabase)}_t${tenantId}`;
}

/** What tenant databases' names (and their template's) start with, given the control database's. */
function tenantDatabaseBase(controlDatabase: string): string {
  const base = controlDatabase === 'postgres' || controlDatabase === '' ? 'rinnova' : controlDatabase;
  if (!/^[a-z_][a-z0-9_]*$/.test(base))
    throw new Error(`control database name '${base}' is not a plain identifier`);
  return base;
}

/** A tenant whose database cannot be reached: 503, on its own calls only. */
export class TenantDatabaseUnavailable extends HttpError {
  constructor(
    readonly tenantId: number,
    cause?: unknown,
  ) {
    super(503, tenancyMessages.unavailable);
    this.name = 'TenantDatabaseUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

/** A tenant being moved or backed up into a move: reads work, writes answer 503. */
export class TenantDatabaseReadOnly extends HttpError {
  constructor(readonly tenantId: number) {
    super(503, tenancyMessages.readOnly);
    this.name = 'TenantDatabaseReadOnly';
  }
}

/**
 * A tenant's pool gave no connection within its connect timeout (the server saturated, not the
 * database gone): 503 with Retry-After, and the pool is kept (retiring a healthy pool under load
 * would only make the next call open a new backend).
 */
export class TenantDatabaseBusy extends HttpError {
  constructor(
    readonly tenantId: number,
    cause?: unknown,
  ) {
    super(503, tenancyMessages.busy, { headers: { 'retry-after': '5' } });
    this.name = 'TenantDatabaseBusy';
    if (cause !== undefined) this.cause = cause;
  }
}

/** pg-pool's error when neither an idle connection nor a new one came within connectionTimeoutMillis. */
export const isPoolTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'timeout exceeded when trying to connect';

/** The tenant-database error behind `error` (drizzle wraps what the connection throws), if any. */
export function tenantDatabaseErrorOf(
  error: unknown,
): TenantDatabaseUnavailable | TenantDatabaseReadOnly | TenantDatabaseBusy | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (
      e instanceof TenantDatabaseUnavailable ||
      e instanceof TenantDatabaseReadOnly ||
      e instanceof TenantDatabaseBusy
    )
      return e;
  return undefined;
}

/** SQLSTATE classes and socket errors that mean "the database is not there", not "the query is wrong". */
const UNREACHABLE_CODES = new Set([
  '3D000', // invalid_catalog_name: the database was dropped
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
  );
}

const READ_ONLY_CODE = '25006'; // read_only_sql_transaction

export interface TenantDatabasesOptions {
  /** The control database (directory, identities, job engine). */
  control: DatabaseHandle;
  /**
   * PostgreSQL servers tenant databases may be created on, by name → a connection URL to any
   * database of that server with the rights to create databases (its path is replaced). The
   * control database's server is always there as 'control'.
   */
  servers?: Record<string, string>;
  /** Embedded: where tenant databases' files go (`<dataDir>/tenants/<id>`); undefined keeps them in memory. */
  dataDir?: string | undefined;
  migrationsFolder?: string;
  /** Connections per tenant database (default 3; 1 on the embedded database, which is one session). */
  perTenant?: number;
  /** All tenant databases' connections together (default 60). */
  maxConnections?: number;
  /** A tenant's idle connections close after this long, an idle embedded database too (default 30 s). */
  idleMs?: number;
  /** How long a call waits for a connection of its tenant's pool before a 503 'busy' (default 10 s). */
  connectTimeoutMs?: number;
  /** How long a placement read from the directory is trusted (default 5 s). */
  directoryTtlMs?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** A tenant's open database: its pool, and on the embedded database the PGlite behind it. */
interface Open {
  placement: TenantPlacement;
  pool: pg.Pool;
  embedded?: EmbeddedDatabase;
  /** Connections checked out now. */
  active: number;
  lastUsed: number;
  closing?: Promise<void>;
}

interface Cached {
  placement: TenantPlacement;
  readAt: number;
  /** Last asked for: the refresh keeps only the entries of tenants in use fresh. */
  usedAt: number;
}

export interface TenantDatabaseStats {
  /** Tenant databases with an open pool. */
  open: number;
  /** Connections open to tenant databases (the control database's pool not counted). */
  connections: number;
  /** Requests waiting for a connection because of the cap. */
  waiting: number;
}

export interface TenantDatabases {
  /** The tenant's database: a drizzle database whose pool routes to the tenant's placement. */
  connectionFor(tenantId: number): Database;
  /**
   * The databases of the tenants that have one of their own and can be reached (jobs and sweeps
   * that walk every database: the control database holds the other tenants').
   */
  ownDatabases(): Promise<Database[]>;
  /** The tenant's directory entry (a tenant without one: in the control database). */
  placementOf(tenantId: number): Promise<TenantPlacement>;
  /**
   * Creates the tenant's database (on `server`, else the configured server with the fewest
   * tenants; embedded: beside the control database), applies the migrations and records it in
   * the directory. Refused when the tenant already has a database of its own.
   */
  create(
    tenantId: number,
    server?: string,
    options?: { state?: TenantDatabaseState },
  ): Promise<TenantPlacement>;
  /**
   * The tenant's database even while 'unavailable', for the command filling it (a split, a
   * restore); never for a request.
   */
  maintenanceConnection(tenantId: number): Database;
  /**
   * After the tenant's row changed in the control database (its name, fiscal profile, PEC settings):
   * the copy in its own database, which its invoices read, made the same. Nothing while it has none.
   */
  refreshTenant(tenantId: number): Promise<void>;
  /** A short-lived connection to a configured server's maintenance database (CREATE/DROP DATABASE). */
  withServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T>;
  /** How long another app instance may still use a placement it read before a change (its cache). */
  readonly directoryTtlMs: number;
  /** Applies the migrations that have not run on the tenant's database (an upgrade). */
  migrate(tenantId: number): Promise<void>;
  /**
   * Applies the migrations to every tenant database the directory records as behind (a start
   * after an upgrade), a few at a time; a tenant that fails is reported, the others go on.
   */
  upgradeAll(): Promise<{ upgraded: number; failed: number[] }>;
  /**
   * Drops the tenant's database and its directory entry (its rows in other databases stay).
   * `placement`: the database to drop when its entry is already gone (a deleted tenant).
   */
  drop(tenantId: number, placement?: TenantPlacement): Promise<void>;
  /** Bytes the tenant's database takes (its own database; null while it is in the control database). */
  sizeOf(tenantId: number): Promise<number | null>;
  /** Changes the tenant's state in the directory (and forgets what this instance cached of it). */
  setState(tenantId: number, state: TenantDatabaseState): Promise<void>;
  /** Forgets the cached placement of a tenant (all tenants without argument): re-read on next use. */
  invalidate(tenantId?: number): Promise<void>;
  /** The servers tenants can be placed on. */
  servers(): string[];
  // For the operations on one tenant (operations.ts: backup, restore, move, delete).
  /** The control database these tenant databases are listed in. */
  readonly control: DatabaseHandle;
  /** This release's migrations: their folder and how many there are. */
  release(): { migrationsFolder: string; migrations: number };
  /** PostgreSQL: a connection URL to `database` on the configured `server` (throws for an unknown one). */
  urlOf(server: string, database: string): string;
  /**
   * Records where the tenant's database now is (restore, move): a new version, so this instance's
   * pool of the old placement is retired at once and other instances' once their cache expires.
   */
  record(placement: Omit<TenantPlacement, 'version'>, migrations?: number): Promise<TenantPlacement>;
  /** Embedded: writes a dump (uncompressed tar) of the tenant's database to `file`. */
  dumpEmbedded(tenantId: number, file: string): Promise<void>;
  /**
   * Embedded: opens a new database from the dump `file`, runs `prepare` on a pool to it (checks,
   * migrations of an older release), and only then, with the tenant 'unavailable' for the swap,
   * puts it in place of the tenant's database. A failure before the swap leaves the tenant's
   * database as it was. The entry's state is left 'unavailable': the caller records it ready.
   */
  replaceEmbedded(tenantId: number, file: string, prepare: (pool: pg.Pool) => Promise<void>): Promise<void>;
  stats(): TenantDatabaseStats;
  /** Closes every tenant pool and embedded tenant database (not the control database). */
  close(): Promise<void>;
}

export function createTenantDatabases(options: TenantDatabasesOptions): TenantDatabases {
  const control = options.control;
  const embedded = control.kind === 'pglite';
  const folder = options.migrationsFolder ?? defaultMigrations;
  const migrationCount = (
    JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
  ).entries.length;
  const perTenant = options.perTenant ?? (embedded ? 1 : 3);
  const maxConnections = options.maxConnections ?? 60;
  const idleMs = options.idleMs ?? 30_000;
  /** Connections kept free under the cap (see trim): a tenth of it, none under a cap of 10. */
  const headroom = Math.floor(maxConnections / 10);
  const ttl = options.directoryTtlMs ?? 5_000;
  const serverUrls = new Map<string, string>();
  if (control.url) serverUrls.set(CONTROL_SERVER, control.url);
  for (const [name, url] of Object.entries(options.servers ?? {})) serverUrls.set(name, url);

  const cache = new Map<number, Cached>();
  const opens = new Map<number, Open>();
  const opening = new Map<number, Promise<Open | null>>();
  const handles = new Map<number, Database>();
  let connections = 0;
  let reserved = 0;
  const waiters: Array<() => void> = [];
  let closed = false;

  const wake = () => {
    const next = waiters.shift();
    if (next) next();
  };

  function urlOf(server: string, database: string): string {
    const base = serverUrls.get(server);
    if (!base) throw new Error(`tenant database server '${server}' is not configured`);
    const url = new URL(base);
    url.pathname = `/${database}`;
    return url.toString();
  }

  const placementFrom = (
    tenantId: number,
    row: typeof tenantDatabases.$inferSelect | undefined,
  ): TenantPlacement =>
    row
      ? {
          tenantId,
          server: row.server,
          database: row.database,
          state: row.state as TenantDatabaseState,
          version: row.version,
        }
      : { tenantId, server: CONTROL_SERVER, database: null, state: 'ready', version: 0 };

  async function readPlacement(tenantId: number): Promise<TenantPlacement> {
    const [row] = await control.db
      .select()
      .from(tenantDatabases)
      .where(eq(tenantDatabases.tenantId, tenantId));
    return placementFrom(tenantId, row);
  }

  /** A placement read now: cached, and the tenant's pool of an older version retired. */
  function remember(placement: TenantPlacement, readAt: number, usedAt: number): void {
    cache.set(placement.tenantId, { placement, readAt, usedAt });
    const current = opens.get(placement.tenantId);
    if (current && current.placement.version !== placement.version) void retire(placement.tenantId, current);
  }

  async function placementOf(tenantId: number): Promise<TenantPlacement> {
    const now = Date.now();
    const hit = cache.get(tenantId);
    if (hit) hit.usedAt = now;
    if (hit && now - hit.readAt < ttl) return hit.placement;
    const placement = await readPlacement(tenantId);
    remember(placement, now, now);
    return placement;
  }

  /**
   * The cached entries of the tenants in use, read again together before they expire: one query
   * every ttl/2 instead of one per call of every tenant whose entry is older than the ttl (with
   * traffic over many tenants, nearly every call). An entry is trusted no longer than before: it is
   * refreshed or it expires. An entry forgotten meanwhile (invalidate, a change made here) stays
   * forgotten: a row read before the change must not come back.
   */
  async function refreshDirectory(): Promise<void> {
    const now = Date.now();
    const due = [...cache.entries()].filter(
      ([, c]) => now - c.readAt >= ttl / 2 && now - c.usedAt < Math.max(idleMs, ttl),
    );
    for (const [id, c] of cache) if (now - c.usedAt >= Math.max(idleMs, ttl)) cache.delete(id);
    const byId = new Map<number, typeof tenantDatabases.$inferSelect>();
    for (let i = 0; i < due.length; i += 5_000) {
      const ids = due.slice(i, i + 5_000).map(([id]) => id);
      const rows = await control.db
        .select()
        .from(tenantDatabases)
        .where(inArray(tenantDatabases.tenantId, ids));
      for (const row of rows) byId.set(row.tenantId, row);
    }
    for (const [id, before] of due)
      if (cache.get(id) === before) remember(placementFrom(id, byId.get(id)), now, before.usedAt);
  }
  let refreshing = false;
  const refresher =
    ttl >= 500
      ? setInterval(() => {
          if (refreshing || closed) return;
          refreshing = true;
          refreshDirectory()
            .catch(() => undefined) // the entries expire as before; the next call reads its own
            .finally(() => (refreshing = false));
        }, ttl / 2)
      : undefined;
  refresher?.unref();

  /**
   * Embedded databases in memory (DATA_DIR=:memory:, tests): closing one would lose it, so they stay
   * open until dropped or until close().
   */
  const inMemory = new Map<number, EmbeddedDatabase>();

  /**
   * Closes a tenant's pool (after its checked-out connections come back) and its embedded database
   * (one kept in memory only when `forget`: dropped).
   */
  function retire(tenantId: number, open: Open, forget = false): Promise<void> {
    if (opens.get(tenantId) === open) opens.delete(tenantId);
    return (open.closing ??= (async () => {
      await open.pool.end().catch(() => undefined);
      if (open.embedded && (options.dataDir || forget)) {
        inMemory.delete(tenantId);
        await open.embedded.close().catch(() => undefined);
      }
    })());
  }

  /**
   * Embedded: a dump of a new tenant database with every migration applied and no row, made by the
   * first creation and loaded by the next ones (PGlite's initdb and the migrations take seconds of
   * WebAssembly; loading the dump a fraction of one). Named by the migration count, so an upgrade
   * makes a new one.
   */
  const templateFile = path.join(
    options.dataDir ? path.join(options.dataDir, 'tenants') : os.tmpdir(),
    options.dataDir
      ? `template-${migrationCount}.tar`
      : `rinnova-tenant-template-${process.pid}-${migrationCount}.tar`,
  );
  /** Tenants being created from the template. */
  const loadFrom = new Map<number, string>();

  async function openEmbedded(tenantId: number): Promise<EmbeddedDatabase> {
    if (!control.embedded) throw new Error('no embedded database to open beside');
    const dataDir = options.dataDir ? path.join(options.dataDir, 'tenants', String(tenantId)) : undefined;
    if (dataDir) await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o700 });
    const template = loadFrom.get(tenantId);
    const database = await startEmbeddedDatabase({
      alongside: control.embedded,
      ...(dataDir ? { dataDir } : {}),
      ...(template ? { loadDataDir: template } : {}),
      onUnexpectedExit: () => cache.delete(tenantId),
    });
    await database.ready;
    return database;
  }

  function newPool(placement: TenantPlacement, database: EmbeddedDatabase | undefined): pg.Pool {
    const readOnly = placement.state === 'readOnly' ? { options: '-c default_transaction_read_only=on' } : {};
    const pool = database
      ? new pg.Pool({
          host: database.socketDir,
          port: 5432,
          user: 'postgres',
          database: 'postgres',
          max: perTenant,
        })
      : new pg.Pool({
          connectionString: urlOf(placement.server, placement.database ?? ''),
          max: perTenant,
          idleTimeoutMillis: idleMs,
          connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
          ...readOnly,
        });
    pool.on('error', () => {});
    pool.on('connect', () => void connections++);
    pool.on('remove', () => {
      connections--;
      wake();
    });
    return pool;
  }

  /**
   * The tenant's open database, opened now if needed; null when the tenant is in the control
   * database. `maintenance`: opened even while 'unavailable' (a split or restore filling it).
   */
  async function openFor(tenantId: number, maintenance = false): Promise<Open | null> {
    if (closed) throw new TenantDatabaseUnavailable(tenantId);
    const placement = await placementOf(tenantId);
    if (placement.state === 'unavailable' && !maintenance) throw new TenantDatabaseUnavailable(tenantId);
    if (placement.database === null) return null;
    const current = opens.get(tenantId);
    if (current && current.placement.version === placement.version) return current;
    const pending = opening.get(tenantId);
    if (pending) return pending;
    const work = (async () => {
      try {
        const database = embedded ? (inMemory.get(tenantId) ?? (await openEmbedded(tenantId))) : undefined;
        if (database && !options.dataDir) inMemory.set(tenantId, database);
        const open: Open = { placement, pool: newPool(placement, database), active: 0, lastUsed: Date.now() };
        if (database) open.embedded = database;
        opens.set(tenantId, open);
        return open;
      } catch (error) {
        throw new TenantDatabaseUnavailable(tenantId, error);
      }
    })();
    opening.set(tenantId, work);
    // Forgotten once settled (after the set: on PostgreSQL the work above may settle at once).
    const forget = () => void (opening.get(tenantId) === work && opening.delete(tenantId));
    work.then(forget, forget);
    return work;
  }

  /** The least recently used tenant whose pool has connections and none checked out. */
  function leastRecentlyUsedIdle(except?: number): [number, Open] | undefined {
    let found: [number, Open] | undefined;
    for (const entry of opens) {
      const [id, o] = entry;
      if (id === except || o.active > 0 || o.pool.totalCount === 0) continue;
      if (!found || o.lastUsed < found[1].lastUsed) found = entry;
    }
    return found;
  }

  /** Waits for room under the cap: closes an idle tenant's pool for it, else waits for one to free. */
  async function slot(tenantId: number): Promise<void> {
    for (;;) {
      if (connections + reserved < maxConnections) {
        reserved++;
        return;
      }
      const idle = leastRecentlyUsedIdle(tenantId);
      if (idle) {
        await retire(idle[0], idle[1]);
        continue;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  /**
   * Keeps `headroom` connections free under the cap by closing the least recently used idle
   * tenants' pools in the background, so that a call of a tenant without a connection opens one at
   * once instead of first waiting for another tenant's to close (a round trip to a backend that
   * must exit). Connections still closing count against the cap until they are gone: slot() stays
   * the guard of the cap, this only makes it rarely wait.
   */
  function trim(): void {
    if (headroom === 0 || closed) return;
    let live = 0;
    for (const o of opens.values()) live += o.pool.totalCount;
    // The others (connections - live) are on their way out: their pool retired, their backend not gone yet.
    let projected = live + reserved;
    for (let victim = leastRecentlyUsedIdle(); victim && projected > maxConnections - headroom;) {
      projected -= victim[1].pool.totalCount;
      void retire(victim[0], victim[1]);
      victim = leastRecentlyUsedIdle();
    }
  }

  const wrapped = Symbol('tenantClient');

  /** A connection to the tenant's database (the control database's for a tenant still there). */
  async function acquire(tenantId: number, maintenance = false): Promise<pg.PoolClient> {
    for (;;) {
      const open = await openFor(tenantId, maintenance);
      if (open === null) return control.pool.connect();
      // Held from here: a pool with a caller waiting for room is not idle, so the cap's eviction
      // and the idle sweep leave it open (before, a waiter could find its pool ended under it).
      open.active++;
      open.lastUsed = Date.now();
      const grows = !open.embedded && open.pool.idleCount === 0 && open.pool.totalCount < perTenant;
      let client: pg.PoolClient;
      try {
        if (grows) await slot(tenantId);
        try {
          // Retired meanwhile (a placement change, setState): start again on the new placement.
          if (open.closing) {
            open.active--;
            continue;
          }
          client = await open.pool.connect();
        } finally {
          if (grows) reserved--;
        }
        if (grows) trim();
      } catch (error) {
        open.active--;
        if (isPoolTimeout(error)) throw new TenantDatabaseBusy(tenantId, error);
        if (isUnreachable(error)) {
          cache.delete(tenantId);
          void retire(tenantId, open);
          throw new TenantDatabaseUnavailable(tenantId, error);
        }
        throw error;
      }
      return wrap(tenantId, open, client);
    }
  }

  /** The tenant's connection: its errors mapped to 503s, its release counted and, under the cap, closed. */
  function wrap(tenantId: number, open: Open, client: pg.PoolClient): pg.PoolClient {
    const marked = client as pg.PoolClient & { [wrapped]?: true };
    if (!marked[wrapped]) {
      marked[wrapped] = true;
      // A connection lost while checked out (the tenant's database dropped or its server stopped
      // under a query) emits 'error' besides failing its query: without a listener that would end
      // the whole process, not just this tenant's call.
      client.on('error', () => cache.delete(tenantId));
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args) => {
        try {
          return await query(...args);
        } catch (error) {
          if ((error as { code?: unknown }).code === READ_ONLY_CODE)
            throw new TenantDatabaseReadOnly(tenantId);
          if (isUnreachable(error)) {
            cache.delete(tenantId);
            throw new TenantDatabaseUnavailable(tenantId, error);
          }
          throw error;
        }
      };
    }
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      client.release = release;
      open.active--;
      open.lastUsed = Date.now();
      // Someone waits for room under the cap: this connection closes rather than stay idle, unless
      // a caller of this tenant waits in its pool's own queue (closing it would make the pool open
      // a new one for that caller, outside the cap).
      if (waiters.length > 0 && !error && open.pool.waitingCount === 0) return release(true);
      return release(error);
    };
    return client;
  }

  /** A pool-shaped router drizzle talks to (its name holds "Pool": drizzle checks for it). */
  class TenantRouterPool {
    constructor(
      private readonly tenantId: number,
      private readonly maintenance = false,
    ) {}
    connect(): Promise<pg.PoolClient> {
      return acquire(this.tenantId, this.maintenance);
    }
    async query(...args: unknown[]): Promise<unknown> {
      const client = await acquire(this.tenantId, this.maintenance);
      try {
        return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        client.release();
      }
    }
    on(): this {
      return this;
    }
  }

  // Idle tenants: their pools end (their connections already closed by idleTimeoutMillis on
  // PostgreSQL), their embedded databases close. Cached placements expire on their own.
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [tenantId, open] of opens)
        if (open.active === 0 && now - open.lastUsed >= idleMs) void retire(tenantId, open);
    },
    Math.max(250, Math.floor(idleMs / 2)),
  );
  sweeper.unref();

  async function leastUsedServer(): Promise<string> {
    if (embedded) return EMBEDDED_SERVER;
    const names = [...serverUrls.keys()];
    const rows = await control.db
      .select({ server: tenantDatabases.server, n: sql<number>`count(*)::int` })
      .from(tenantDatabases)
      .groupBy(tenantDatabases.server);
    const count = (name: string) => rows.find((r) => r.server === name)?.n ?? 0;
    return names.reduce(
      (best, name) => (count(name) < count(best) ? name : best),
      names[0] ?? CONTROL_SERVER,
    );
  }

  async function withServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: urlOf(server, 'postgres') });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Work on the open database outside acquire(): counted as in use, so the idle sweep leaves it open. */
  async function busy<T>(open: Open, work: () => Promise<T>): Promise<T> {
    open.active++;
    try {
      return await work();
    } finally {
      open.active--;
      open.lastUsed = Date.now();
    }
  }

  async function migrateOpen(open: Open): Promise<void> {
    const db = drizzlePg({ client: open.pool, schema });
    await busy(open, () => migratePg(db, { migrationsFolder: folder }));
    await control.db
      .update(tenantDatabases)
      .set({ migrations: migrationCount })
      .where(eq(tenantDatabases.tenantId, open.placement.tenantId));
  }

  /**
   * The geography and the tenant's own row, copied into its database: the tenant-owned tables there
   * reference them (`tenant_id` stays a second guard, with its foreign key, in every database).
   */
  async function copyTenantRow(tenantId: number, open: Open, geography = true): Promise<void> {
    const [row] = await control.db.select().from(tenants).where(eq(tenants.id, tenantId));
    if (!row) throw new Error(`tenant ${tenantId} does not exist`);
    await busy(open, async () => {
      const db = drizzlePg({ client: open.pool, schema }) as unknown as Database;
      if (geography) await copyGeography(control.db, db);
      await writeTenantRow(db, row, false);
    });
  }

  /**
   * PostgreSQL: what a new tenant database starts from, on each server: `<control>_tenant_template`,
   * every migration applied and the control database's geography copied, no tenant row. A creation
   * copies it (`CREATE DATABASE … TEMPLATE`: a file-level copy, about 0.2 s, where the migrations
   * and the geography took about 1 s, and under load 2.7 s at p95). Its comment records the
   * migration count and a digest of the geography it holds: an upgrade or an edit of the geography
   * makes the next creation rebuild it. Built and copied under an advisory lock on the server's
   * maintenance database (two app instances, or two creations of one, build it once; a copy needs
   * the template without sessions, which only the lock holder opens). A half-built one has no
   * comment, so it is rebuilt.
   */
  async function createFromTemplate(server: string, client: pg.Client, base: string, database: string) {
    const template = `${base}_tenant_template`;
    const [digest] = await executeRows<{ digest: string }>(
      control.db,
      sql`select md5(
        (select coalesce(string_agg(r::text, '|' order by r.id), '') from regions r) ||
        (select coalesce(string_agg(p::text, '|' order by p.id), '') from provinces p) ||
        (select coalesce(string_agg(m::text, '|' order by m.id), '') from municipalities m)) as digest`,
    );
    const want = `rinnova tenant template: ${migrationCount} migrations, geography ${digest?.digest ?? ''}`;
    await client.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rows } = await client.query<{ comment: string | null }>(
        "select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1",
        [template],
      );
      if (rows[0]?.comment !== want) {
        await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${template}`);
        const pool = new pg.Pool({ connectionString: urlOf(server, template), max: 1 });
        pool.on('error', () => {});
        try {
          const db = drizzlePg({ client: pool, schema });
          await migratePg(db, { migrationsFolder: folder });
          await copyGeography(control.db, db as unknown as Database);
        } finally {
          await pool.end();
        }
        await client.query(`COMMENT ON DATABASE ${template} IS ${client.escapeLiteral(want)}`);
      }
      await client.query(`CREATE DATABASE ${database} TEMPLATE ${template}`);
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [template]).catch(() => undefined);
    }
  }

  /** The control database's row of the tenant written over its database's copy. */
  async function refreshTenantRow(tenantId: number, db: Database): Promise<void> {
    const [row] = await control.db.select().from(tenants).where(eq(tenants.id, tenantId));
    if (!row) return;
    await writeTenantRow(db, row, true);
  }

  /**
   * The tenant's row written into its database, with only the columns that database's `tenants`
   * has: a database still at an earlier release's migrations (its upgrade not run yet, or failed)
   * takes the copy it can hold, and a column added since gets its default when the upgrade
   * reaches it. (Drizzle's insert names every column of the table, so this one is written out.)
   */
  async function writeTenantRow(
    db: Database,
    row: typeof tenants.$inferSelect,
    overwrite: boolean,
  ): Promise<void> {
    const present = new Set(
      (
        await executeRows<{ column_name: string }>(
          db,
          sql`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'tenants'`,
        )
      ).map((c) => c.column_name),
    );
    const columns = getTableColumns(tenants);
    const written = (Object.keys(row) as (keyof typeof columns)[])
      .map((key) => ({ column: columns[key], value: row[key] }))
      .filter(({ column }) => present.has(column.name));
    const names = sql.join(
      written.map(({ column }) => sql.identifier(column.name)),
      sql`, `,
    );
    const values = sql.join(
      written.map(({ column, value }) =>
        value === null ? sql`null` : sql`${column.mapToDriverValue(value as never)}`,
      ),
      sql`, `,
    );
    const update = sql.join(
      written
        .filter(({ column }) => column.name !== 'id')
        .map(({ column }) => sql`${sql.identifier(column.name)} = excluded.${sql.identifier(column.name)}`),
      sql`, `,
    );
    await db.execute(
      overwrite
        ? sql`insert into tenants (${names}) values (${values}) on conflict (id) do update set ${update}`
        : sql`insert into tenants (${names}) values (${values}) on conflict do nothing`,
    );
  }

  async function upsert(placement: Omit<TenantPlacement, 'version'>): Promise<TenantPlacement> {
    const [row] = await control.db
      .insert(tenantDatabases)
      .values({
        tenantId: placement.tenantId,
        server: placement.server,
        database: placement.database,
        state: placement.state,
      })
      .onConflictDoUpdate({
        target: tenantDatabases.tenantId,
        set: {
          server: placement.server,
          database: placement.database,
          state: placement.state,
          version: sql`${tenantDatabases.version} + 1`,
          movedAt: sql`now()`,
        },
      })
      .returning();
    cache.delete(placement.tenantId);
    return { ...placement, version: row?.version ?? 1 };
  }

  return {
    control,
    connectionFor(tenantId) {
      let db = handles.get(tenantId);
      if (!db) {
        const router = new TenantRouterPool(tenantId);
        if (embedded) markEmbedded(router);
        db = drizzlePg({ client: router as unknown as pg.Pool, schema }) as unknown as Database;
        handles.set(tenantId, db);
      }
      return db;
    },
    placementOf: (tenantId) => placementOf(tenantId),
    async ownDatabases() {
      const rows = await control.db
        .select({ tenantId: tenantDatabases.tenantId })
        .from(tenantDatabases)
        .where(and(isNotNull(tenantDatabases.database), eq(tenantDatabases.state, 'ready')));
      return rows.map((r) => this.connectionFor(r.tenantId));
    },
    maintenanceConnection(tenantId) {
      const router = new TenantRouterPool(tenantId, true);
      if (embedded) markEmbedded(router);
      return drizzlePg({ client: router as unknown as pg.Pool, schema }) as unknown as Database;
    },
    withServer,
    directoryTtlMs: ttl,
    async refreshTenant(tenantId) {
      if ((await placementOf(tenantId)).database === null) return;
      await refreshTenantRow(tenantId, this.maintenanceConnection(tenantId));
    },
    async create(tenantId, server, createOptions = {}) {
      const existing = await readPlacement(tenantId);
      if (existing.database !== null) throw new Error(`tenant ${tenantId} already has its database`);
      const target = server ?? (await leastUsedServer());
      const controlName = control.url
        ? decodeURIComponent(new URL(control.url).pathname.slice(1))
        : 'rinnova';
      const database = tenantDatabaseName(controlName, tenantId);
      /** The database was copied from the template: migrated, with its geography. */
      let copied = false;
      if (!embedded) {
        await withServer(target, async (client) => {
          const { rows } = await client.query('select 1 from pg_database where datname = $1', [database]);
          if (rows.length > 0) return;
          await createFromTemplate(target, client, tenantDatabaseBase(controlName), database);
          copied = true;
        });
      } else if (options.dataDir) {
        // A directory left by an earlier, failed creation starts clean.
        await rm(path.join(options.dataDir, 'tenants', String(tenantId)), { recursive: true, force: true });
      }
      const placement = await upsert({
        tenantId,
        server: target,
        database,
        state: createOptions.state ?? 'ready',
      });
      try {
        const fromTemplate = embedded && existsSync(templateFile);
        if (fromTemplate) loadFrom.set(tenantId, templateFile);
        const open = await openFor(tenantId, true).finally(() => loadFrom.delete(tenantId));
        if (open) {
          await migrateOpen(open);
          const dump = open.embedded?.dump.bind(open.embedded);
          if (dump && !fromTemplate) {
            // Written under another name and renamed: a half-written template is never loaded.
            const partial = `${templateFile}.${process.pid}.${tenantId}.partial`;
            await busy(open, () => dump(partial));
            await rename(partial, templateFile);
          }
          await copyTenantRow(tenantId, open, !copied);
        }
      } catch (error) {
        await this.drop(tenantId).catch(() => undefined);
        throw error;
      }
      return placement;
    },
    async migrate(tenantId) {
      const open = await openFor(tenantId, true);
      if (open) await migrateOpen(open);
    },
    async upgradeAll() {
      const behind = await control.db
        .select({ tenantId: tenantDatabases.tenantId })
        .from(tenantDatabases)
        .where(and(isNotNull(tenantDatabases.database), lt(tenantDatabases.migrations, migrationCount)));
      const failed: number[] = [];
      let upgraded = 0;
      const queue = behind.map((r) => r.tenantId);
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            await this.migrate(id);
            upgraded++;
          } catch (error) {
            failed.push(id);
            options.log?.warn({ tenantId: id, err: error }, 'tenant database upgrade failed');
          }
        }
      };
      await Promise.all(Array.from({ length: embedded ? 1 : 4 }, worker));
      return { upgraded, failed };
    },
    async drop(tenantId, given) {
      const placement = given ?? (await readPlacement(tenantId));
      const open = opens.get(tenantId);
      if (open) await retire(tenantId, open, true);
      await inMemory.get(tenantId)?.close();
      inMemory.delete(tenantId);
      if (placement.database !== null) {
        if (embedded) {
          if (options.dataDir)
            await rm(path.join(options.dataDir, 'tenants', String(tenantId)), {
              recursive: true,
              force: true,
            });
        } else {
          const name = placement.database;
          await withServer(placement.server, (client) =>
            client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
          );
        }
      }
      await control.db.delete(tenantDatabases).where(eq(tenantDatabases.tenantId, tenantId));
      cache.delete(tenantId);
    },
    async sizeOf(tenantId) {
      const placement = await placementOf(tenantId);
      if (placement.database === null) return null;
      const [row] = await executeRows<{ size: string }>(
        this.connectionFor(tenantId),
        sql`select pg_database_size(current_database())::text as size`,
      );
      return Number(row?.size ?? 0);
    },
    async setState(tenantId, state) {
      await control.db
        .update(tenantDatabases)
        .set({ state, version: sql`${tenantDatabases.version} + 1` })
        .where(eq(tenantDatabases.tenantId, tenantId));
      cache.delete(tenantId);
      const open = opens.get(tenantId);
      if (open) await retire(tenantId, open);
    },
    async invalidate(tenantId) {
      if (tenantId === undefined) cache.clear();
      else cache.delete(tenantId);
    },
    servers: () => (embedded ? [EMBEDDED_SERVER] : [...serverUrls.keys()]),
    release: () => ({ migrationsFolder: folder, migrations: migrationCount }),
    urlOf,
    async record(placement, migrations) {
      const recorded = await upsert(placement);
      if (migrations !== undefined)
        await control.db
          .update(tenantDatabases)
          .set({ migrations })
          .where(eq(tenantDatabases.tenantId, placement.tenantId));
      const open = opens.get(placement.tenantId);
      if (open) await retire(placement.tenantId, open);
      return recorded;
    },
    async dumpEmbedded(tenantId, file) {
      const open = await openFor(tenantId);
      if (!open?.embedded) throw new Error(`tenant ${tenantId} has no embedded database of its own`);
      const database = open.embedded;
      await busy(open, () => database.dump(file));
    },
    async replaceEmbedded(tenantId, file, prepare) {
      if (!control.embedded) throw new Error('no embedded database to open beside');
      const home = options.dataDir ? path.join(options.dataDir, 'tenants', String(tenantId)) : undefined;
      const staging = home ? `${home}.restore-${Date.now()}` : undefined;
      const fresh = await startEmbeddedDatabase({
        alongside: control.embedded,
        ...(staging ? { dataDir: staging } : {}),
        loadDataDir: file,
      });
      const discard = async () => {
        await fresh.close().catch(() => undefined);
        if (staging) await rm(staging, { recursive: true, force: true });
      };
      try {
        await fresh.ready;
        const pool = new pg.Pool({
          host: fresh.socketDir,
          port: 5432,
          user: 'postgres',
          database: 'postgres',
          max: 1,
        });
        pool.on('error', () => {});
        try {
          await prepare(pool);
        } finally {
          await pool.end().catch(() => undefined);
        }
      } catch (error) {
        await discard();
        throw error;
      }
      // The swap: no call of the tenant opens its database meanwhile.
      await this.setState(tenantId, 'unavailable');
      const open = opens.get(tenantId);
      if (open) await retire(tenantId, open, true);
      await inMemory.get(tenantId)?.close();
      inMemory.delete(tenantId);
      if (home && staging) {
        // Closed (its files complete), then renamed in; the old files go once the new are in place.
        await fresh.close();
        const old = `${home}.old-${Date.now()}`;
        await rename(home, old);
        await rename(staging, home);
        await rm(old, { recursive: true, force: true });
      } else {
        inMemory.set(tenantId, fresh);
      }
      cache.delete(tenantId);
    },
    stats: () => ({ open: opens.size, connections, waiting: waiters.length }),
    async close() {
      closed = true;
      clearInterval(sweeper);
      if (refresher) clearInterval(refresher);
      await Promise.all([...opens.entries()].map(([id, open]) => retire(id, open, true)));
      await Promise.all([...inMemory.values()].map((database) => database.close().catch(() => undefined)));
      inMemory.clear();
      if (!options.dataDir) await rm(templateFile, { force: true });
      while (waiters.length > 0) wake();
    },
  };
}
