import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('has a default for every setting', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      jwtSecret: undefined,
      jwtExpiresInMs: 8 * 3600_000,
      apiKeys: ['rinnova-dev-key'],
      smtpUrl: undefined,
      publicUrl: undefined,
      supportEmail: 'supporto@rinnova.it',
      whatsappPhone: '',
      demoPassword: 'demo1234',
      seedDemo: true,
      adminEmail: undefined,
      adminPassword: undefined,
      bodyLimitBytes: 1_048_576,
      jobs: 'auto',
      widget: { dailyCapPerPlan: 100 },
      rateLimit: {
        windowMs: 60_000,
        login: 20,
        passwordReset: 5,
        contact: 5,
        loginMaxFailures: 5,
        loginLockMs: 900_000,
      },
    });
  });

  it('reads and normalises values', () => {
    const config = loadConfig({
      PORT: '3101',
      DATA_DIR: ':memory:',
      API_KEYS: ' uno , due ,',
      JWT_EXPIRES_IN: '30m',
      PUBLIC_URL: 'https://app.rinnova.it/',
      ADMIN_EMAIL: 'Capo@Rinnova.IT',
      ADMIN_PASSWORD: 'segreta1',
      DATABASE_URL: 'postgres://u:p@localhost:5432/rinnova',
      WIDGET_DAILY_CAP: '25',
    });
    expect(config).toMatchObject({
      widget: { dailyCapPerPlan: 25 },
      port: 3101,
      dataDir: ':memory:',
      apiKeys: ['uno', 'due'],
      jwtExpiresInMs: 1_800_000,
      publicUrl: 'https://app.rinnova.it',
      adminEmail: 'capo@rinnova.it',
      // With a real database demo data is opt-in.
      seedDemo: false,
    });
  });

  it('lists every problem at once, in Italian and English', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '70000',
        JWT_EXPIRES_IN: 'domani',
        SMTP_URL: 'ftp://x',
        SEED_DEMO: 'forse',
        ADMIN_EMAIL: 'capo@rinnova.it',
        DEMO_PASSWORD: '123',
        LOG_LEVEL: 'loud',
        WIDGET_DAILY_CAP: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ADMIN_EMAIL, ADMIN_PASSWORD',
      'DEMO_PASSWORD',
      'JWT_EXPIRES_IN',
      'LOG_LEVEL',
      'PORT',
      'SEED_DEMO',
      'SMTP_URL',
      'WIDGET_DAILY_CAP',
    ]);
    const port = problems.find((p) => p.startsWith('PORT'));
    expect(port).toContain('deve essere un intero');
    expect(port).toContain('must be an integer');
  });

  it('requires JWT_SECRET with DATABASE_URL in production', () => {
    const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/rinnova' };
    expect(() => loadConfig(env)).toThrow(/JWT_SECRET/);
    expect(() =>
      loadConfig({ ...env, JWT_SECRET: 'x'.repeat(32), API_KEYS: 'k-prod', ENCRYPTION_KEY: 'e'.repeat(32) }),
    ).not.toThrow();
    expect(() => loadConfig({ JWT_SECRET: 'corto' })).toThrow(/almeno 32/);
  });

  it('production refuses the public development API key and a missing ENCRYPTION_KEY, with a readable message', () => {
    const production = { NODE_ENV: 'production' };
    const problems = (() => {
      try {
        loadConfig(production);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems.find((p) => p.startsWith('API_KEYS'))).toContain("'rinnova-dev-key' non è ammessa");
    expect(problems.find((p) => p.startsWith('ENCRYPTION_KEY'))).toContain('obbligatoria in produzione');
    expect(() =>
      loadConfig({ ...production, API_KEYS: 'k1,rinnova-dev-key', ENCRYPTION_KEY: 'e'.repeat(32) }),
    ).toThrow(/API_KEYS/);
    const ok = loadConfig({ ...production, API_KEYS: 'k-prod', ENCRYPTION_KEY: 'e'.repeat(32) });
    expect(ok.production).toBe(true);
    // Development keeps working with the documented defaults.
    expect(loadConfig({}).apiKeys).toEqual(['rinnova-dev-key']);
  });

  it('production never seeds demo data unless SEED_DEMO=true, even on the embedded database', () => {
    const production = { NODE_ENV: 'production', API_KEYS: 'k-prod', ENCRYPTION_KEY: 'e'.repeat(32) };
    expect(loadConfig(production).seedDemo).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({}).seedDemo).toBe(true);
  });

  it('logs are readable lines in development and JSON in production (LOG_FORMAT overrides)', () => {
    const production = { NODE_ENV: 'production', API_KEYS: 'k-prod', ENCRYPTION_KEY: 'e'.repeat(32) };
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig(production).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('OUTBOUND_ALLOW_PRIVATE (older name WEBHOOK_ALLOW_PRIVATE): on by default outside production, never in production', () => {
    const production = { NODE_ENV: 'production', API_KEYS: 'k-prod', ENCRYPTION_KEY: 'e'.repeat(32) };
    expect(loadConfig({}).outboundAllowPrivate).toBe(true);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'false' }).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }).outboundAllowPrivate).toBe(false);
    expect(
      loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_PRIVATE: 'false' }).outboundAllowPrivate,
    ).toBe(true);
    expect(loadConfig(production).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ ...production, OUTBOUND_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(false);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'forse' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
    // The fake providers listen on loopback: they need the guard off.
    expect(() => loadConfig({ PAYPAL_FAKE: 'true', OUTBOUND_ALLOW_PRIVATE: 'false' })).toThrow(
      /PAYPAL_FAKE: .*OUTBOUND_ALLOW_PRIVATE=true/,
    );
    expect(() => loadConfig({ STRIPE_FAKE: 'true', OUTBOUND_ALLOW_PRIVATE: 'false' })).toThrow(/STRIPE_FAKE/);
  });

  it('ENCRYPTION_KEY is optional, and at least 32 characters when set', () => {
    expect(loadConfig({}).encryptionKey).toBeUndefined();
    expect(loadConfig({ ENCRYPTION_KEY: 'k'.repeat(32) }).encryptionKey).toBe('k'.repeat(32));
    expect(() => loadConfig({ ENCRYPTION_KEY: 'corta' })).toThrow(/ENCRYPTION_KEY: almeno 32/);
    // The material before a rotation, read until the secrets-rewrap job has rewritten everything.
    expect(loadConfig({}).encryptionKeyPrevious).toBeUndefined();
    expect(loadConfig({ ENCRYPTION_KEY_PREVIOUS: 'p'.repeat(32) }).encryptionKeyPrevious).toBe(
      'p'.repeat(32),
    );
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: 'corta' })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS: almeno 32/,
    );
  });

  it("TRUST_PROXY: none, a number of hops or the proxies' addresses; true is refused", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '2001:db8::1',
    ]);
    for (const bad of ['true', '10.0.0.0/99', 'proxy.local', '64'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
});
