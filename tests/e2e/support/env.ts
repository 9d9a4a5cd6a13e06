/**
 * What playwright.config.ts puts in the environment for the tests: the server's data directory
 * (outbox), its JWT secret and the accounts it was started with.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the tests with \`npx playwright test\` (playwright.config.ts sets it)`,
    );
  return value;
}

export const env = {
  baseUrl: required('E2E_BASE_URL'),
  dataDir: required('E2E_DATA_DIR'),
  jwtSecret: required('E2E_JWT_SECRET'),
  adminEmail: required('E2E_ADMIN_EMAIL'),
  adminPassword: required('E2E_ADMIN_PASSWORD'),
  supportEmail: required('E2E_SUPPORT_EMAIL'),
  /** The SPA's static key (VITE_API_KEY default, first of the server's API_KEYS). */
  apiKey: 'rinnova-dev-key',
} as const;
