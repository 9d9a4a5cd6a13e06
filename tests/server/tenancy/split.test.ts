/**
 * `npm run tenants -- split` on a database made by the previous release (issue 25): its migrations
 * up to 0021 and its demo year seeded, then this release's migrations. Each tenant moved into a
 * database of its own answers every call as before, byte for byte (customers, subscriptions,
 * payments, invoices, dashboard, plans), while the others are untouched; the control database keeps
 * only the memberships; the history and running totals arrive as they were; a later write works.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq, getTableName, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../contract/schemas/plan';
import { buildApp } from '../../../server/app';
import { migrationsFolder } from '../../../server/db/client';
import { plans, publicIds, subscriptionEvents, tenants, userTenants } from '../../../server/db/schema';
import { seedDatabase } from '../../../server/db/seed/seed';
import { CONTROL_TENANT_TABLES, splitTenant, TENANT_TABLES } from '../../../server/db/tenancy/split';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { createSecretBox } from '../../../server/lib/secret-box';
import { issueDemoInvoices } from '../../../server/modules/invoice/demo-invoices';
import * as schema from '../../../server/db/schema';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { client, DEMO, JWT_SECRET, testConfig } from '../helpers/test-app';
import type { ApiClient } from '../helpers/test-app';
import { openEmptyDatabase, TEST_DEMO_PASSWORD } from '../helpers/test-database';
import type { TestDatabase } from '../helpers/test-database';

let database: TestDatabase;
let tenancy: TenantDatabases;
let app: FastifyInstance;
let outboxDir: string;
let migrationsDir: string;
let superAdmin: (tenantId: number) => ApiClient;
const ids = new Map<string, number>();

/** What a seller's screens read: every list the back office shows, and the dashboard. */
const CALLS = [
  '/api/user/getAll?pageSize=100',
  '/api/address/getAll?pageSize=100',
  '/api/plan/getAll?pageSize=100',
  '/api/feature/getAll?pageSize=100',
  '/api/paymentprovider/getAll?pageSize=100',
  '/api/subscription/getAll?pageSize=100',
  '/api/BankTransfer/getAll?pageSize=100',
  '/api/invoice/getAll?pageSize=100',
  '/api/dashboard/summary',
];

async function answers(tenantId: number): Promise<Record<string, string>> {
  const api = superAdmin(tenantId);
  const out: Record<string, string> = {};
  for (const url of CALLS) {
    const res = await api.get(url);
    expect(res.status, `${url}: ${res.raw}`).toBe(200);
    out[url] = res.raw;
  }
  return out;
}

/**
 * Adds to the tables of the previous release's database the columns this release's schema has
 * and its migrations would add (nullable, with the schema's default), for the seed to write.
 */
async function addLaterColumns(
  db: TestDatabase['handle']['db'],
): Promise<{ table: string; column: string }[]> {
  const existing = await db.execute<{ table_name: string; column_name: string }>(
    sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  // PGlite answers { rows }, node-postgres through drizzle an array.
  const rows = (Array.isArray(existing) ? existing : (existing as { rows: unknown[] }).rows) as {
    table_name: string;
    column_name: string;
  }[];
  const have = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
  const tables = new Set(rows.map((r) => r.table_name));
  const added: { table: string; column: string }[] = [];
  for (const value of Object.values(schema)) {
    if (!(value instanceof PgTable)) continue;
    const { name: table, columns } = getTableConfig(value);
    if (!tables.has(table)) continue;
    for (const c of columns) {
      if (have.has(`${table}.${c.name}`)) continue;
      const fallback =
        typeof c.default === 'boolean' || typeof c.default === 'number'
          ? ` DEFAULT ${String(c.default)}`
          : typeof c.default === 'string'
            ? ` DEFAULT '${c.default.replace(/'/g, "''")}'`
            : '';
      await db.execute(sql.raw(`ALTER TABLE "${table}" ADD COLUMN "${c.name}" ${c.getSQLType()}${fallback}`));
      added.push({ table, column: c.name });
    }
  }
  return added;
}

beforeAll(async () => {
  // The previous release: migrations up to 0021, its demo year seeded.
  const startedAt = Date.now();
  migrationsDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-previous-release-'));
  await cp(migrationsFolder, migrationsDir, { recursive: true });
  const journalFile = path.join(migrationsDir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === '0021_tenant-databases');
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
  database = await openEmptyDatabase();
  await database.handle.migrate(migrationsDir);
  // This release's seed writes columns later migrations add: they exist while it seeds, then go,
  // so the database is the previous release's when this release's migrations run on it.
  const added = await addLaterColumns(database.handle.db);
  await seedDatabase(database.handle.db, {
    seedDemo: true,
    demoPassword: TEST_DEMO_PASSWORD,
    secretBox: createSecretBox(JWT_SECRET),
    demoInvoices: issueDemoInvoices,
  });
  for (const { table, column } of added)
    await database.handle.db.execute(sql.raw(`ALTER TABLE "${table}" DROP COLUMN "${column}"`));
  // This release.
  await database.handle.migrate();
  tenancy = createTenantDatabases({ control: database.handle, directoryTtlMs: 50 });
  outboxDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-split-outbox-'));
  app = await buildApp({
    config: testConfig(),
    db: database.handle.db,
    jwtSecret: JWT_SECRET,
    outboxDir,
    tenancy,
    // One instant: the dashboard's generatedAt is part of what is compared.
    now: () => new Date(startedAt),
  });
  await app.ready();
  const login = await client(app, {}).post<{ token: string }>('/api/user/Login', {
    email: DEMO.superadmin,
    password: TEST_DEMO_PASSWORD,
  });
  const token = login.body.data?.token ?? '';
  superAdmin = (tenantId) =>
    client(app, { authorization: `Bearer ${token}`, 'x-tenant-id': String(tenantId) });
  for (const row of await database.handle.db.select({ id: tenants.id, name: tenants.name }).from(tenants))
    ids.set(row.name, row.id);
}, 240_000);

afterAll(async () => {
  await app?.close();
  for (const id of ids.values()) await tenancy?.drop(id).catch(() => undefined);
  await tenancy?.close();
  await database?.dispose();
  await rm(outboxDir, { recursive: true, force: true });
  await rm(migrationsDir, { recursive: true, force: true });
});

describe('split', () => {
  it('names every table with a tenant_id: copied by a split, or the control database’s own', () => {
    const moved = new Set(TENANT_TABLES.map((t) => getTableName(t)));
    const withTenant = (Object.values(schema) as unknown[])
      .filter((v): v is PgTable => v instanceof PgTable)
      .map((t) => getTableConfig(t))
      .filter((c) => c.columns.some((col) => col.name === 'tenant_id'))
      .map((c) => c.name);
    expect(withTenant.filter((name) => !moved.has(name) && !CONTROL_TENANT_TABLES.includes(name))).toEqual(
      [],
    );
  });

  it('moves a tenant with a year of data: every screen answers the same, the others are untouched', async () => {
    const demo = ids.get('Demo Srl') ?? 0;
    const rossi = ids.get('Studio Rossi') ?? 0;
    const before = await answers(demo);
    const othersBefore = await answers(rossi);
    const [{ n: events } = { n: 0 }] = await database.handle.db
      .select({ n: count() })
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.tenantId, demo));
    expect(events).toBeGreaterThan(20);

    const report = await splitTenant({ control: database.handle.db, tenancy, wait: async () => {} }, demo);
    expect(report.rows['payments']).toBeGreaterThan(100);
    expect(report.rows['subscription_events']).toBe(events);
    expect((await tenancy.placementOf(demo)).state).toBe('ready');

    expect(await answers(demo)).toEqual(before);
    expect(await answers(rossi)).toEqual(othersBefore);

    // The control database keeps the memberships only; the tenant's database has everything.
    const control = database.handle.db;
    for (const table of TENANT_TABLES) {
      const tenantId = (table as unknown as { tenantId: typeof plans.tenantId }).tenantId;
      const [{ n } = { n: -1 }] = await control.select({ n: count() }).from(table).where(eq(tenantId, demo));
      expect(n, getTableName(table)).toBe(0);
    }
    const memberships = await control.select().from(userTenants).where(eq(userTenants.tenantId, demo));
    expect(memberships.length).toBeGreaterThan(3);
    expect(memberships.every((m) => m.name === null && m.vatCode === null && m.billingStreet === null)).toBe(
      true,
    );
    const own = tenancy.connectionFor(demo);
    const [{ n: ownEvents } = { n: 0 }] = await own.select({ n: count() }).from(subscriptionEvents);
    expect(ownEvents).toBe(events);
    const ownPlans = await own.select({ id: plans.id }).from(plans);
    const listed = await control.select().from(publicIds).where(eq(publicIds.tenantId, demo));
    expect(listed.map((l) => l.id).sort()).toEqual(ownPlans.map((p) => p.id).sort());
  }, 120_000);

  it('after the split the tenant writes in its own database, with ids no other database hands out', async () => {
    const demo = ids.get('Demo Srl') ?? 0;
    const res = await superAdmin(demo).post<Plan>('/api/plan/Create', {
      name: 'Dopo la separazione',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
    });
    expect(res.status, res.raw).toBe(200);
    const id = res.body.data?.id ?? 0;
    const rossi = ids.get('Studio Rossi') ?? 0;
    const other = await superAdmin(rossi).post<Plan>('/api/plan/Create', {
      name: 'Nel database di controllo',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
    });
    expect(other.body.data?.id).not.toBe(id);
    const widget = await client(app, {}).get<{ name: string }>(`/api/plan/widget?planId=${id}`);
    expect(widget.body.data?.name).toBe('Dopo la separazione');
  });

  it('refuses a tenant already in its own database, and changes nothing', async () => {
    const demo = ids.get('Demo Srl') ?? 0;
    await expect(
      splitTenant({ control: database.handle.db, tenancy, wait: async () => {} }, demo),
    ).rejects.toThrow('ha già il suo database');
    expect((await tenancy.placementOf(demo)).state).toBe('ready');
  });
});
