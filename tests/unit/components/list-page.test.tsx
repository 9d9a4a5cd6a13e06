import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormPage } from '../../../src/components/form-page';
import { ListPage } from '../../../src/components/list-page';
import type { ResourceDef } from '../../../src/lib/resource';
import { apiGet, deferred, fail, ok, server } from '../msw/server';
import { fakeEntityServer, widget, widgetResource, type Widget } from './fixtures';
import { currentLocation, renderScreens } from './test-utils';

function renderList(
  resource: ResourceDef<Widget> = widgetResource,
  entries = ['/widget'],
  role: 1 | 2 | 3 = 1,
) {
  return renderScreens({
    entity: 'widget',
    list: <ListPage resource={resource} />,
    form: <FormPage resource={resource} />,
    entries,
    role,
  });
}

const table = () => screen.getByRole('table', { name: 'Lista di Widget' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const rowOf = (name: string) => within(table()).getByRole('cell', { name }).closest('tr') as HTMLElement;
const lastList = (calls: { list: URLSearchParams[] }) =>
  Object.fromEntries(calls.list[calls.list.length - 1]!.entries());

async function confirmDialog(button: 'Sì, elimina!' | 'Annulla') {
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('Sei sicuro?')).toBeInTheDocument();
  expect(within(dialog).getByText('Non potrai annullare questa operazione!')).toBeInTheDocument();
  within(dialog).getByRole('button', { name: button }).click();
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ListPage', () => {
  it('shows the title, the create link, 5 skeleton rows and 6 filter placeholders while loading', async () => {
    const hold = deferred();
    server.use(
      apiGet('widget/getAll', async () => {
        await hold.promise;
        return ok({ items: [widget(1)], totalCount: 1 });
      }),
    );
    const { user } = renderList();
    expect(screen.getByRole('heading', { level: 1, name: 'Lista di Widget' })).toBeInTheDocument();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    expect(screen.getAllByTestId('filter-placeholder')).toHaveLength(6);
    hold.resolve();
    expect(await screen.findByRole('cell', { name: 'Widget 1' })).toBeInTheDocument();
    expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0);
    expect(screen.getByPlaceholderText('Filtra per Nome')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Crea Nuovo Widget' }));
    expect(currentLocation()).toBe('/widget/new');
  });

  it('shows the empty message when there are no rows', async () => {
    fakeEntityServer<Widget>('widget', []);
    renderList();
    expect(await screen.findByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeInTheDocument();
  });

  it('draws each column type, and N/D for missing values', async () => {
    fakeEntityServer<Widget>('widget', [
      widget(1, {
        name: 'Completo',
        isActive: true,
        price: 12345.5,
        startDate: '2024-03-05T12:00:00Z',
        status: 1,
      }),
      widget(2, { name: 'Vuoto', isActive: null, price: null, startDate: null, status: null, owner: null }),
      widget(3, { name: 'Spento', isActive: false, price: '0.99', startDate: '2023-12-31', status: 2 }),
      widget(4, { name: 'Senza rinnovo', status: 3 }),
      widget(5, { name: 'Bonifico', status: 4 }),
    ]);
    renderList(widgetResource, ['/widget?pageSize=10']);
    await screen.findByRole('cell', { name: 'Completo' });

    const full = within(rowOf('Completo'));
    expect(full.getByText('Sì')).toHaveClass('badge');
    // Testing Library folds the no-break space before € into a plain space.
    expect(full.getByText('12.345,50 €')).toBeInTheDocument();
    expect(full.getByText('05/03/2024')).toBeInTheDocument();
    expect(full.getByText('Sottoscrizione attiva')).toHaveClass('bg-emerald-50');
    expect(full.getByText('Mario Rossi')).toBeInTheDocument();

    const empty = within(rowOf('Vuoto'));
    // bool, currency, dateTime, status and the nested owner.name all missing.
    expect(empty.getAllByText('N/D')).toHaveLength(5);

    const off = within(rowOf('Spento'));
    expect(off.getByText('No')).toHaveClass('badge');
    expect(off.getByText('0,99 €')).toBeInTheDocument();
    expect(off.getByText('31/12/2023')).toBeInTheDocument();
    expect(off.getByText('Sottoscrizione non attiva')).toHaveClass('bg-red-50');

    expect(within(rowOf('Senza rinnovo')).getByText('Attiva, ma senza rinnovo automatico')).toHaveClass(
      'bg-yellow-50',
    );
    expect(within(rowOf('Bonifico')).getByText('In attesa di bonifico bancario')).toHaveClass('bg-blue-50');
  });

  it('shows N/D for a cancelled (5) or unknown subscription status', async () => {
    fakeEntityServer<Widget>('widget', [
      widget(1, { name: 'Cancellata', status: 5 }),
      widget(2, { name: 'Strana', status: 9 }),
    ]);
    renderList();
    await screen.findByRole('cell', { name: 'Cancellata' });
    expect(within(rowOf('Cancellata')).getByText('N/D')).toBeInTheDocument();
    expect(within(rowOf('Strana')).getByText('N/D')).toBeInTheDocument();
    expect(screen.queryByText('Sottoscrizione Cancellata')).not.toBeInTheDocument();
  });

  it('selects and deselects every row with the select-all checkbox', async () => {
    fakeEntityServer<Widget>('widget', [widget(1), widget(2), widget(3)]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    const all = screen.getByRole('checkbox', { name: 'Seleziona tutte le righe' });
    const rowBoxes = () =>
      [1, 2, 3].map((id) => screen.getByRole('checkbox', { name: `Seleziona riga ${id}` }));

    await user.click(rowBoxes()[0]!);
    expect(all).not.toBeChecked();
    expect((all as HTMLInputElement).indeterminate).toBe(true);

    await user.click(all);
    rowBoxes().forEach((b) => expect(b).toBeChecked());
    expect(all).toBeChecked();
    expect(screen.getByText('3 elementi selezionati')).toBeInTheDocument();

    await user.click(all);
    rowBoxes().forEach((b) => expect(b).not.toBeChecked());
  });

  it('applies filters on Cerca: back to page 1, filters[...] sent, empty ones skipped', async () => {
    const { calls } = fakeEntityServer<Widget>(
      'widget',
      Array.from({ length: 12 }, (_, i) =>
        widget(i + 1, { name: i % 2 ? `Beta ${i + 1}` : `Alfa ${i + 1}`, isActive: i < 6 }),
      ),
    );
    const { user } = renderList(widgetResource, ['/widget?page=2']);
    await screen.findByRole('cell', { name: 'Alfa 7' });
    expect(lastList(calls)).toEqual({ page: '2', pageSize: '5' });

    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'alfa');
    await user.click(screen.getByRole('checkbox', { name: 'Filtra per Attivo' }));
    await user.click(screen.getByRole('button', { name: 'Cerca' }));

    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        page: '1',
        pageSize: '5',
        'filters[name]': 'alfa',
        'filters[isActive]': 'true',
      }),
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(screen.getByRole('cell', { name: 'Alfa 1' })).toBeInTheDocument();

    // Cerca again with the same criteria still refetches.
    const before = calls.list.length;
    await user.click(screen.getByRole('button', { name: 'Cerca' }));
    await waitFor(() => expect(calls.list.length).toBe(before + 1));
  });

  it('sends the free-text search as searchTerm', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [
      widget(1, { name: 'Uno' }),
      widget(2, { name: 'Due' }),
    ]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Uno' });
    await user.type(screen.getByRole('searchbox', { name: 'Ricerca libera' }), 'due{Enter}');
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '1', pageSize: '5', searchTerm: 'due' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Uno' })).not.toBeInTheDocument());
  });

  it('Resetta clears text to empty and booleans to false, and returns to page 1', async () => {
    const { calls } = fakeEntityServer<Widget>(
      'widget',
      Array.from({ length: 12 }, (_, i) => widget(i + 1)),
    );
    const { user } = renderList(widgetResource, [
      '/widget?page=2&filters[name]=Widget&filters[isActive]=true',
    ]);
    await screen.findByRole('cell', { name: 'Widget 6' });
    const name = screen.getByRole('textbox', { name: 'Nome' });
    const active = screen.getByRole('checkbox', { name: 'Filtra per Attivo' });
    expect(name).toHaveValue('Widget');
    expect(active).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Resetta' }));
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '1', pageSize: '5' }));
    expect(name).toHaveValue('');
    expect(active).not.toBeChecked();
    expect(await screen.findByRole('cell', { name: 'Widget 1' })).toBeInTheDocument();
  });

  it('changes page size with the Mostra: select (5, 10, 20) and refetches from page 1', async () => {
    const { calls } = fakeEntityServer<Widget>(
      'widget',
      Array.from({ length: 23 }, (_, i) => widget(i + 1)),
    );
    const { user } = renderList(widgetResource, ['/widget?page=3']);
    await screen.findByRole('cell', { name: 'Widget 11' });
    const size = screen.getByLabelText('Mostra:');
    expect(size.tagName).toBe('SELECT');
    expect(size).toHaveValue('5');
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['5', '10', '20']);

    await user.selectOptions(size, '10');
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '1', pageSize: '10' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    expect(screen.getByRole('button', { name: 'Vai alla pagina 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vai alla pagina 4' })).not.toBeInTheDocument();
  });

  it('paginates: ceil(totalCount / pageSize) pages, 1-based requests, Italian labels', async () => {
    const { calls } = fakeEntityServer<Widget>(
      'widget',
      Array.from({ length: 42 }, (_, i) => widget(i + 1)),
    );
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    const nav = screen.getByRole('navigation', { name: 'Paginazione' });
    expect(within(nav).getByRole('button', { name: 'Pagina 1, pagina corrente' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // 42 / 5 → 9 pages: margin 2 at the end shows 8 and 9, never a 10th.
    expect(within(nav).getByRole('button', { name: 'Vai alla pagina 9' })).toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Vai alla pagina 10' })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Pagina successiva' }));
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '2', pageSize: '5' }));
    expect(await screen.findByRole('cell', { name: 'Widget 6' })).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Vai alla pagina 9' }));
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '9', pageSize: '5' }));
    expect(await screen.findByRole('cell', { name: 'Widget 42' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByText('41–42 di 42')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Pagina precedente' }));
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '8', pageSize: '5' }));
  });

  it('says "oltre" for a capped count and keeps the next page reachable', async () => {
    server.use(
      apiGet('widget/getAll', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return ok({ items: [widget(page * 10)], totalCount: (page - 1) * 5 + 1000, totalCountCapped: true });
      }),
    );
    const { user } = renderList();
    expect(await screen.findByText('1–5 di oltre 1.000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Pagina successiva/ }));
    expect(await screen.findByText('6–10 di oltre 1.005')).toBeInTheDocument();
  });

  it('deletes a row after confirmation, then refetches', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1), widget(2)]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 2' });
    const fetches = calls.list.length;

    await user.click(within(rowOf('Widget 2')).getByRole('button', { name: 'Elimina' }));
    await confirmDialog('Sì, elimina!');

    await waitFor(() => expect(calls.deleted).toEqual(['2']));
    await waitFor(() => expect(calls.list.length).toBe(fetches + 1));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Widget 2' })).not.toBeInTheDocument());
    expect(screen.getByRole('cell', { name: 'Widget 1' })).toBeInTheDocument();
  });

  it('keeps the row when the confirmation is cancelled', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1)]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    await user.click(screen.getByRole('button', { name: 'Elimina' }));
    await confirmDialog('Annulla');
    expect(calls.deleted).toEqual([]);
    expect(screen.getByRole('cell', { name: 'Widget 1' })).toBeInTheDocument();
  });

  it('only logs a failed delete (no toast) unless the declaration asks for one', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiGet('widget/getAll', () => ok({ items: [widget(1)], totalCount: 1 })));
    const { apiDelete } = await import('../msw/server');
    server.use(
      apiDelete('widget/Delete/:id', () => fail(409, 'Impossibile eliminare: l’elemento è ancora in uso.')),
    );
    const { user, unmount } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    await user.click(screen.getByRole('button', { name: 'Elimina' }));
    await confirmDialog('Sì, elimina!');
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    unmount();

    const withToast = { ...widgetResource, messages: { deleteFailed: (e: string) => `Problema: ${e}` } };
    const second = renderList(withToast);
    await screen.findByRole('cell', { name: 'Widget 1' });
    await second.user.click(screen.getByRole('button', { name: 'Elimina' }));
    await confirmDialog('Sì, elimina!');
    expect(
      await screen.findByText('Problema: Impossibile eliminare: l’elemento è ancora in uso.'),
    ).toBeInTheDocument();
  });

  it('only logs a failed list load', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiGet('widget/getAll', () => fail(500, 'Si è verificato un errore interno. Riprova più tardi.')),
    );
    renderList();
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(await screen.findByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('edit links go to /{entity}/{id}', async () => {
    fakeEntityServer<Widget>('widget', [widget(7)]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 7' });
    await user.click(screen.getByRole('link', { name: 'Modifica' }));
    expect(currentLocation()).toBe('/widget/7');
  });

  it('deletes the selected rows with one confirmation that says how many', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1), widget(2), widget(3)]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    await user.click(screen.getByRole('checkbox', { name: 'Seleziona riga 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Seleziona riga 3' }));
    expect(screen.getByText('2 elementi selezionati')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elimina selezionati' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Verranno eliminati 2 elementi. Non potrai annullare questa operazione!'),
    ).toBeInTheDocument();
    within(dialog).getByRole('button', { name: 'Sì, elimina!' }).click();
    await waitFor(() => expect(calls.deleted).toEqual(['1', '3']));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Widget 1' })).not.toBeInTheDocument());
    expect(screen.getByRole('cell', { name: 'Widget 2' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Elimina selezionati' })).not.toBeInTheDocument();
  });

  it('shows no selection checkboxes where nothing can be done with a selection (read-only roles)', async () => {
    fakeEntityServer<Widget>('widget', [widget(1)]);
    renderList(widgetResource, ['/widget'], 3);
    await screen.findByRole('cell', { name: 'Widget 1' });
    expect(within(table()).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('hides create, edit and delete from roles the declaration does not allow', async () => {
    fakeEntityServer<Widget>('widget', [widget(1)]);
    renderList(widgetResource, ['/widget'], 3);
    await screen.findByRole('cell', { name: 'Widget 1' });
    expect(screen.queryByRole('link', { name: 'Crea Nuovo Widget' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Modifica' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Elimina' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Azioni' })).not.toBeInTheDocument();
  });

  it('shows custom row actions as icon buttons with their Italian label', async () => {
    fakeEntityServer<Widget>('widget', [widget(1), widget(2, { status: 2 })]);
    const onClick = vi.fn();
    const { user } = renderScreens({
      entity: 'widget',
      list: (
        <ListPage
          resource={widgetResource}
          rowActions={[
            { label: 'Genera link di pagamento', icon: '€', onClick, hidden: (r) => r.status !== 2 },
          ]}
        />
      ),
      form: <p />,
      entries: ['/widget'],
    });
    await screen.findByRole('cell', { name: 'Widget 2' });
    expect(screen.getAllByRole('button', { name: 'Genera link di pagamento' })).toHaveLength(1);
    await user.click(within(rowOf('Widget 2')).getByRole('button', { name: 'Genera link di pagamento' }));
    expect(onClick).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
  });
});
