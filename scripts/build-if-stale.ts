/**
 * Builds the SPA only when dist/ is missing, older than its sources, or was built with other
 * values of the settings Vite embeds (VITE_*, WHATSAPP_*, SUPPORT_*), so that a second
 * `npm start` skips the build and is up in a few seconds, and a changed setting still shows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const sources = [
  'src',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'tailwind.config.ts',
  'package-lock.json',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const stampFile = join(root, 'dist', '.build-env.json');
const embeddedPrefixes = ['VITE_', 'WHATSAPP_', 'SUPPORT_']; // vite.config.ts envPrefix

function embeddedEnv(): string {
  const entries = Object.entries(process.env)
    .filter(([k]) => embeddedPrefixes.some((p) => k.startsWith(p)))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(Object.fromEntries(entries));
}

function spaIsStale(): boolean {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built) || !existsSync(stampFile)) return true;
  if (readFileSync(stampFile, 'utf8') !== embeddedEnv()) return true;
  const builtAt = statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(join(root, s)) > builtAt);
}

export function buildSpaIfStale(): void {
  if (!spaIsStale()) return;
  console.log('Compilazione della SPA (vite build)...');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) {
    console.error('vite build non riuscita.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, embeddedEnv());
}
