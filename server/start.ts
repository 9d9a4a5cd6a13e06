import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig, MEMORY_DATA_DIR } from './config';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { createTenantDatabases } from './db/tenancy/tenant-databases';
import type { TenantDatabases } from './db/tenancy/tenant-databases';
import { splitTenant } from './db/tenancy/split';
import { tenants } from './db/schema';
import { asc } from 'drizzle-orm';
import type { DatabaseHandle, DatabaseTarget } from './db/client';
import { DEMO_ACCOUNTS } from './db/seed/accounts';
import { seedDatabase } from './db/seed/seed';
import type { SeedStep } from './db/seed/seed';
import { prepareDataDir, tightenDataDir } from './lib/data-dir';
import { createSecretBox } from './lib/secret-box';
import { issueDemoInvoices } from './modules/invoice/demo-invoices';

export interface StartServerOptions {
  /** Overrides PORT; 0 picks a free port (see `url` in the result). */
  port?: number;
  host?: string;
  /** Overrides DATA_DIR; ':memory:' for a throw-away embedded database. */
  dataDir?: string;
  /** Settings to read instead of process.env (same names as .env.example). */
  env?: Record<string, string | undefined>;
  /** The built SPA; defaults to <repo>/dist; null serves the API only. */
  spaDir?: string | null;
  /** No banner on stdout (tests). */
  quiet?: boolean;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:3000, reachable from this machine. */
  url: string;
  port: number;
  app: FastifyInstance;
  config: Config;
  /** Seed steps that ran in this start (empty on a restart of an existing DATA_DIR). */
  seeded: SeedStep[];
  /** Where e-mails go without SMTP_URL (one JSON file per message); undefined with SMTP. */
  outboxDir: string | undefined;
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

const DEFAULT_SPA_DIR = fileURLToPath(new URL('../dist', import.meta.url));

/**
 * Opens the database (embedded PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL), applies
 * migrations, seeds what is missing, and listens. What `npm start`, `npm run dev` (via main.ts)
 * and the end-to-end tests call.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const base = loadConfig(options.env ?? process.env);
  const dataDir = options.dataDir ?? base.dataDir;
  const config: Config = {
    ...base,
    port: options.port ?? base.port,
    host: options.host ?? base.host,
    dataDir: dataDir === MEMORY_DATA_DIR ? dataDir : path.resolve(dataDir),
  };
  const inMemory = config.dataDir === MEMORY_DATA_DIR;
  if (!inMemory) await prepareDataDir(config.dataDir);

  const target: DatabaseTarget = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', ...(inMemory ? {} : { dataDir: path.join(config.dataDir, 'pglite') }) };
  // A data directory PGlite has not created yet: the first start, with the ISTAT seed.
  const freshEmbedded =
    target.kind === 'pglite' &&
    target.dataDir !== undefined &&
    !existsSync(path.join(target.dataDir, 'PG_VERSION'));
  // The embedded database's process starts now and opens PGlite while this one builds the app.
  const databaseOptions = {
    deferReady: true,
    // Every query would fail from then on: end, for the supervisor to start the server again.
    onEmbeddedExit: (reason: string) => {
      console.error(`Database incorporato terminato inaspettatamente (${reason}): arresto del server.`);
      process.exit(1);
    },
  };
  let handle = await openDatabase(target, databaseOptions);
  // Tenants' own databases (db/tenancy): beside the embedded database, or on the configured servers.
  const tenancyOf = (control: DatabaseHandle) =>
    createTenantDatabases({
      control,
      servers: config.tenantDatabaseServers,
      dataDir: inMemory || target.kind === 'postgres' ? undefined : config.dataDir,
    });
  let tenancy = tenancyOf(handle);
  const outboxDir = config.smtpUrl
    ? undefined
    : inMemory
      ? path.join(os.tmpdir(), `rinnova-outbox-${process.pid}`)
      : path.join(config.dataDir, 'outbox');
  let boundPort = config.port;
  const spaDir = options.spaDir === null ? undefined : (options.spaDir ?? DEFAULT_SPA_DIR);
  let app: FastifyInstance | undefined;
  try {
    const jwtSecret = await resolveJwtSecret(config);
    const build = () =>
      buildApp({
        config,
        db: handle.db,
        tenancy,
        newTenantDatabases: true,
        jwtSecret,
        publicUrl: () => config.publicUrl ?? `http://localhost:${boundPort}`,
        ...(outboxDir ? { outboxDir } : {}),
        ...(spaDir ? { spaDir } : {}),
      });
    const started = Date.now();
    const prepare = async () => {
      await handle.ready;
      await handle.migrate();
      return seedDatabase(handle.db, {
        seedDemo: config.seedDemo,
        demoPassword: config.demoPassword,
        adminEmail: config.adminEmail,
        adminPassword: config.adminPassword,
        demoInvoices: issueDemoInvoices,
        // In production ENCRYPTION_KEY is required (config.ts); the JWT secret is a development fallback.
        secretBox: createSecretBox({
          current: config.encryptionKey ?? jwtSecret,
          previous: config.encryptionKeyPrevious,
        }),
      });
    };
    let seeded: SeedStep[];
    if (freshEmbedded) {
      seeded = await prepare();
      if (seeded.includes('geography')) {
        // The embedded database's memory grows while the ISTAT seed loads (WebAssembly memory
        // never shrinks): its process started again on the same data directory gives it back.
        await tenancy.close();
        await handle.close();
        // The start is sequential: nothing else replaces the handle or its tenancy while they reopen.
        /* eslint-disable require-atomic-updates */
        handle = await openDatabase(target, databaseOptions);
        tenancy = tenancyOf(handle);
        /* eslint-enable require-atomic-updates */
      }
      app = await build();
      await handle.ready;
    } else {
      // Usual start: the app is built while the database's process opens PGlite.
      app = await build();
      seeded = await prepare();
    }
    // Tenants' databases behind this release's migrations (an upgrade) catch up now.
    const upgrade = await tenancy.upgradeAll();
    if (upgrade.failed.length > 0)
      app.log.warn(
        { tenants: upgrade.failed },
        'tenant databases not upgraded (they keep their previous schema): run npm run tenants -- migrate',
      );
    // A fresh install's demo tenants move into databases of their own, as every new tenant is born
    // (newTenantDatabases); an older install's tenants move with npm run tenants -- split.
    if (seeded.includes('demo')) await splitDemoTenants(handle, tenancy);
    // Once the database is open: files PGlite wrote with its own modes, and an earlier version's.
    if (!inMemory) await tightenDataDir(config.dataDir);
    app.log.info({ ms: Date.now() - started, seeded, database: handle.kind }, 'database ready');
    if (spaDir && !existsSync(path.join(spaDir, 'index.html'))) {
      app.log.warn(
        `SPA non compilata: ${spaDir}/index.html mancante, esegui 'npm run build' (API attiva comunque)`,
      );
    }

    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    boundPort = typeof address === 'object' && address ? address.port : config.port;
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${boundPort}`;
    if (!options.quiet) printBanner(url, config, handle, outboxDir);

    const running = app;
    let closing: Promise<void> | undefined;
    return {
      url,
      port: boundPort,
      app: running,
      config,
      seeded,
      outboxDir,
      close: () =>
        (closing ??= running
          .close()
          .then(() => tenancy.close())
          .then(() => handle.close())),
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await tenancy.close().catch(() => undefined);
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * JWT_SECRET, or one generated once and kept in DATA_DIR/jwt-secret so sessions survive restarts.
 * Without ENCRYPTION_KEY it is also the key material of encrypted secrets, so keep that file.
 * (With DATABASE_URL in production, config validation already demanded JWT_SECRET.)
 */
async function resolveJwtSecret(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.dataDir === MEMORY_DATA_DIR) return randomBytes(48).toString('base64url');
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function printBanner(
  url: string,
  config: Config,
  handle: DatabaseHandle,
  outboxDir: string | undefined,
): void {
  const lines = [
    '',
    `Rinnova in ascolto su ${url}  (API ${url}/api, documentazione ${url}/api/docs)`,
    `Database: ${handle.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
    outboxDir
      ? `E-mail: nessun SMTP_URL, i messaggi vengono scritti in ${outboxDir}`
      : 'E-mail: SMTP (SMTP_URL)',
  ];
  if (config.seedDemo) {
    lines.push(`Accessi demo (password: ${config.demoPassword}):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`  ${account.email}`);
  }
  if (config.adminEmail)
    lines.push(`Primo SuperAdmin: ${config.adminEmail} (nuova password obbligatoria al primo accesso)`);
  console.log(lines.join('\n') + '\n');
}

/** Every tenant still in the control database, moved into its own (db/tenancy/split.ts). */
async function splitDemoTenants(handle: DatabaseHandle, tenancy: TenantDatabases): Promise<void> {
  const all = await handle.db.select({ id: tenants.id }).from(tenants).orderBy(asc(tenants.id));
  for (const { id } of all) {
    if ((await tenancy.placementOf(id)).database !== null) continue;
    // Embedded: this process is the database's only one, nobody else caches a placement.
    await splitTenant(
      { control: handle.db, tenancy, ...(handle.kind === 'pglite' ? { wait: async () => {} } : {}) },
      id,
    );
  }
}
