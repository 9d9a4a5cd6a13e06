/**
 * Bench of `GET api/dashboard/summary` on PostgreSQL with 100,000 subscriptions and their history
 * (status events, payments) in one tenant, in its own database (issue 25). Uses BENCH_DATABASE_URL when set (a database it may
 * fill), otherwise starts a private cluster in a temp dir (as the postgres user when run as root,
 * like .ci/run) and removes it afterwards.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startServer } from '../../server/start';
import { tenantDatabaseUrl } from './postgres';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

const SUBSCRIPTIONS = Number(process.env.BENCH_DASHBOARD_SUBSCRIPTIONS ?? 100_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function privateCluster(): Promise<{ url: string; stop(): void }> {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  const bin = `/usr/lib/postgresql/${versions[versions.length - 1]}/bin`;
  const root = mkdtempSync(path.join(os.tmpdir(), 'rinnova-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('su', ['postgres', '-c', [cmd, ...args.map((a) => `'${a}'`)].join(' ')], {
          stdio: 'pipe',
        })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
    chmodSync(root, 0o700);
  }
  const port = await freePort();
  run(`${bin}/initdb`, ['-D', `${root}/data`, '-U', 'postgres', '--auth=trust']);
  run(`${bin}/pg_ctl`, [
    '-D',
    `${root}/data`,
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`,
    '-w',
    '-l',
    `${root}/log`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(`${bin}/pg_ctl`, ['-D', `${root}/data`, '-m', 'fast', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/**
 * 100,000 subscriptions over the last three years: ~70 % activated (by PayPal or bank transfer),
 * a third of those cancelled later, with their events at the historical times, and each
 * activated one with its paid payments (up to 4, one per period).
 */
async function fill(url: string, tenantId: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `create temporary table bench_subs on commit drop as
       with p as (select array_agg(id order by id) ids, array_agg(recurrence_type order by id) months,
                         array_agg((recurring_cost_before_vat * 100)::bigint order by id) costs
                  from plans where tenant_id = $1),
            u as (select array_agg(user_id order by user_id) ids from user_tenants where tenant_id = $1)
       select g,
              p.ids[1 + g % array_length(p.ids, 1)] plan_id,
              p.months[1 + g % array_length(p.ids, 1)] months,
              p.costs[1 + g % array_length(p.ids, 1)] cost,
              u.ids[1 + (g * 7) % array_length(u.ids, 1)] user_id,
              now() - (g % 1095) * interval '1 day' - (g % 86400) * interval '1 second' started,
              (g % 10) < 7 activated,
              (g % 10) < 7 and (g % 3) = 0 canceled
       from generate_series(1, $2) g, p, u`,
      [tenantId, SUBSCRIPTIONS],
    );
    await client.query(
      `create temporary table bench_ids on commit drop as
       with ins as (
         insert into subscriptions (tenant_id, user_id, plan_id, status, start_date, next_billing_date,
                                    cost_before_vat_cents, vat_hundredths, amount_due_cents, created_at, updated_at)
         select $1::int, user_id, plan_id,
                case when canceled then 5 when activated and g % 2 = 0 then 1 when activated then 3 else 2 end,
                started, started + months * interval '1 month', cost, 2200, (cost * 122 + 50) / 100, started, started
         from bench_subs order by g
         returning id, start_date)
       select ins.id, b.* from ins join bench_subs b on b.started = ins.start_date`,
      [tenantId],
    );
    await client.query(
      `insert into subscription_events (tenant_id, subscription_id, event, from_status, to_status, actor_kind, at)
       select $1::int, id, 'create', null, 2, 'system', started from bench_ids
       union all
       select $1::int, id, case when g % 2 = 0 then 'providerActivated' else 'confirmBankTransfer' end,
              case when g % 2 = 0 then 2 else 4 end, case when g % 2 = 0 then 1 else 3 end, 'system',
              started + interval '1 hour'
       from bench_ids where activated
       union all
       select $1::int, id, 'cancel', 1, 5, 'system', least(now(), started + (1 + g % 20) * interval '15 days')
       from bench_ids where canceled`,
      [tenantId],
    );
    await client.query(
      `insert into payments (tenant_id, subscription_id, amount_due_cents, causale, period_start, period_end, method, paid_at)
       select $1::int, b.id, (b.cost * 122 + 50) / 100, 'BENCH-' || b.id || '-' || k,
              b.started + k * b.months * interval '1 month', b.started + (k + 1) * b.months * interval '1 month',
              'paypal', b.started + k * b.months * interval '1 month' + interval '1 hour'
       from bench_ids b, generate_series(0, 3) k
       where b.activated and b.started + k * b.months * interval '1 month' < now()`,
      [tenantId],
    );
    await client.query('commit');
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

export async function benchDashboardOnPostgres(rounds: number): Promise<BenchResult[]> {
  const cluster = process.env.BENCH_DATABASE_URL ? null : await privateCluster();
  const url = process.env.BENCH_DATABASE_URL ?? cluster!.url;
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: ':memory:',
    env: {
      ...process.env,
      DATABASE_URL: url,
      SEED_DEMO: 'true',
      API_KEYS: 'bench-key',
      LOG_LEVEL: 'silent',
      DEMO_PASSWORD: 'bench-pass',
      JWT_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
      JOBS: 'off',
    },
    spaDir: null,
    quiet: true,
  });
  try {
    const call = async (url: string, init: RequestInit = {}, token?: string, tenantId?: number) => {
      const headers: Record<string, string> = {
        'x-api-key': 'bench-key',
        'content-type': 'application/json',
      };
      if (token) headers.authorization = `Bearer ${token}`;
      if (tenantId) headers['x-tenant-id'] = String(tenantId);
      const res = await fetch(`${server.url}/api/${url}`, { ...init, headers });
      if (!res.ok) throw new Error(`${url} → ${res.status} ${await res.text()}`);
      return (await res.json()) as { data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const login = await call('user/Login', {
      method: 'POST',
      body: JSON.stringify({ Email: 'admin@demo.rinnova.it', Password: 'bench-pass' }),
    });
    const token = login.data.token as string;
    const tenantId = login.data.user.defaultTenantId as number;
    // The tenant's records live in its own database (issue 25): filled there, with its triggers on
    // (the summary reads the running totals they keep).
    const t0 = performance.now();
    await fill(await tenantDatabaseUrl(url, tenantId), tenantId);
    const fillMs = performance.now() - t0;
    const first = await call('dashboard/summary', {}, token, tenantId);
    if (first.data.activeSubscriptions < SUBSCRIPTIONS / 4) throw new Error('bench data missing');
    for (let i = 0; i < 10; i++) await call('dashboard/summary', {}, token, tenantId);
    // Interleaved with an anchor measured in the same run: an authenticated call that reads one
    // row (what any signed-in call costs on this machine at this moment).
    const measure = async (path: string) => {
      const start = performance.now();
      await call(path, {}, token, tenantId);
      return performance.now() - start;
    };
    const samples: number[] = [];
    const anchor: number[] = [];
    for (let i = 0; i < rounds; i++) {
      samples.push(await measure('dashboard/summary'));
      anchor.push(await measure(`tenant/GetById/${tenantId}`));
    }
    const pct = (xs: number[], q: number) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    };
    const p95 = pct(samples, 0.95);
    console.log(
      `dashboard bench: ${SUBSCRIPTIONS} subscriptions filled in ${(fillMs / 1000).toFixed(1)} s; ` +
        `active ${first.data.activeSubscriptions}; summary p50 ${pct(samples, 0.5).toFixed(1)} / p95 ${p95.toFixed(1)} ms; ` +
        `anchor tenant/GetById p50 ${pct(anchor, 0.5).toFixed(1)} / p95 ${pct(anchor, 0.95).toFixed(1)} ms`,
    );
    return [
      {
        name: `dashboard summary, ${SUBSCRIPTIONS / 1000}k subscriptions, PostgreSQL: p95 over ${rounds}`,
        value: p95,
        unit: 'ms',
        target: 50,
      },
    ];
  } finally {
    await server.close();
    cluster?.stop();
  }
}
