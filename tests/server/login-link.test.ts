/**
 * Signing in with a link (issue 28, api-contract 'Customer area'): `request-login-link` answers
 * the same for any address and e-mails only an active customer; the link is stored as a digest,
 * works once, expires, and answers what Login answers; staff get no link; requests are limited per
 * IP and per address; and every e-mail Rinnova sends a customer carries a working link of its own.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginLinkMessages,
  MAILED_LOGIN_LINK_TTL_MS,
  REQUESTED_LOGIN_LINK_TTL_MS,
} from '../../contract/login-link';
import { serverMessages } from '../../contract/messages';
import type { SessionUser } from '../../contract/schemas/auth';
import type { User } from '../../contract/schemas/user';
import { loginLinkTokens, outbox, users, userTenants } from '../../server/db/schema';
import { hashPassword } from '../../server/lib/passwords';
import type { Mailer, MailMessage, OutboxEntry } from '../../server/mail/mailer';
import { signInLinkMailer } from '../../server/mail/sign-in-link';
import { passwordResetMail, withSignInLink } from '../../server/mail/templates';
import { createLoginLinkIssuer } from '../../server/modules/auth/login-links';
import { createSubscription, giveIban, planId } from './billing/helpers';
import { create } from './helpers/entity-checks';
import { client, createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

const PUBLIC_URL = 'https://rinnova.example.it';
const PASSWORD = 'password-del-cliente';
const LINK = /https:\/\/rinnova\.example\.it\/login\/link\?token=([A-Za-z0-9_-]{43})/;
const MINUTE = 60_000;

let ctx: TestContext;
let now = new Date('2026-03-02T09:00:00.000Z');
const clock = () => new Date(now.getTime());
const advance = (ms: number) => (now = new Date(now.getTime() + ms));
let demoId: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock, publicUrl: () => PUBLIC_URL } });
  demoId = await ctx.tenantId('Demo Srl');
});
afterAll(() => ctx.close());

/** A customer of Demo Srl (role User, active membership), optionally with a password. */
async function customer(email: string, options: { password?: string; roleId?: 1 | 2 | 3 } = {}) {
  const [user] = await ctx.db
    .insert(users)
    .values({
      email,
      name: 'Giulia Verdi',
      roleId: options.roleId ?? 3,
      passwordHash: options.password ? await hashPassword(options.password) : null,
      defaultTenantId: demoId,
    })
    .returning({ id: users.id });
  await ctx.db.insert(userTenants).values({ userId: user!.id, tenantId: demoId, name: 'Giulia Verdi' });
  return user!.id;
}

const request = (email: string, remoteAddress = '10.9.0.1') =>
  ctx.api.post('/api/user/request-login-link', { Email: email }, { remoteAddress });
const useLink = (token: string, remoteAddress = '10.9.0.1') =>
  ctx.api.post<{ token: string; user: SessionUser }>('/api/user/login-link', { token }, { remoteAddress });
const mailsTo = async (to: string) => (await ctx.outbox()).filter((m) => m.to === to);
const tokenOf = (mail: OutboxEntry | undefined) => LINK.exec(mail?.text ?? '')?.[1] ?? '';

/** Asks for a link for `email` and answers the token of the e-mail it got. */
async function requestedToken(email: string): Promise<string> {
  const before = (await mailsTo(email)).length;
  expect((await request(email)).status).toBe(200);
  const mails = await mailsTo(email);
  expect(mails).toHaveLength(before + 1);
  const token = tokenOf(mails.at(-1));
  expect(token).not.toBe('');
  return token;
}

/** The token signs a session in: the caller's own two-factor status answers with it. */
async function sessionWorks(jwt: string): Promise<boolean> {
  const res = await client(ctx.app, { authorization: `Bearer ${jwt}` }).get('/api/user/two-factor');
  return res.status === 200;
}

describe('POST api/user/request-login-link', () => {
  it('answers an unknown address and a customer’s identically; only the customer gets the e-mail', async () => {
    await customer('giulia.verdi@example.it');
    const before = (await ctx.outbox()).length;
    const unknown = await request('nessuno@example.it');
    const known = await request('Giulia.Verdi@example.it ');
    for (const res of [unknown, known]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: loginLinkMessages.requested, data: null });
    }
    expect(unknown.raw).toBe(known.raw);
    const mails = (await ctx.outbox()).slice(before);
    expect(mails.map((m) => m.to)).toEqual(['giulia.verdi@example.it']);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Il tuo link di accesso a Rinnova');
    expect(mail.text).toContain('Ciao Giulia Verdi');
    expect(mail.text).toContain('valido 15 minuti, utilizzabile una sola volta');
    expect(mail.text).not.toMatch(/\{\{|<!--/);
    const token = tokenOf(mail);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/login/link?token=${token}"`);
    expect(mail).not.toHaveProperty('signIn');
  });

  it('stores only a digest of the token, expiring in 15 minutes; the outbox row holds no link', async () => {
    const id = await customer('digest.check@example.it');
    const token = await requestedToken('digest.check@example.it');
    const rows = await ctx.db.select().from(loginLinkTokens).where(eq(loginLinkTokens.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.origin).toBe('request');
    expect(rows[0]!.usedAt).toBeNull();
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(REQUESTED_LOGIN_LINK_TTL_MS);
    const queued = await ctx.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = 'digest.check@example.it'`);
    expect(queued).toHaveLength(1);
    expect(JSON.stringify(queued[0]!.payload)).not.toContain(token);
    expect(JSON.stringify(queued[0]!.payload)).not.toContain('/login/link?token=');
  });

  it('staff (Admin, SuperAdmin), deactivated accounts and customers without an active membership get no e-mail, with the same answer', async () => {
    const inactive = await customer('disattivato@example.it');
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, inactive));
    const formerCustomer = await customer('ex.cliente@example.it');
    await ctx.db.update(userTenants).set({ isActive: false }).where(eq(userTenants.userId, formerCustomer));
    const before = (await ctx.outbox()).length;
    for (const email of [DEMO.admin, DEMO.superadmin, 'disattivato@example.it', 'ex.cliente@example.it']) {
      const res = await request(email);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: loginLinkMessages.requested, data: null });
    }
    expect((await ctx.outbox()).length).toBe(before);
  });

  it('needs the app key, and refuses a body without an e-mail (400)', async () => {
    const noKey = await client(ctx.app, {}, null).post('/api/user/request-login-link', {
      Email: 'giulia.verdi@example.it',
    });
    expect(noKey.status).toBe(401);
    expect((await ctx.api.post('/api/user/request-login-link', {})).status).toBe(400);
  });
});

describe('POST api/user/login-link', () => {
  it('answers what Login answers, once; the password keeps working', async () => {
    await customer('con.password@example.it', { password: PASSWORD });
    const token = await requestedToken('con.password@example.it');

    const first = await useLink(token);
    expect(first.status).toBe(200);
    const byPassword = await ctx.api.post<{ token: string; user: SessionUser }>('/api/user/Login', {
      email: 'con.password@example.it',
      password: PASSWORD,
    });
    expect(byPassword.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(Object.keys(byPassword.body).sort());
    expect(first.body.message).toBe(byPassword.body.message);
    expect(Object.keys(first.body.data!).sort()).toEqual(['token', 'user']);
    expect(first.body.data!.user).toEqual(byPassword.body.data!.user);
    expect(first.body.data!.user).toMatchObject({ roleId: 3, defaultTenantId: demoId });
    expect(await sessionWorks(first.body.data!.token)).toBe(true);

    const second = await useLink(token);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ success: false, message: loginLinkMessages.invalid });
  });

  it('the demo customer, who has a password, signs in with a link too', async () => {
    const token = await requestedToken(DEMO.cliente);
    const res = await useLink(token);
    expect(res.status).toBe(200);
    expect(res.body.data!.user.email).toBe(DEMO.cliente);
    expect(
      (await ctx.api.post('/api/user/Login', { email: DEMO.cliente, password: DEMO.password })).status,
    ).toBe(200);
  });

  it('an expired link is refused with the Italian message', async () => {
    await customer('scaduto@example.it');
    const token = await requestedToken('scaduto@example.it');
    advance(REQUESTED_LOGIN_LINK_TTL_MS + MINUTE);
    const res = await useLink(token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Il link di accesso non è valido o è scaduto. Richiedine uno nuovo.');
  });

  it('two uses at the same time: exactly one signs in', async () => {
    await customer('concorrente@example.it');
    const token = await requestedToken('concorrente@example.it');
    const answers = await Promise.all([useLink(token), useLink(token), useLink(token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('no other token opens an account: random, altered, another account’s spent one', async () => {
    await customer('bersaglio@example.it');
    const token = await requestedToken('bersaglio@example.it');
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const guess of [altered, 'A'.repeat(43), token.toUpperCase(), `${token}x`]) {
      const res = await useLink(guess);
      expect(res.status, guess).toBe(400);
      expect(res.body.message).toBe(loginLinkMessages.invalid);
    }
    // The real one still works: the guesses spent nothing.
    expect((await useLink(token)).status).toBe(200);
  });

  it('signing in with one link closes the account’s other open links', async () => {
    await customer('due.link@example.it');
    const older = await requestedToken('due.link@example.it');
    const newer = await requestedToken('due.link@example.it');
    expect((await useLink(newer)).status).toBe(200);
    expect((await useLink(older)).status).toBe(400);
  });

  it('a link of an account that became staff or was deactivated since it was sent is refused', async () => {
    const promoted = await customer('promosso@example.it');
    const deactivated = await customer('poi.disattivato@example.it');
    const promotedToken = await requestedToken('promosso@example.it');
    const deactivatedToken = await requestedToken('poi.disattivato@example.it');
    await ctx.db.update(users).set({ roleId: 2 }).where(eq(users.id, promoted));
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, deactivated));
    expect((await useLink(promotedToken)).status).toBe(400);
    expect((await useLink(deactivatedToken)).status).toBe(400);
  });

  it('a change of the account’s e-mail closes its open links (they went to the old address)', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const fields = { name: 'Cambio Email', roleId: 3, isActive: true, isCompany: false };
    const created = await create<User>(admin, 'user', { ...fields, email: 'cambio.vecchia@example.it' });
    const token = await requestedToken('cambio.vecchia@example.it');
    const res = await admin.put('/api/user/Update', {
      ...fields,
      id: created.id,
      email: 'cambio.nuova@example.it',
    });
    expect(res.status, res.raw).toBe(200);
    expect((await useLink(token)).status).toBe(400);
  });

  it('issuing removes expired links', async () => {
    const id = await customer('pulizia@example.it');
    await requestedToken('pulizia@example.it');
    advance(REQUESTED_LOGIN_LINK_TTL_MS + MINUTE);
    await requestedToken('pulizia@example.it');
    const rows = await ctx.db.select().from(loginLinkTokens).where(eq(loginLinkTokens.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(now.getTime());
  });
});

describe('rate limits', () => {
  it('per address (any address, known or not): 429 after the limit, identical for both; other addresses go on', async () => {
    const app = await ctx.buildAnotherApp(
      { RATE_LIMIT_LOGIN_LINK_EMAIL: '2' },
      { now: clock, publicUrl: () => PUBLIC_URL },
    );
    const api = client(app, {});
    await customer('limitato@example.it');
    const send = (email: string, remoteAddress: string) =>
      api.post('/api/user/request-login-link', { Email: email }, { remoteAddress });
    for (const email of ['limitato@example.it', 'sconosciuto.limitato@example.it']) {
      expect((await send(email, '10.8.0.1')).status).toBe(200);
      // From another IP: the address is what counts.
      expect((await send(email.toUpperCase(), '10.8.0.2')).status).toBe(200);
    }
    const known = await send('limitato@example.it', '10.8.0.3');
    const unknown = await send('sconosciuto.limitato@example.it', '10.8.0.3');
    for (const res of [known, unknown]) {
      expect(res.status).toBe(429);
      expect(res.body.message).toBe(serverMessages.rateLimited);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(known.raw).toBe(unknown.raw);
    expect((await send('altro.indirizzo@example.it', '10.8.0.3')).status).toBe(200);
    expect((await mailsTo('limitato@example.it')).length).toBe(2);
  });

  it('per IP', async () => {
    const app = await ctx.buildAnotherApp({ RATE_LIMIT_LOGIN_LINK: '2' }, { now: clock });
    const api = client(app, {});
    const send = (i: number, remoteAddress = '10.7.0.1') =>
      api.post('/api/user/request-login-link', { Email: `ip.${i}@example.it` }, { remoteAddress });
    expect((await send(1)).status).toBe(200);
    expect((await send(2)).status).toBe(200);
    const third = await send(3);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect((await send(4, '10.7.0.2')).status).toBe(200);
  });
});

describe('every e-mail to a customer carries a working sign-in link', () => {
  it('bank-transfer instructions: a link of 24 hours, used once', async () => {
    const id = await customer('bonifico.link@example.it');
    await giveIban(ctx, 'Demo Srl');
    const admin = await ctx.as('admin', 'Demo Srl');
    const sub = await createSubscription(admin, {
      userId: id,
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    const res = await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
    expect(res.status).toBe(200);
    const mail = (await mailsTo('bonifico.link@example.it')).at(-1);
    expect(mail?.subject).toMatch(/istruzioni per il bonifico/);
    expect(mail?.text).toContain('IBAN');
    expect(mail?.text).toContain('valido 24 ore, utilizzabile una sola volta');
    expect(mail?.text).toContain(`${PUBLIC_URL}/login?mode=link`);
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/login?mode=link"`);
    const token = tokenOf(mail);
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/login/link?token=${token}"`);
    const [row] = await ctx.db
      .select()
      .from(loginLinkTokens)
      .where(and(eq(loginLinkTokens.userId, id), eq(loginLinkTokens.origin, 'mail')));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(MAILED_LOGIN_LINK_TTL_MS);

    const first = await useLink(token);
    expect(first.status).toBe(200);
    expect(first.body.data!.user.id).toBe(id);
    expect((await useLink(token)).status).toBe(400);
  });

  it('a new customer’s welcome e-mail: the set-password link and a sign-in link, which works', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const created = await create<User>(admin, 'user', {
      name: 'Nuovo Cliente',
      email: 'nuovo.cliente.link@example.it',
      roleId: 3,
      isActive: true,
      isCompany: false,
    });
    const mail = (await mailsTo('nuovo.cliente.link@example.it')).at(-1);
    expect(mail?.text).toMatch(/\/reset-password\?token=/);
    const res = await useLink(tokenOf(mail));
    expect(res.status).toBe(200);
    expect(res.body.data!.user.id).toBe(created.id);
  });

  it('a new Admin’s welcome e-mail carries no sign-in link', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    await create<User>(admin, 'user', {
      name: 'Nuovo Admin',
      email: 'nuovo.admin.link@example.it',
      roleId: 2,
      isActive: true,
      isCompany: false,
    });
    const mail = (await mailsTo('nuovo.admin.link@example.it')).at(-1);
    expect(mail?.text).toMatch(/\/reset-password\?token=/);
    expect(mail?.text).not.toContain('/login/link');
    expect(mail?.html).not.toContain('/login/link');
    expect(mail?.text).not.toMatch(/\{\{|<!--/);
    expect(mail?.html).not.toMatch(/\{\{|<!--accesso/);
  });

  it('a message not sent voids the link it carried; a staff account’s message goes without one', async () => {
    const id = await customer('invio.fallito@example.it');
    const sent: MailMessage[] = [];
    let fail = true;
    const transport: Mailer = {
      async send(message) {
        if (fail) throw new Error('SMTP giù (test)');
        sent.push(message);
      },
      close: () => undefined,
    };
    const mailer = signInLinkMailer(
      transport,
      createLoginLinkIssuer({ db: ctx.db, clock, publicUrl: () => PUBLIC_URL }),
    );
    const message = withSignInLink(passwordResetMail('invio.fallito@example.it', null, 'https://x'), id);
    await expect(mailer.send(message)).rejects.toThrow('SMTP giù');
    const open = await ctx.db.select().from(loginLinkTokens).where(eq(loginLinkTokens.userId, id));
    expect(open).toHaveLength(0);
    fail = false;
    await mailer.send(message);
    expect(sent[0]?.text).toMatch(LINK);

    const [adminRow] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.admin));
    await mailer.send(withSignInLink(passwordResetMail(DEMO.admin, null, 'https://x'), adminRow!.id));
    expect(sent[1]?.text).not.toContain('login/link');
    expect(sent[1]?.text).not.toMatch(/\{\{|<!--/);
    expect(sent[1]).not.toHaveProperty('signIn');
  });
});
