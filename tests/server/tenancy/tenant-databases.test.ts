/**
 * The directory of tenant databases and the connections to them (issue 25): a tenant without a
 * database of its own runs on the control database as before; a tenant with one gets its own
 * migrated database (beside the control database in the embedded process, or on a PostgreSQL
 * server), sees only its rows there, and, when its database is gone, fails with a 503 of its own
 * while every other tenant keeps working. On PostgreSQL also: writes refused while read-only, a
 * dropped database, and the cap on all tenant connections.
 */
import { count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyMessages } from '../../../contract/messages';
import type { FastifyBaseLogger } from 'fastify';
import { municipalities, outbox, plans, tenantDatabases, tenants } from '../../../server/db/schema';
import type { MailMessage } from '../../../server/mail/mailer';
import { createOutboxDispatcher } from '../../../server/unit-of-work/outbox';
import { createUnitOfWorkRunner } from '../../../server/unit-of-work/unit-of-work';
import {
  createTenantDatabases,
  TenantDatabaseBusy,
  TenantDatabaseReadOnly,
  TenantDatabaseUnavailable,
  tenantDatabaseErrorOf,
} from '../../../server/db/tenancy/tenant-databases';
import type { TenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { openTestDatabase } from '../helpers/test-database';
import type { TestDatabase } from '../helpers/test-database';

const onPostgres = Boolean(process.env.DATABASE_URL);
let database: TestDatabase;
let tenancy: TenantDatabases;
let ids: number[];

/** New tenants in the control database (the seed's own keep their rows there). */
async function newTenants(n: number): Promise<number[]> {
  const rows = await database.handle.db
    .insert(tenants)
    .values(Array.from({ length: n }, (_, i) => ({ name: `Tenant isolato ${i + 1}` })))
    .returning({ id: tenants.id });
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  database = await openTestDatabase();
  tenancy = createTenantDatabases({ control: database.handle, maxConnections: 4, idleMs: 60_000 });
  ids = await newTenants(4);
});

afterAll(async () => {
  for (const id of ids) await tenancy.drop(id).catch(() => undefined);
  await tenancy.close();
  await database.dispose();
});

const planCount = async (tenantId: number) => {
  const [row] = await tenancy
    .connectionFor(tenantId)
    .select({ n: count() })
    .from(plans)
    .where(eq(plans.tenantId, tenantId));
  return row?.n ?? 0;
};

describe('tenant databases', () => {
  it('a tenant without a database of its own runs on the control database', async () => {
    const [seeded] = await database.handle.db.select({ id: plans.tenantId }).from(plans).limit(1);
    expect(seeded).toBeDefined();
    const tenantId = seeded?.id ?? 0;
    expect(await tenancy.placementOf(tenantId)).toMatchObject({ server: 'control', database: null });
    expect(await planCount(tenantId)).toBeGreaterThan(0);
    expect(await tenancy.sizeOf(tenantId)).toBeNull();
  });

  // Creating a database runs initdb and every migration (embedded: a few seconds of WebAssembly).
  it('creates a migrated database of its own, where only its rows are', { timeout: 60_000 }, async () => {
    const [a, b] = ids as [number, number];
    const placement = await tenancy.create(a);
    expect(placement.server).toBe(onPostgres ? 'control' : 'embedded');
    expect(placement.database).toMatch(new RegExp(`_t${a}$`));
    // Migrated: every table is there, and empty.
    expect(await planCount(a)).toBe(0);
    await tenancy
      .connectionFor(a)
      .insert(plans)
      .values({
        tenantId: a,
        name: 'Solo nel suo database',
        recurringCostBeforeVat: '10.00',
        recurrenceType: 1,
      })
      .execute();
    expect(await planCount(a)).toBe(1);
    // The control database does not hold it, nor does another tenant's connection see it.
    const inControl = await database.handle.db
      .select({ n: count() })
      .from(plans)
      .where(eq(plans.tenantId, a));
    expect(inControl[0]?.n).toBe(0);
    expect(await planCount(b)).toBe(0);
    expect(await tenancy.sizeOf(a)).toBeGreaterThan(1_000_000);
    // Its migrations are recorded: a start has nothing to upgrade.
    const [entry] = await database.handle.db
      .select()
      .from(tenantDatabases)
      .where(eq(tenantDatabases.tenantId, a));
    expect(entry?.migrations).toBeGreaterThan(20);
    expect(await tenancy.upgradeAll()).toEqual({ upgraded: 0, failed: [] });
    // A second creation is refused: the tenant has its database.
    await expect(tenancy.create(a)).rejects.toThrow(/already has its database/);
  });

  it(
    'a tenant whose database is unavailable answers 503 in Italian; the others keep working',
    { timeout: 60_000 },
    async () => {
      const [a, , c] = ids as [number, number, number];
      // The second database comes from the first one's template (embedded): migrated, and holding
      // nothing of the first tenant, only its own tenant row.
      await tenancy.create(c);
      const own = await tenancy.connectionFor(c).select({ id: tenants.id }).from(tenants);
      expect(own).toEqual([{ id: c }]);
      await tenancy.setState(a, 'unavailable');
      const failure = await planCount(a).catch((e: unknown) => e);
      expect(tenantDatabaseErrorOf(failure)).toBeInstanceOf(TenantDatabaseUnavailable);
      expect(tenantDatabaseErrorOf(failure)).toMatchObject({
        statusCode: 503,
        message: tenancyMessages.unavailable,
      });
      expect(await planCount(c)).toBe(0);
      await tenancy.setState(a, 'ready');
      expect(await planCount(a)).toBe(1);
    },
  );

  it('a unit of work of a tenant with its own database writes and sends its outbox there', async () => {
    const [a] = ids as [number];
    const sent: MailMessage[] = [];
    const mailer = { send: async (m: MailMessage) => void sent.push(m), close: () => undefined };
    const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
    const dispatcher = createOutboxDispatcher({
      db: database.handle.db,
      mailer,
      log,
      clock: () => new Date(),
      tenantDatabases: () => tenancy.ownDatabases(),
    });
    const uow = createUnitOfWorkRunner({
      connectionFor: (id) => tenancy.connectionFor(id),
      shared: database.handle.db,
      clock: () => new Date(),
      dispatcher,
    });
    const mail = (subject: string) => ({ to: 'cliente@example.com', subject, text: subject, html: subject });
    await uow.run({ tenantId: a, actor: { kind: 'system', job: 'test' } }, (w) =>
      w.outbox.email(mail('Subito')),
    );
    expect(sent.map((m) => m.subject)).toEqual(['Subito']);
    const own = await tenancy.connectionFor(a).select().from(outbox);
    expect(own.map((r) => [r.tenantId, r.sentAt !== null])).toEqual([[a, true]]);
    expect(await database.handle.db.select().from(outbox).where(eq(outbox.tenantId, a))).toEqual([]);
    // A row left pending (a crash between commit and sending) goes out with the next sweep.
    await tenancy
      .connectionFor(a)
      .insert(outbox)
      .values({ tenantId: a, kind: 'email', payload: mail('Dopo il crash') });
    expect(await dispatcher.dispatchPending()).toBe(1);
    expect(sent.map((m) => m.subject)).toEqual(['Subito', 'Dopo il crash']);
    expect(await dispatcher.dispatchPending()).toBe(0);
  });

  it('a dropped tenant is back in the control database, its own database gone', async () => {
    const [, , c] = ids as [number, number, number];
    await tenancy.drop(c);
    expect(await tenancy.placementOf(c)).toMatchObject({ server: 'control', database: null });
    const rows = await database.handle.db
      .select()
      .from(tenantDatabases)
      .where(eq(tenantDatabases.tenantId, c));
    expect(rows).toEqual([]);
  });
});

describe.runIf(onPostgres)('tenant databases on PostgreSQL', () => {
  const adminUrl = process.env.DATABASE_URL ?? '';

  it('a read-only tenant reads and is refused writes with a 503', async () => {
    const [a] = ids as [number];
    await tenancy.setState(a, 'readOnly');
    expect(await planCount(a)).toBe(1);
    const refused = await tenancy
      .connectionFor(a)
      .insert(plans)
      .values({
        tenantId: a,
        name: 'Durante lo spostamento',
        recurringCostBeforeVat: '10.00',
        recurrenceType: 1,
      })
      .execute()
      .catch((e: unknown) => e);
    expect(tenantDatabaseErrorOf(refused)).toBeInstanceOf(TenantDatabaseReadOnly);
    expect(tenantDatabaseErrorOf(refused)).toMatchObject({
      statusCode: 503,
      message: tenancyMessages.readOnly,
    });
    await tenancy.setState(a, 'ready');
    expect(await planCount(a)).toBe(1);
  });

  it(
    'a tenant whose database was dropped under it answers 503; another dedicated tenant works',
    { timeout: 60_000 },
    async () => {
      const [, b, , d] = ids as [number, number, number, number];
      const placeB = await tenancy.create(b);
      await tenancy.create(d);
      expect(await planCount(b)).toBe(0);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE ${placeB.database ?? ''} WITH (FORCE)`);
      await admin.end();
      await tenancy.invalidate(b);
      const failure = await planCount(b).catch((e: unknown) => e);
      expect(tenantDatabaseErrorOf(failure)).toBeInstanceOf(TenantDatabaseUnavailable);
      expect(await planCount(d)).toBe(0);
    },
  );

  it('all tenant connections stay under the cap: a fifth waits for one to free', async () => {
    const [a, , , d] = ids as [number, number, number, number];
    await tenancy.close();
    tenancy = createTenantDatabases({
      control: database.handle,
      maxConnections: 2,
      perTenant: 2,
      idleMs: 60_000,
    });
    const holds: Array<() => void> = [];
    const held = [a, a].map((id) =>
      tenancy.connectionFor(id).transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await new Promise<void>((resolve) => holds.push(resolve));
      }),
    );
    await expect.poll(() => holds.length).toBe(2);
    expect(tenancy.stats().connections).toBe(2);
    const waiting = planCount(d);
    await expect.poll(() => tenancy.stats().waiting).toBe(1);
    holds.shift()?.();
    expect(await waiting).toBe(0);
    expect(tenancy.stats().connections).toBeLessThanOrEqual(2);
    holds.shift()?.();
    await Promise.all(held);
  });

  it('a call that gets no connection of its tenant within the timeout is a 503 busy; the pool stays', async () => {
    const [a] = ids as [number];
    await tenancy.close();
    tenancy = createTenantDatabases({
      control: database.handle,
      maxConnections: 4,
      perTenant: 1,
      idleMs: 60_000,
      connectTimeoutMs: 200,
    });
    // The tenant's only connection is held: the next call waits in its pool's queue and times out.
    let release = () => {};
    const held = tenancy.connectionFor(a).transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await expect.poll(() => tenancy.stats().connections).toBe(1);
    const failure = await planCount(a).catch((e: unknown) => e);
    const busy = tenantDatabaseErrorOf(failure);
    expect(busy).toBeInstanceOf(TenantDatabaseBusy);
    expect(busy).toMatchObject({
      statusCode: 503,
      message: tenancyMessages.busy,
      options: { headers: { 'retry-after': '5' } },
    });
    release();
    await held;
    // Not retired as unreachable: the same pool answers the next call at once.
    expect(await planCount(a)).toBe(1);
    expect(tenancy.stats().connections).toBe(1);
  });

  it(
    'new tenant databases are copies of one template, rebuilt after an edit of the geography',
    { timeout: 90_000 },
    async () => {
      const fresh = await newTenants(3);
      ids.push(...fresh);
      const [e, f, g] = fresh as [number, number, number];
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      // Named after the control database: this test file's own.
      const templateName = `${new URL(database.handle.url ?? '').pathname.slice(1)}_tenant_template`;
      const commentOf = async () => {
        const { rows } = await admin.query<{ comment: string | null }>(
          "select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1",
          [templateName],
        );
        return rows[0]?.comment;
      };
      try {
        // Two creations at once (two app instances, or two SuperAdmins): one template, two copies.
        await Promise.all([tenancy.create(e), tenancy.create(f)]);
        const [handle] = await database.handle.db
          .select({ id: municipalities.id, name: municipalities.name })
          .from(municipalities)
          .limit(1);
        const comment = await commentOf();
        expect(comment).toMatch(/^rinnova tenant template: \d+ migrations, geography [0-9a-f]{32}$/);
        for (const id of [e, f]) {
          expect(await planCount(id)).toBe(0);
          const [copy] = await tenancy
            .connectionFor(id)
            .select({ name: municipalities.name })
            .from(municipalities)
            .where(eq(municipalities.id, handle?.id ?? 0));
          expect(copy?.name).toBe(handle?.name);
        }
        // An edit of the geography in the control database: the next tenant gets it, from a
        // template rebuilt with another digest.
        await database.handle.db
          .update(municipalities)
          .set({ name: `${handle?.name ?? ''} (modificato)` })
          .where(eq(municipalities.id, handle?.id ?? 0));
        await tenancy.create(g);
        const [edited] = await tenancy
          .connectionFor(g)
          .select({ name: municipalities.name })
          .from(municipalities)
          .where(eq(municipalities.id, handle?.id ?? 0));
        expect(edited?.name).toBe(`${handle?.name ?? ''} (modificato)`);
        const rebuilt = await commentOf();
        expect(rebuilt).toMatch(/geography [0-9a-f]{32}$/);
        expect(rebuilt).not.toBe(comment);
        await database.handle.db
          .update(municipalities)
          .set({ name: handle?.name ?? '' })
          .where(eq(municipalities.id, handle?.id ?? 0));
      } finally {
        await admin.end();
      }
    },
  );

  it(
    'many callers over more tenants than the cap allows: every call answers, never over the cap',
    { timeout: 60_000 },
    async () => {
      const [a, , c, d] = ids as [number, number, number, number];
      await tenancy.create(c);
      await tenancy.close();
      tenancy = createTenantDatabases({
        control: database.handle,
        maxConnections: 2,
        perTenant: 1,
        idleMs: 60_000,
      });
      let peak = 0;
      const tenantsOf = [a, c, d];
      const calls = Array.from({ length: 60 }, (_, i) => tenantsOf[i % 3] ?? a);
      const answers = await Promise.all(
        calls.map(async (id) => {
          const n = await planCount(id);
          peak = Math.max(peak, tenancy.stats().connections);
          return n;
        }),
      );
      expect(answers).toHaveLength(60);
      expect(peak).toBeLessThanOrEqual(2);
    },
  );
});
