/**
 * Sessions end when they should: a password reset, a role change, a deactivation, removal from
 * the last tenant and Logout make the person's existing tokens fail at once (401), while a new
 * sign-in works. One app for the file; each case uses its own account.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { users, userTenants } from '../../server/db/schema';
import { hashPassword } from '../../server/lib/passwords';
import { client, createTestContext } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

const PASSWORD = 'password-di-prova';
let ctx: TestContext;
let demoId: number;
let passwordHash: string;

beforeAll(async () => {
  ctx = await createTestContext();
  demoId = await ctx.tenantId('Demo Srl');
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => ctx.close());

/** An account of Demo Srl with a password, signed in; returns its id and a client with its token. */
async function signedIn(email: string, roleId: 1 | 2 | 3 = 3) {
  const [user] = await ctx.db
    .insert(users)
    .values({ email, name: email, roleId, passwordHash, defaultTenantId: demoId })
    .returning({ id: users.id });
  if (!user) throw new Error('no user');
  await ctx.db.insert(userTenants).values({ userId: user.id, tenantId: demoId, name: email });
  const token = await ctx.login(email, PASSWORD);
  return {
    id: user.id,
    token,
    api: client(ctx.app, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demoId) }),
  };
}

async function expectEnded(api: ApiClient) {
  const res = await api.get('/api/tenant/getAll');
  expect(res.status).toBe(401);
  expect(res.body.message).toBe(serverMessages.tokenInvalid);
}

async function expectAlive(api: ApiClient) {
  expect((await api.get('/api/tenant/getAll')).status).toBe(200);
}

const userBody = (id: number, email: string, overrides: Record<string, unknown> = {}) => ({
  id,
  name: email,
  email,
  roleId: 3,
  isActive: true,
  isCompany: false,
  ...overrides,
});

describe('a session ends', () => {
  it('at Logout, on the server: the token no longer works, a new sign-in does', async () => {
    const { api } = await signedIn('esce@example.com');
    const other = client(ctx.app, {
      authorization: `Bearer ${await ctx.login('esce@example.com', PASSWORD)}`,
    });
    await expectAlive(api);
    const res = await api.post('/api/user/Logout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: serverMessages.loggedOut, data: null });
    await expectEnded(api);
    await expectEnded(other);
    const again = client(ctx.app, {
      authorization: `Bearer ${await ctx.login('esce@example.com', PASSWORD)}`,
    });
    await expectAlive(again);
    // Logout needs a session.
    expect((await ctx.api.post('/api/user/Logout')).status).toBe(401);
  });

  it('when the password is reset through the e-mailed link', async () => {
    const { api } = await signedIn('reimposta@example.com');
    await ctx.api.post('/api/user/request-password-reset', { email: 'reimposta@example.com' });
    const mail = (await ctx.outbox()).filter((m) => m.to === 'reimposta@example.com').pop();
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    await expectAlive(api);
    const reset = await ctx.api.post('/api/user/reset-password', { token, newPassword: 'nuova-password-1' });
    expect(reset.status).toBe(200);
    await expectEnded(api);
    await ctx.login('reimposta@example.com', 'nuova-password-1');
  });

  it('when an Admin changes the role', async () => {
    const { id, api } = await signedIn('promosso@example.com');
    const admin = await ctx.as('admin', 'Demo Srl');
    await expectAlive(api);
    const res = await admin.put('/api/user/Update', userBody(id, 'promosso@example.com', { roleId: 2 }));
    expect(res.status).toBe(200);
    await expectEnded(api);
  });

  it('when an Admin deactivates the person; an edit that changes neither keeps the session', async () => {
    const { id, api } = await signedIn('disattivato@example.com');
    const admin = await ctx.as('admin', 'Demo Srl');
    const rename = await admin.put(
      '/api/user/Update',
      userBody(id, 'disattivato@example.com', { name: 'Nuovo Nome' }),
    );
    expect(rename.status).toBe(200);
    await expectAlive(api);
    const off = await admin.put(
      '/api/user/Update',
      userBody(id, 'disattivato@example.com', { isActive: false }),
    );
    expect(off.status).toBe(200);
    await expectEnded(api);
  });

  it('when a SuperAdmin is removed from the last tenant (the identity stays)', async () => {
    const { id, api } = await signedIn('super.rimosso@example.com', 1);
    const superadmin = await ctx.as('superadmin', 'Demo Srl');
    await expectAlive(api);
    const res = await superadmin.delete(`/api/user/Delete/${id}`);
    expect(res.status).toBe(200);
    expect((await ctx.db.select().from(users).where(eq(users.id, id))).length).toBe(1);
    await expectEnded(api);
  });

  it('a token of another account is not affected', async () => {
    const first = await signedIn('primo.sessione@example.com');
    const second = await signedIn('secondo.sessione@example.com');
    await first.api.post('/api/user/Logout');
    await expectEnded(first.api);
    await expectAlive(second.api);
  });

  it("an Admin of one tenant cannot end a shared person's sessions in another tenant", async () => {
    const rossiId = await ctx.tenantId('Studio Rossi');
    const { id, api } = await signedIn('condiviso.sessione@example.com');
    await ctx.db.insert(userTenants).values({ userId: id, tenantId: rossiId, name: 'Condiviso' });
    const inRossi = client(ctx.app, {
      authorization:
        api === undefined ? '' : `Bearer ${await ctx.login('condiviso.sessione@example.com', PASSWORD)}`,
      'x-tenant-id': String(rossiId),
    });
    await expectAlive(inRossi);
    const admin = await ctx.as('admin', 'Demo Srl');
    const off = await admin.put(
      '/api/user/Update',
      userBody(id, 'condiviso.sessione@example.com', { isActive: false }),
    );
    expect(off.status).toBe(200);
    // Demo Srl refuses the person at once…
    const refused = await api.get('/api/subscription/getAll');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(serverMessages.tenantForbidden);
    // …while their session in Studio Rossi goes on, with the very same token.
    await expectAlive(inRossi);
    expect((await inRossi.get('/api/subscription/getAll')).status).toBe(200);
    // Removing them from Demo Srl does not end it either (they still belong to Studio Rossi).
    expect((await admin.delete(`/api/user/Delete/${id}`)).status).toBe(200);
    expect((await inRossi.get('/api/subscription/getAll')).status).toBe(200);
  });

  it("when an Admin changes the person's e-mail: sessions end and links sent to the old address stop working", async () => {
    const { id, api } = await signedIn('vecchio.indirizzo@example.com');
    // A reset link e-mailed to the old address.
    await ctx.api.post('/api/user/request-password-reset', { email: 'vecchio.indirizzo@example.com' });
    const mail = (await ctx.outbox()).filter((m) => m.to === 'vecchio.indirizzo@example.com').at(-1);
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect((await ctx.api.get('/api/user/validate-reset-token', { query: { token } })).body.data).toBe(true);
    const admin = await ctx.as('admin', 'Demo Srl');
    const moved = await admin.put('/api/user/Update', userBody(id, 'nuovo.indirizzo@example.com'));
    expect(moved.status, moved.raw).toBe(200);
    await expectEnded(api);
    expect((await ctx.api.get('/api/user/validate-reset-token', { query: { token } })).body.data).toBe(false);
    const used = await ctx.api.post('/api/user/reset-password', { token, newPassword: 'rubata-123' });
    expect(used.status).toBe(400);
    // The new address signs in with the same password.
    expect(await ctx.login('nuovo.indirizzo@example.com', PASSWORD)).toBeTruthy();
  });
});
