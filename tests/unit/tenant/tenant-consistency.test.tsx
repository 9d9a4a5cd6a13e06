import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { entityHooks } from '../../../src/lib/entity-hooks';
import type { ResourceDef } from '../../../src/lib/resource';
import { setSelectedTenantId, useSelectedTenantId } from '../../../src/lib/tenant-store';
import { apiGet, ok, recordRequests, server } from '../msw/server';

/** What another browser tab does when its user picks a tenant: same localStorage, no in-tab notice. */
function otherTabSelects(tenantId: number) {
  window.localStorage.setItem('selectedTenantId', String(tenantId));
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('the selected tenant and the rows drawn under it', () => {
  it('follows a tenant chosen in another tab', () => {
    setSelectedTenantId(1);
    const { result } = renderHook(() => useSelectedTenantId());
    expect(result.current).toBe(1);
    act(() => {
      otherTabSelects(2);
      window.dispatchEvent(new StorageEvent('storage', { key: 'selectedTenantId', newValue: '2' }));
    });
    expect(result.current).toBe(2);
  });

  it('asks the server for the tenant of the query key, whatever storage holds when the request leaves', async () => {
    server.use(apiGet('feature/getAll', () => ok({ items: [], totalCount: 0 })));
    const calls = recordRequests();
    const resource = { name: 'feature' } as unknown as ResourceDef<{ id: number }>;
    setSelectedTenantId(1);
    const { result } = renderHook(() => entityHooks(resource).useList({ page: 1, pageSize: 10 }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    otherTabSelects(2); // before this tab hears of it
    await act(() => result.current.refetch());

    expect(calls.map((c) => c.headers.get('x-tenant-id'))).toEqual(['1', '1']);
  });
});
