import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import type { LoginResponse } from '../../contract/schemas/auth';
import { users } from '../../server/db/schema';
import { seedFirstAdmin } from '../../server/db/seed/accounts';
import { client, createTestContext, DEMO, JWT_SECRET } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';
import { signJwt } from './helpers/jwt';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const login = (body: Record<string, unknown>) => ctx.api.post<LoginResponse>('/api/user/Login', body);
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('POST api/user/Login', () => {
  it.each([
    ['superadmin', 1, null],
    ['admin', 2, 'Demo Srl'],
    ['cliente', 3, 'Demo Srl'],
  ] as const)('signs in %s with token and session user', async (role, roleId, tenant) => {
    const res = await login({ Email: DEMO[role], Password: DEMO.password });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(data?.token.split('.')).toHaveLength(3);
    expect(data?.user).toEqual({
      id: expect.any(Number),
      email: DEMO[role],
      name: expect.any(String),
      roleId,
      defaultTenantId: tenant ? await ctx.tenantId(tenant) : null,
    });
    // The token carries sub (user id) and roleId, and expires.
    const claims = JSON.parse(Buffer.from(data?.token.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ sub: String(data?.user.id), roleId });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(8 * 3600);
  });

  it('binds body keys case-insensitively and ignores the e-mail case', async () => {
    const res = await login({ EMAIL: 'ADMIN@Demo.Rinnova.IT', password: DEMO.password });
    expect(res.status).toBe(200);
    expect(res.body.data?.user.email).toBe(DEMO.admin);
  });

  it('the route matches case-insensitively', async () => {
    const res = await ctx.api.post('/API/USER/login', { email: DEMO.admin, password: DEMO.password });
    expect(res.status).toBe(200);
  });

  it('answers one 401 message for a wrong password, an unknown e-mail, no password yet and a deactivated account', async () => {
    const wrongPassword = await login({ email: DEMO.cliente, password: 'sbagliata' });
    const unknownEmail = await login({ email: 'nessuno@demo.rinnova.it', password: DEMO.password });
    await ctx.db.insert(users).values({ email: 'senzapassword@demo.rinnova.it', roleId: 3 });
    const noPassword = await login({ email: 'senzapassword@demo.rinnova.it', password: 'qualsiasi' });
    await ctx.db.insert(users).values({
      email: 'disattivato@demo.rinnova.it',
      roleId: 3,
      isActive: false,
      passwordHash: (await ctx.db.select().from(users).where(eq(users.email, DEMO.cliente)))[0]?.passwordHash,
    });
    const inactive = await login({ email: 'disattivato@demo.rinnova.it', password: DEMO.password });
    for (const res of [wrongPassword, unknownEmail, noPassword, inactive]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: serverMessages.invalidCredentials, data: null });
    }
  });

  it('missing fields are a 400 listing both', async () => {
    const res = await login({});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['email: Campo obbligatorio', 'password: Campo obbligatorio']);
  });

  it('an account whose password came from configuration gets 409 with a reset URL, then signs in after resetting', async () => {
    expect(await seedFirstAdmin(ctx.db, 'primo.admin@rinnova.it', 'config-password')).toBe(true);
    // Seeding again leaves the existing account alone.
    expect(await seedFirstAdmin(ctx.db, 'primo.admin@rinnova.it', 'altra-password')).toBe(false);

    const forced = await login({ email: 'primo.admin@rinnova.it', password: 'config-password' });
    expect(forced.status).toBe(409);
    expect(forced.body.success).toBe(false);
    expect(forced.body.message).toBe(serverMessages.passwordResetRequired);
    const resetUrl = (forced.body.data as { resetUrl?: string } | null)?.resetUrl ?? '';
    expect(resetUrl).toMatch(/^\/reset-password\?token=[A-Za-z0-9_-]{43}$/);

    // A wrong password still gets the plain 401 (the 409 proves the password right).
    expect((await login({ email: 'primo.admin@rinnova.it', password: 'nope' })).status).toBe(401);

    const token = decodeURIComponent(resetUrl.split('token=')[1] ?? '');
    const reset = await ctx.api.post('/api/user/reset-password', { token, newPassword: 'scelta-da-me' });
    expect(reset.status).toBe(200);
    const [row] = await ctx.db.select().from(users).where(eq(users.email, 'primo.admin@rinnova.it'));
    expect(row?.mustResetPassword).toBe(false);
    expect(row?.roleId).toBe(1);

    expect((await login({ email: 'primo.admin@rinnova.it', password: 'config-password' })).status).toBe(401);
    const ok = await login({ email: 'primo.admin@rinnova.it', password: 'scelta-da-me' });
    expect(ok.status).toBe(200);
    expect(ok.body.data?.user).toMatchObject({ roleId: 1, defaultTenantId: null });
  });
});

describe('bearer token', () => {
  const protectedUrl = '/api/region/getAll';

  it('missing: 401 tokenMissing', async () => {
    const res = await ctx.api.get(protectedUrl);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: serverMessages.tokenMissing, data: null });
  });

  it.each([
    ['garbage', 'Bearer abc.def.ghi'],
    ['not bearer', 'Basic dXNlcjpwYXNz'],
    [
      'other secret',
      `Bearer ${signJwt({ sub: '1', roleId: 1, iat: nowSeconds(), exp: nowSeconds() + 60 }, 'another-secret-another-secret-another')}`,
    ],
    [
      'alg none',
      `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"1","roleId":1}').toString('base64url')}.`,
    ],
  ])('%s: 401 tokenInvalid', async (_name, authorization) => {
    const res = await ctx.api.get(protectedUrl, { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(serverMessages.tokenInvalid);
    expect(res.body.message).not.toContain('scaduto');
  });

  it("expired: 401 whose message contains 'scaduto'", async () => {
    const [admin] = await ctx.db.select().from(users).where(eq(users.email, DEMO.admin));
    const expired = signJwt(
      { sub: String(admin?.id), roleId: 2, iat: nowSeconds() - 7200, exp: nowSeconds() - 10 },
      JWT_SECRET,
    );
    const res = await ctx.api.get(protectedUrl, { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(serverMessages.tokenExpired);
    expect(res.body.message).toContain('scaduto');

    // The same token with a future expiry is accepted: only the expiry differs.
    const fresh = signJwt(
      { sub: String(admin?.id), roleId: 2, iat: nowSeconds(), exp: nowSeconds() + 60 },
      JWT_SECRET,
    );
    expect((await ctx.api.get(protectedUrl, { headers: { authorization: `Bearer ${fresh}` } })).status).toBe(
      200,
    );
  });

  it('a token of a deactivated or deleted account stops working at once', async () => {
    await ctx.db.insert(users).values({ email: 'temporaneo@demo.rinnova.it', roleId: 2 });
    const [temp] = await ctx.db.select().from(users).where(eq(users.email, 'temporaneo@demo.rinnova.it'));
    const token = signJwt(
      { sub: String(temp?.id), roleId: 2, iat: nowSeconds(), exp: nowSeconds() + 600 },
      JWT_SECRET,
    );
    const api = client(ctx.app, { authorization: `Bearer ${token}` });
    expect((await api.get(protectedUrl)).status).toBe(200);
    await ctx.db
      .update(users)
      .set({ isActive: false })
      .where(eq(users.id, temp?.id ?? 0));
    expect((await api.get(protectedUrl)).body.message).toBe(serverMessages.tokenInvalid);
    await ctx.db.delete(users).where(eq(users.id, temp?.id ?? 0));
    expect((await api.get(protectedUrl)).status).toBe(401);
  });

  it('the role is read from the database, not trusted from the token', async () => {
    const [cliente] = await ctx.db.select().from(users).where(eq(users.email, DEMO.cliente));
    // A User's token claiming SuperAdmin still cannot write.
    const forged = signJwt(
      { sub: String(cliente?.id), roleId: 1, iat: nowSeconds(), exp: nowSeconds() + 600 },
      JWT_SECRET,
    );
    const res = await client(ctx.app, { authorization: `Bearer ${forged}` }).post('/api/region/Create', {
      name: 'X',
      code: 'X',
    });
    expect(res.status).toBe(403);
  });
});

describe('GET api/user/isEmailUnique/{email}', () => {
  it('answers in the caller tenant, case-insensitively', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const taken = await admin.get<boolean>(
      `/api/user/isEmailUnique/${encodeURIComponent('Cliente@demo.rinnova.it')}`,
    );
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ success: true, data: false });
    const free = await admin.get<boolean>('/api/user/isEmailUnique/nuovo%40cliente.it');
    expect(free.body.data).toBe(true);
    // The SuperAdmin exists but belongs to no tenant: free inside Demo Srl.
    expect((await admin.get<boolean>(`/api/user/isEmailUnique/${DEMO.superadmin}`)).body.data).toBe(true);
  });

  it('is tenant-scoped: 400 without X-Tenant-Id; Admin and SuperAdmin only', async () => {
    const noTenant = await (await ctx.as('admin')).get('/api/user/isEmailUnique/a%40b.it');
    expect(noTenant.status).toBe(400);
    expect(noTenant.body.message).toBe(serverMessages.tenantRequired);
    const user = await (await ctx.as('cliente', 'Demo Srl')).get('/api/user/isEmailUnique/a%40b.it');
    expect(user.status).toBe(403);
    const sa = await (
      await ctx.as('superadmin', 'Studio Rossi')
    ).get<boolean>(`/api/user/isEmailUnique/${DEMO.admin}`);
    expect(sa.body.data).toBe(true);
  });
});

it('the demo accounts exist once each (lower(email) is unique)', async () => {
  const rows = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(sql`lower(${users.email})`, DEMO.admin));
  expect(rows[0]?.n).toBe(1);
  await expect(ctx.db.insert(users).values({ email: 'ADMIN@demo.rinnova.it', roleId: 2 })).rejects.toThrow();
});
