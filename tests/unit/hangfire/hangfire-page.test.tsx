/** /hangfire (SuperAdmin): the engine's counters as cards, recent jobs with state badges and errors, retry, empty state. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, ok, recordRequests, server } from '../msw/server';

const tenants = apiGet('tenant/getAll', () => ok({ items: [{ id: 1, name: 'Demo Srl' }], totalCount: 1 }));
const stats = {
  enqueued: 2,
  scheduled: 1,
  processing: 0,
  succeeded: 37,
  failed: 1,
  retrying: 1,
  recurring: 4,
};
const failed = {
  id: '11111111-1111-4111-8111-111111111111',
  key: 'paypal-sync',
  label: 'Sincronizzazione PayPal',
  args: { tenantId: 1 },
  enqueuedAt: '2026-03-15T09:00:00.000Z',
  state: 'failed',
  error: 'PayPal non raggiungibile',
  retryCount: 3,
  retryLimit: 3,
};
const succeeded = {
  id: '22222222-2222-4222-8222-222222222222',
  key: 'webhook-deliveries',
  label: 'Invio dei webhook in uscita',
  args: {},
  enqueuedAt: '2026-03-15T08:05:00.000Z',
  state: 'succeeded',
  error: null,
  retryCount: 0,
  retryLimit: 3,
};

describe('/hangfire', () => {
  it('shows the counters as cards and the recent jobs with their state and error', async () => {
    server.use(
      tenants,
      apiGet('hangfire/stats', () => ok(stats)),
      apiGet('hangfire/recent', () => ok([failed, succeeded])),
      apiGet('hangfire/recurring', () =>
        ok([
          {
            key: 'paypal-sync',
            label: 'Sincronizzazione PayPal',
            cron: '30 2 * * *',
            timeZone: 'Europe/Rome',
          },
        ]),
      ),
    );
    renderApp('/hangfire', { role: Role.SuperAdmin, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { name: 'Status aggiornamento subscription' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('counter-enqueued')).toHaveTextContent('2');
    expect(screen.getByTestId('counter-succeeded')).toHaveTextContent('37');
    expect(screen.getByTestId('counter-failed')).toHaveTextContent('1');
    expect(screen.getByTestId('counter-recurring')).toHaveTextContent('4');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Sincronizzazione PayPal')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Tenant 1')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Fallito')).toHaveClass('text-red-700');
    expect(within(rows[0]!).getByText('PayPal non raggiungibile')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('15/03/2026, 10:00:00')).toBeInTheDocument();
    // The Italian name the server gives each job, its internal name small below it (issue 31).
    expect(within(rows[1]!).getByText('Invio dei webhook in uscita')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('webhook-deliveries')).toHaveClass('text-xs');
    expect(within(rows[1]!).getByText('Riuscito')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Tutti i tenant')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: 'Riprova' })).not.toBeInTheDocument();
    expect(screen.getByText('30 2 * * * (Europe/Rome)')).toBeInTheDocument();
  });

  it('retries a failed job and refreshes', async () => {
    let retried = false;
    server.use(
      tenants,
      apiGet('hangfire/stats', () => ok(stats)),
      apiGet('hangfire/recent', () => ok([retried ? { ...failed, state: 'enqueued', error: null } : failed])),
      apiPost(`hangfire/retry/${failed.id}`, () => {
        retried = true;
        return ok({ id: failed.id }, 'Job rimesso in coda.');
      }),
    );
    const calls = recordRequests();
    const { user } = renderApp('/hangfire', { role: Role.SuperAdmin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Riprova' }));
    expect(await screen.findByText('Job rimesso in coda.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('In coda', { selector: 'span' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Riprova' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => new URL(c.url).pathname)).toEqual([
      `/api/hangfire/retry/${failed.id}`,
    ]);
  });

  it('says so when nothing has run yet', async () => {
    server.use(tenants);
    renderApp('/hangfire', { role: Role.SuperAdmin, tenantId: 1 });
    expect(await screen.findByText('Nessun job eseguito finora')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('is closed to an Admin (no call is made)', async () => {
    const calls = recordRequests();
    renderApp('/hangfire', { role: Role.Admin, tenantId: 1 });
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: 'Status aggiornamento subscription' }),
      ).not.toBeInTheDocument(),
    );
    expect(calls.some((c) => c.url.includes('hangfire'))).toBe(false);
  });
});
