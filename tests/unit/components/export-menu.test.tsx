/**
 * 'Esporta' on the shared list screen (issue 14): CSV or Excel of the list as it is filtered,
 * searched and sorted (every page: no paging sent), saved under the server's file name, a
 * progress indicator while the file downloads, an Italian toast when it fails.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportMessages } from '../../../contract/messages';
import { FormPage } from '../../../src/components/form-page';
import { ListPage } from '../../../src/components/list-page';
import { apiGet, deferred, fail, server } from '../msw/server';
import { fakeEntityServer, widget, widgetResource } from './fixtures';
import { paramsOf, renderScreens } from './test-utils';

let saved: string[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

function renderList(entries: string[]) {
  fakeEntityServer('widget', [widget(1, { name: 'Alfa' }), widget(2, { name: 'Beta', isActive: false })]);
  return renderScreens({
    entity: 'widget',
    list: <ListPage resource={widgetResource} />,
    form: <FormPage resource={widgetResource} />,
    entries,
  });
}

describe('Esporta (list screens)', () => {
  it('sends the applied search and filters without paging; saves the server file; shows progress', async () => {
    const requests: Request[] = [];
    const gate = deferred();
    server.use(
      apiGet('widget/export', async ({ request }) => {
        requests.push(request);
        await gate.promise;
        return new HttpResponse('\uFEFFNome;Attivo\r\nAlfa;Sì\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="widget-demo-srl-2026-11-22.csv"',
          },
        });
      }),
    );
    const { user } = renderList(['/widget?page=2&pageSize=10&q=alf&filters[isActive]=true']);
    const button = await screen.findByRole('button', { name: 'Esporta' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    const menu = screen.getByRole('menu', { name: 'Esporta' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['CSVSeparato da ; per Excel in italiano', 'Excel (XLSX)Date e importi già formattati']);
    await user.click(within(menu).getByRole('menuitem', { name: 'CSV' }));
    // While the file downloads: the button is busy and a progress bar shows.
    expect(await screen.findByRole('progressbar', { name: 'Esportazione…' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Esportazione…/ })).toBeDisabled();
    gate.resolve();
    await waitFor(() => expect(saved).toEqual(['widget-demo-srl-2026-11-22.csv']));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(paramsOf(requests[0]!)).toEqual({
      searchTerm: 'alf',
      'filters[isActive]': 'true',
      format: 'csv',
    });

    // Excel: the same criteria, format xlsx; Escape closes the menu without exporting.
    await user.click(screen.getByRole('button', { name: 'Esporta' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Esporta' }));
    await user.click(screen.getByRole('menuitem', { name: 'Excel (XLSX)' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(paramsOf(requests[1]!).format).toBe('xlsx');
  });

  it('a failed export is an Italian toast with the server reason; nothing is saved', async () => {
    server.use(
      apiGet('widget/export', () =>
        fail(400, 'Dati non validi.', null, ['filters.nome: filtro non supportato']),
      ),
    );
    const { user } = renderList(['/widget']);
    await user.click(await screen.findByRole('button', { name: 'Esporta' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV' }));
    expect(
      await screen.findByText(
        `${reportMessages.exportFailed} Dati non validi. filters.nome: filtro non supportato`,
      ),
    ).toBeInTheDocument();
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Esporta' })).toBeEnabled();
  });
});
