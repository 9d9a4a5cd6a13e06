import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { currentUrl, renderApp } from '../app/harness';
import { payment, rowOf, subscription, subscriptionServer } from '../subscription/fixtures';

function rows() {
  return [
    subscription(1, 1, {
      payments: [payment({ id: 601, dueDate: '2026-03-01', collectionStatus: 'overdue' })],
    }),
    subscription(2, 1, {
      payments: [payment({ id: 602, dueDate: '2026-03-01', collectionStatus: 'recovered' })],
    }),
    // A payment as older servers send it: no collection fields at all.
    subscription(3, 1, { payments: [payment({ id: 603 })] }),
  ];
}

describe('subscription list: In ritardo (issue 29)', () => {
  it('marks beside the status badge the subscriptions with an overdue payment, and only those', async () => {
    subscriptionServer(rows());
    renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    const late = await rowOf('Cliente 1');
    expect(within(late).getByText('Sottoscrizione attiva')).toBeInTheDocument();
    expect(within(late).getByText('In ritardo')).toBeInTheDocument();
    expect(within(await rowOf('Cliente 2')).queryByText('In ritardo')).not.toBeInTheDocument();
    expect(within(await rowOf('Cliente 3')).queryByText('In ritardo')).not.toBeInTheDocument();
  });

  it('Solo in ritardo sends filters[overdue]=true, Resetta takes it away', async () => {
    const { calls } = subscriptionServer(rows());
    const { user, router } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await rowOf('Cliente 1');
    await user.click(screen.getByRole('checkbox', { name: 'Solo in ritardo' }));
    await user.click(screen.getByRole('button', { name: 'Cerca' }));
    await waitFor(() => expect(calls.list.at(-1)?.get('filters[overdue]')).toBe('true'));
    expect(currentUrl(router)).toBe('/subscription?filters%5Boverdue%5D=true');
    await user.click(screen.getByRole('button', { name: 'Resetta' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/subscription'));
    expect(screen.getByRole('checkbox', { name: 'Solo in ritardo' })).not.toBeChecked();
  });

  it('the detail page shows the marker beside the status', async () => {
    subscriptionServer(rows());
    renderApp('/subscription/1', { role: Role.Admin, tenantId: 1 });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Modifica Sottoscrizione' });
    await waitFor(() => expect(heading.parentElement).toHaveTextContent('In ritardo'));
  });
});
