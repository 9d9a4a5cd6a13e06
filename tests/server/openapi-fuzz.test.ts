/**
 * Hostile input against every operation of the OpenAPI document, read from the app when the test
 * runs (routes added later are covered without touching this file): NUL bytes in path, query and
 * body values, ids out of range or of the wrong JSON type, malformed escapes, over-long path
 * parameters, bodies of the wrong shape. Every answer is a 4xx or a harmless read: never a 5xx,
 * always the envelope, and nothing is written anywhere (database digest and outbox unchanged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, createTestContext, DEMO } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';
import { databaseFingerprint } from './helpers/fingerprint';

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minimum?: number;
  maxLength?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
type OpenApi = { paths: Record<string, Record<string, Operation>> };

interface Probe {
  label: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
}

const MAX_ID_PLUS_ONE = 2_147_483_648;
const NUL_TEXTS = ['x\u0000y', ['\u0000'], { a: '\u0000' }];
const BAD_IDS = [MAX_ID_PLUS_ONE, 1e21, true, [7], '7\u0000', 1.5, '0x10', '1e3', -1, {}];
const BAD_PATH_VALUES = ['%00', 'a%00b', '2147483648', 'true', '%ZZ', 'x'.repeat(150), '1e3', '0x10', '-1'];
const BAD_QUERY_VALUES = ['%00', '2147483648', 'true', 'x'.repeat(300), '-1', '0x10', '%ZZ'];

function firstType(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return firstType(options.find((o) => o.type !== 'null') ?? options[0] ?? {});
  return schema;
}

function typeOf(schema: JsonSchema): string | undefined {
  const s = firstType(schema);
  return Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
}

/** A plausible value for a schema, so a body reaches the field that carries the hostile value. */
function sample(schema: JsonSchema, name = ''): unknown {
  const s = firstType(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'email' || /e?mail|pec/i.test(name)) return 'fuzz@example.com';
      if (s.format === 'date' || /date/i.test(name)) return '2026-01-15';
      return 'Prova'.slice(0, s.maxLength ?? 5);
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
    default:
      return 'Prova';
  }
}

function hostileValuesFor(name: string, schema: JsonSchema): unknown[] {
  const type = typeOf(schema);
  const values: unknown[] = [...NUL_TEXTS];
  if ((/id$/i.test(name) && type !== 'string') || type === 'integer') values.push(...BAD_IDS);
  else if (type === 'number') values.push(true, [7], '1\u0000');
  return values;
}

function probesFor(path: string, method: string, op: Operation): Probe[] {
  const verb = method.toUpperCase() as Probe['method'];
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  // Path parameters not under test get a plausible id.
  const fill = (override?: [string, string]) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => (override?.[0] === name ? override[1] : '1'));
  const probes: Probe[] = [];
  const label = `${verb} ${path}`;

  for (const p of pathParams)
    for (const v of BAD_PATH_VALUES)
      probes.push({
        label: `${label} path ${p.name}=${v.slice(0, 12)}`,
        method: verb,
        url: fill([p.name, v]),
      });

  for (const q of queryParams) {
    const isObject = typeOf(q.schema ?? {}) === 'object';
    for (const v of BAD_QUERY_VALUES) {
      const key = isObject ? `${q.name}[name]` : q.name;
      probes.push({
        label: `${label} query ${key}=${v.slice(0, 12)}`,
        method: verb,
        url: `${fill()}?${key}=${v}`,
      });
    }
  }
  probes.push({
    label: `${label} query searchTerm=%00`,
    method: verb,
    url: `${fill()}?searchTerm=%00`,
  });

  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  if (verb === 'POST' || verb === 'PUT') {
    const whole: unknown[] = [{ id: '\u0000' }, ['\u0000'], 'x\u0000', { ['k\u0000']: 1 }];
    for (const body of whole)
      probes.push({ label: `${label} body ${JSON.stringify(body)}`, method: verb, url: fill(), body });
    const s = bodySchema ? firstType(bodySchema) : undefined;
    if (s && typeOf(s) === 'object' && s.properties) {
      const base = sample(s) as Record<string, unknown>;
      for (const [name, propSchema] of Object.entries(s.properties)) {
        for (const v of hostileValuesFor(name, propSchema)) {
          probes.push({
            label: `${label} body.${name}=${JSON.stringify(v)}`,
            method: verb,
            url: fill(),
            body: { ...base, [name]: v },
          });
        }
      }
    }
    if (s && typeOf(s) === 'array') {
      for (const v of [...NUL_TEXTS, ...BAD_IDS])
        probes.push({ label: `${label} body [${JSON.stringify(v)}]`, method: verb, url: fill(), body: [v] });
    }
  }
  return probes;
}

// The document is read from the app itself, before the tests are collected, so every operation
// is its own test (a failure names it) and each stays far inside the default timeout.
const ctx: TestContext = await createTestContext();
const doc = ctx.app.swagger() as unknown as OpenApi;
const operations = Object.entries(doc.paths)
  .flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'delete'].includes(method))
      .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
  )
  // Logout, if a hostile call ever got through, would end the session the other probes use.
  .sort((a, b) => Number(/\/logout$/i.test(a.path)) - Number(/\/logout$/i.test(b.path)));

let headers: Record<string, string>;
let tenantKey: string;
let before: Record<string, unknown>;
let outboxBefore: number;

// Tenant-key calls are logged by design (and mark the key's last use), and on PostgreSQL they
// count against the key's rate limit in api_rate_limits: not writes of the probe.
async function fingerprint() {
  const {
    api_request_logs: _log,
    api_keys: _keys,
    api_rate_limits: _limits,
    ...rest
  } = await databaseFingerprint(ctx.db);
  return rest;
}

beforeAll(async () => {
  headers = {
    'x-api-key': API_KEY,
    authorization: `Bearer ${await ctx.login(DEMO.superadmin, DEMO.password)}`,
    'x-tenant-id': String(await ctx.tenantId('Demo Srl')),
  };
  // The /api/v1 operations take a tenant API key (issue 15) instead of the session.
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/apikey/create',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'fuzz', scopes: ['read', 'write', 'entitlements'] }),
  });
  tenantKey = created.json<{ data: { secret: string } }>().data.secret;
  before = await fingerprint();
  outboxBefore = (await ctx.outbox()).length;
});
afterAll(() => ctx.close());

describe('hostile input against every operation of the OpenAPI document', () => {
  it('reads every operation from the document', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  it.each(operations)(
    '$name: never a 5xx, always the envelope, nothing accepted',
    async ({ path, method, op }) => {
      const probes = probesFor(path, method, op);
      expect(probes.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const probe of probes) {
        const res = await ctx.app.inject({
          method: probe.method,
          url: probe.url,
          headers: {
            ...headers,
            ...(/^\/api\/v1\//i.test(probe.url) ? { authorization: `Bearer ${tenantKey}` } : {}),
            ...(probe.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(probe.body !== undefined ? { payload: JSON.stringify(probe.body) } : {}),
        });
        const type = String(res.headers['content-type'] ?? '');
        let envelope = false;
        if (type.includes('application/json')) {
          const body = res.json<Record<string, unknown>>();
          envelope = typeof body.success === 'boolean' && 'message' in body && 'data' in body;
        }
        if (res.statusCode >= 500)
          failures.push(`${probe.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        // A 401 would mean the session was lost and later probes prove nothing (Login answers 401 by design).
        else if (res.statusCode === 401 && !/\/login$/i.test(probe.url.split('?')[0] ?? ''))
          failures.push(`${probe.label}: 401, session lost`);
        else if (!envelope && res.statusCode >= 300)
          failures.push(`${probe.label}: no envelope (${res.statusCode} ${type})`);
        else if (probe.method !== 'GET' && res.statusCode < 300)
          failures.push(`${probe.label}: accepted (${res.statusCode}) ${res.body.slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    },
  );

  // Runs after every operation's probes (tests in a file run in order).
  it('wrote nothing anywhere: the database and the outbox are as before the probes', async () => {
    expect(await fingerprint()).toEqual(before);
    expect((await ctx.outbox()).length).toBe(outboxBefore);
  });
});
