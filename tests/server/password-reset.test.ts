import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, serverMessages } from '../../contract/messages';
import { passwordResetTokens, users } from '../../server/db/schema';
import { createTestContext, DEMO, failingMailer } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
const PUBLIC_URL = 'https://rinnova.example.it';

beforeAll(async () => {
  ctx = await createTestContext({ app: { publicUrl: () => PUBLIC_URL } });
});
afterAll(() => ctx.close());

/** Requests a reset for `email` and returns the token from the e-mail written to the outbox. */
async function requestResetToken(email: string): Promise<string> {
  const before = (await ctx.outbox()).length;
  const res = await ctx.api.post('/api/user/request-password-reset', { Email: email });
  expect(res.status).toBe(200);
  const mails = await ctx.outbox();
  expect(mails).toHaveLength(before + 1);
  const mail = mails[mails.length - 1];
  const link = /https:\/\/rinnova\.example\.it\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(
    mail?.text ?? '',
  );
  expect(link).not.toBeNull();
  return link?.[1] ?? '';
}

const validate = (token: string) =>
  ctx.api.get<boolean>('/api/user/validate-reset-token', { query: { token } });
const reset = (token: string, newPassword: string) =>
  ctx.api.post('/api/user/reset-password', { token, newPassword });
const login = (email: string, password: string) => ctx.api.post('/api/user/Login', { email, password });

async function createUser(email: string): Promise<number> {
  const [row] = await ctx.db
    .insert(users)
    .values({ email, name: 'Mario Bianchi', roleId: 3 })
    .returning({ id: users.id });
  return row?.id ?? 0;
}

describe('request-password-reset', () => {
  it('always succeeds; only an existing account gets an Italian e-mail with the link', async () => {
    const before = (await ctx.outbox()).length;
    const unknown = await ctx.api.post('/api/user/request-password-reset', { email: 'nessuno@example.it' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ success: true, message: serverMessages.resetRequested, data: null });
    expect(await ctx.outbox()).toHaveLength(before);

    await requestResetToken(DEMO.cliente);
    const mail = (await ctx.outbox()).at(-1);
    expect(mail).toMatchObject({ to: DEMO.cliente, subject: 'Rinnova: reimposta la tua password' });
    expect(mail?.text).toContain('Ciao Cliente Demo');
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/reset-password?token=`);
    expect(Date.parse(mail?.createdAt ?? '')).not.toBeNaN();
  });

  it('stores only a hash of the token, expiring in one hour', async () => {
    const userId = await createUser('hash.check@example.it');
    const token = await requestResetToken('hash.check@example.it');
    const rows = await ctx.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toContain(token);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const ttl = (rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0);
    expect(Math.abs(ttl - 3600_000)).toBeLessThan(5_000);
  });

  it('still succeeds when the e-mail cannot be sent', async () => {
    const other = await ctx.buildAnotherApp({}, { mailer: failingMailer });
    const res = await other.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      headers: { 'x-api-key': 'test-api-key' },
      payload: { email: DEMO.cliente },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
  });

  it('without e-mail is a 400', async () => {
    const res = await ctx.api.post('/api/user/request-password-reset', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['email: Campo obbligatorio']);
  });
});

describe('validate-reset-token', () => {
  it('answers 200 with success and data true for an open token, success false otherwise', async () => {
    await createUser('validate@example.it');
    const token = await requestResetToken('validate@example.it');
    expect((await validate(token)).body).toEqual({
      success: true,
      message: serverMessages.resetTokenValid,
      data: true,
    });
    const unknown = await validate('not-a-real-token');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ success: false, message: serverMessages.resetTokenInvalid, data: false });
  });

  it('without token is a 400', async () => {
    const res = await ctx.api.get('/api/user/validate-reset-token');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['token: Campo obbligatorio']);
  });
});

describe('reset-password', () => {
  it('sets the password, works once, and closes every other open token of the user', async () => {
    const userId = await createUser('once@example.it');
    const first = await requestResetToken('once@example.it');
    const second = await requestResetToken('once@example.it');

    const res = await reset(first, 'nuova-password');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: serverMessages.passwordUpdated, data: null });
    expect((await login('once@example.it', 'nuova-password')).status).toBe(200);

    const again = await reset(first, 'altra-password');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      success: false,
      message: serverMessages.resetTokenInvalid,
      data: null,
      errors: [serverMessages.resetTokenInvalid],
    });
    expect((await validate(first)).body.data).toBe(false);
    expect((await reset(second, 'altra-password')).status).toBe(400);
    const open = await ctx.db
      .select()
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    expect(open).toEqual([]);
    expect((await login('once@example.it', 'altra-password')).status).toBe(401);
  });

  it('an expired token is refused and changes nothing', async () => {
    await createUser('expired@example.it');
    const token = await requestResetToken('expired@example.it');
    const [user] = await ctx.db.select().from(users).where(eq(users.email, 'expired@example.it'));
    await ctx.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user?.id ?? 0));
    expect((await validate(token)).body.data).toBe(false);
    expect((await reset(token, 'troppo-tardi')).status).toBe(400);
    const [after] = await ctx.db
      .select()
      .from(users)
      .where(eq(users.id, user?.id ?? 0));
    expect(after?.passwordHash).toBeNull();
  });

  it('expires on the clock: valid just before one hour, refused just after', async () => {
    let now = new Date('2030-01-01T10:00:00Z');
    const app = await ctx.buildAnotherApp({}, { now: () => now, publicUrl: () => PUBLIC_URL });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (
        await app.inject({
          method,
          url,
          headers: { 'x-api-key': 'test-api-key' },
          ...(payload ? { payload } : {}),
        })
      ).json<{ success: boolean; data: unknown }>();
    await createUser('clock@example.it');
    await call('POST', '/api/user/request-password-reset', { email: 'clock@example.it' });
    // The link is written and e-mailed after the answer.
    await app.backgroundIdle();
    const token = /token=([A-Za-z0-9_-]+)/.exec((await ctx.outbox()).at(-1)?.text ?? '')?.[1] ?? '';
    now = new Date('2030-01-01T10:59:59Z');
    expect((await call('GET', `/api/user/validate-reset-token?token=${token}`)).data).toBe(true);
    now = new Date('2030-01-01T11:00:01Z');
    expect((await call('GET', `/api/user/validate-reset-token?token=${token}`)).data).toBe(false);
    expect((await call('POST', '/api/user/reset-password', { token, newPassword: 'abcdef' })).success).toBe(
      false,
    );
  });

  it('answers before looking the account up: the link is written and e-mailed after the answer', async () => {
    await createUser('dopo@example.it');
    const mails = (await ctx.outbox()).length;
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      headers: { 'x-api-key': 'test-api-key' },
      payload: { email: 'dopo@example.it' },
    });
    const stranger = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/request-password-reset',
      headers: { 'x-api-key': 'test-api-key' },
      payload: { email: 'nessuno@example.it' },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toBe(stranger.body);
    await ctx.app.backgroundIdle();
    const after = await ctx.outbox();
    expect(after).toHaveLength(mails + 1);
    expect(after.at(-1)?.to).toBe('dopo@example.it');
  });

  it('a new password shorter than 6 characters is a 400 with the contract message and consumes nothing', async () => {
    await createUser('short@example.it');
    const token = await requestResetToken('short@example.it');
    const res = await reset(token, '12345');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`newPassword: ${messages.password.tooShort}`]);
    expect((await validate(token)).body.data).toBe(true);
  });

  it('binds NewPassword / Token case-insensitively', async () => {
    await createUser('casing@example.it');
    const token = await requestResetToken('casing@example.it');
    const res = await ctx.api.post('/api/user/reset-password', { Token: token, NewPassword: 'maiuscole' });
    expect(res.status).toBe(200);
  });
});
