/**
 * Production is safe by default: no demo data or printed password without SEED_DEMO=true (the
 * first SuperAdmin comes from ADMIN_EMAIL), DATA_DIR readable by the owner only, and first-start
 * seeding all or nothing (a failure at any step leaves a database that seeds again).
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedRuns, tenants, users } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed/seed';
import { issueDemoInvoices } from '../../server/modules/invoice/demo-invoices';
import type { SeedOptions } from '../../server/db/seed/seed';
import { startServer } from '../../server/main';
import { openEmptyDatabase } from './helpers/test-database';

async function modesUnder(dir: string): Promise<{ file: string; mode: number }[]> {
  const out: { file: string; mode: number }[] = [];
  const walk = async (target: string) => {
    const info = await stat(target);
    out.push({ file: target, mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const name of await readdir(target)) await walk(path.join(target, name));
  };
  await walk(dir);
  return out;
}

describe('NODE_ENV=production on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-prod-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('seeds no demo accounts, prints no password, starts the configured SuperAdmin; DATA_DIR is owner-only', async () => {
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.join(' '));
    });
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      spaDir: null,
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        API_KEYS: 'chiave-produzione',
        ENCRYPTION_KEY: 'k'.repeat(40),
        ADMIN_EMAIL: 'admin@cliente.it',
        ADMIN_PASSWORD: 'password-iniziale',
      },
    });
    spy.mockRestore();
    try {
      expect(server.seeded).toEqual(['geography', 'admin']);
      expect(printed.join('\n')).not.toContain('demo1234');
      expect(printed.join('\n')).not.toContain('Accessi demo');
      const headers = { 'x-api-key': 'chiave-produzione', 'content-type': 'application/json' };
      const demo = await fetch(`${server.url}/api/user/Login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'admin@demo.rinnova.it', password: 'demo1234' }),
      });
      expect(demo.status).toBe(401);
      const admin = await fetch(`${server.url}/api/user/Login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'admin@cliente.it', password: 'password-iniziale' }),
      });
      expect(admin.status).toBe(409); // must choose a new password first
      // A reset e-mail lands in the outbox (it holds a live link).
      await fetch(`${server.url}/api/user/request-password-reset`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'admin@cliente.it' }),
      });
      // Production answers are JSON logs and carry the security headers.
      expect(server.config.logFormat).toBe('json');
    } finally {
      await server.close();
    }
    const modes = await modesUnder(dataDir);
    expect(modes.some((m) => m.file.includes(`${path.sep}outbox${path.sep}`))).toBe(true);
    expect(modes.some((m) => m.file.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    const readableByOthers = modes.filter((m) => (m.mode & 0o077) !== 0).map((m) => m.file);
    expect(readableByOthers).toEqual([]);
  }, 120_000);

  it('refuses to start with the development API key or without ENCRYPTION_KEY', async () => {
    await expect(
      startServer({
        dataDir,
        spaDir: null,
        quiet: true,
        env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' },
      }),
    ).rejects.toThrow(/API_KEYS:[\s\S]*ENCRYPTION_KEY:/);
  });
});

describe('first-start seeding is all or nothing', () => {
  const options: SeedOptions = {
    seedDemo: true,
    demoPassword: 'demo1234',
    adminEmail: 'primo@example.com',
    adminPassword: 'password-iniziale',
    demoInvoices: issueDemoInvoices,
  };

  it('a failure after any step leaves nothing; the next start seeds everything', async () => {
    const database = await openEmptyDatabase();
    try {
      await database.handle.migrate();
      const db = database.handle.db;
      for (const failAt of ['geography', 'demo', 'admin'] as const) {
        await expect(
          seedDatabase(db, options, (step) => {
            if (step === failAt) throw new Error(`crash simulato dopo ${step}`);
          }),
        ).rejects.toThrow('crash simulato');
        const [runs] = await db.select({ n: count() }).from(seedRuns);
        const [tenantRows] = await db.select({ n: count() }).from(tenants);
        const [userRows] = await db.select({ n: count() }).from(users);
        expect({ failAt, runs: runs?.n, tenants: tenantRows?.n, users: userRows?.n }).toEqual({
          failAt,
          runs: 0,
          tenants: 0,
          users: 0,
        });
      }
      expect(await seedDatabase(db, options)).toEqual(['geography', 'demo', 'admin']);
      expect(await seedDatabase(db, options)).toEqual([]);
    } finally {
      await database.dispose();
    }
  }, 120_000);
});
