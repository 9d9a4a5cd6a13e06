/**
 * Bench of the entitlement check (issue 15): `GET api/v1/entitlements/check` with a tenant API key
 * (key look-up, rate-limit count and entitlement query side by side, then the request-log line
 * committed before the answer), p95 ≤ 10 ms, on the embedded database and on PostgreSQL (where
 * the rate-limit counters live in the database: the bench also checks that they were written
 * there). Each round also calls two anchors on the same server, interleaved with the check so
 * that they meet the same load: `GET api/health` (no sign-in, one `select 1`) and an Admin's
 * `GET api/apikey/{id}` (session check and one row); their p50/p95 and the load average are
 * printed beside the check's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startServer } from '../../server/start';
import { startPostgres } from './postgres';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

export const ENTITLEMENT_CHECK_TARGET_MS = 10;
/** Limits high enough that the bench never meets them. */
export const BENCH_RATE_ENV = { API_RATE_PER_KEY: '100000', API_RATE_PER_TENANT: '1000000' };

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Creates a tenant key as the signed-in Admin and measures the check with it, beside its anchors. */
export async function measureEntitlementCheck(options: {
  baseUrl: string;
  appKey: string;
  token: string;
  tenantId: number;
  rounds: number;
  label: string;
}): Promise<BenchResult[]> {
  const { baseUrl, appKey, token, tenantId, rounds, label } = options;
  const adminHeaders = {
    'x-api-key': appKey,
    authorization: `Bearer ${token}`,
    'x-tenant-id': String(tenantId),
    'content-type': 'application/json',
  };
  const created = await fetch(`${baseUrl}/api/apikey/create`, {
    method: 'POST',
    headers: adminHeaders,
    body: JSON.stringify({ name: 'bench', scopes: ['entitlements'] }),
  });
  if (!created.ok) throw new Error(`apikey/create → ${created.status} ${await created.text()}`);
  const key = ((await created.json()) as { data: { secret: string; id: number } }).data;
  // The demo customer's Pro plan has this feature: the check answers allowed: true.
  const url = `${baseUrl}/api/v1/entitlements/check?customerEmail=cliente%40demo.rinnova.it&feature=webinar_mensili`;
  const calls = {
    check: async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key.secret}` } });
      const body = (await res.json()) as { data?: { allowed?: boolean } };
      if (res.status !== 200 || !res.headers.get('x-ratelimit-remaining') || body.data?.allowed !== true)
        throw new Error(`entitlements/check → ${res.status} ${JSON.stringify(body)}`);
    },
    health: async () => {
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health → ${res.status}`);
    },
    adminOneRow: async () => {
      const res = await fetch(`${baseUrl}/api/apikey/${key.id}`, { headers: adminHeaders });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`apikey/{id} → ${res.status}`);
    },
  };
  const names = Object.keys(calls) as (keyof typeof calls)[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
    keyof typeof calls,
    number[]
  >;
  for (let i = 0; i < 20; i++) for (const n of names) await calls[n]();
  for (let i = 0; i < rounds; i++)
    for (const n of names) {
      const start = performance.now();
      await calls[n]();
      samples[n].push(performance.now() - start);
    }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const line = (n: keyof typeof calls) =>
    `${n} p50 ${percentile(samples[n], 0.5).toFixed(2)} ms, p95 ${percentile(samples[n], 0.95).toFixed(2)} ms`;
  console.log(`  entitlement check (${label}), ${rounds} rounds, load average ${load}:`);
  for (const n of names) console.log(`    ${line(n)}`);
  const anchor = (n: keyof typeof calls, what: string): BenchResult => {
    const value = percentile(samples[n], 0.95);
    // An anchor is printed beside the check, not a target of its own.
    return { name: `anchor ${what} (${label}): p95 over ${rounds}`, value, unit: 'ms', target: value };
  };
  return [
    {
      name: `entitlement check (${label}): p95 over ${rounds}`,
      value: percentile(samples.check, 0.95),
      unit: 'ms',
      target: ENTITLEMENT_CHECK_TARGET_MS,
    },
    anchor('health', 'GET api/health'),
    anchor('adminOneRow', 'Admin GET api/apikey/{id}'),
  ];
}

export async function benchEntitlementsOnPostgres(rounds: number): Promise<BenchResult[] | string> {
  const cluster = startPostgres(5497);
  if (typeof cluster === 'string') return cluster;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-bench-entitlements-'));
  const appKey = 'bench-key';
  try {
    const env = {
      ...process.env,
      ...BENCH_RATE_ENV,
      API_KEYS: appKey,
      LOG_LEVEL: 'silent',
      DEMO_PASSWORD: 'bench-pass',
      DATABASE_URL: cluster.url,
      SEED_DEMO: 'true',
      RATE_LIMIT_LOGIN: '100000',
    };
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, env, spaDir: null, quiet: true });
    try {
      const loginRes = await fetch(`${server.url}/api/user/Login`, {
        method: 'POST',
        headers: { 'x-api-key': appKey, 'content-type': 'application/json' },
        body: JSON.stringify({ Email: 'admin@demo.rinnova.it', Password: 'bench-pass' }),
      });
      const login = (await loginRes.json()) as { data: { token: string; user: { defaultTenantId: number } } };
      const result = await measureEntitlementCheck({
        baseUrl: server.url,
        appKey,
        token: login.data.token,
        tenantId: login.data.user.defaultTenantId,
        rounds,
        label: 'PostgreSQL, counters in the database',
      });
      // The counters are rows of PostgreSQL (shared by every server process), not process memory.
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const rows = await client.query<{ n: string }>('select count(*)::text as n from api_rate_limits');
        const n = Number(rows.rows[0]?.n ?? 0);
        return [
          ...result,
          {
            name: 'rate-limit counters stored in PostgreSQL (rows)',
            value: n >= 2 ? 0 : 1,
            unit: '',
            target: 0,
          },
        ];
      } finally {
        await client.end();
      }
    } finally {
      await server.close();
    }
  } finally {
    cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
