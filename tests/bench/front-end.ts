/**
 * Front end and start-up, each beside its anchor measured in the same run (issue 8):
 * - `/login` of the built SPA against a bare Vite + React 19 page built by the same Vite in a temp
 *   folder and served the same way (pre-compressed files through @fastify/static): first
 *   contentful paint and the gzipped size of the JavaScript the page loads, median of
 *   BENCH_PAGE_RUNS (10) fresh Chromium contexts (no cache), alternating the two pages;
 * - `npm start` from spawn to the first 200 of /api/health: cold (fresh data directory: migrations
 *   and the ISTAT seed) and warm (the same directory again, nothing to build).
 * Runs alone with `npx tsx tests/bench/front-end.ts`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { chromium } from '@playwright/test';
import type { Browser } from '@playwright/test';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';
import { buildIfStale, compressDir } from '../../scripts/build-lib.mjs';
import { staticCacheControl } from '../../server/plugins/not-found';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 10);
const WARM_STARTS = Number(process.env.BENCH_WARM_STARTS ?? 5);
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

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

/** A hello-world React 19 app built by this repository's Vite and React plugin, pre-compressed. */
export async function buildAnchor(dir: string): Promise<string> {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="it"><head><meta charset="UTF-8" />' +
      '<meta name="viewport" content="width=device-width, initial-scale=1.0" /><title>Anchor</title>' +
      '</head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
  );
  writeFileSync(
    path.join(dir, 'src', 'main.tsx'),
    "import { StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
      "createRoot(document.getElementById('root')!).render(<StrictMode><h1>Ciao da React 19</h1></StrictMode>);\n",
  );
  const outDir = path.join(dir, 'dist');
  await build({
    configFile: false,
    root: dir,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  await compressDir(outDir);
  return outDir;
}

/** The bare page served as the app serves its SPA: pre-compressed files, the same cache headers. */
export async function serveAnchor(distDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify();
  await app.register(fastifyStatic, {
    root: distDir,
    preCompressed: true,
    setHeaders: (reply, filePath) => reply.header('cache-control', staticCacheControl(distDir, filePath)),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

interface PageSample {
  fcpMs: number;
  jsGzipBytes: number;
  jsFiles: number;
  wireBytes: number;
}

/**
 * Read in the page (a string: this file is type-checked without the DOM library): FCP from the
 * paint entry, observed buffered as it may be delivered after the load state, and the bytes
 * transferred (document and every resource, compressed as sent).
 */
const PAGE_METRICS = `(async () => {
  const fcp = await new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const entry = list.getEntriesByName('first-contentful-paint')[0];
      if (entry) resolve(entry.startTime);
    }).observe({ type: 'paint', buffered: true });
    setTimeout(() => resolve(NaN), 5000);
  });
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  return { fcp, wire: entries.reduce((sum, e) => sum + e.transferSize, 0) };
})()`;

/** One cold load in a fresh context: FCP, the JS the page ran (gzipped here, level 9), bytes on the wire. */
export async function loadOnce(browser: Browser, url: string, ready: string): Promise<PageSample> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  const { fcp, wire } = await page.evaluate<{ fcp: number; wire: number }>(PAGE_METRICS);
  if (Number.isNaN(fcp)) throw new Error(`${url}: no first-contentful-paint entry`);
  const sizes = await Promise.all(scripts);
  await context.close();
  return {
    fcpMs: fcp,
    jsGzipBytes: sizes.reduce((a, b) => a + b, 0),
    jsFiles: sizes.length,
    wireBytes: wire,
  };
}

interface StartedServer {
  child: ChildProcess;
  ms: number;
  output: () => string;
}

/** `npm start` on a port and data directory: time from spawn to the first 200 of /api/health. */
export async function timeStart(port: number, dataDir: string, cwd = root): Promise<StartedServer> {
  let output = '';
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`))),
  );
  exited.catch(() => undefined);
  for (;;) {
    const ok = await Promise.race([
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status === 200,
        () => false,
      ),
      exited,
    ]);
    if (ok) break;
    if (performance.now() - started > 180_000) throw new Error(`npm start not ready in 180 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, ms: performance.now() - started, output: () => output };
}

export async function stop(server: StartedServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  process.kill(-server.child.pid!, 'SIGTERM'); // npm and the node it started: one process group
  await exited;
  // npm may end before the server it started: the next start must not find this one answering.
  for (;;) {
    try {
      process.kill(-server.child.pid!, 0);
    } catch {
      return; // the group is gone
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function benchFrontEnd(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  // What `npm run build` leaves: the SPA (pre-compressed) and the server bundle, built only if stale.
  await buildIfStale({ log: (line: string) => console.log(line) });

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'rinnova-bench-fe-'));
  let server: StartedServer | undefined;
  let anchor: Awaited<ReturnType<typeof serveAnchor>> | undefined;
  let browser: Browser | undefined;
  try {
    const dataDir = path.join(tmp, 'data');
    const port = await freePort();
    server = await timeStart(port, dataDir);
    const cold = server.ms;
    await stop(server);
    const warm: number[] = [];
    let rebuilt = false;
    for (let i = 0; i < WARM_STARTS; i++) {
      server = await timeStart(port, dataDir);
      warm.push(server.ms);
      rebuilt ||= /Compilazione/.test(server.output());
      if (i < WARM_STARTS - 1) await stop(server);
    }
    console.log(
      `  npm start: cold ${cold.toFixed(0)} ms (migrations + seed), warm ${warm.map((w) => w.toFixed(0)).join(' / ')} ms` +
        (rebuilt ? '  (a warm start rebuilt!)' : ''),
    );
    results.push({
      name: 'npm start, cold (fresh data dir): to /api/health',
      value: cold,
      unit: 'ms',
      target: 15_000,
    });
    results.push({
      name: `npm start, warm: to /api/health (median of ${WARM_STARTS})`,
      value: median(warm),
      unit: 'ms',
      target: 1_500,
    });
    results.push({
      name: 'warm npm start rebuilt nothing (1 = it rebuilt)',
      value: rebuilt ? 1 : 0,
      unit: '',
      target: 0,
    });

    const anchorDist = await buildAnchor(path.join(tmp, 'anchor'));
    anchor = await serveAnchor(anchorDist);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const appUrl = `http://127.0.0.1:${port}/login`;
    // One unmeasured load of each: Chromium's own start-up costs land on neither page.
    await loadOnce(browser, anchor.url, 'h1');
    await loadOnce(browser, appUrl, 'input[type="password"]');
    const app: PageSample[] = [];
    const bare: PageSample[] = [];
    for (let i = 0; i < PAGE_RUNS; i++) {
      bare.push(await loadOnce(browser, anchor.url, 'h1'));
      app.push(await loadOnce(browser, appUrl, 'input[type="password"]'));
    }
    const pick = (samples: PageSample[], key: keyof PageSample) => median(samples.map((s) => s[key]));
    const row = (label: string, key: keyof PageSample, unit: string, scale = 1) =>
      console.log(
        `  ${label.padEnd(34)} /login ${(pick(app, key) / scale).toFixed(1).padStart(8)} ${unit}` +
          `   bare React ${(pick(bare, key) / scale).toFixed(1).padStart(8)} ${unit}` +
          `   ratio ${(pick(app, key) / pick(bare, key)).toFixed(2)}`,
      );
    console.log(`\n/login against a bare Vite + React 19 page (median of ${PAGE_RUNS}, Chromium):`);
    row('first contentful paint', 'fcpMs', 'ms');
    row('JavaScript, gzipped', 'jsGzipBytes', 'KB', 1024);
    row('JavaScript files', 'jsFiles', '  ');
    row('bytes on the wire (all)', 'wireBytes', 'KB', 1024);
    results.push({
      name: '/login FCP ÷ bare React page FCP',
      value: pick(app, 'fcpMs') / pick(bare, 'fcpMs'),
      unit: '×',
      target: 1.5,
    });
    results.push({
      name: '/login gzipped JS ÷ bare React page gzipped JS',
      value: pick(app, 'jsGzipBytes') / pick(bare, 'jsGzipBytes'),
      unit: '×',
      target: 2.2,
    });
  } finally {
    await browser?.close();
    await anchor?.close();
    if (server) await stop(server);
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

const executedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (executedDirectly) {
  const results = await benchFrontEnd();
  for (const r of results)
    console.log(
      `${r.value <= r.target ? 'ok  ' : 'MISS'}  ${r.name.padEnd(58)} ${r.value.toFixed(2)} ${r.unit} (≤ ${r.target})`,
    );
}
