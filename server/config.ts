import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Every setting of the server, read from the environment once at start and validated, so a
 * wrong value stops the server with a readable list instead of failing later.
 * `.env.example` documents each one.
 */
export interface Config {
  port: number;
  host: string;
  /** Absolute path; `:memory:` keeps the embedded database in memory (tests, throw-away runs). */
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * TENANT_DATABASE_SERVERS: further PostgreSQL servers tenants' databases may be created on, by
   * name (`name=postgres://…`, comma-separated); the control database's server is always one,
   * named 'control'. Ignored on the embedded database.
   */
  tenantDatabaseServers: Record<string, string>;
  jwtSecret: string | undefined;
  /** Key material for secrets stored encrypted (payment-provider secrets); falls back to the JWT secret. */
  encryptionKey: string | undefined;
  /**
   * ENCRYPTION_KEY_PREVIOUS: the material before a rotation, still read until the re-encryption
   * job (secrets-rewrap) has sealed every secret with the current one.
   */
  encryptionKeyPrevious: string | undefined;
  jwtExpiresInMs: number;
  apiKeys: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Origin the e-mailed links point at; undefined means http://localhost:{bound port}. */
  publicUrl: string | undefined;
  supportEmail: string;
  whatsappPhone: string;
  demoPassword: string;
  seedDemo: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  production: boolean;
  logLevel: string;
  /** 'pretty' (readable lines, the default in development) or 'json' (the default in production). */
  logFormat: 'pretty' | 'json';
  bodyLimitBytes: number;
  corsOrigins: string[];
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's `trustProxy`): false (none, the default),
   * a number of hops, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /** PAYPAL_FAKE: a fake PayPal on loopback answers every PayPal call (development only). */
  paypalFake: boolean;
  /** Port of that fake (0: any free port). */
  paypalFakePort: number;
  /** How long a PayPal (or Stripe) call may take before it counts as failed. */
  paypalTimeoutMs: number;
  /** STRIPE_FAKE: a fake Stripe on loopback answers every Stripe call (development only). */
  stripeFake: boolean;
  /** Port of that fake (0: any free port). */
  stripeFakePort: number;
  /**
   * The background-job engine (pg-boss): 'auto' runs workers and cron schedules; 'manual' creates
   * queues and schedules but runs a job only when asked (tests); 'off' starts no engine.
   */
  jobs: 'auto' | 'manual' | 'off';
  /** Tenant API keys and outbound webhooks (issue 15). */
  integrations: {
    /** Default calls per minute per tenant API key, and for all of a tenant's keys. */
    apiPerKeyPerMinute: number;
    apiPerTenantPerMinute: number;
    /** How long a webhook endpoint may take to answer. */
    webhookTimeoutMs: number;
  };
  /**
   * OUTBOUND_ALLOW_PRIVATE (older name WEBHOOK_ALLOW_PRIVATE): server-initiated connections
   * (webhooks, PayPal, Stripe, PEC) may reach private, loopback and link-local addresses, and
   * providers' API URLs are not pinned to their official hosts. Always false in production;
   * true by default elsewhere (the fakes of development and tests listen on loopback).
   */
  outboundAllowPrivate: boolean;
  /** The public plan widget (issue 23). */
  widget: {
    /** Subscription requests (new confirmation e-mails) per tenant and plan in 24 hours. */
    dailyCapPerPlan: number;
  };
  rateLimit: {
    windowMs: number;
    login: number;
    passwordReset: number;
    /** Sign-in links asked for (POST api/user/request-login-link) per IP per window. */
    loginLink: number;
    /** …and per e-mail address, known or not, per `loginLinkEmailWindowMs`. */
    loginLinkPerEmail: number;
    loginLinkEmailWindowMs: number;
    contact: number;
    /** Public look-ups without sign-in (the payment page's PayPal settings, token check, payment, widget). */
    publicLookup: number;
    /** Provider webhook deliveries per IP. */
    webhook: number;
    /** Signed PayPal webhook deliveries per tenant (each is a verification call to PayPal). */
    webhookPerTenant: number;
    loginMaxFailures: number;
    loginLockMs: number;
    /** Failed sign-ins of one account name before each try waits, doubling (sign-in-guard.ts). */
    signInFreeFailures: number;
  };
}

export const MEMORY_DATA_DIR = ':memory:';
/** The key every clone knows (README, .env.example): development only, refused in production. */
export const DEV_API_KEY = 'rinnova-dev-key';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Configurazione non valida / invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const DURATION = /^(\d+)\s*(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function durationMs(value: string): number | undefined {
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** Reads settings; problems are collected, not thrown one by one, so the operator fixes them all at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (key: string, fallback: string): string => {
    const v = env[key]?.trim();
    return v ? v : fallback;
  };
  const opt = (key: string): string | undefined => env[key]?.trim() || undefined;
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw = opt(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(
        `${key}: deve essere un intero tra ${min} e ${max} / must be an integer between ${min} and ${max} (got "${raw}")`,
      );
      return fallback;
    }
    return n;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const raw = opt(key)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes', 'si', 'sì'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    problems.push(`${key}: deve essere true o false / must be true or false (got "${raw}")`);
    return fallback;
  };
  const duration = (key: string, fallback: string): number => {
    const raw = str(key, fallback);
    const ms = durationMs(raw);
    if (ms === undefined || ms <= 0) {
      problems.push(
        `${key}: durata come '8h', '30m', '15s' / duration like '8h', '30m', '15s' (got "${raw}")`,
      );
      return durationMs(fallback) ?? 0;
    }
    return ms;
  };
  const url = (key: string, protocols: string[]): string | undefined => {
    const raw = opt(key);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (protocols.includes(parsed.protocol)) return raw;
    } catch {
      // reported below
    }
    problems.push(`${key}: URL non valido / invalid URL (${protocols.join(' ')})`);
    return undefined;
  };
  const email = (key: string, fallback?: string): string | undefined => {
    const raw = opt(key) ?? fallback;
    if (raw === undefined) return undefined;
    if (!z.email().safeParse(raw).success) {
      problems.push(`${key}: indirizzo e-mail non valido / invalid e-mail address (got "${raw}")`);
    }
    return raw;
  };

  const port = int('PORT', 3000, 0, 65535);
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const production = str('NODE_ENV', 'development') === 'production';
  const tenantDatabaseServers: Record<string, string> = {};
  for (const entry of str('TENANT_DATABASE_SERVERS', '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    const name = at > 0 ? entry.slice(0, at).trim() : '';
    const value = at > 0 ? entry.slice(at + 1).trim() : '';
    let valid = /^[a-z][a-z0-9_-]{0,39}$/.test(name) && name !== 'control' && name !== 'embedded';
    try {
      valid &&= ['postgres:', 'postgresql:'].includes(new URL(value).protocol);
    } catch {
      valid = false;
    }
    if (valid) tenantDatabaseServers[name] = value;
    else
      problems.push(
        `TENANT_DATABASE_SERVERS: voce non valida, atteso nome=postgres://… / invalid entry, expected name=postgres://… (got "${name || entry.slice(0, 40)}")`,
      );
  }
  const rawDataDir = str('DATA_DIR', './data');
  const jwtSecret = opt('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    problems.push('JWT_SECRET: almeno 32 caratteri / at least 32 characters');
  }
  const encryptionKey = opt('ENCRYPTION_KEY');
  if (encryptionKey !== undefined && encryptionKey.length < 32) {
    problems.push('ENCRYPTION_KEY: almeno 32 caratteri / at least 32 characters');
  }
  const encryptionKeyPrevious = opt('ENCRYPTION_KEY_PREVIOUS');
  if (encryptionKeyPrevious !== undefined && encryptionKeyPrevious.length < 32) {
    problems.push('ENCRYPTION_KEY_PREVIOUS: almeno 32 caratteri / at least 32 characters');
  }
  if (databaseUrl && production && jwtSecret === undefined) {
    problems.push(
      'JWT_SECRET: obbligatorio con DATABASE_URL in produzione / required with DATABASE_URL when NODE_ENV=production',
    );
  }
  const apiKeys = str('API_KEYS', DEV_API_KEY)
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (apiKeys.length === 0) problems.push('API_KEYS: almeno una chiave / at least one key');
  if (production && apiKeys.includes(DEV_API_KEY)) {
    problems.push(
      `API_KEYS: in produzione la chiave pubblica di sviluppo '${DEV_API_KEY}' non è ammessa, impostare chiavi proprie / ` +
        `the public development key is refused when NODE_ENV=production, set your own keys`,
    );
  }
  if (production && encryptionKey === undefined) {
    problems.push(
      'ENCRYPTION_KEY: obbligatoria in produzione (almeno 32 caratteri, da conservare: cifra i segreti dei provider di pagamento) / ' +
        'required when NODE_ENV=production (at least 32 characters; keep it: it encrypts payment-provider secrets)',
    );
  }

  const adminEmail = email('ADMIN_EMAIL');
  const adminPassword = opt('ADMIN_PASSWORD');
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    problems.push('ADMIN_EMAIL, ADMIN_PASSWORD: impostarli entrambi o nessuno / set both or neither');
  }
  const demoPassword = str('DEMO_PASSWORD', 'demo1234');
  for (const [key, value] of [
    ['DEMO_PASSWORD', demoPassword],
    ['ADMIN_PASSWORD', adminPassword],
  ] as const) {
    if (value !== undefined && value.length < 6)
      problems.push(`${key}: almeno 6 caratteri / at least 6 characters`);
  }
  const publicUrl = url('PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '');
  const jobs = str('JOBS', 'auto').toLowerCase();
  if (jobs !== 'auto' && jobs !== 'manual' && jobs !== 'off') {
    problems.push(`JOBS: auto, manual o off / auto, manual or off (got "${jobs}")`);
  }

  const config: Config = {
    port,
    host: str('HOST', '127.0.0.1'),
    dataDir: rawDataDir === MEMORY_DATA_DIR ? MEMORY_DATA_DIR : path.resolve(rawDataDir),
    databaseUrl,
    tenantDatabaseServers,
    jwtSecret,
    encryptionKey,
    encryptionKeyPrevious,
    jwtExpiresInMs: duration('JWT_EXPIRES_IN', '8h'),
    apiKeys,
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: str('MAIL_FROM', 'Rinnova <no-reply@rinnova.it>'),
    publicUrl,
    supportEmail: email('SUPPORT_EMAIL', 'supporto@rinnova.it') ?? 'supporto@rinnova.it',
    whatsappPhone: str('WHATSAPP_PHONE', ''),
    demoPassword,
    // Embedded mode outside production is a demo on a fresh machine; in production or with a
    // real database demo rows (and their printed password) are opt-in with SEED_DEMO=true.
    seedDemo: bool('SEED_DEMO', databaseUrl === undefined && !production),
    adminEmail: adminEmail?.toLowerCase(),
    adminPassword,
    production,
    logLevel: str('LOG_LEVEL', 'info'),
    logFormat: logFormat(str('LOG_FORMAT', production ? 'json' : 'pretty'), problems),
    bodyLimitBytes: int('BODY_LIMIT', 1_048_576, 1024, 100 * 1_048_576),
    corsOrigins: str('CORS_ORIGINS', '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: trustProxy(opt('TRUST_PROXY'), problems),
    paypalFake: bool('PAYPAL_FAKE', false),
    paypalFakePort: int('PAYPAL_FAKE_PORT', 8790, 0, 65535),
    paypalTimeoutMs: duration('PAYPAL_TIMEOUT', '10s'),
    stripeFake: bool('STRIPE_FAKE', false),
    stripeFakePort: int('STRIPE_FAKE_PORT', 8791, 0, 65535),
    jobs: jobs === 'manual' || jobs === 'off' ? jobs : 'auto',
    integrations: {
      apiPerKeyPerMinute: int('API_RATE_PER_KEY', 600, 1, 100_000),
      apiPerTenantPerMinute: int('API_RATE_PER_TENANT', 1200, 1, 1_000_000),
      webhookTimeoutMs: duration('WEBHOOK_TIMEOUT', '5s'),
    },
    outboundAllowPrivate:
      !production &&
      bool(
        opt('OUTBOUND_ALLOW_PRIVATE') !== undefined ? 'OUTBOUND_ALLOW_PRIVATE' : 'WEBHOOK_ALLOW_PRIVATE',
        true,
      ),
    widget: {
      dailyCapPerPlan: int('WIDGET_DAILY_CAP', 100, 1, 1_000_000),
    },
    rateLimit: {
      windowMs: duration('RATE_LIMIT_WINDOW', '1m'),
      login: int('RATE_LIMIT_LOGIN', 20, 1, 1_000_000),
      passwordReset: int('RATE_LIMIT_PASSWORD_RESET', 5, 1, 1_000_000),
      loginLink: int('RATE_LIMIT_LOGIN_LINK', 5, 1, 1_000_000),
      loginLinkPerEmail: int('RATE_LIMIT_LOGIN_LINK_EMAIL', 3, 1, 1_000_000),
      loginLinkEmailWindowMs: duration('RATE_LIMIT_LOGIN_LINK_EMAIL_WINDOW', '15m'),
      contact: int('RATE_LIMIT_CONTACT', 5, 1, 1_000_000),
      publicLookup: int('RATE_LIMIT_PUBLIC', 60, 1, 1_000_000),
      webhook: int('RATE_LIMIT_WEBHOOK', 600, 1, 1_000_000),
      webhookPerTenant: int('RATE_LIMIT_WEBHOOK_TENANT', 300, 1, 1_000_000),
      loginMaxFailures: int('LOGIN_MAX_FAILURES', 5, 1, 1_000_000),
      loginLockMs: duration('LOGIN_LOCK', '15m'),
      signInFreeFailures: int('SIGN_IN_FREE_FAILURES', 3, 1, 1_000_000),
    },
  };
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL: uno tra fatal error warn info debug trace silent (got "${config.logLevel}")`);
  }
  if (config.paypalFake && production) {
    problems.push('PAYPAL_FAKE: non ammesso in produzione / not allowed when NODE_ENV=production');
  }
  if (config.stripeFake && production) {
    problems.push('STRIPE_FAKE: non ammesso in produzione / not allowed when NODE_ENV=production');
  }
  for (const [key, on] of [
    ['PAYPAL_FAKE', config.paypalFake],
    ['STRIPE_FAKE', config.stripeFake],
  ] as const) {
    if (on && !production && !config.outboundAllowPrivate)
      problems.push(
        `${key}: il finto fornitore ascolta su loopback, serve OUTBOUND_ALLOW_PRIVATE=true / the fake listens on loopback, it needs OUTBOUND_ALLOW_PRIVATE=true`,
      );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * TRUST_PROXY: 'false'/'0'/absent (no proxy), a number of hops (`1`: the address the nearest
 * proxy saw), or a comma-separated list of the proxies' addresses and CIDR ranges. `true` is
 * refused: trusting every hop lets any client write its own X-Forwarded-For and dodge the per-IP
 * limits.
 */
function trustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 32) return hops;
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  // Written out in full (net.isIP): ipaddr.js would also read `64` as the address 0.0.0.64.
  const valid = (entry: string) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
  };
  if (entries.length > 0 && entries.every(valid)) return entries;
  problems.push(
    `TRUST_PROXY: numero di proxy (1–32) o indirizzi/CIDR dei proxy separati da virgola; 'true' non è ammesso / number of hops (1–32) or the proxies' addresses/CIDRs, comma-separated; 'true' is not accepted (got "${raw}")`,
  );
  return false;
}

function logFormat(raw: string, problems: string[]): 'pretty' | 'json' {
  if (raw === 'pretty' || raw === 'json') return raw;
  problems.push(`LOG_FORMAT: pretty o json / pretty or json (got "${raw}")`);
  return 'json';
}
