/**
 * The doors, walked over the whole route table (issue 23): every route of the app, read when the
 * test runs, so a route added later is covered the day it is added. Each non-public route is
 * called over a real socket, with no credentials, in every spelling of its path that the router or
 * a proxy might read differently: plain, `%61pi`, `%41PI`, `/API`, `//api`, `/api/./`, double
 * encoding and an absolute-form target. None may reach its handler (a preHandler hook records every
 * handler that would run): the spellings the router matches answer 401, the others 400 (refused
 * target) or 404 (no route). A User on an Admin or SuperAdmin route answers 403 in every matching
 * spelling.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../contract/enums';
import { serverMessages } from '../../contract/messages';
import { requestTargetProblem } from '../../server/plugins/route-access';
import { API_KEY, createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
let origin: { host: string; port: number };
/** `METHOD /route/pattern` of every handler reached since the last reset. */
const reached: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    beforeReady: (app) => {
      app.addHook('preHandler', async (request) => {
        // The not-found handler (no route: a 404, or the SPA's history fallback) is no route's handler.
        if (!request.is404) reached.push(`${request.method} ${request.routeOptions.url ?? '?'}`);
      });
      // Declarations that must fail closed: no declaration at all, roles or a tenant on a route
      // that takes no session.
      app.get('/api/test/undeclared', async () => ({ success: true, message: null, data: 'aperta' }));
      app.get(
        '/api/test/roles-without-session',
        { config: { access: 'appKey', roles: [Role.Admin] } },
        async () => ({
          success: true,
          message: null,
          data: 'aperta',
        }),
      );
      app.get(
        '/api/test/tenant-without-session',
        { config: { access: 'appKey', tenant: 'required' } },
        async () => ({
          success: true,
          message: null,
          data: 'aperta',
        }),
      );
    },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address() as AddressInfo;
  origin = { host: '127.0.0.1', port: address.port };
}, 60_000);

afterAll(async () => ctx?.close());

/** Sends `target` exactly as written (no normalisation by a client library). */
function send(
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        ...origin,
        method,
        path: target,
        headers: {
          ...headers,
          ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

/** A concrete path for a route pattern: every parameter `1`. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '1');
}

/** The spellings of `/api/…` that the router matches as the same route. */
function matchingSpellings(path: string): string[] {
  const rest = path.slice('/api'.length);
  return [path, `/%61pi${rest}`, `/%41PI${rest}`, `/API${rest}`, `/Api${rest.toUpperCase()}`];
}

/** Spellings that must never reach a route: refused as a target (400) or matched by none (404). */
function otherSpellings(path: string): string[] {
  const rest = path.slice('/api'.length);
  return [
    `//api${rest}`,
    `/api/.${rest}`,
    `/api/%2e${rest}`,
    `/x/..${path}`,
    `/%2561pi${rest}`,
    `http://x${path}`,
    `http://x/%61pi${rest}`,
  ];
}

function apiRoutes() {
  return ctx.app
    .routeTable()
    .filter((r) => r.url.toLowerCase().startsWith('/api/') && !r.url.startsWith('/api/docs'))
    .filter((r) => !r.url.startsWith('/api/test/'))
    .filter((r) => ['GET', 'POST', 'PUT', 'DELETE'].includes(r.method));
}

describe('the route table', () => {
  it('every operation of the OpenAPI document is a route of the table, and each declares a known access', async () => {
    const doc = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const openapi = doc.json<{ paths: Record<string, Record<string, unknown>> }>();
    const table = new Set(apiRoutes().map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`));
    const operations = Object.entries(openapi.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((op) => !op.includes(' /api/test/'));
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) expect(table, op).toContain(op);
    for (const route of apiRoutes())
      expect(['public', 'appKey', 'user', 'tenantKey']).toContain(route.access);
  });

  it('public routes are only the ones meant to be: health, provider webhooks, the API reference', () => {
    const publicApi = apiRoutes()
      .filter((r) => r.access === 'public')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicApi).toEqual([
      'GET /api/health',
      'POST /api/webhooks/paypal/:tenantId',
      'POST /api/webhooks/stripe/:tenantId',
    ]);
  });

  it('request targets: plain paths pass, every other form is refused', () => {
    for (const ok of [
      '/',
      '/api/plan/getAll?page=1',
      '/api/plan/',
      '/login?x=//y/./z',
      '/api/user/isEmailUnique/a.b%40c.it',
    ])
      expect(requestTargetProblem(ok), ok).toBeNull();
    for (const bad of [
      'http://x/api',
      '*',
      'x/api',
      '//api',
      '/api//plan',
      '/api/./plan',
      '/api/../api',
      '/api/%2E/plan',
      '/api/%2e%2e/x',
      '/a%2fb',
      '/a%5Cb',
      '/a\\b',
      '/api/.',
    ])
      expect(requestTargetProblem(bad), bad).not.toBeNull();
  });
});

describe('no credentials reach no non-public handler, in any spelling of the path', () => {
  it('401 where the router matches the route, 400 or 404 where it does not; no handler reached', async () => {
    const routes = apiRoutes().filter((r) => r.access !== 'public');
    expect(routes.length).toBeGreaterThan(100);
    reached.length = 0;
    for (const route of routes) {
      const path = concrete(route.url);
      for (const target of matchingSpellings(path)) {
        const res = await send(route.method, target);
        expect(res.status, `${route.method} ${target}`).toBe(401);
      }
      for (const target of otherSpellings(path)) {
        const res = await send(route.method, target);
        expect([400, 404], `${route.method} ${target}: ${res.status}`).toContain(res.status);
      }
    }
    expect(reached).toEqual([]);
  }, 120_000);

  it('the app key alone opens only the routes declared appKey; the others still answer 401', async () => {
    reached.length = 0;
    for (const route of apiRoutes().filter((r) => r.access === 'user' || r.access === 'tenantKey')) {
      for (const target of matchingSpellings(concrete(route.url))) {
        const res = await send(route.method, target, { 'x-api-key': API_KEY });
        expect(res.status, `${route.method} ${target}`).toBe(401);
      }
    }
    expect(reached).toEqual([]);
  }, 120_000);

  it('the request target is refused with the Italian envelope', async () => {
    const res = await send('GET', 'http://x/api/hangfire/stats', { 'x-api-key': API_KEY });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      message: serverMessages.badRequestTarget,
      data: null,
    });
  });

  it('a route that declares nothing needs a session; roles or a tenant on a keyed route fail closed', async () => {
    reached.length = 0;
    for (const url of [
      '/api/test/undeclared',
      '/api/test/roles-without-session',
      '/api/test/tenant-without-session',
    ]) {
      const res = await send('GET', url, { 'x-api-key': API_KEY });
      expect(res.status, url).toBe(401);
    }
    expect(reached).toEqual([]);
    const token = await ctx.login(DEMO.admin, DEMO.password);
    reached.length = 0;
    const res = await send('GET', '/api/test/undeclared', {
      'x-api-key': API_KEY,
      authorization: `Bearer ${token}`,
    });
    expect(res.status).toBe(200);
    expect(reached).toEqual(['GET /api/test/undeclared']);
  });
});

describe('roles come from the matched route', () => {
  it('a User on an Admin or SuperAdmin route answers 403 in every spelling the router matches', async () => {
    const token = await ctx.login(DEMO.cliente, DEMO.password);
    const tenant = String(await ctx.tenantId('Demo Srl'));
    const headers = { 'x-api-key': API_KEY, authorization: `Bearer ${token}`, 'x-tenant-id': tenant };
    const guarded = apiRoutes().filter((r) => r.roles && !r.roles.includes(Role.User));
    expect(guarded.length).toBeGreaterThan(50);
    reached.length = 0;
    for (const route of guarded) {
      for (const target of matchingSpellings(concrete(route.url))) {
        const res = await send(route.method, target, headers);
        expect(res.status, `${route.method} ${target}`).toBe(403);
      }
    }
    expect(reached).toEqual([]);
  }, 120_000);

  it('an Admin on a SuperAdmin-only route answers 403 (the jobs page in every spelling)', async () => {
    const token = await ctx.login(DEMO.admin, DEMO.password);
    const headers = { 'x-api-key': API_KEY, authorization: `Bearer ${token}` };
    reached.length = 0;
    const superOnly = apiRoutes().filter((r) => r.roles?.length === 1 && r.roles[0] === Role.SuperAdmin);
    expect(superOnly.map((r) => r.url)).toContain('/api/hangfire/recent');
    for (const route of superOnly)
      for (const target of matchingSpellings(concrete(route.url)))
        expect((await send(route.method, target, headers)).status, `${route.method} ${target}`).toBe(403);
    expect(reached).toEqual([]);
  }, 60_000);
});
