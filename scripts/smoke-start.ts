/**
 * Start-up smoke test (CI runs it on each tested Node version): starts the real server on a
 * fresh data directory as `npm start` would (migrations, first-start seed), checks health, the
 * SPA at `/` (when built), a sign-in and one signed-in call over real HTTP, then stops it.
 * Exits non-zero on any failure. SMOKE_SERVER=bundle runs the bundle `npm start` runs
 * (dist-server/main.mjs, `node scripts/build-lib.mjs server`) instead of the sources.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { startServer as StartServer } from '../server/start';

const bundled = process.env.SMOKE_SERVER === 'bundle';
const { startServer } = (
  bundled ? await import('../dist-server/main.mjs' as string) : await import('../server/start')
) as { startServer: typeof StartServer };

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-smoke-'));
const apiKey = 'smoke-key';
const fail = (message: string): never => {
  throw new Error(`smoke test: ${message}`);
};
let server: Awaited<ReturnType<typeof StartServer>> | undefined;
try {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    quiet: true,
    env: { LOG_LEVEL: 'warn', API_KEYS: apiKey, DEMO_PASSWORD: 'demo1234' },
  });
  const health = await fetch(`${server.url}/api/health`);
  if (health.status !== 200) fail(`health ${health.status}`);
  const root = await fetch(`${server.url}/`);
  if (root.status !== 200 && root.status !== 404) fail(`GET / ${root.status}`);
  const login = await fetch(`${server.url}/api/user/Login`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.rinnova.it', password: 'demo1234' }),
  });
  if (login.status !== 200) fail(`login ${login.status}`);
  const { data } = (await login.json()) as { data: { token: string; user: { defaultTenantId: number } } };
  const plans = await fetch(`${server.url}/api/plan/getAll`, {
    headers: {
      'x-api-key': apiKey,
      authorization: `Bearer ${data.token}`,
      'x-tenant-id': String(data.user.defaultTenantId),
    },
  });
  if (plans.status !== 200) fail(`plan/getAll ${plans.status}`);
  console.log(
    `smoke test ok on Node ${process.version}${bundled ? ' (server bundle)' : ''}: ${server.url} (seeded ${server.seeded.join(', ')})`,
  );
} finally {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
}
