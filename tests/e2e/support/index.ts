/**
 * Shared helpers of the end-to-end suite: accounts, sign-in (API + seeded storage, or through the
 * login form), the server's e-mail outbox, HS256 tokens and screenshots.
 *
 * The tests run in file order against one server and one database (playwright.config.ts). Two
 * files change a password; the new one is written to DATA_DIR/e2e-passwords.json so that any
 * later sign-in, even after Playwright restarts its worker, uses the right one.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { env } from './env';

export { env };
export * from './ui';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_TENANT = 'Demo Srl';

export interface Account {
  email: string;
  roleId: 1 | 2 | 3;
}

export const accounts = {
  superadmin: { email: 'superadmin@demo.rinnova.it', roleId: 1 },
  admin: { email: 'admin@demo.rinnova.it', roleId: 2 },
  cliente: { email: 'cliente@demo.rinnova.it', roleId: 3 },
} as const satisfies Record<string, Account>;

/** The first SuperAdmin, seeded from ADMIN_EMAIL / ADMIN_PASSWORD (must reset at first sign-in). */
export const configAdmin: Account = { email: env.adminEmail, roleId: 1 };

// ---------------------------------------------------------------------------------------------
// Passwords that tests changed

const passwordsFile = path.join(env.dataDir, 'e2e-passwords.json');

function readPasswords(): Record<string, string> {
  if (!existsSync(passwordsFile)) return {};
  return JSON.parse(readFileSync(passwordsFile, 'utf8')) as Record<string, string>;
}

/** The account's password now: the one a test set, else the seeded one. */
export function passwordOf(account: Account): string {
  const changed = readPasswords()[account.email];
  if (changed) return changed;
  return account.email === env.adminEmail ? env.adminPassword : DEMO_PASSWORD;
}

export async function rememberPassword(account: Account, password: string): Promise<void> {
  await writeFile(passwordsFile, JSON.stringify({ ...readPasswords(), [account.email]: password }, null, 2));
  sessions.delete(account.email);
}

/** A password nobody used before in this run (the server requires at least 6 characters). */
export function uniquePassword(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// ---------------------------------------------------------------------------------------------
// API

export interface SessionUser {
  id: number;
  email: string;
  name: string | null;
  roleId: 1 | 2 | 3;
  defaultTenantId: number | null;
}

export interface Envelope<T> {
  success: boolean;
  message: string | null;
  data: T | null;
  errors?: string[];
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  urlPath: string,
  options: { token?: string; tenantId?: number; body?: unknown } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = { 'x-api-key': env.apiKey };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.tenantId !== undefined) headers['X-Tenant-Id'] = String(options.tenantId);
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${env.baseUrl}${urlPath}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

interface ApiSession {
  token: string;
  user: SessionUser;
}

// Tokens live 8 hours: one sign-in per account and worker (while the session lasts) keeps POST
// Login under its rate limit.
const sessions = new Map<string, ApiSession>();

/** POST api/user/Login; fails the test with the server's answer when it is not a session. */
export async function apiLogin(account: Account): Promise<ApiSession> {
  const cached = sessions.get(account.email);
  // A Logout (or a password reset) in an earlier test ends every session of the account on the
  // server: reuse a cached token only while the server still accepts it.
  if (cached && (await api('GET', '/api/tenant/getAll?pageSize=1', { token: cached.token })).status !== 401)
    return cached;
  const { status, body } = await api<ApiSession>('POST', '/api/user/Login', {
    body: { Email: account.email, Password: passwordOf(account) },
  });
  if (status !== 200 || !body.data?.token) {
    throw new Error(`Login API for ${account.email} answered ${status}: ${JSON.stringify(body)}`);
  }
  sessions.set(account.email, body.data);
  return body.data;
}

/** Id of a tenant by name, as the signed-in account sees it (GET api/tenant/getAll). */
export async function tenantIdByName(token: string, name: string): Promise<number> {
  const { body } = await api<{ items: { id: number; name: string }[] }>(
    'GET',
    '/api/tenant/getAll?page=1&pageSize=100',
    { token },
  );
  const tenant = body.data?.items.find((t) => t.name === name);
  if (!tenant) throw new Error(`Tenant "${name}" not found: ${JSON.stringify(body)}`);
  return tenant.id;
}

// ---------------------------------------------------------------------------------------------
// Sign-in

/** Shape of localStorage 'user' (src/lib/session.ts StoredUser). */
function storedUser(user: SessionUser) {
  return {
    email: user.email,
    role: user.roleId,
    id: user.id,
    name: user.name,
    defaultTenantId: user.defaultTenantId,
  };
}

/** Writes localStorage keys of the app's origin (null removes). The page must be on that origin. */
export async function setStorage(page: Page, values: Record<string, string | null>): Promise<void> {
  await page.evaluate((entries) => {
    const storage = (
      globalThis as unknown as {
        localStorage: { setItem(k: string, v: string): void; removeItem(k: string): void };
      }
    ).localStorage;
    for (const [key, value] of entries) {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    }
  }, Object.entries(values));
}

export async function getStorage(page: Page, key: string): Promise<string | null> {
  return page.evaluate(
    (k) =>
      (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
        k,
      ),
    key,
  );
}

/**
 * Signs in without the form: POST Login, then the session the SPA would store (token, user,
 * selectedTenantId), then opens `to`. The tenant is the account's default, or Demo Srl for a
 * SuperAdmin; `tenant: null` leaves none selected (tenant selection screen).
 */
export async function login(
  page: Page,
  account: Account,
  options: { to?: string; tenant?: number | null } = {},
): Promise<ApiSession> {
  const session = await apiLogin(account);
  const tenant =
    options.tenant !== undefined
      ? options.tenant
      : (session.user.defaultTenantId ?? (await tenantIdByName(session.token, DEMO_TENANT)));
  // Any same-origin document gives access to the origin's storage; a static file is the cheapest.
  await page.goto('/logo.svg');
  await setStorage(page, {
    token: session.token,
    user: JSON.stringify(storedUser(session.user)),
    selectedTenantId: tenant === null ? null : String(tenant),
  });
  await page.goto(options.to ?? '/');
  return session;
}

/** Fills and submits the login form (the page must show it). */
export async function submitLoginForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
}

/** Opens /login and signs in through the form. */
export async function uiLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  await submitLoginForm(page, email, password);
}

// ---------------------------------------------------------------------------------------------
// What people see

/** The dashboard (index route) is on screen. */
export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: /Benvenuto/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Percorso' })).toBeVisible();
}

/** A customer's home: 'Area clienti' (issue 28), with the frame's breadcrumb. */
export async function expectCustomerArea(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Area clienti' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Percorso' })).toBeVisible();
}

/**
 * The element is fully opaque (computed opacity 1): a fading screen has finished fading in.
 * Playwright counts opacity 0 as visible, people do not.
 */
export async function expectOpaque(locator: Locator): Promise<void> {
  await expect
    .poll(() =>
      locator.evaluate(
        (node) =>
          (globalThis as unknown as { getComputedStyle(n: unknown): { opacity: string } }).getComputedStyle(
            node,
          ).opacity,
      ),
    )
    .toBe('1');
}

/** document.documentElement.scrollWidth and window.innerWidth. */
export async function pageWidths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      innerWidth: number;
      document: { documentElement: { scrollWidth: number } };
    };
    return { scrollWidth: w.document.documentElement.scrollWidth, innerWidth: w.innerWidth };
  });
}

export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await pageWidths(page);
  expect(scrollWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(
    innerWidth,
  );
}

// ---------------------------------------------------------------------------------------------
// E-mail outbox (server/mail/mailer.ts: one JSON file per message, names sortable by time)

export interface OutboxMail {
  file: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  createdAt: string;
}

export const outboxDir = path.join(env.dataDir, 'outbox');

/** Every message in DATA_DIR/outbox, oldest first. */
export async function readOutbox(): Promise<OutboxMail[]> {
  if (!existsSync(outboxDir)) return [];
  const names = (await readdir(outboxDir)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (file) => ({
      file,
      ...(JSON.parse(await readFile(path.join(outboxDir, file), 'utf8')) as Omit<OutboxMail, 'file'>),
    })),
  );
}

/** Names of the messages already in the outbox (pass to waitForMail to ignore them). */
export async function outboxSnapshot(): Promise<Set<string>> {
  return new Set((await readOutbox()).map((m) => m.file));
}

/** Waits for a new message matching `match` and returns the newest one. */
export async function waitForMail(
  match: (mail: OutboxMail) => boolean,
  ignore: ReadonlySet<string> = new Set(),
  /** An upper bound: a job's e-mail waits for the engine's worker to pick the job up. */
  timeout = 10_000,
): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox()).filter((m) => !ignore.has(m.file) && match(m)).at(-1);
        return found !== undefined;
      },
      { message: 'a new e-mail in the outbox', timeout },
    )
    .toBe(true);
  return found as OutboxMail;
}

/** The /login/link?token=… sign-in link of an e-mail (text part). */
export function loginLinkOf(mail: OutboxMail): URL {
  const match = /https?:\/\/\S+\/login\/link\?token=[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`No sign-in link in the e-mail to ${mail.to}:\n${mail.text}`);
  return new URL(match[0]);
}

/** The /reset-password?token=… link of a reset e-mail (text part). */
export function resetLinkOf(mail: OutboxMail): URL {
  const match = /https?:\/\/\S+\/reset-password\?token=[^\s"<]+/.exec(mail.text);
  if (!match) throw new Error(`No reset link in the e-mail to ${mail.to}:\n${mail.text}`);
  return new URL(match[0]);
}

// ---------------------------------------------------------------------------------------------
// Tokens

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** An HS256 JWT signed with the server's JWT_SECRET (or `secret`), as @fastify/jwt would. */
export function signJwt(claims: Record<string, unknown>, secret: string = env.jwtSecret): string {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  const signature = createHmac('sha256', secret).update(head).digest('base64url');
  return `${head}.${signature}`;
}

// ---------------------------------------------------------------------------------------------
// Screenshots (git-ignored)

export const screenshotDir = path.join(import.meta.dirname, '..', 'screenshots');

/**
 * No WCAG 2.1 AA violation on the page as it is now (axe-core, issue 31): every screen of the tour
 * is scanned when it is photographed, so a new violation fails the suite.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Colours are judged once fades and slides have ended (a form fading in reads as low contrast):
  // no finite animation running (spinners run forever) and no text still transparent.
  await page.waitForFunction(() => {
    // This runs in the page; the e2e code is typed for Node (no DOM lib).
    const dom = globalThis as unknown as {
      document: {
        getAnimations(): {
          playState: string;
          effect: { getComputedTiming(): { endTime?: number } } | null;
        }[];
        querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
      };
      getComputedStyle(element: unknown): { visibility: string };
    };
    return (
      dom.document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity) &&
      Array.from(dom.document.querySelectorAll('.opacity-0')).every(
        (el) => (el.textContent ?? '').trim() === '' || dom.getComputedStyle(el).visibility === 'hidden',
      )
    );
  });
  // A colour transition can still start while axe reads the page (a class flips a frame later, the
  // pointer left over a button): for the scan, transitions jump to their end, so axe judges the
  // colours the screen settles on. The style goes away once the scan is done.
  const settle = await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; }',
  });
  // A sandboxed preview frame (an e-mail drawn by the server, srcdoc, no scripts allowed) is not
  // the app's screen, and axe cannot run inside it: left out of the scan, its frame element kept.
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('iframe[sandbox]')
    .analyze()
    .finally(() => settle.evaluate((el) => (el as unknown as { remove(): void }).remove()));
  const found = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe on ${name}`).toEqual([]);
}

/** Full-page PNG in tests/e2e/screenshots/<name>.png, after an accessibility scan of the screen. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({
    path: path.join(screenshotDir, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}
