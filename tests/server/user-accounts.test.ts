import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { SessionUser } from '../../contract/schemas/auth';
import type { Tenant } from '../../contract/schemas/tenant';
import type { User } from '../../contract/schemas/user';
import { passwordResetTokens, users, userTenants } from '../../server/db/schema';
import { create, dataOf } from './helpers/entity-checks';
import { client, createTestContext, failingMailer } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

const PUBLIC_URL = 'https://rinnova.example.it';
let ctx: TestContext;
let demoAdmin: ApiClient;
let rossiAdmin: ApiClient;
let demoId: number;
let rossiId: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { publicUrl: () => PUBLIC_URL } });
  demoAdmin = await ctx.as('admin', 'Demo Srl');
  // Studio Rossi has no Admin in the demo data: a SuperAdmin acts there.
  rossiAdmin = await ctx.as('superadmin', 'Studio Rossi');
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
});
afterAll(() => ctx.close());

const body = (email: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Anna Blu',
  email,
  roleId: 3,
  isActive: true,
  isCompany: false,
  ...overrides,
});
const login = (email: string, password: string) =>
  ctx.api.post<{ token: string; user: SessionUser }>('/api/user/Login', { email, password });
const identities = async (email: string) =>
  ctx.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
const membership = async (userId: number, tenantId: number) =>
  (
    await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)))
  )[0];

/** The set-password link of the last e-mail to `to`, and the e-mail. */
async function setPasswordMail(to: string) {
  const mails = (await ctx.outbox()).filter((m) => m.to === to);
  const mail = mails[mails.length - 1];
  const token = /https:\/\/rinnova\.example\.it\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(
    mail?.text ?? '',
  )?.[1];
  return { mail, token, count: mails.length };
}

describe('accounts created by an admin', () => {
  it('get a set-password e-mail and cannot sign in until they use it', async () => {
    const user = await create<User>(demoAdmin, 'user', body('anna.blu@example.com'));
    const { mail, token } = await setPasswordMail('anna.blu@example.com');
    expect(mail?.subject).toBe('Rinnova: imposta la password del tuo account');
    expect(mail?.text).toContain('Demo Srl ha creato per te un account');
    expect(mail?.html).toContain(`${PUBLIC_URL}/reset-password?token=`);
    expect(token).toBeDefined();

    // No password yet: the same 401 as a wrong password, whatever is typed.
    for (const password of ['', 'qualsiasi', 'demo1234']) {
      const res = await login('anna.blu@example.com', password || 'x');
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(serverMessages.invalidCredentials);
    }

    expect(
      (await ctx.api.get<boolean>('/api/user/validate-reset-token', { query: { token: token ?? '' } })).body
        .data,
    ).toBe(true);
    const [stored] = await ctx.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    // The link waits in an inbox: it lasts 72 hours, not the 1 hour of a reset.
    const hours = ((stored?.expiresAt.getTime() ?? 0) - (stored?.createdAt.getTime() ?? 0)) / 3_600_000;
    expect(Math.round(hours)).toBe(72);

    expect(
      (await ctx.api.post('/api/user/reset-password', { token, newPassword: 'scelta-mia' })).status,
    ).toBe(200);
    const signedIn = await login('Anna.Blu@example.com', 'scelta-mia');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data?.user).toMatchObject({ id: user.id, roleId: 3, defaultTenantId: demoId });
  });

  it('a failing mailer does not undo the account (the owner can ask for a reset)', async () => {
    const app = await ctx.buildAnotherApp({}, { mailer: failingMailer });
    const token = await ctx.login('admin@demo.rinnova.it', 'demo1234');
    const res = await client(app, {
      authorization: `Bearer ${token}`,
      'x-tenant-id': String(demoId),
    }).post<User>('/api/user/Create', body('senza.posta@example.com'));
    expect(res.status).toBe(200);
    expect(await identities('senza.posta@example.com')).toHaveLength(1);
  });
});

describe('an e-mail already registered in another tenant', () => {
  let shared: User;

  beforeAll(async () => {
    shared = await create<User>(
      rossiAdmin,
      'user',
      body('condiviso@example.com', {
        name: 'Cliente di Rossi',
        pec: 'rossi@pec.example.com',
        phone: '+39 011 111111',
      }),
    );
    const { token } = await setPasswordMail('condiviso@example.com');
    await ctx.api.post('/api/user/reset-password', { token, newPassword: 'password-sua' });
  });

  it('is free in this tenant (isEmailUnique answers per tenant)', async () => {
    const url = `/api/user/isEmailUnique/${encodeURIComponent('Condiviso@example.com')}`;
    expect((await demoAdmin.get<boolean>(url)).body.data).toBe(true);
    expect((await rossiAdmin.get<boolean>(url)).body.data).toBe(false);
  });

  it("with another role is a 409 that does not name the other account's role, and nothing is written", async () => {
    const res = await demoAdmin.post('/api/user/Create', body('condiviso@example.com', { roleId: 2 }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(serverMessages.emailOtherRole);
    expect(JSON.stringify(res.body)).not.toMatch(/User|SuperAdmin|Admin/);
    expect(await membership(shared.id, demoId)).toBeUndefined();
  });

  it('is attached: one identity, this tenant keeps its own record, the other tenant sees no change', async () => {
    const mailsBefore = (await setPasswordMail('condiviso@example.com')).count;
    const attached = await create<User>(
      demoAdmin,
      'user',
      body('CONDIVISO@example.com', { name: 'Cliente di Demo', vatCode: '12345678903', isCompany: true }),
    );
    expect(attached).toMatchObject({
      id: shared.id,
      email: 'condiviso@example.com',
      name: 'Cliente di Demo',
      // Nothing of what Studio Rossi recorded shows in Demo Srl.
      pec: null,
      phone: null,
      vatCode: '12345678903',
    });
    expect(await identities('condiviso@example.com')).toHaveLength(1);
    expect(dataOf(await rossiAdmin.get<User>(`/api/user/GetById/${shared.id}`))).toEqual(shared);
    // It already has a password: no new set-password e-mail, and it signs in as before.
    expect((await setPasswordMail('condiviso@example.com')).count).toBe(mailsBefore);
    expect((await login('condiviso@example.com', 'password-sua')).body.data?.user.defaultTenantId).toBe(
      rossiId,
    );

    const again = await demoAdmin.post('/api/user/Create', body('condiviso@example.com'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(serverMessages.emailTaken);
  });

  it('its e-mail and role cannot be changed from one tenant (409); its record in the tenant can', async () => {
    const base = body('condiviso@example.com', { name: 'Cliente di Demo', id: shared.id });
    for (const change of [{ email: 'altro@example.com' }, { roleId: 2 }]) {
      const res = await demoAdmin.put('/api/user/Update', { ...base, ...change });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(serverMessages.sharedAccount);
    }
    const ok = await demoAdmin.put<User>('/api/user/Update', {
      ...base,
      name: 'Nome per Demo',
      sdi: 'ABCDEFG',
    });
    expect(dataOf(ok)).toMatchObject({ name: 'Nome per Demo', sdi: 'ABCDEFG' });
    expect(dataOf(await rossiAdmin.get<User>(`/api/user/GetById/${shared.id}`))).toEqual(shared);
    expect((await identities('condiviso@example.com'))[0]).toMatchObject({
      roleId: 3,
      name: 'Cliente di Rossi',
    });
  });

  it('deleting it in one tenant removes only that membership', async () => {
    expect((await demoAdmin.delete(`/api/user/Delete/${shared.id}`)).status).toBe(200);
    expect(await membership(shared.id, demoId)).toBeUndefined();
    expect(await membership(shared.id, rossiId)).toBeDefined();
    expect((await login('condiviso@example.com', 'password-sua')).status).toBe(200);
    expect(dataOf(await rossiAdmin.get<User>(`/api/user/GetById/${shared.id}`))).toEqual(shared);
  });
});

describe("a tenant's 'Utente Attivo' flag", () => {
  it('off: the user may not act in that tenant, does not see it, and signs in without a default tenant', async () => {
    const user = await create<User>(demoAdmin, 'user', body('sospeso@example.com'));
    const { token } = await setPasswordMail('sospeso@example.com');
    await ctx.api.post('/api/user/reset-password', { token, newPassword: 'sospeso1' });
    const session = dataOf(await login('sospeso@example.com', 'sospeso1'));
    const asUser = client(ctx.app, {
      authorization: `Bearer ${session.token}`,
      'x-tenant-id': String(demoId),
    });
    expect((await asUser.get('/api/address/getAll')).status).toBe(200);

    await demoAdmin.put('/api/user/Update', {
      ...body('sospeso@example.com', { isActive: false }),
      id: user.id,
    });
    // The deactivation ended the existing session; a new one may not act in that tenant.
    expect((await asUser.get('/api/address/getAll')).status).toBe(401);
    const again = dataOf(await login('sospeso@example.com', 'sospeso1'));
    expect(again.user.defaultTenantId).toBeNull();
    const asUserAgain = client(ctx.app, {
      authorization: `Bearer ${again.token}`,
      'x-tenant-id': String(demoId),
    });
    expect((await asUserAgain.get('/api/address/getAll')).status).toBe(403);
    const tenantsSeen = await client(ctx.app, { authorization: `Bearer ${again.token}` }).get<Paged<Tenant>>(
      '/api/tenant/getAll',
    );
    expect(dataOf(tenantsSeen).totalCount).toBe(0);

    await demoAdmin.put('/api/user/Update', { ...body('sospeso@example.com'), id: user.id });
    expect((await asUserAgain.get('/api/address/getAll')).status).toBe(200);
  });
});
