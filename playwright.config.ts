import { defineConfig } from '@playwright/test';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One throwaway data directory per run, created once in the main process; workers inherit it
// through the environment (Playwright re-evaluates this file in each worker). The server still
// has it open when the run ends, so earlier runs' directories (over an hour old) go here instead.
if (!process.env.E2E_DATA_DIR) {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('rinnova-e2e-')) continue;
    const dir = join(tmpdir(), name);
    if (Date.now() - statSync(dir).mtimeMs > 60 * 60 * 1000) rmSync(dir, { recursive: true, force: true });
  }
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'rinnova-e2e-'));
}
const port = Number(process.env.E2E_PORT ?? 3210);
process.env.E2E_BASE_URL ??= `http://127.0.0.1:${port}`;
process.env.E2E_JWT_SECRET ??= 'e2e-only-secret-0123456789abcdef0123456789';
// The SuperAdmin seeded from configuration, who must choose a new password at first sign-in.
process.env.E2E_ADMIN_EMAIL ??= 'primo.admin@e2e.rinnova.it';
process.env.E2E_ADMIN_PASSWORD ??= 'Config-Pass-1';
// Where the landing page's contact messages go. Left at the default on purpose: the SPA bakes
// SUPPORT_EMAIL in at build time and `npm start` rebuilds only when sources change.
process.env.E2E_SUPPORT_EMAIL ??= 'supporto@rinnova.it';

export default defineConfig({
  testDir: 'tests/e2e',
  // Files run in name order (01-…, 02-…) against one database.
  // The embedded database is a single session and the machine has two cores: one worker.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${process.env.E2E_BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: process.env.E2E_BASE_URL,
      WHATSAPP_PHONE: '+39 333 1234567',
      // Known secret so the session-expiry test can sign a token that has already expired.
      JWT_SECRET: process.env.E2E_JWT_SECRET,
      ADMIN_EMAIL: process.env.E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      SUPPORT_EMAIL: process.env.E2E_SUPPORT_EMAIL,
      LOG_LEVEL: 'warn',
      // The loopback PEC server of the invoices spec speaks TLS (PEC requires it) with a
      // certificate of the test CA, which the server trusts here only (tests/fixtures/tls).
      NODE_EXTRA_CA_CERTS: join(process.cwd(), 'tests/fixtures/tls/ca.pem'),
    },
  },
});
