/**
 * `npm run bench`: speed and memory of the real server on the embedded database, with the full
 * ISTAT seed. Prints each measurement against its target and exits 1 when a target is missed.
 * Targets are for this project's reference machine (2 cores); they are not part of `npm test`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer } from '../../server/start';
import { benchBillingLists } from './billing-lists';
import { benchDashboardOnPostgres } from './dashboard-postgres';
import { benchDunningOnPostgres } from './dunning';
import { benchFrontEnd } from './front-end';
import { BENCH_RATE_ENV, benchEntitlementsOnPostgres, measureEntitlementCheck } from './entitlements';
import { benchUnderLoad, treeRssMb } from './embedded-load';
import { startPostgres } from './postgres';
import { benchTenantDatabasesEmbedded, benchTenantDatabasesOnPostgres } from './tenant-databases';

const API_KEY = 'bench-key';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);

interface Result {
  name: string;
  value: number;
  unit: string;
  target: number;
}
const results: Result[] = [];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

/** Tenant databases (issue 25): PostgreSQL with BENCH_TENANTS of them, and the embedded default. */
async function tenantDatabases(): Promise<void> {
  console.log('\nTenant databases (issue 25):');
  if (process.env.BENCH_POSTGRES !== 'off') {
    const onPostgres = await benchTenantDatabasesOnPostgres();
    if (typeof onPostgres === 'string') {
      console.log(`MISS  tenant databases on PostgreSQL not measured: ${onPostgres}`);
      results.push({ name: 'tenant databases on PostgreSQL (not measured)', value: 1, unit: '', target: 0 });
    } else results.push(...onPostgres);
  }
  results.push(...(await benchTenantDatabasesEmbedded()));
}

/** The billing lists on PostgreSQL at 100,000 rows (counts, pages, exports). */
async function billingLists(): Promise<void> {
  console.log('\nBilling lists on PostgreSQL:');
  const billing = await benchBillingLists();
  if (typeof billing === 'string') {
    console.log(`MISS  billing lists on PostgreSQL not measured: ${billing}`);
    results.push({ name: 'billing lists on PostgreSQL (not measured)', value: 1, unit: '', target: 0 });
  } else results.push(...billing);
}

/** The dunning job's daily pass on PostgreSQL: 100,000 subscriptions, 10,000 payments to collect. */
async function dunningPass(): Promise<void> {
  console.log('\nDunning pass on PostgreSQL (issue 29):');
  const dunning = await benchDunningOnPostgres();
  if (typeof dunning === 'string') {
    console.log(`MISS  dunning pass on PostgreSQL not measured: ${dunning}`);
    results.push({ name: 'dunning pass on PostgreSQL (not measured)', value: 1, unit: '', target: 0 });
  } else results.push(...dunning);
}

function report(): void {
  let failed = 0;
  for (const r of results) {
    const ok = r.value <= r.target;
    if (!ok) failed++;
    console.log(
      `${ok ? 'ok  ' : 'MISS'}  ${r.name.padEnd(58)} ${r.value.toFixed(1).padStart(9)} ${r.unit}  (target ≤ ${r.target} ${r.unit})`,
    );
  }
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

async function main(): Promise<void> {
  // BENCH_ONLY=tenants: the tenant databases' part alone; BENCH_ONLY=billing: the billing lists
  // alone; BENCH_ONLY=dunning: the dunning pass alone.
  if (process.env.BENCH_ONLY === 'tenants') {
    await tenantDatabases();
    return report();
  }
  if (process.env.BENCH_ONLY === 'billing') {
    await billingLists();
    return report();
  }
  if (process.env.BENCH_ONLY === 'dunning') {
    await dunningPass();
    return report();
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-bench-'));
  const env = {
    ...process.env,
    ...BENCH_RATE_ENV,
    API_KEYS: API_KEY,
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: 'bench-pass',
  };
  try {
    const [first, coldMs] = await timed(() =>
      startServer({ port: 0, host: '127.0.0.1', dataDir, env, spaDir: null, quiet: true }),
    );
    results.push({
      name: 'first start (migrate + ISTAT and demo seed)',
      value: coldMs,
      unit: 'ms',
      target: 15_000,
    });
    await first.close();

    const [server, warmMs] = await timed(() =>
      startServer({ port: 0, host: '127.0.0.1', dataDir, env, spaDir: null, quiet: true }),
    );
    results.push({ name: 'second start (no seed)', value: warmMs, unit: 'ms', target: 5_000 });

    const call = async (url: string, init: RequestInit = {}, token?: string, tenantId?: number) => {
      const headers: Record<string, string> = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (tenantId) headers['x-tenant-id'] = String(tenantId);
      const res = await fetch(`${server.url}/api/${url}`, { ...init, headers });
      if (!res.ok) throw new Error(`${url} → ${res.status} ${await res.text()}`);
      return (await res.json()) as { data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    const [login, loginMs] = await timed(() =>
      call('user/Login', {
        method: 'POST',
        body: JSON.stringify({ Email: 'admin@demo.rinnova.it', Password: 'bench-pass' }),
      }),
    );
    results.push({ name: 'sign-in (scrypt verify + JWT)', value: loginMs, unit: 'ms', target: 500 });
    const token = login.data.token as string;
    const tenantId = login.data.user.defaultTenantId as number;

    const scenarios: Array<[string, string, number]> = [
      ['municipality page 1 of ~7,900', 'municipality/getAll?page=1&pageSize=20', 60],
      ['municipality last pages', 'municipality/getAll?page=395&pageSize=20', 80],
      ['municipality search "san"', 'municipality/getAll?page=1&pageSize=20&searchTerm=san', 80],
      ['municipality by province', 'municipality/getAll?page=1&pageSize=20&filters%5BprovinceId%5D=28', 60],
      ['municipality select search', 'municipality/getAllForSelect?page=1&pageSize=20&searchTerm=terme', 80],
      ['region list', 'region/getAll?page=1&pageSize=5', 40],
      ['tenant list for the selector', 'tenant/getAll?page=1&pageSize=100', 40],
      ['user list (tenant members, billing address)', 'user/getAll?page=1&pageSize=20&searchTerm=demo', 60],
      ['plan list with features', 'plan/getAll?page=1&pageSize=20', 40],
    ];
    for (const [name, url, target] of scenarios) {
      for (let i = 0; i < 10; i++) await call(url, {}, token, tenantId); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < ROUNDS; i++) samples.push((await timed(() => call(url, {}, token, tenantId)))[1]);
      samples.sort((a, b) => a - b);
      results.push({
        name: `${name}: p95 over ${ROUNDS}`,
        value: percentile(samples, 95),
        unit: 'ms',
        target,
      });
    }

    results.push(
      ...(await measureEntitlementCheck({
        baseUrl: server.url,
        appKey: API_KEY,
        token,
        tenantId,
        rounds: ROUNDS,
        label: 'embedded database',
      })),
    );

    // This process runs the server; the embedded database is its child process.
    results.push({
      name: 'bench process + database process RSS',
      value: treeRssMb(process.pid),
      unit: 'MB',
      target: 1_200,
    });
    await server.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  // The embedded default under 50 concurrent connections, the server in its own process
  // (issue 8: list p99 ≤ 250 ms, total RSS ≤ 350 MB after the ISTAT seed), and the same load on a
  // real PostgreSQL as its anchor.
  console.log('\nEmbedded database under load:');
  results.push(...(await benchUnderLoad()));
  if (process.env.BENCH_POSTGRES !== 'off') {
    const cluster = startPostgres(5498);
    if (typeof cluster === 'string') console.log(`  PostgreSQL anchor not measured: ${cluster}`);
    else {
      try {
        const anchor = await benchUnderLoad({
          label: 'PostgreSQL anchor',
          postgres: { url: cluster.url, port: 5498 },
        });
        // Printed beside the embedded numbers; an anchor is not a target of its own.
        results.push(...anchor.map((r) => ({ ...r, target: Math.max(r.target, r.value) })));
      } finally {
        cluster.stop();
      }
    }
  }

  // The dashboard on PostgreSQL with 100,000 subscriptions (BENCH_POSTGRES=off skips it).
  if (process.env.BENCH_POSTGRES !== 'off') results.push(...(await benchDashboardOnPostgres(ROUNDS)));

  const entitlements = await benchEntitlementsOnPostgres(ROUNDS);
  if (typeof entitlements === 'string') {
    console.log(`MISS  entitlement check on PostgreSQL not measured: ${entitlements}`);
    results.push({ name: 'entitlement check on PostgreSQL (not measured)', value: 1, unit: '', target: 0 });
  } else results.push(...entitlements);

  await billingLists();

  if (process.env.BENCH_POSTGRES !== 'off') await dunningPass();

  // /login against a bare React page, and npm start cold and warm (BENCH_FRONTEND=off skips it).
  if (process.env.BENCH_FRONTEND !== 'off') {
    console.log('\nFront end and start-up (issue 8):');
    results.push(...(await benchFrontEnd()));
  }

  if (process.env.BENCH_TENANTS !== '0') await tenantDatabases();
  report();
}

await main();
