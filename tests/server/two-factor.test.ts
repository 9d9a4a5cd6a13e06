/**
 * Two-factor sign-in (issue 23): enrolment with a QR code and a confirming code, the second step
 * of Login (TOTP or a one-time recovery code), no replay of a code, short-lived single-use
 * challenges, a tenant that requires it of its Admins, a SuperAdmin's recovery, and the
 * progressive delay of failed sign-ins per account that a stranger cannot turn against the owner.
 */
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { twoFactorMessages as m } from '../../contract/two-factor';
import { securityEvents, users, userTenants } from '../../server/db/schema';
import { hashPassword } from '../../server/lib/passwords';
import { client, createTestContext, DEMO } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

const PASSWORD = 'password-di-prova';
let ctx: TestContext;
let now = new Date('2026-06-01T08:00:00.000Z');
const clock = () => now;
const advance = (ms: number) => (now = new Date(now.getTime() + ms));

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock }, env: { SIGN_IN_FREE_FAILURES: '3' } });
});
afterAll(() => ctx.close());

async function staffAccount(email: string, roleId: 1 | 2 | 3 = 2) {
  const demo = await ctx.tenantId('Demo Srl');
  const [user] = await ctx.db
    .insert(users)
    .values({ email, name: email, roleId, passwordHash: await hashPassword(PASSWORD), defaultTenantId: demo })
    .returning({ id: users.id });
  await ctx.db.insert(userTenants).values({ userId: user!.id, tenantId: demo, name: email });
  return user!.id;
}

const login = (email: string, password = PASSWORD, remoteAddress = '10.1.0.1') =>
  ctx.api.post<{ token?: string; secondFactor?: true; challenge?: string }>(
    '/api/user/Login',
    { email, password },
    { remoteAddress },
  );
const secondStep = (challenge: string, code: string, remoteAddress = '10.1.0.1') =>
  ctx.api.post<{ token?: string }>('/api/user/Login/second-factor', { challenge, code }, { remoteAddress });
const signedIn = (token: string): ApiClient => client(ctx.app, { authorization: `Bearer ${token}` });
const codeOf = (secret: string, at = now) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

/** Signs in (no second factor yet), enrols, answers the secret and the recovery codes. */
async function enrol(email: string) {
  const first = await login(email);
  const api = signedIn(first.body.data!.token!);
  const setup = await api.post<{ otpauthUri: string; secret: string; qrSvg: string }>(
    '/api/user/two-factor/setup',
  );
  expect(setup.status, setup.raw).toBe(200);
  const { secret, otpauthUri } = setup.body.data!;
  expect(otpauthUri).toBe(
    `otpauth://totp/Rinnova:${encodeURIComponent(email)}?issuer=Rinnova&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
  );
  const enabled = await api.post<{ recoveryCodes: string[] }>('/api/user/two-factor/enable', {
    code: codeOf(secret),
  });
  expect(enabled.status, enabled.raw).toBe(200);
  return { secret, recoveryCodes: enabled.body.data!.recoveryCodes, api };
}

describe('enrolment', () => {
  it('a wrong confirming code changes nothing; the right one turns it on with ten recovery codes; the secret is stored sealed', async () => {
    const email = 'admin.due.passaggi@example.it';
    const id = await staffAccount(email);
    const api = signedIn((await login(email)).body.data!.token!);
    const setup = await api.post<{ secret: string }>('/api/user/two-factor/setup');
    const secret = setup.body.data!.secret;
    const wrong = await api.post('/api/user/two-factor/enable', {
      code: '000000' === codeOf(secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([`code: ${m.codeInvalid}`]);
    expect((await api.get<{ enabled: boolean }>('/api/user/two-factor')).body.data?.enabled).toBe(false);
    const right = await api.post<{ recoveryCodes: string[] }>('/api/user/two-factor/enable', {
      code: codeOf(secret),
    });
    expect(right.status).toBe(200);
    expect(right.body.data!.recoveryCodes).toHaveLength(10);
    for (const c of right.body.data!.recoveryCodes) expect(c).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await api.get('/api/user/two-factor')).body.data).toEqual({
      available: true,
      enabled: true,
      recoveryCodesLeft: 10,
      requiredByTenantIds: [],
    });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, id));
    expect(row!.totpSecretEncrypted).not.toContain(secret);
    expect(row!.totpPendingEncrypted).toBeNull();
    const events = await ctx.db.select().from(securityEvents).where(eq(securityEvents.userId, id));
    expect(events.map((e) => e.kind)).toEqual(['twoFactorEnabled']);
  });

  it('is for Admin and SuperAdmin only', async () => {
    const email = 'cliente.due.passaggi@example.it';
    await staffAccount(email, 3);
    const api = signedIn((await login(email)).body.data!.token!);
    expect((await api.post('/api/user/two-factor/setup')).status).toBe(403);
    expect((await api.get<{ available: boolean }>('/api/user/two-factor')).body.data?.available).toBe(false);
  });
});

describe('signing in with two factors', () => {
  it('Login answers a challenge, not a session; the second step with the current code answers what Login answers', async () => {
    const email = 'secondo.passo@example.it';
    await staffAccount(email);
    const { secret } = await enrol(email);
    advance(60_000);
    const first = await login(email);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ secondFactor: true, challenge: expect.any(String) });
    const challenge = first.body.data!.challenge!;
    const bad = await secondStep(challenge, '12345x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(m.codeInvalid);
    const done = await secondStep(challenge, codeOf(secret));
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({ token: expect.any(String), user: { email, roleId: 2 } });
    expect((await signedIn(done.body.data!.token!).get('/api/tenant/getAll')).status).toBe(200);
    // The challenge is spent; the same code on a new challenge is refused (no replay in its window).
    expect((await secondStep(challenge, codeOf(secret))).body.message).toBe(m.challengeInvalid);
    const again = await login(email);
    expect((await secondStep(again.body.data!.challenge!, codeOf(secret))).status).toBe(400);
    // The next step's code works.
    advance(30_000);
    expect((await secondStep(again.body.data!.challenge!, codeOf(secret))).status).toBe(200);
  });

  it('a recovery code works once, in any case and with or without its dash', async () => {
    const email = 'recupero@example.it';
    await staffAccount(email);
    const { recoveryCodes, api } = await enrol(email);
    const code = recoveryCodes[3]!;
    const first = await login(email);
    const ok = await secondStep(first.body.data!.challenge!, code.toLowerCase().replace('-', ''));
    expect(ok.status, ok.raw).toBe(200);
    const second = await login(email);
    expect((await secondStep(second.body.data!.challenge!, code)).status).toBe(400);
    expect(
      (await api.get<{ recoveryCodesLeft: number }>('/api/user/two-factor')).body.data?.recoveryCodesLeft,
    ).toBe(9);
  });

  it('a challenge lives five minutes and dies at the fifth wrong code', async () => {
    const email = 'scadenza@example.it';
    await staffAccount(email);
    const { secret } = await enrol(email);
    advance(60_000);
    const late = await login(email);
    advance(5 * 60_000 + 1000);
    const expired = await secondStep(late.body.data!.challenge!, codeOf(secret));
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(m.challengeInvalid);
    const guessed = await login(email);
    for (let i = 0; i < 5; i++)
      expect((await secondStep(guessed.body.data!.challenge!, '000000')).status).toBe(400);
    expect((await secondStep(guessed.body.data!.challenge!, codeOf(secret))).body.message).toBe(
      m.challengeInvalid,
    );
  });

  it('disabling needs a current code; then Login answers a session again', async () => {
    const email = 'disattiva@example.it';
    await staffAccount(email);
    const { secret, api } = await enrol(email);
    expect((await api.post('/api/user/two-factor/disable', { code: '000000' })).status).toBe(400);
    advance(30_000);
    expect((await api.post('/api/user/two-factor/disable', { code: codeOf(secret) })).status).toBe(200);
    expect((await login(email)).body.data?.token).toEqual(expect.any(String));
  });
});

describe('a tenant that requires it of its Admins', () => {
  it('refuses its calls to an Admin without a second factor, until they enrol; the tenant list still answers', async () => {
    const demo = await ctx.tenantId('Demo Srl');
    const superadmin = await ctx.as('superadmin', demo);
    const tenant = (await superadmin.get<Record<string, unknown>>(`/api/tenant/GetById/${demo}`)).body.data!;
    expect((await superadmin.put('/api/tenant/Update', { ...tenant, requireTwoFactor: true })).status).toBe(
      200,
    );
    const email = 'obbligato@example.it';
    await staffAccount(email);
    const token = (await login(email)).body.data!.token!;
    const inDemo = client(ctx.app, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) });
    const refused = await inDemo.get('/api/subscription/getAll');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(m.requiredByTenant);
    expect((await inDemo.get('/api/tenant/getAll')).status).toBe(200);
    expect(
      (await inDemo.get<{ requiredByTenantIds: number[] }>('/api/user/two-factor')).body.data
        ?.requiredByTenantIds,
    ).toEqual([demo]);
    // A SuperAdmin is not held to it; the demo Admin with no factor is refused too.
    expect((await superadmin.get('/api/subscription/getAll')).status).toBe(200);
    expect((await (await ctx.as('admin', demo)).get('/api/subscription/getAll')).status).toBe(403);
    // Enrolment needs no tenant: the SPA runs it with the tenant still selected.
    const setup = await inDemo.post<{ secret: string }>('/api/user/two-factor/setup');
    expect(setup.status).toBe(200);
    const secret = setup.body.data!.secret;
    expect((await inDemo.post('/api/user/two-factor/enable', { code: codeOf(secret) })).status).toBe(200);
    advance(30_000);
    const first = await login(email);
    const done = await secondStep(first.body.data!.challenge!, codeOf(secret));
    const enrolled = client(ctx.app, {
      authorization: `Bearer ${done.body.data!.token!}`,
      'x-tenant-id': String(demo),
    });
    expect((await enrolled.get('/api/subscription/getAll')).status).toBe(200);
    expect((await superadmin.put('/api/tenant/Update', { ...tenant, requireTwoFactor: false })).status).toBe(
      200,
    );
  });
});

describe("a SuperAdmin's recovery", () => {
  it('clears the factor and ends the sessions; an Admin may not; nobody resets their own', async () => {
    const email = 'telefono.perso@example.it';
    const id = await staffAccount(email);
    const { api } = await enrol(email);
    const admin = await ctx.as('admin');
    expect((await admin.post(`/api/user/two-factor/reset/${id}`)).status).toBe(403);
    const superadmin = await ctx.as('superadmin');
    const res = await superadmin.post(`/api/user/two-factor/reset/${id}`);
    expect(res.status, res.raw).toBe(200);
    expect((await api.get('/api/user/two-factor')).status).toBe(401);
    expect((await login(email)).body.data?.token).toEqual(expect.any(String));
    const events = await ctx.db.select().from(securityEvents).where(eq(securityEvents.userId, id));
    expect(events.map((e) => e.kind)).toEqual(['twoFactorEnabled', 'twoFactorReset']);
    const superId = (await ctx.db.select().from(users).where(eq(users.email, DEMO.superadmin)))[0]!.id;
    expect(events[1]?.actorUserId).toBe(superId);
    expect((await superadmin.post(`/api/user/two-factor/reset/${superId}`)).status).toBe(409);
  });
});

describe('failed sign-ins slow down per account', () => {
  it('after three failures a try from an unknown address waits, growing; the owner at a known address does not', async () => {
    const email = 'bersaglio@example.it';
    await staffAccount(email, 3);
    // The owner signed in from home once.
    expect((await login(email, PASSWORD, '203.0.113.10')).status).toBe(200);
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      expect((await login(email, 'sbagliata', ip)).status).toBe(401);
    const slowed = await login(email, PASSWORD, '198.51.100.4');
    expect(slowed.status).toBe(429);
    expect(slowed.body.message).toBe(m.slowDown(2));
    expect(slowed.headers['retry-after']).toBe('2');
    // The owner at home is not slowed, and a success ends the count.
    expect((await login(email, PASSWORD, '203.0.113.10')).status).toBe(200);
    expect((await login(email, 'sbagliata', '198.51.100.5')).status).toBe(401);
  });

  it('the wait doubles and an unknown e-mail is slowed the same (the delay reveals no account)', async () => {
    for (const email of ['raddoppio@example.it', 'nessuno.qui@example.it']) {
      if (email.startsWith('raddoppio')) await staffAccount(email, 3);
      for (let i = 0; i < 3; i++)
        expect((await login(email, 'sbagliata', `192.0.2.${i + 1}`)).status).toBe(401);
      expect((await login(email, 'x', '192.0.2.50')).headers['retry-after']).toBe('2');
      advance(2000);
      expect((await login(email, 'sbagliata', '192.0.2.51')).status).toBe(401);
      const longer = await login(email, 'x', '192.0.2.52');
      expect(longer.status).toBe(429);
      expect(longer.headers['retry-after']).toBe('4');
      expect(longer.body.message).not.toBe(serverMessages.invalidCredentials);
      advance(4000);
    }
  });
});
