import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { CollectionFigures } from '../../../contract/schemas/collection';
import { renderApp } from '../app/harness';
import { apiGet, emptyDashboardSummary, ok, server } from '../msw/server';

const busyTenant = {
  ...emptyDashboardSummary,
  mrrCents: 120_000,
  activeSubscriptions: 12,
  hasPlans: true,
  hasSubscriptions: true,
};

const figures: CollectionFigures = {
  overdue: { count: 3, amount: 366 },
  recoveredThisMonth: { count: 2, amount: 146.4, rate: 40 },
};

describe('dashboard: Incassi (issue 29)', () => {
  it('shows the overdue amount and count, and what was recovered this month with its rate', async () => {
    server.use(apiGet('dashboard/summary', () => ok({ ...busyTenant, collection: figures })));
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    const card = await screen.findByRole('region', { name: 'Incassi' });
    const overdue = within(card).getByText('In ritardo').parentElement!;
    expect(overdue).toHaveTextContent('366,00 €');
    expect(overdue).toHaveTextContent('3 pagamenti');
    const recovered = within(card).getByText('Recuperati questo mese').parentElement!;
    expect(recovered).toHaveTextContent('146,40 €');
    expect(recovered).toHaveTextContent('2 pagamenti');
    expect(recovered).toHaveTextContent('Tasso di recupero 40,0 %');
    expect(within(card).getByRole('link', { name: /Incassi in sospeso/ })).toHaveAttribute(
      'href',
      '/collection',
    );
  });

  it('a rate the server cannot tell reads —', async () => {
    server.use(
      apiGet('dashboard/summary', () =>
        ok({
          ...busyTenant,
          collection: {
            overdue: { count: 0, amount: 0 },
            recoveredThisMonth: { count: 0, amount: 0, rate: null },
          },
        }),
      ),
    );
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    const card = await screen.findByRole('region', { name: 'Incassi' });
    expect(card).toHaveTextContent('Tasso di recupero —');
    expect(card).toHaveTextContent('0 pagamenti');
  });

  it('no card when the summary has no collection figures', async () => {
    server.use(apiGet('dashboard/summary', () => ok(busyTenant)));
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByText('Abbonamenti attivi')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Incassi' })).not.toBeInTheDocument();
  });
});
