import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { currentUrl, renderApp } from '../app/harness';
import { HttpResponse } from 'msw';
import { apiGet, apiPost, server } from '../msw/server';
import { collectionServer, fail, overdueList } from './collection-fixtures';

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

afterEach(() => vi.restoreAllMocks());

/** The table once its rows are drawn (skeleton rows first). */
async function table() {
  await screen.findAllByText('Mario Rossi');
  return screen.getByRole('table', { name: 'Incassi in sospeso' });
}

describe('Incassi in sospeso (/collection, Admin)', () => {
  it('shows the buckets with count and amount, the total, and the overdue payments', async () => {
    collectionServer();
    renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Incassi in sospeso' })).toBeInTheDocument();
    const buckets = await screen.findByRole('region', { name: 'Pagamenti in ritardo per età' });
    const eight = within(buckets).getByRole('button', { name: /8–30 giorni/ });
    expect(eight).toHaveTextContent('122,00 €');
    expect(eight).toHaveTextContent('1 pagamento');
    expect(within(buckets).getByRole('button', { name: /0–7 giorni/ })).toHaveTextContent('0 pagamenti');
    expect(within(buckets).getByRole('button', { name: /Oltre 60 giorni/ })).toHaveTextContent('24,40 €');
    expect(within(buckets).getByText('Totale in sospeso').parentElement).toHaveTextContent('146,40 €');

    const t = await table();
    const headers = within(t)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Cliente',
      'Piano',
      'Importo',
      'Scadenza',
      'Giorni di ritardo',
      'Sollecito',
      'Ultimo sollecito',
      'Metodo',
      'Azioni',
    ]);
    const row = within(t).getByText('Mario Rossi').closest('tr')!;
    expect(row).toHaveTextContent('Professional');
    expect(row).toHaveTextContent('01/03/2026');
    expect(row).toHaveTextContent('12');
    expect(row).toHaveTextContent('2 di 4');
    expect(row).toHaveTextContent('Bonifico');
    // A nameless customer reads by e-mail.
    const other = within(t).getByText('bianchi@example.it').closest('tr')!;
    expect(other).toHaveTextContent('4 di 4');
    expect(other).toHaveTextContent('Carta (Stripe)');
    expect(within(row).getByRole('link', { name: 'Apri la sottoscrizione' })).toHaveAttribute(
      'href',
      '/subscription/7',
    );
  });

  it('a bucket card filters the list (filters[bucket]) and a second click shows all again', async () => {
    const calls = collectionServer();
    const { user, router } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    await table();
    const card = screen.getByRole('button', { name: /Oltre 60 giorni/ });
    expect(card).toHaveAttribute('aria-pressed', 'false');
    await user.click(card);
    await waitFor(() => expect(calls.overdue.at(-1)?.get('filters[bucket]')).toBe('60+'));
    expect(currentUrl(router)).toBe('/collection?bucket=60%2B');
    await waitFor(() => expect(screen.queryByText('Mario Rossi')).not.toBeInTheDocument());
    expect(screen.getByText('bianchi@example.it')).toBeInTheDocument();
    expect(card).toHaveAttribute('aria-pressed', 'true');
    // The applied filter shows beside the search, and takes itself away.
    expect(screen.getByRole('button', { name: 'Togli il filtro Oltre 60 giorni' })).toBeInTheDocument();

    await user.click(card);
    // The whole list again (from the cache or a new request without the filter).
    await waitFor(() => expect(currentUrl(router)).toBe('/collection'));
    expect(await screen.findByText('Mario Rossi')).toBeInTheDocument();
  });

  it('the search sends searchTerm', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    await table();
    await user.type(screen.getByRole('searchbox', { name: 'Cerca cliente o piano' }), 'rossi');
    await user.click(screen.getByRole('button', { name: 'Cerca' }));
    await waitFor(() => expect(calls.overdue.at(-1)?.get('searchTerm')).toBe('rossi'));
  });

  it('Sollecita ora posts the reminder and toasts the server’s message', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    const row = within(await table())
      .getByText('Mario Rossi')
      .closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Sollecita ora' }));
    expect(await screen.findByText('Sollecito inviato a mario.rossi@example.it.')).toBeInTheDocument();
    expect(calls.reminded).toEqual(['41']);
  });

  it('Sollecita ora refused (409): the server’s reason is the toast', async () => {
    collectionServer();
    server.use(apiPost('collection/remind/:id', () => fail(409, 'Il pagamento risulta già incassato.')));
    const { user } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    const row = within(await table())
      .getByText('Mario Rossi')
      .closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Sollecita ora' }));
    expect(await screen.findByText('Il pagamento risulta già incassato.')).toBeInTheDocument();
  });

  it('Segna come pagato: amount prefilled, Italian errors and nothing sent while invalid, then the POST', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    const row = within(await table())
      .getByText('Mario Rossi')
      .closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Segna come pagato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Segna come pagato' });
    const amount = within(dialog).getByLabelText(/Importo ricevuto/);
    expect(amount).toHaveValue('122,00');
    const date = within(dialog).getByLabelText(/Data del bonifico/);
    expect((date as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await user.clear(amount);
    await user.clear(date);
    await user.click(within(dialog).getByRole('button', { name: 'Segna come pagato' }));
    expect(await within(dialog).findByText('Importo non valido')).toBeInTheDocument();
    expect(within(dialog).getByText('Data obbligatoria')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(calls.markPaid).toHaveLength(0);

    await user.type(amount, '120,50');
    await user.type(date, '2026-03-10');
    await user.type(within(dialog).getByLabelText(/Nota/), 'CRO 123');
    await user.click(within(dialog).getByRole('button', { name: 'Segna come pagato' }));
    expect(await screen.findByText('Pagamento registrato: fattura emessa.')).toBeInTheDocument();
    expect(calls.markPaid).toEqual([
      { id: '41', body: { amount: 120.5, approvalDate: '2026-03-10', note: 'CRO 123' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('Segna come pagato: the server’s field error shows on its field', async () => {
    collectionServer(overdueList, undefined, {
      markPaidFailure: () => fail(400, 'Dati non validi', null, ['amount: L’importo supera quanto dovuto.']),
    });
    const { user } = renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    const row = within(await table())
      .getByText('Mario Rossi')
      .closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Segna come pagato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Segna come pagato' });
    await user.click(within(dialog).getByRole('button', { name: 'Segna come pagato' }));
    expect(await within(dialog).findByText('L’importo supera quanto dovuto.')).toBeInTheDocument();
  });

  it('at 390 px the payments are stacked cards with their actions', async () => {
    phoneScreen(true);
    collectionServer();
    renderApp('/collection', { role: Role.Admin, tenantId: 1 });
    await screen.findByText('Mario Rossi');
    const list = screen.getByRole('list', { name: 'Incassi in sospeso' });
    const card = within(list).getByText('Mario Rossi').closest('li')!;
    expect(card).toHaveTextContent('Giorni di ritardo');
    expect(card).toHaveTextContent('2 di 4');
    expect(within(card).getByRole('button', { name: 'Sollecita ora' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('Esporta sends the bucket and the search to collection/overdue/export, without paging', async () => {
    collectionServer();
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const exports: URLSearchParams[] = [];
    server.use(
      apiGet('collection/overdue/export', ({ request }) => {
        exports.push(new URL(request.url).searchParams);
        return new HttpResponse('\uFEFFCliente;Importo\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="incassi-in-sospeso-demo-srl.csv"',
          },
        });
      }),
    );
    const { user } = renderApp('/collection?bucket=8-30&q=rossi&page=1', { role: Role.Admin, tenantId: 1 });
    await table();
    await user.click(screen.getByRole('button', { name: 'Esporta' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV' }));
    await waitFor(() => expect(saved).toEqual(['incassi-in-sospeso-demo-srl.csv']));
    expect(Object.fromEntries(exports[0]!.entries())).toEqual({
      'filters[bucket]': '8-30',
      searchTerm: 'rossi',
      format: 'csv',
    });
  });

  it('a User does not reach it', async () => {
    renderApp('/collection', { role: Role.User, tenantId: 1 });
    expect((await screen.findAllByText('Pagina non trovata')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('heading', { name: 'Incassi in sospeso' })).not.toBeInTheDocument();
  });
});
