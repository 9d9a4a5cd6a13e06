import { describe, expect, it } from 'vitest';
import { buildHeaders, http } from '../../../src/lib/http';
import { config } from '../../../src/lib/config';
import { setSelectedTenantId } from '../../../src/lib/tenant-store';
import { apiGet, ok, recordRequests, server } from '../msw/server';

describe('buildHeaders', () => {
  it('always sends the static API key', () => {
    expect(buildHeaders({ token: null, apiKey: 'k1', tenantId: null })).toEqual({ 'x-api-key': 'k1' });
  });

  it('adds the bearer token and the tenant when present', () => {
    expect(buildHeaders({ token: 'abc', apiKey: 'k1', tenantId: 7 })).toEqual({
      'x-api-key': 'k1',
      Authorization: 'Bearer abc',
      'X-Tenant-Id': '7',
    });
  });
});

describe('the http instance', () => {
  it('reads token and tenant from storage on every request', async () => {
    server.use(apiGet('region/getAll', () => ok({ items: [], totalCount: 0 })));
    const calls = recordRequests();

    await http.get('region/getAll');
    window.localStorage.setItem('token', 'tok-1');
    setSelectedTenantId(42);
    await http.get('region/getAll');

    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers.get('x-api-key')).toBe(config.apiKey);
    expect(calls[0]!.headers.get('authorization')).toBeNull();
    expect(calls[0]!.headers.get('x-tenant-id')).toBeNull();
    expect(calls[1]!.headers.get('authorization')).toBe('Bearer tok-1');
    expect(calls[1]!.headers.get('x-tenant-id')).toBe('42');
  });

  it('lets one request override the tenant header', async () => {
    server.use(apiGet('region/getAll', () => ok(null)));
    const calls = recordRequests();
    setSelectedTenantId(42);
    await http.get('region/getAll', { headers: { 'X-Tenant-Id': '9' } });
    expect(calls[0]!.headers.get('x-tenant-id')).toBe('9');
  });
});
