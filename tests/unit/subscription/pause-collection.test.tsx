/**
 * 'Sospendi incasso' / 'Riprendi ora' on /subscription/{id} (issue 30): the dialog sends the
 * periods and the entitlements chosen, shows the next charge it leads to, puts the server's field
 * errors on their fields; a paused subscription shows its range and resumes after confirming; a
 * NotActive one has nothing to pause.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { subscription, subscriptionServer } from './fixtures';

afterEach(() => vi.restoreAllMocks());
beforeEach(() => server.use(apiGet('subscription/charges/:id', () => ok([]))));

const PAUSED = {
  from: '2026-02-15T09:00:00Z',
  until: '2026-04-15T08:00:00Z',
  periods: 2,
  entitlements: 'suspend' as const,
};

describe('pause of collection', () => {
  it('pauses for the periods and entitlements chosen, previewing the next charge', async () => {
    subscriptionServer([subscription(9, 1)]);
    const sent: unknown[] = [];
    server.use(
      apiPost('subscription/pause/:id', async ({ request, params }) => {
        const body = await request.json();
        sent.push({ id: params.id, body });
        const n = (body as { periods: number }).periods;
        if (n === 3)
          return fail(400, 'Dati non validi.', null, ['periods: Indica un numero di periodi da 1 a 12']);
        return ok({ ...PAUSED, periods: n, entitlements: (body as { entitlements: string }).entitlements });
      }),
    );
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    const card = (await screen.findByRole('heading', { name: 'Incasso' }, { timeout: 10_000 })).closest(
      'section',
    )!;
    await user.click(within(card).getByRole('button', { name: 'Sospendi incasso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sospendi incasso' });
    // One period from 15/02/2026: the next charge 15/03/2026.
    expect(
      within(dialog).getByText('Nessun addebito dal 15/02/2026; prossimo addebito il 15/03/2026.'),
    ).toBeVisible();
    await user.selectOptions(within(dialog).getByLabelText('Periodi da sospendere'), '2');
    expect(
      within(dialog).getByText('Nessun addebito dal 15/02/2026; prossimo addebito il 15/04/2026.'),
    ).toBeVisible();

    // The server's field error goes on its field.
    await user.selectOptions(within(dialog).getByLabelText('Periodi da sospendere'), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Sospendi incasso' }));
    expect(await within(dialog).findByText('Indica un numero di periodi da 1 a 12')).toBeVisible();

    await user.selectOptions(within(dialog).getByLabelText('Periodi da sospendere'), '2');
    await user.click(within(dialog).getByRole('radio', { name: /Sospese/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Sospendi incasso' }));
    expect(await screen.findByText('Incasso sospeso: il prossimo addebito è il 15/04/2026.')).toBeVisible();
    expect(sent.at(-1)).toEqual({ id: '9', body: { periods: 2, entitlements: 'suspend' } });
    expect(screen.queryByRole('dialog', { name: 'Sospendi incasso' })).toBeNull();
  }, 30_000);

  it('shows a pause and resumes it after confirming', async () => {
    subscriptionServer([subscription(10, 1, { pause: PAUSED, nextBillingDate: PAUSED.until })]);
    const resumed: string[] = [];
    server.use(
      apiPost('subscription/resume/:id', ({ params }) => {
        resumed.push(String(params.id));
        return ok({ nextBillingDate: '2026-03-15T09:00:00Z' });
      }),
    );
    const { user } = renderApp('/subscription/10', { role: Role.Admin, tenantId: 1 });
    const card = (await screen.findByRole('heading', { name: 'Incasso' }, { timeout: 10_000 })).closest(
      'section',
    )!;
    expect(within(card).getByText('Nessun addebito dal 15/02/2026 al 15/04/2026.')).toBeVisible();
    expect(within(card).getByText('Funzionalità durante la sospensione: sospese')).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Riprendi ora' }));
    const dialog = await screen.findByRole('dialog', { name: 'Riprendere l’incasso ora?' });
    expect(resumed).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Riprendi ora' }));
    expect(await screen.findByText('Incasso ripreso: il prossimo addebito è il 15/03/2026.')).toBeVisible();
    expect(resumed).toEqual(['10']);
  }, 30_000);

  it('a NotActive subscription has nothing to pause', async () => {
    subscriptionServer([subscription(11, 2)]);
    renderApp('/subscription/11', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { name: 'Cronologia' }, { timeout: 10_000 });
    expect(screen.queryByRole('heading', { name: 'Incasso' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sospendi incasso' })).toBeNull();
  }, 30_000);
});
