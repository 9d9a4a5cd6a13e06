import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormPage } from '../../../src/components/form-page';
import { parseEntityId } from '../../../src/lib/use-form-controller';
import { apiGet, apiPost, deferred, fail, ok, server } from '../msw/server';
import { fakeEntityServer, widget, widgetResource, type Widget } from './fixtures';
import { currentLocation, renderScreens } from './test-utils';

function renderForm(entries: Parameters<typeof renderScreens>[0]['entries'], role: 1 | 3 = 1) {
  return renderScreens({
    entity: 'widget',
    list: <p>Elenco</p>,
    form: <FormPage resource={widgetResource} />,
    entries,
    role,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseEntityId', () => {
  it.each([
    ['new', null],
    ['abc', null],
    ['12a', null],
    ['0', null],
    [undefined, null],
    ['7', 7],
    ['120', 120],
  ])('%s → %s', (raw, expected) => {
    expect(parseEntityId(raw)).toBe(expected);
  });
});

describe('FormPage', () => {
  it("is in create mode on /new: 'Crea Nuovo …', 'Crea', no load", async () => {
    renderForm(['/widget', '/widget/new']);
    expect(screen.getByRole('heading', { level: 1, name: 'Crea Nuovo Widget' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crea' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Salva' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Prezzo' })).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Attivo' })).not.toBeChecked();
  });

  it('is in create mode on any non-numeric id (no GetById call)', async () => {
    renderForm(['/widget/abc']);
    expect(screen.getByRole('heading', { level: 1, name: 'Crea Nuovo Widget' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crea' })).toBeInTheDocument();
  });

  it('fades in about 100 ms after mount', async () => {
    renderForm(['/widget/new']);
    const heading = screen.getByRole('heading', { level: 1 });
    const wrapper = heading.closest('[data-visible]') as HTMLElement;
    expect(wrapper).toHaveAttribute('data-visible', 'false');
    expect(wrapper).toHaveClass('opacity-0');
    await waitFor(() => expect(wrapper).toHaveAttribute('data-visible', 'true'));
    expect(wrapper).toHaveClass('opacity-100');
  });

  it("loads the row in edit mode (skeleton first), titled 'Modifica …' with 'Salva'", async () => {
    const hold = deferred();
    server.use(
      apiGet('widget/GetById/:id', async ({ params }) => {
        await hold.promise;
        return ok(widget(Number(params.id), { name: 'Ingranaggio', price: 12.5, isActive: true }));
      }),
    );
    renderForm(['/widget/4']);
    expect(screen.getByRole('heading', { level: 1, name: 'Modifica Widget' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Caricamento dati' })).toBeInTheDocument();
    expect(screen.getAllByTestId('field-placeholder')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Salva' })).toBeDisabled();
    hold.resolve();
    expect(await screen.findByRole('textbox', { name: 'Nome' })).toHaveValue('Ingranaggio');
    // Amounts read the Italian way.
    expect(screen.getByRole('textbox', { name: 'Prezzo' })).toHaveValue('12,5');
    expect(screen.getByRole('checkbox', { name: 'Attivo' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Salva' })).toBeEnabled();
  });

  it('creates: POSTs the form object, toasts, fades out and goes back after 300 ms', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', []);
    const { user } = renderForm(['/widget', '/widget/new']);
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Nuovo');
    await user.type(screen.getByRole('textbox', { name: 'Prezzo' }), '9,9');
    await user.click(screen.getByRole('checkbox', { name: 'Attivo' }));
    await user.click(screen.getByRole('button', { name: 'Crea' }));

    expect(await screen.findByText('Nuovo elemento creato!')).toBeInTheDocument();
    expect(calls.created).toEqual([{ name: 'Nuovo', price: 9.9, isActive: true }]);
    const wrapper = screen.getByRole('heading', { level: 1 }).closest('[data-visible]') as HTMLElement;
    expect(wrapper).toHaveAttribute('data-visible', 'false');
    expect(currentLocation()).toBe('/widget/new');
    await waitFor(() => expect(currentLocation()).toBe('/widget'));
    expect(screen.getByText('Elenco')).toBeInTheDocument();
  });

  it('updates: PUTs the form object with its id and toasts, then goes back to the list it came from', async () => {
    const { calls } = fakeEntityServer<Widget>('widget', [widget(3, { name: 'Vecchio', price: 1 })]);
    const { user } = renderForm([
      '/widget?page=2',
      { pathname: '/widget/3', state: { from: '/widget?page=2' } },
    ]);
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('Vecchio'));
    await user.clear(name);
    await user.type(name, 'Rinnovato');
    await user.clear(screen.getByRole('textbox', { name: 'Prezzo' }));
    await user.click(screen.getByRole('button', { name: 'Salva' }));

    expect(await screen.findByText('Elemento aggiornato!')).toBeInTheDocument();
    expect(calls.updated).toEqual([{ id: 3, name: 'Rinnovato', price: null, isActive: true }]);
    await waitFor(() => expect(currentLocation()).toBe('/widget?page=2'));
  });

  it('on a failed save: error toast, console detail, each server error on its field (no key shown), stays', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiPost('widget/Create', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          'name: obbligatorio',
          'price: deve essere positivo',
        ]),
      ),
    );
    const { user } = renderForm(['/widget', '/widget/new']);
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(
      await screen.findByText(
        'Errore durante il salvataggio. Sono presenti maggiori dettagli nella console.',
      ),
    ).toBeInTheDocument();
    expect(error).toHaveBeenCalled();
    const name = screen.getByRole('textbox', { name: 'Nome' });
    const price = screen.getByRole('textbox', { name: 'Prezzo' });
    await waitFor(() => expect(name).toHaveAccessibleDescription('obbligatorio'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(price).toHaveAccessibleDescription('deve essere positivo');
    expect(name).toHaveFocus();
    expect(document.body.textContent).not.toMatch(/name:|price:/);
    expect(screen.queryByText('Nuovo elemento creato!')).not.toBeInTheDocument();
    expect(currentLocation()).toBe('/widget/new');
    expect(screen.getByRole('button', { name: 'Crea' })).toBeEnabled();
  });

  it("'Indietro' goes back one page", async () => {
    const { user } = renderForm(['/widget?page=3', '/widget/new']);
    await user.click(screen.getByRole('button', { name: 'Indietro' }));
    expect(currentLocation()).toBe('/widget?page=3');
  });

  it('toasts a load failure and logs it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiGet('widget/GetById/:id', () => fail(404, 'Elemento non trovato.')));
    renderForm(['/widget/99']);
    expect(
      await screen.findByText('Errore nel recupero dei dati. Sono presenti maggiori dettagli nella console.'),
    ).toBeInTheDocument();
    expect(error).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Salva' })).toBeDisabled();
    expect(screen.queryByRole('textbox', { name: 'Nome' })).not.toBeInTheDocument();
  });

  it("warns 'Nessun dato ricevuto.' when the server sends no data", async () => {
    server.use(apiGet('widget/GetById/:id', () => ok(null)));
    renderForm(['/widget/5']);
    expect(await screen.findByText('Nessun dato ricevuto.')).toBeInTheDocument();
  });

  it('is read-only without the role to save', async () => {
    server.use(apiGet('widget/GetById/:id', () => ok(widget(5))));
    renderForm(['/widget/5'], 3);
    expect(await screen.findByRole('textbox', { name: 'Nome' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Salva' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Indietro' })).toBeInTheDocument();
  });
});
