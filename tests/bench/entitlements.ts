/**
 * Bench of the entitlement check (issue 15): `GET api/v1/entitlements/check` with a tenant API key
 * (key look-up, rate limit, entitlement query, request log after the answer), p95 ≤ 10 ms, on the
 * embedded database and on PostgreSQL (where the rate-limit counters live in the database: the
 * bench also checks that they were written there).
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

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? NaN;
}

/** Creates a tenant key as the signed-in Admin and measures the check with it. */
export async function measureEntitlementCheck(options: {
  baseUrl: string;
  appKey: string;
  token: string;
  tenantId: number;
  rounds: number;
  label: string;
}): Promise<BenchResult> {
  const { baseUrl, appKey, token, tenantId, rounds, label } = options;
  const created = await fetch(`${baseUrl}/api/apikey/create`, {
    method: 'POST',
    headers: {
      'x-api-key': appKey,
      authorization: `Bearer ${token}`,
      'x-tenant-id': String(tenantId),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'bench', scopes: ['entitlements'] }),
  });
  if (!created.ok) throw new Error(`apikey/create → ${created.status} ${await created.text()}`);
  const secret = ((await created.json()) as { data: { secret: string } }).data.secret;
  const url = `${baseUrl}/api/v1/entitlements/check?customerEmail=cliente%40demo.rinnova.it&feature=report_avanzati`;
  const once = async () => {
    const start = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
    await res.arrayBuffer();
    if (res.status !== 200 || !res.headers.get('x-ratelimit-remaining'))
      throw new Error(`entitlements/check → ${res.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await once());
  return {
    name: `entitlement check (${label}): p95 over ${rounds}`,
    value: p95(samples),
    unit: 'ms',
    target: ENTITLEMENT_CHECK_TARGET_MS,
  };
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
          result,
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
