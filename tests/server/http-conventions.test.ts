import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { SPA_MISSING_MESSAGE } from '../../server/plugins/not-found';
import { API_KEY, client, createTestContext } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
let spaDir: string;

beforeAll(async () => {
  spaDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-spa-'));
  await mkdir(path.join(spaDir, 'assets'));
  await writeFile(path.join(spaDir, 'index.html'), '<!doctype html><title>Rinnova SPA</title>');
  await writeFile(path.join(spaDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  ctx = await createTestContext({
    app: { spaDir },
    beforeReady: (app) => {
      app.get('/api/test/boom', { config: { access: 'public' } }, () => {
        const error = new Error('password=hunter2 at db.internal:5432');
        throw error;
      });
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await rm(spaDir, { recursive: true, force: true });
});

describe('x-api-key', () => {
  it('missing or wrong: 401 with the Italian message, before anything else', async () => {
    for (const key of [null, 'wrong-key']) {
      const api = client(ctx.app, key ? { 'x-api-key': key } : {}, null);
      const res = await api.get('/api/region/getAll');
      expect(res.status, `${key}`).toBe(401);
      expect(res.body).toEqual({ success: false, message: serverMessages.apiKeyMissing, data: null });
    }
  });

  it('an unknown path reaches no route: 404 to anyone, with or without a key', async () => {
    for (const key of [null, 'wrong-key', API_KEY]) {
      const res = await client(ctx.app, key ? { 'x-api-key': key } : {}, null).get('/api/unknown/route');
      expect(res.status, `${key}`).toBe(404);
      expect(res.body).toEqual({ success: false, message: serverMessages.routeNotFound, data: null });
    }
  });

  it('any configured key is accepted', async () => {
    expect((await client(ctx.app, {}, 'second-key').get('/api/health')).status).toBe(200);
  });

  it('the browsable docs need no key; the OpenAPI document lists the routes', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const doc = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const openapi = doc.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(openapi.openapi).toBe('3.1.0');
    for (const p of [
      '/api/region/getAll',
      '/api/municipality/getAllForSelect',
      '/api/tenant/Update',
      '/api/user/Login',
      '/api/contact',
      '/api/health',
    ]) {
      expect(Object.keys(openapi.paths)).toContain(p);
    }
  });
});

describe('envelope and status codes', () => {
  it('health answers the envelope', async () => {
    const res = await ctx.api.get<{ status: string }>('/api/health');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'success']);
    expect(res.body.data?.status).toBe('ok');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an unknown /api route is a 404 envelope', async () => {
    const res = await ctx.api.get('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: serverMessages.routeNotFound, data: null });
  });

  it('routes match case-insensitively', async () => {
    const sa = await ctx.as('superadmin');
    for (const url of [
      '/api/region/getAll',
      '/API/REGION/GETALL',
      '/Api/Region/GetAll',
      '/api/region/getall',
    ]) {
      expect((await sa.get(url)).status, url).toBe(200);
    }
    expect((await sa.get('/api/REGION/getbyid/1')).status).toBe(200);
  });

  it('a body over the limit is a 413 envelope', async () => {
    const res = await ctx.api.post('/api/contact', {
      EMAIL: 'a@b.it',
      MESSAGGIO: 'x'.repeat(1_100_000),
      OPT_IN: '1',
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: serverMessages.payloadTooLarge, data: null });
  });

  it('an unsupported content type is a 400 envelope', async () => {
    const res = await ctx.api.post('/api/contact', '<xml/>', {
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['Tipo di contenuto non supportato.']);
  });

  it('a 500 says nothing of the internals', async () => {
    const res = await ctx.api.get('/api/test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, message: serverMessages.internal, data: null });
    expect(res.raw).not.toContain('hunter2');
    expect(res.raw).not.toContain('stack');
    expect(res.raw).not.toMatch(/\bat\s+\S+\s+\(/);
  });

  it('CORS preflight allows the contract headers without an API key, for a configured origin', async () => {
    const app = await ctx.buildAnotherApp({ CORS_ORIGINS: 'http://localhost:5173' });
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/region/getAll',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key,authorization,x-tenant-id',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-tenant-id');
  });
});

describe('the built SPA', () => {
  it('serves files and falls back to index.html for client routes that accept HTML', async () => {
    for (const url of ['/', '/login', '/reset-password?token=abc', '/region/12']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('Rinnova SPA');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('does not answer HTML for unknown API routes or missing files', async () => {
    const api = await ctx.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { accept: 'text/html', 'x-api-key': 'test-api-key' },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: serverMessages.routeNotFound });
    const file = await ctx.app.inject({
      method: 'GET',
      url: '/missing.png',
      headers: { accept: 'image/png' },
    });
    expect(file.statusCode).toBe(404);
  });

  it('says so when dist/ has not been built', async () => {
    const app = await ctx.buildAnotherApp({}, { spaDir: path.join(spaDir, 'not-built') });
    const res = await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: SPA_MISSING_MESSAGE });
  });
});

describe('framing', () => {
  it('only the plan widget may be framed by another site; no other page may be framed', async () => {
    const widget = await ctx.app.inject({
      method: 'GET',
      url: '/widget/plan?planId=1',
      headers: { accept: 'text/html' },
    });
    expect(widget.statusCode).toBe(200);
    expect(widget.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(widget.headers['x-frame-options']).toBeUndefined();
    for (const url of ['/payment?token=x', '/subscription', '/']) {
      const page = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(page.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('with PAYPAL_FAKE the payment page may load the fake’s SDK stub, and no other page may', async () => {
    const dev = await ctx.buildAnotherApp({ PAYPAL_FAKE: 'true', PAYPAL_FAKE_PORT: '0' });
    const page = await dev.inject({
      method: 'GET',
      url: '/payment?token=x',
      headers: { accept: 'text/html' },
    });
    const script = /script-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1] ?? '';
    expect(script).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    const other = await dev.inject({ method: 'GET', url: '/subscription', headers: { accept: 'text/html' } });
    expect(/script-src ([^;]*)/.exec(String(other.headers['content-security-policy']))?.[1]).toBe("'self'");
  });
});
