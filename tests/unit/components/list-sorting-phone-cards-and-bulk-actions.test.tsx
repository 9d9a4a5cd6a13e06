import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormPage } from '../../../src/components/form-page';
import { ListPage } from '../../../src/components/list-page';
import { rowsToCsv } from '../../../src/lib/export-csv';
import { defineResource, type ResourceDef } from '../../../src/lib/resource';
import { apiGet, ok, server } from '../msw/server';
import { fakeEntityServer, widget, widgetResource, type Widget } from './fixtures';
import { currentLocation, renderScreens } from './test-utils';

/** The widget list with sortable name and price, and a VAT percentage column. */
const sortableWidgets: ResourceDef<Widget> = defineResource<Widget>({
  ...widgetResource,
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'price', name: 'Prezzo', type: 'currency', sortable: true },
    { key: 'vat', name: 'IVA', type: 'percent' },
    { key: 'owner.name', name: 'Proprietario', sortable: 'owner' },
  ],
});

function renderList(entries: string[] = ['/widget'], resource = sortableWidgets, role: 1 | 3 = 1) {
  return renderScreens({
    entity: 'widget',
    list: <ListPage resource={resource} />,
    form: <FormPage resource={resource} />,
    entries,
    role,
  });
}

function phoneScreen(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: matches && query.includes('max-width'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

const lastList = (calls: { list: URLSearchParams[] }) =>
  Object.fromEntries(calls.list[calls.list.length - 1]!.entries());

afterEach(() => vi.restoreAllMocks());

describe('sorting by a column header (server-side, kept in the URL)', () => {
  it('ascending, descending, then the natural order; sent as sort=…, back to page 1', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1), widget(2)]);
    const { user } = renderList(['/widget?page=2']);
    await screen.findByRole('cell', { name: 'Widget 1' });
    const header = screen.getByRole('columnheader', { name: 'Nome' });
    expect(header).toHaveAttribute('aria-sort', 'none');
    // Only the declared columns sort.
    expect(screen.getByRole('columnheader', { name: 'IVA' })).not.toHaveAttribute('aria-sort');
    expect(within(screen.getByRole('columnheader', { name: 'IVA' })).queryByRole('button')).toBeNull();

    await user.click(within(header).getByRole('button', { name: 'Nome' }));
    await waitFor(() => expect(currentLocation()).toBe('/widget?sort=name'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ page: '1', sort: 'name' }));
    expect(screen.getByRole('columnheader', { name: 'Nome' })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(screen.getByRole('columnheader', { name: 'Nome' })).getByRole('button'));
    await waitFor(() => expect(currentLocation()).toBe('/widget?sort=-name'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: '-name' }));
    expect(screen.getByRole('columnheader', { name: 'Nome' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(within(screen.getByRole('columnheader', { name: 'Nome' })).getByRole('button'));
    await waitFor(() => expect(currentLocation()).toBe('/widget'));
    await waitFor(() => expect(lastList(calls)).not.toHaveProperty('sort'));
  });

  it('reads the order from the URL (a column with its own server key), and ignores one that does not sort', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1)]);
    renderList(['/widget?sort=-owner']);
    await screen.findByRole('cell', { name: 'Widget 1' });
    expect(lastList(calls)).toMatchObject({ sort: '-owner' });
    expect(screen.getByRole('columnheader', { name: 'Proprietario' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('a hand-edited sort on a column that does not sort is not sent', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1)]);
    renderList(['/widget?sort=vat']);
    await screen.findByRole('cell', { name: 'Widget 1' });
    expect(lastList(calls)).not.toHaveProperty('sort');
  });
});

describe('amounts and percentages the Italian way', () => {
  it('EUR and percent columns are right-aligned with tabular figures: 49,50 € and 22,00 %', async () => {
    server.use(
      apiGet('widget/getAll', () => ok({ items: [{ ...widget(1), price: 49.5, vat: 22 }], totalCount: 1 })),
    );
    renderList();
    const price = await screen.findByRole('cell', { name: /49,50\s€/ });
    expect(price).toHaveClass('text-right', 'tabular-nums');
    const vat = screen.getByRole('cell', { name: /22,00\s%/ });
    expect(vat).toHaveClass('text-right');
    expect(screen.getByRole('columnheader', { name: 'Prezzo' })).toHaveClass('text-right');
  });
});

describe('on a phone (< 640 px): stacked cards', () => {
  it('the first column is the title, the others labelled rows, actions in reach; no table; sort by a select', async () => {
    phoneScreen(true);
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1, { name: 'Ingranaggio' })]);
    const { user } = renderList();
    const list = await screen.findByRole('list', { name: 'Lista di Widget' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const card = (await within(list).findByText('Ingranaggio')).closest('li') as HTMLElement;
    expect(within(card).getByText('Prezzo').tagName).toBe('DT');
    expect(within(card).getByText('Mario Rossi').closest('dd')).not.toBeNull();
    const actions = within(card).getByRole('group', { name: "Azioni per l'elemento 1" });
    expect(within(actions).getByRole('link', { name: 'Modifica' })).toBeInTheDocument();
    expect(within(actions).getByRole('button', { name: 'Elimina' })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Ordina per' }), '-price');
    await waitFor(() => expect(currentLocation()).toBe('/widget?sort=-price'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: '-price' }));
  });
});

describe('empty results', () => {
  it("after a filter: the spec's empty text, the hint below it, and Resetta, which clears the criteria (issue 31)", async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(1)]);
    const { user } = renderList(['/widget?filters%5Bname%5D=zzz']);
    expect(await screen.findByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeInTheDocument();
    expect(
      screen.getByText('Nessun risultato con questi filtri: prova a cambiare i criteri o azzera i filtri.'),
    ).toBeInTheDocument();
    const table = screen.getByRole('table');
    await user.click(within(table).getByRole('button', { name: 'Resetta' }));
    await waitFor(() => expect(currentLocation()).toBe('/widget'));
    await waitFor(() => expect(lastList(calls)).toEqual({ page: '1', pageSize: '5' }));
    expect(await screen.findByRole('cell', { name: 'Widget 1' })).toBeInTheDocument();
  });

  it('without criteria: the spec’s empty text', async () => {
    fakeEntityServer<Widget>('widget', []);
    renderList();
    expect(await screen.findByText('Ancora niente qui ¯\\_(ツ)_/¯')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).queryByRole('button', { name: 'Resetta' })).not.toBeInTheDocument();
  });
});

describe('bulk actions and the delete dialog', () => {
  it('exports the selected rows as CSV (Italian formats, ; separated)', async () => {
    fakeEntityServer<Widget>('widget', [widget(1, { price: 49.5 }), widget(2), widget(3)]);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Widget 1' });
    expect(screen.queryByRole('button', { name: 'Esporta selezionati (CSV)' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Seleziona riga 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Seleziona riga 3' }));
    await user.click(screen.getByRole('button', { name: 'Esporta selezionati (CSV)' }));
    expect(click).toHaveBeenCalledTimes(1);
    const text = await created[0]!.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .replaceAll('\u00a0', ' ')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Nome;Prezzo;IVA;Proprietario');
    expect(lines.slice(1)).toEqual(['Widget 1;49,50 €;;Mario Rossi', 'Widget 3;10,00 €;;Mario Rossi']);
  });

  it('rowsToCsv quotes separators and neutralises formulas', () => {
    const csv = rowsToCsv([{ key: 'name', name: 'Nome' }], [{ name: 'a;b "c"' }, { name: '=SUM(A1)' }]);
    expect(csv).toBe('\uFEFFNome\r\n"a;b ""c"""\r\n\'=SUM(A1)\r\n');
  });

  it('the delete dialog names what will be deleted; its close button has an Italian name', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(4, { name: 'Ingranaggio' })]);
    const { user } = renderList();
    await screen.findByRole('cell', { name: 'Ingranaggio' });
    await user.click(screen.getByRole('button', { name: 'Elimina' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Sei sicuro?')).toBeInTheDocument();
    expect(within(dialog).getByText('Widget «Ingranaggio»')).toBeInTheDocument();
    expect(within(dialog).getByText(/Stai per eliminare/)).toBeInTheDocument();
    expect(within(dialog).getByText('Non potrai annullare questa operazione!')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Chiudi questa finestra' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
    within(dialog).getByRole('button', { name: 'Annulla' }).click();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.deleted).toEqual([]);
  });
});

describe('after a save: back to the list it came from', () => {
  it('edit from page 2 of a filtered, sorted list → back to exactly that list', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => widget(i + 1));
    const { calls } = fakeEntityServer<Widget>('widget', rows);
    const start = '/widget?page=2&sort=-name';
    const { user } = renderList(['/other', start]);
    await screen.findByRole('cell', { name: 'Widget 6' });
    const row = screen.getByRole('cell', { name: 'Widget 6' }).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('link', { name: 'Modifica' }));
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('Widget 6'));
    await user.type(name, ' bis');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    await waitFor(() => expect(currentLocation()).toBe(start));
  });

  it('a form opened with an unrelated page before it goes to its own list, not to that page', async () => {
    fakeEntityServer<Widget>('widget', [widget(3)]);
    const { user } = renderList(['/unrelated', '/widget/3']);
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('Widget 3'));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(currentLocation()).toBe('/widget'));
  });

  it('create from the list → back to the list with its criteria', async () => {
    fakeEntityServer<Widget>('widget', [widget(1)]);
    const { user } = renderList(['/widget?filters%5Bname%5D=Widget']);
    await screen.findByRole('cell', { name: 'Widget 1' });
    await user.click(screen.getByRole('link', { name: 'Crea Nuovo Widget' }));
    await user.type(await screen.findByRole('textbox', { name: 'Nome' }), 'Widget nuovo');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() => expect(currentLocation()).toBe('/widget?filters%5Bname%5D=Widget'));
  });
});
