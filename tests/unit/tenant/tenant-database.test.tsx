/**
 * The tenant's database below its form (issue 25; contract 'Tenancy'): a SuperAdmin reads the
 * server, the database and its size from GetById; an Admin, whom the API does not tell, sees no card.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { formatBytes } from '../../../contract/format-bytes';
import { renderApp } from '../app/harness';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';

const tenant = (database?: { server: string; name: string; sizeBytes: number | null }) => ({
  id: 1,
  name: 'Acme S.r.l.',
  configuration: null,
  taxRegime: 'RF01',
  regionId: null,
  provinceId: null,
  ...(database ? { database } : {}),
});

describe('the tenant database card', () => {
  it('shows a SuperAdmin where the database lives and its size', async () => {
    fakeEntityServer('tenant', [tenant({ server: 'eu2', name: 'rinnova_t1', sizeBytes: 13_002_342 })]);
    fakeSelectServer('region', []);
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const card = await screen.findByRole('region', { name: 'Database del tenant' });
    expect(within(card).getByText('eu2')).toBeInTheDocument();
    expect(within(card).getByText('rinnova_t1')).toBeInTheDocument();
    expect(within(card).getByText('12,4 MB')).toBeInTheDocument();
  });

  it('says a tenant still in the control database is not separated yet', async () => {
    fakeEntityServer('tenant', [tenant({ server: 'control', name: 'rinnova', sizeBytes: null })]);
    fakeSelectServer('region', []);
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const card = await screen.findByRole('region', { name: 'Database del tenant' });
    expect(within(card).getByText('Server di controllo')).toBeInTheDocument();
    expect(within(card).getByText('Nel database di controllo (non ancora separato)')).toBeInTheDocument();
  });

  it('shows an Admin no card', async () => {
    fakeEntityServer('tenant', [tenant()]);
    fakeSelectServer('region', []);
    renderApp('/tenant/1', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('textbox', { name: 'Nome' })).toHaveValue('Acme S.r.l.');
    expect(screen.queryByRole('region', { name: 'Database del tenant' })).not.toBeInTheDocument();
  });

  it('writes sizes the Italian way', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1,5 kB');
    expect(formatBytes(1024 ** 3 * 2.25)).toBe('2,3 GB');
  });
});
