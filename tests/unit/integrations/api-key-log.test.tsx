/** /apikey/{id}: the request log's CSV export, and its failure through the one error path. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyItem } from '../../../contract/integrations';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { apiGet, fail, ok, server } from '../msw/server';

const key: ApiKeyItem = {
  id: 4,
  name: 'Backend produzione',
  mode: 'live',
  hint: 'rnv_live_…a1b2',
  scopes: ['entitlements'],
  state: 'active',
  lastUsedAt: null,
  expiresAt: null,
  createdAt: '2026-03-10T09:00:00.000Z',
  revokedAt: null,
  rotatedFromId: null,
};

afterEach(() => vi.restoreAllMocks());

describe('/apikey/{id} request log', () => {
  it('a refused CSV export toasts the server’s message once (its envelope arrives as bytes)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiGet('apikey/4', () => ok(key)),
      apiGet('apikey/4/logs', () => ok({ items: [], hasMore: false })),
      apiGet('apikey/4/logs/export', () => fail(403, 'Non hai i permessi per questa operazione.')),
      apiGet('tenant/getAll', () => ok({ items: [{ id: 1, name: 'Demo Srl' }], totalCount: 1 })),
    );
    const { user } = renderApp('/apikey/4', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Esporta CSV' }));
    expect(await screen.findByText('Non hai i permessi per questa operazione.')).toBeInTheDocument();
    expect(screen.getAllByText('Non hai i permessi per questa operazione.')).toHaveLength(1);
  });
});
