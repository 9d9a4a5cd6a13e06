/**
 * The subscription's payments show their collection (issue 29): the due date, the state in words
 * ('Incassato' when paid on time, 'Recuperato' when paid late) and 'Storico incasso', the dialog
 * with each move of the collection and who made it, read from `GET api/collection/payment/{id}`.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { CollectionEvent } from '../../../contract/schemas/collection';
import { renderApp } from '../app/harness';
import { apiGet, fail, ok, server } from '../msw/server';
import { payment, subscription, subscriptionServer } from './fixtures';

const late = payment({
  id: 601,
  causale: 'RNV-1-601',
  method: 'bankTransfer',
  dueDate: '2026-02-15',
  paidAt: '2026-02-27T10:00:00Z',
  collectionStatus: 'recovered',
});
const onTime = payment({ id: 600, causale: 'RNV-1-600', paidAt: '2026-01-15T09:00:00Z', method: 'stripe' });

const events: CollectionEvent[] = [
  {
    id: 1,
    kind: 'due',
    step: null,
    actor: { kind: 'system', name: 'dunning' },
    note: 'Scadenza superata senza pagamento',
    at: '2026-02-16T09:00:00Z',
  },
  {
    id: 2,
    kind: 'reminder',
    step: 1,
    actor: { kind: 'system', name: null },
    note: 'Giorno 3',
    at: '2026-02-18T09:00:00Z',
  },
  {
    id: 3,
    kind: 'markedPaid',
    step: null,
    actor: { kind: 'user', name: 'Anna Admin' },
    note: 'CRO 1234',
    at: '2026-02-27T10:00:00Z',
  },
  {
    id: 4,
    kind: 'recovered',
    step: null,
    actor: { kind: 'user', name: 'Anna Admin' },
    note: null,
    at: '2026-02-27T10:00:00Z',
  },
];

describe('the payments of a subscription', () => {
  it('show the due date and the collection in words; Storico incasso lists each move with who made it', async () => {
    subscriptionServer([subscription(9, 3, { payments: [onTime, late] })]);
    const asked: string[] = [];
    server.use(
      apiGet('collection/payment/:id', ({ params }) => {
        asked.push(String(params.id));
        return String(params.id) === '601'
          ? ok({ dueDate: '2026-02-15', collectionStatus: 'recovered', events })
          : fail(404, 'Elemento non trovato.');
      }),
    );
    renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Pagamenti' }, { timeout: 10_000 });
    const rowOf = (causale: string) => within(table).getByRole('cell', { name: causale }).closest('tr')!;
    expect(within(rowOf('RNV-1-600')).getByRole('cell', { name: 'Incassato' })).toBeInTheDocument();
    const lateRow = rowOf('RNV-1-601');
    expect(within(lateRow).getByRole('cell', { name: '15/02/2026' })).toBeInTheDocument();
    expect(within(lateRow).getByRole('cell', { name: 'Recuperato' })).toBeInTheDocument();

    await userEvent.click(within(lateRow).getByRole('button', { name: 'Storico incasso: RNV-1-601' }));
    const dialog = await screen.findByRole('dialog', { name: 'Storico incasso di RNV-1-601' });
    const list = await within(dialog).findByRole('list', { name: 'Eventi dell’incasso' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toHaveLength(4);
    expect(items[0]).toContain('In scadenza');
    expect(items[1]).toContain('Sollecito inviato · sollecito 2 della scala');
    expect(items[1]).toContain('Sistema (solleciti automatici)');
    expect(items[2]).toContain('Segnato come pagato');
    expect(items[2]).toContain('CRO 1234');
    expect(items[2]).toContain('Amministratore: Anna Admin');
    expect(items[3]).toContain('Incassato in ritardo');
    expect(dialog).toHaveTextContent('In scadenza il 15/02/2026');
    expect(asked).toEqual(['601']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Chiudi' })); // the dialog's own close
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  }, 20_000);

  it('a history that cannot be read says so in the dialog', async () => {
    subscriptionServer([subscription(9, 3, { payments: [late] })]);
    server.use(apiGet('collection/payment/:id', () => fail(500, 'Errore')));
    renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Storico incasso: RNV-1-601' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Storico incasso di RNV-1-601' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Non è stato possibile caricare lo storico dell’incasso.',
    );
  }, 20_000);
});
