/**
 * Hardening found by probing from outside: bad input answers a 4xx envelope with an Italian
 * message and writes nothing; errors raised before routing or by the HTTP parser answer the
 * envelope too; no log line holds a query's parameters or a URL's query values; security
 * headers, CORS, health and the SPA at `/`. One app for the file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { NUMBER_MESSAGE } from '../../contract/schemas/common';
import { buildApp } from '../../server/app';
import { tenants } from '../../server/db/schema';
import { databaseFingerprint } from './helpers/fingerprint';
import { API_KEY, client, createTestContext, DEMO, JWT_SECRET, testConfig } from './helpers/test-app';
import type { ApiClient, TestContext } from './helpers/test-app';

let ctx: TestContext;
let spaDir: string;
let superadmin: ApiClient;
let demoId: number;

beforeAll(async () => {
  spaDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-spa-'));
  await mkdir(path.join(spaDir, 'assets'));
  await writeFile(path.join(spaDir, 'index.html'), '<!doctype html><title>Rinnova SPA</title>');
  ctx = await createTestContext({ app: { spaDir } });
  demoId = await ctx.tenantId('Demo Srl');
  superadmin = await ctx.as('superadmin', 'Demo Srl');
});
afterAll(async () => {
  await ctx.close();
  await rm(spaDir, { recursive: true, force: true });
});

const envelopeKeys = (body: object) => Object.keys(body).sort();

describe('NUL bytes', () => {
  it('in a sign-in e-mail: 400 naming the field, without signing in', async () => {
    const res = await ctx.api.post('/api/user/Login', { Email: 'x\u0000', Password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      message: serverMessages.validation,
      data: null,
      errors: [`email: ${serverMessages.invalidCharacters}`],
      fieldErrors: { email: serverMessages.invalidCharacters },
    });
  });

  it('in a query string, a path and a nested body value: 400, nothing written', async () => {
    const before = await databaseFingerprint(ctx.db);
    const search = await superadmin.get('/api/municipality/getAll?searchTerm=%00');
    expect(search.status).toBe(400);
    expect(search.body.errors).toEqual([`searchTerm: ${serverMessages.invalidCharacters}`]);
    const filter = await superadmin.get('/api/municipality/getAll?filters[name]=a%00b');
    expect(filter.status).toBe(400);
    const byPath = await superadmin.get('/api/user/isEmailUnique/a%00b@example.com');
    expect(byPath.status).toBe(400);
    const created = await superadmin.post('/api/feature/Create', {
      featureName: 'Nome\u0000',
      description: 'x',
    });
    expect(created.status).toBe(400);
    expect(created.body.errors).toEqual([`featureName: ${serverMessages.invalidCharacters}`]);
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
  });
});

describe('ids', () => {
  it('above 2,147,483,647 in a body: 400 on the id field, not a 500', async () => {
    for (const [url, body] of [
      ['/api/feature/Update', { id: 2_147_483_648, featureName: 'x' }],
      ['/api/province/Create', { name: 'x', abbreviation: 'XX', regionId: 2_147_483_648 }],
      ['/api/planfeature/Create', { planId: 2_147_483_648, featureName: 'x' }],
    ] as const) {
      const res = await superadmin[url.endsWith('Update') ? 'put' : 'post'](url, body);
      expect(res.status, url).toBe(400);
      expect(envelopeKeys(res.body)).toEqual(['data', 'errors', 'fieldErrors', 'message', 'success']);
    }
  });

  it('of the wrong JSON type are refused: {"id":true} does not rename tenant 1, {"id":[7]} is no 7', async () => {
    const [before] = await ctx.db.select().from(tenants).where(eq(tenants.id, 1));
    for (const id of [true, [7], '0x1', '1e0', 1.5, -1, { v: 1 }]) {
      const res = await superadmin.put('/api/tenant/Update', { id, name: 'Rinominato' });
      expect(res.status, JSON.stringify(id)).toBe(400);
      expect(res.body.errors).toContain(`id: ${NUMBER_MESSAGE}`);
    }
    for (const id of [true, [7]]) {
      const res = await superadmin.post('/api/feature/Create', { id, featureName: 'Con id strano' });
      expect(res.status).toBe(400);
    }
    const [after] = await ctx.db.select().from(tenants).where(eq(tenants.id, 1));
    expect(after).toEqual(before);
    // In a path: digits only.
    for (const id of ['0x1', '1e0', '2147483648', 'true']) {
      const res = await superadmin.get(`/api/province/GetById/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.errors).toEqual([`id: ${serverMessages.invalidId}`]);
    }
  });
});

describe('errors before routing answer the envelope', () => {
  it('a malformed %-escape: 400', async () => {
    const res = await superadmin.get('/api/province/GetById/%ZZ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      message: serverMessages.validation,
      data: null,
      errors: [serverMessages.badUrl],
    });
  });

  it('a path parameter over 100 characters: 414 envelope', async () => {
    const res = await superadmin.get(`/api/user/isEmailUnique/${'a'.repeat(150)}`);
    expect(res.status).toBe(414);
    expect(res.body.errors).toEqual([serverMessages.urlTooLong]);
  });

  it('a URL over 16 KB (refused by the HTTP parser): 431 envelope over real HTTP', async () => {
    const app = await ctx.buildAnotherApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/api/region/getAll?searchTerm=${'a'.repeat(17_000)}`,
          headers: { 'x-api-key': API_KEY },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({
      success: false,
      message: serverMessages.validation,
      data: null,
      errors: [serverMessages.headersTooLarge],
    });
  });
});

it('a body-less DELETE sent with Content-Type: application/json is accepted', async () => {
  const created = await superadmin.post<{ id: number }>('/api/feature/Create', {
    featureName: 'Da eliminare',
  });
  const id = created.body.data?.id;
  const res = await ctx.app.inject({
    method: 'DELETE',
    url: `/api/feature/Delete/${id}`,
    headers: {
      'x-api-key': API_KEY,
      authorization: `Bearer ${await ctx.login(DEMO.superadmin, DEMO.password)}`,
      'x-tenant-id': String(demoId),
      'content-type': 'application/json',
    },
  });
  expect(res.statusCode).toBe(200);
  // A POST with an empty JSON body is still a 400.
  const empty = await ctx.app.inject({
    method: 'POST',
    url: '/api/user/Login',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
  });
  expect(empty.statusCode).toBe(400);
});

describe('logs', () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'info' }),
      db: ctx.db,
      jwtSecret: JWT_SECRET,
      logStream: { write: (line: string) => lines.push(line) },
    });
    app.get('/api/test/db-failure', { config: { access: 'public' } }, async () =>
      ctx.db.execute(sql`select * from tabella_inesistente where email = ${'segreto.personale@example.com'}`),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('never hold a failed query’s parameters, a driver detail, or a URL’s query values', async () => {
    const res = await client(app, {}).get('/api/test/db-failure');
    expect(res.status).toBe(500);
    expect(res.raw).not.toContain('segreto');
    await client(app, {}).get('/api/user/validate-reset-token?token=token-segretissimo-123');
    await client(app, {}).post('/api/user/Login', {
      email: 'persona@example.com\u0000',
      password: 'parola-segreta',
    });
    const log = lines.join('');
    expect(log).toContain('request failed');
    expect(log).toContain('tabella_inesistente');
    expect(log).toContain('42P01');
    expect(log).not.toContain('segreto.personale');
    expect(log).not.toContain('token-segretissimo-123');
    expect(log).not.toContain('parola-segreta');
    expect(log).toContain('/api/user/validate-reset-token?token=…');
  });
});

describe('security headers', () => {
  it('the SPA: scripts from this origin only, no framing, no referrer, nosniff', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('paypal');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the payment page also allows PayPal’s SDK and Stripe.js (and only it does); the plan widget may be framed', async () => {
    for (const url of ['/payment?token=abc', '/payment/process?session_id=cs_test_1&tenant=1']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(
        "script-src 'self' https://www.paypal.com https://*.paypal.com https://www.paypalobjects.com https://js.stripe.com https://*.js.stripe.com",
      );
      expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
      expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
      expect(csp).toContain("frame-ancestors 'none'");
    }
    const elsewhere = await ctx.app.inject({
      method: 'GET',
      url: '/login',
      headers: { accept: 'text/html' },
    });
    expect(String(elsewhere.headers['content-security-policy'])).not.toContain('stripe');
    const widget = await ctx.app.inject({
      method: 'GET',
      url: '/widget/plan?planId=1',
      headers: { accept: 'text/html' },
    });
    expect(String(widget.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(widget.headers['x-frame-options']).toBeUndefined();
    expect(String(widget.headers['content-security-policy'])).toContain("script-src 'self';");
  });

  it('API answers: no-store (per caller), CSP and nosniff too', async () => {
    const res = await superadmin.get('/api/tenant/getAll');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('CORS: only configured origins', async () => {
    const preflight = (app: FastifyInstance, origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url: '/api/region/getAll',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
    const strange = await preflight(ctx.app, 'https://evil.example');
    expect(strange.headers['access-control-allow-origin']).toBeUndefined();
    const configured = await ctx.buildAnotherApp({ CORS_ORIGINS: 'https://app.example.it' });
    expect(
      (await preflight(configured, 'https://app.example.it')).headers['access-control-allow-origin'],
    ).toBe('https://app.example.it');
    expect(
      (await preflight(configured, 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });
});

describe('health and the SPA root', () => {
  it('/api/health needs no API key and says only up', async () => {
    const res = await client(ctx.app, {}, null).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: { status: 'ok' } });
  });

  it('GET / serves the SPA whatever the Accept header; a missing file stays a 404', async () => {
    for (const accept of ['*/*', 'application/json', undefined]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.body).toContain('Rinnova SPA');
    }
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/immagine-mancante.png',
      headers: { accept: '*/*' },
    });
    expect(missing.statusCode).toBe(404);
  });
});
