import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Envelope } from '../../../contract/envelope';
import { buildApp } from '../../../server/app';
import type { AppOptions } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Database, DatabaseOptions } from '../../../server/db/client';
import { tenants } from '../../../server/db/schema';
import type { Mailer, OutboxEntry } from '../../../server/mail/mailer';
import { openTestDatabase, TEST_DEMO_PASSWORD, TEST_JWT_SECRET } from './test-database';
import type { TestDatabase } from './test-database';

export const API_KEY = 'test-api-key';
export const JWT_SECRET = TEST_JWT_SECRET;

export const DEMO = {
  superadmin: 'superadmin@demo.rinnova.it',
  admin: 'admin@demo.rinnova.it',
  cliente: 'cliente@demo.rinnova.it',
  password: TEST_DEMO_PASSWORD,
} as const;
export type DemoRole = 'superadmin' | 'admin' | 'cliente';

export interface ApiResponse<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, string | string[] | number | undefined>;
  raw: string;
}

export interface RequestOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface ApiClient {
  get<T = unknown>(url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = unknown>(url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  database: TestDatabase;
  outboxDir: string;
  /** Without any header but x-api-key. */
  api: ApiClient;
  /** Signed in as a demo account, optionally with X-Tenant-Id of the tenant named. */
  as(role: DemoRole, tenant?: string | number): Promise<ApiClient>;
  tenantId(name: string): Promise<number>;
  login(email: string, password: string): Promise<string>;
  outbox(): Promise<OutboxEntry[]>;
  /** Builds another app on the same database (other settings, e.g. low rate limits). */
  buildAnotherApp(env?: Record<string, string>, options?: Partial<AppOptions>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** Test settings: quiet, and limits high enough that only the rate-limit tests meet them. */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    API_KEYS: `${API_KEY},second-key`,
    RATE_LIMIT_LOGIN: '10000',
    RATE_LIMIT_PASSWORD_RESET: '10000',
    RATE_LIMIT_LOGIN_LINK: '10000',
    RATE_LIMIT_LOGIN_LINK_EMAIL: '10000',
    RATE_LIMIT_CONTACT: '10000',
    RATE_LIMIT_PUBLIC: '10000',
    RATE_LIMIT_WEBHOOK: '10000',
    LOGIN_MAX_FAILURES: '10000',
    SIGN_IN_FREE_FAILURES: '10000',
    // The job engine is installed, but a job runs only when a test asks (engine.drain/runJobNow).
    JOBS: 'manual',
    ...env,
  });
}

/** Builds the app on a fresh database for one test file. */
export async function createTestContext(
  options: {
    env?: Record<string, string>;
    app?: Partial<AppOptions>;
    beforeReady?: (app: FastifyInstance, db: Database) => void;
    database?: DatabaseOptions;
  } = {},
): Promise<TestContext> {
  const database = await openTestDatabase(options.database);
  const db = database.handle.db;
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-outbox-test-'));
  const extraApps: FastifyInstance[] = [];

  const make = async (env: Record<string, string>, appOptions: Partial<AppOptions>) =>
    buildApp({ config: testConfig(env), db, jwtSecret: JWT_SECRET, outboxDir, ...appOptions });

  const app = await make(options.env ?? {}, options.app ?? {});
  options.beforeReady?.(app, db);
  await app.ready();

  const tokens = new Map<string, string>();
  const tenantIds = new Map<string, number>();

  async function login(email: string, password: string): Promise<string> {
    const res = await client(app, {}).post<{ token: string }>('/api/user/Login', { email, password });
    if (res.status !== 200 || !res.body.data)
      throw new Error(`login ${email} failed: ${res.status} ${res.raw}`);
    return res.body.data.token;
  }

  async function tenantId(name: string): Promise<number> {
    const cached = tenantIds.get(name);
    if (cached) return cached;
    const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name));
    if (!row) throw new Error(`no tenant ${name}`);
    tenantIds.set(name, row.id);
    return row.id;
  }

  return {
    app,
    db,
    database,
    outboxDir,
    api: client(app, {}),
    async as(role, tenant) {
      let token = tokens.get(role);
      if (!token) {
        token = await login(DEMO[role], DEMO.password);
        tokens.set(role, token);
      }
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (tenant !== undefined)
        headers['x-tenant-id'] = String(typeof tenant === 'number' ? tenant : await tenantId(tenant));
      return client(app, headers);
    },
    tenantId,
    login,
    outbox: () => readOutbox(outboxDir),
    async buildAnotherApp(env = {}, appOptions = {}) {
      const other = await make(env, appOptions);
      extraApps.push(other);
      await other.ready();
      return other;
    },
    async close() {
      for (const other of extraApps) await other.close();
      await app.close();
      await database.dispose();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

/** A client of `app` sending x-api-key and the given headers on every request. */
export function client(
  app: FastifyInstance,
  headers: Record<string, string>,
  apiKey: string | null = API_KEY,
): ApiClient {
  const send = async <T>(
    method: InjectOptions['method'],
    url: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> => {
    const res = await app.inject({
      method,
      url,
      ...(options.query
        ? { query: Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) }
        : {}),
      headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers, ...options.headers },
      ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    // Work the route left for after its answer (a reset e-mail) has ended too.
    await app.backgroundIdle();
    let body: Envelope<T>;
    try {
      body = res.json<Envelope<T>>();
    } catch {
      body = { success: false, message: null, data: null };
    }
    return { status: res.statusCode, body, headers: res.headers, raw: res.body };
  };
  return {
    get: (url, options) => send('GET', url, options),
    post: (url, body, options) => send('POST', url, { ...options, body }),
    put: (url, body, options) => send('PUT', url, { ...options, body }),
    delete: (url, options) => send('DELETE', url, options),
  };
}

export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as OutboxEntry),
  );
}

/** A mailer that always fails, for the "e-mail failure keeps the message" rules. */
export const failingMailer: Mailer = {
  send: () => Promise.reject(new Error('SMTP non raggiungibile (test)')),
  close: () => undefined,
};
