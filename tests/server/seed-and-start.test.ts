import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { municipalities, provinces, regions, seedRuns, users } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed/seed';
import { startServer } from '../../server/main';
import { createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const total = async (table: typeof regions | typeof provinces | typeof municipalities | typeof users) =>
  (await ctx.db.select({ n: count() }).from(table))[0]?.n;

describe('ISTAT geography seed', () => {
  it('holds 20 regions, 107 provinces with their abbreviations, 7,904 municipalities with a CAP', async () => {
    expect(await total(regions)).toBe(20);
    expect(await total(provinces)).toBe(107);
    expect(await total(municipalities)).toBe(7904);
    const allProvinces = await ctx.db.select().from(provinces);
    expect(allProvinces.every((p) => /^[A-Z]{2}$/.test(p.abbreviation))).toBe(true);
    expect(new Set(allProvinces.map((p) => p.abbreviation)).size).toBe(107);
    const allRegions = await ctx.db.select().from(regions);
    expect(allRegions.every((r) => /^\d{2}$/.test(r.code))).toBe(true);
    const zips = await ctx.db.select({ zip: municipalities.zip }).from(municipalities);
    expect(zips.every((m) => /^\d{5}$/.test(m.zip))).toBe(true);
  });

  it('links municipality → province → region as ISTAT does', async () => {
    const [rome] = await ctx.db
      .select({
        zip: municipalities.zip,
        province: provinces.abbreviation,
        region: regions.name,
        code: regions.code,
      })
      .from(municipalities)
      .innerJoin(provinces, eq(provinces.id, municipalities.provinceId))
      .innerJoin(regions, eq(regions.id, provinces.regionId))
      .where(eq(municipalities.name, 'Roma'));
    expect(rome).toEqual({ zip: '00118', province: 'RM', region: 'Lazio', code: '12' });
  });

  it('seeding again changes nothing and reports no step; the first SuperAdmin step runs once', async () => {
    const before = { r: await total(regions), m: await total(municipalities), u: await total(users) };
    expect(await seedDatabase(ctx.db, { seedDemo: true, demoPassword: 'altra' })).toEqual([]);
    expect({ r: await total(regions), m: await total(municipalities), u: await total(users) }).toEqual(
      before,
    );
    const options = {
      seedDemo: true,
      demoPassword: 'x',
      adminEmail: 'capo@rinnova.it',
      adminPassword: 'segreta1',
    };
    expect(await seedDatabase(ctx.db, options)).toEqual(['admin']);
    expect(await seedDatabase(ctx.db, options)).toEqual([]);
    expect((await ctx.db.select({ name: seedRuns.name }).from(seedRuns)).map((r) => r.name).sort()).toEqual([
      'admin',
      'demo',
      'geography',
    ]);
    const [admin] = await ctx.db.select().from(users).where(eq(users.email, 'capo@rinnova.it'));
    expect(admin).toMatchObject({ roleId: 1, mustResetPassword: true, defaultTenantId: null });
  });
});

describe('startServer on a data directory', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-start-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const env = {
    LOG_LEVEL: 'silent',
    API_KEYS: 'start-key',
    SEED_DEMO: 'false',
    ADMIN_EMAIL: 'Primo@Rinnova.it',
    ADMIN_PASSWORD: 'da-configurazione',
  };
  const start = () => startServer({ port: 0, host: '127.0.0.1', dataDir, env, spaDir: null, quiet: true });

  it('first start migrates and seeds; a restart seeds nothing, keeps sessions and is fast', async () => {
    const first = await start();
    let token: string;
    try {
      expect(first.seeded).toEqual(['geography', 'admin']);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.outboxDir).toBe(path.join(dataDir, 'outbox'));
      const headers = { 'x-api-key': 'start-key', 'content-type': 'application/json' };
      // Real HTTP: the configured SuperAdmin must replace its password first.
      const forced = await fetch(`${first.url}/api/user/Login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ Email: 'primo@rinnova.it', Password: 'da-configurazione' }),
      });
      expect(forced.status).toBe(409);
      const resetUrl = ((await forced.json()) as { data: { resetUrl: string } }).data.resetUrl;
      const resetToken = new URL(resetUrl, first.url).searchParams.get('token');
      const reset = await fetch(`${first.url}/api/user/reset-password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ token: resetToken, newPassword: 'nuova-password' }),
      });
      expect(reset.status).toBe(200);
      const login = await fetch(`${first.url}/api/user/Login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'primo@rinnova.it', password: 'nuova-password' }),
      });
      expect(login.status).toBe(200);
      token = ((await login.json()) as { data: { token: string } }).data.token;
      // No demo data without SEED_DEMO.
      const demo = await fetch(`${first.url}/api/user/Login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: DEMO.admin, password: DEMO.password }),
      });
      expect(demo.status).toBe(401);
    } finally {
      await first.close();
    }
    const secret = await readFile(path.join(dataDir, 'jwt-secret'), 'utf8');
    expect(secret.trim().length).toBeGreaterThanOrEqual(32);

    const startedAt = Date.now();
    const second = await start();
    try {
      expect(Date.now() - startedAt).toBeLessThan(5000);
      expect(second.seeded).toEqual([]);
      const res = await fetch(`${second.url}/api/tenant/getAll`, {
        headers: { 'x-api-key': 'start-key', authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(secret);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('refuses to start with invalid settings, listing every problem', async () => {
    await expect(startServer({ env: { PORT: 'x', JWT_EXPIRES_IN: 'forever' }, quiet: true })).rejects.toThrow(
      /PORT:[\s\S]*JWT_EXPIRES_IN:/,
    );
  });
});

it('a wrong demo password is refused with the generic message', async () => {
  const res = await ctx.api.post('/api/user/Login', { email: DEMO.admin, password: 'x' });
  expect(res.body.message).toBe(serverMessages.invalidCredentials);
});
