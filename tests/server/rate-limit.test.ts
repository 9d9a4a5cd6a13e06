import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { serverMessages } from '../../contract/messages';
import { client, createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** An app on the same database with the given limits (each app counts on its own). */
const appWith = (env: Record<string, string>) => ctx.buildAnotherApp({ RATE_LIMIT_WINDOW: '1m', ...env });

function post(app: FastifyInstance, url: string, payload: object, remoteAddress = '10.0.0.1') {
  return client(app, {}).post(url, payload, { remoteAddress });
}

function expectLimited(res: {
  status: number;
  body: { message: string | null; success: boolean };
  headers: Record<string, unknown>;
}) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ success: false, message: serverMessages.rateLimited, data: null });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('per-IP request limits', () => {
  it('login: the request after the limit is a 429 with Retry-After; another IP is not affected', async () => {
    const app = await appWith({ RATE_LIMIT_LOGIN: '3' });
    const body = { email: DEMO.admin, password: DEMO.password };
    for (let i = 0; i < 3; i++) expect((await post(app, '/api/user/Login', body)).status).toBe(200);
    expectLimited(await post(app, '/api/user/Login', body));
    expect((await post(app, '/api/user/Login', body, '10.0.0.2')).status).toBe(200);
  });

  it('request-password-reset', async () => {
    const app = await appWith({ RATE_LIMIT_PASSWORD_RESET: '2' });
    for (let i = 0; i < 2; i++)
      expect((await post(app, '/api/user/request-password-reset', { email: 'x@y.it' })).status).toBe(200);
    expectLimited(await post(app, '/api/user/request-password-reset', { email: 'x@y.it' }));
  });

  it('contact', async () => {
    const app = await appWith({ RATE_LIMIT_CONTACT: '2' });
    const body = { EMAIL: 'a@b.it', MESSAGGIO: 'm', OPT_IN: '1' };
    for (let i = 0; i < 2; i++) expect((await post(app, '/api/contact', body)).status).toBe(200);
    expectLimited(await post(app, '/api/contact', body));
  });

  it('public PayPal settings look-up (no sign-in)', async () => {
    const app = await appWith({ RATE_LIMIT_PUBLIC: '2' });
    const get = (remoteAddress: string) =>
      client(app, {}).get('/api/paymentprovider/GetPayPalSettingsByTenant/999999', { remoteAddress });
    for (let i = 0; i < 2; i++) expect((await get('10.0.0.5')).status).toBe(404);
    expectLimited(await get('10.0.0.5'));
    expect((await get('10.0.0.6')).status).toBe(404);
  });
});

describe('failed sign-in throttling', () => {
  it('locks an (e-mail, IP) after LOGIN_MAX_FAILURES failures, even with the right password', async () => {
    const app = await appWith({ LOGIN_MAX_FAILURES: '3' });
    for (let i = 0; i < 3; i++) {
      expect(
        (await post(app, '/api/user/Login', { email: DEMO.cliente, password: 'sbagliata' }, '10.1.0.1'))
          .status,
      ).toBe(401);
    }
    const locked = await post(
      app,
      '/api/user/Login',
      { email: DEMO.cliente, password: DEMO.password },
      '10.1.0.1',
    );
    expectLimited(locked);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Another account from that address is not locked.
    expect(
      (await post(app, '/api/user/Login', { email: DEMO.admin, password: DEMO.password }, '10.1.0.1')).status,
    ).toBe(200);
  });

  it('a stranger cannot lock the owner out: wrong passwords from other addresses leave the owner’s own address free', async () => {
    const app = await appWith({ LOGIN_MAX_FAILURES: '3' });
    for (let ip = 1; ip <= 3; ip++) {
      for (let i = 0; i < 3; i++) {
        const res = await post(
          app,
          '/api/user/Login',
          { email: DEMO.cliente, password: 'x' },
          `10.9.${ip}.1`,
        );
        expect(res.status).toBe(401);
      }
      expectLimited(
        await post(app, '/api/user/Login', { email: DEMO.cliente, password: 'x' }, `10.9.${ip}.1`),
      );
    }
    const owner = await post(
      app,
      '/api/user/Login',
      { email: DEMO.cliente, password: DEMO.password },
      '192.168.1.20',
    );
    expect(owner.status).toBe(200);
  });

  it('locks an IP after 4× the failures across different e-mails', async () => {
    const app = await appWith({ LOGIN_MAX_FAILURES: '2' });
    for (let i = 0; i < 8; i++) {
      expect(
        (await post(app, '/api/user/Login', { email: `utente${i}@example.it`, password: 'x' }, '10.2.0.1'))
          .status,
      ).toBe(401);
    }
    expectLimited(
      await post(app, '/api/user/Login', { email: DEMO.admin, password: DEMO.password }, '10.2.0.1'),
    );
    expect(
      (await post(app, '/api/user/Login', { email: DEMO.admin, password: DEMO.password }, '10.2.0.2')).status,
    ).toBe(200);
  });

  it('a successful sign-in clears the e-mail count', async () => {
    const app = await appWith({ LOGIN_MAX_FAILURES: '2' });
    const wrong = { email: DEMO.superadmin, password: 'x' };
    expect((await post(app, '/api/user/Login', wrong)).status).toBe(401);
    expect(
      (await post(app, '/api/user/Login', { email: DEMO.superadmin, password: DEMO.password })).status,
    ).toBe(200);
    expect((await post(app, '/api/user/Login', wrong)).status).toBe(401);
    expect(
      (await post(app, '/api/user/Login', { email: DEMO.superadmin, password: DEMO.password })).status,
    ).toBe(200);
  });
});

describe('whose address a limit counts', () => {
  const reset = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
    client(app, headers).post('/api/user/request-password-reset', { email: 'x@y.it' }, { remoteAddress });

  it('an IPv6 client counts by its /64: rotating the interface bits gives no fresh allowance', async () => {
    const app = await appWith({ RATE_LIMIT_PASSWORD_RESET: '2' });
    expect((await reset(app, '2001:db8:1:2::1')).status).toBe(200);
    expect((await reset(app, '2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(200);
    expectLimited(await reset(app, '2001:0db8:0001:0002:0:0:0:abcd'));
    // Another /64 of the same /48 is another client.
    expect((await reset(app, '2001:db8:1:3::1')).status).toBe(200);
  });

  it('an IPv4 client counts the same whether it arrives plain or IPv4-mapped', async () => {
    const app = await appWith({ RATE_LIMIT_PASSWORD_RESET: '2' });
    expect((await reset(app, '198.51.100.7')).status).toBe(200);
    expect((await reset(app, '::ffff:198.51.100.7')).status).toBe(200);
    expectLimited(await reset(app, '::ffff:c633:6407'));
  });

  it('X-Forwarded-For is believed only from the trusted hops (TRUST_PROXY=1)', async () => {
    const direct = await appWith({ RATE_LIMIT_PASSWORD_RESET: '1' });
    // Without a trusted proxy the header is ignored: every forged address is the same client.
    expect((await reset(direct, '10.9.9.9', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expectLimited(await reset(direct, '10.9.9.9', { 'x-forwarded-for': '203.0.113.2' }));

    const proxied = await appWith({ RATE_LIMIT_PASSWORD_RESET: '1', TRUST_PROXY: '1' });
    // Behind one proxy the client is the address that proxy saw (the header's last entry); what the
    // client itself wrote before it is not believed.
    expect((await reset(proxied, '10.9.9.9', { 'x-forwarded-for': '6.6.6.6, 203.0.113.1' })).status).toBe(
      200,
    );
    expectLimited(await reset(proxied, '10.9.9.9', { 'x-forwarded-for': '7.7.7.7, 203.0.113.1' }));
    expect((await reset(proxied, '10.9.9.9', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
  });

  it("TRUST_PROXY as the proxies' addresses: a header from anyone else is ignored", async () => {
    const app = await appWith({ RATE_LIMIT_PASSWORD_RESET: '1', TRUST_PROXY: '10.1.0.0/16, 192.0.2.10' });
    expect((await reset(app, '10.1.2.3', { 'x-forwarded-for': '203.0.113.5' })).status).toBe(200);
    expect((await reset(app, '192.0.2.10', { 'x-forwarded-for': '203.0.113.6' })).status).toBe(200);
    expectLimited(await reset(app, '10.1.9.9', { 'x-forwarded-for': '203.0.113.6' }));
    // A stranger's header does not make it someone else.
    expect((await reset(app, '198.51.100.9', { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    expectLimited(await reset(app, '198.51.100.9', { 'x-forwarded-for': '203.0.113.8' }));
  });
});
