import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { municipalityResource } from '../../../src/entities/municipality/municipality.resource';
import { provinceResource } from '../../../src/entities/province/province.resource';
import { regionResource } from '../../../src/entities/region/region.resource';
import { rolesFor } from '../../../contract/access';
import { accessOf } from '../../../src/lib/resource';
import { resourceScreens } from '../../../src/components/resource-screens';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';
import { renderScreens } from '../components/test-utils';

// The screens the registry gives these declarations: the generic list and form.
const regionPages = resourceScreens(regionResource);
const provincePages = resourceScreens(provinceResource);
const municipalityPages = resourceScreens(municipalityResource);
const regions = [
  { value: 1, label: 'Piemonte' },
  { value: 3, label: 'Lombardia' },
  { value: 5, label: 'Veneto' },
];
const provinces = [
  { value: 1, label: 'Torino', regionId: 1 },
  { value: 15, label: 'Milano', regionId: 3 },
];

describe('geography declarations', () => {
  it('label titles as the spec examples and restrict writes to Admin and SuperAdmin', () => {
    expect([regionResource.label, provinceResource.label, municipalityResource.label]).toEqual([
      'Region',
      'Province',
      'Municipality',
    ]);
    for (const r of [regionResource, provinceResource, municipalityResource]) {
      for (const action of ['create', 'edit', 'delete'] as const)
        expect(rolesFor(accessOf(r)!, action)).toEqual([1, 2]);
      // Spec §8: delete failures of these three are only logged.
      expect(r.messages?.deleteFailed).toBeUndefined();
      // Spec §5: no client-side validation.
      expect(r.schema).toBeUndefined();
    }
  });
});

describe('region screens', () => {
  it('list Nome and Codice and edit them', async () => {
    fakeEntityServer('region', [{ id: 1, name: 'Piemonte', code: '01' }]);
    const { user } = renderScreens({
      entity: 'region',
      list: <regionPages.ListScreen />,
      form: <regionPages.FormScreen />,
      entries: ['/region'],
    });
    const row = (await screen.findByRole('cell', { name: 'Piemonte' })).closest('tr') as HTMLElement;
    expect(within(row).getByRole('cell', { name: '01' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Codice' })).toBeInTheDocument();
    await user.click(within(row).getByRole('link', { name: 'Modifica' }));
    expect(await screen.findByRole('heading', { name: 'Modifica Region' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Codice' })).toHaveValue('01'));
  });
});

describe('province screens', () => {
  it('show region.name and filter by region through filters[regionId]', async () => {
    const { calls } = fakeEntityServer('province', [
      { id: 1, name: 'Torino', abbreviation: 'TO', regionId: 1, region: { id: 1, name: 'Piemonte' } },
      { id: 15, name: 'Milano', abbreviation: 'MI', regionId: 3, region: { id: 3, name: 'Lombardia' } },
      { id: 99, name: 'Orfana', abbreviation: 'OR', regionId: 7, region: null },
    ]);
    const selectCalls = fakeSelectServer('region', regions);
    const { user } = renderScreens({
      entity: 'province',
      list: <provincePages.ListScreen />,
      form: <provincePages.FormScreen />,
      entries: ['/province'],
    });
    const milano = (await screen.findByRole('cell', { name: 'Milano' })).closest('tr') as HTMLElement;
    expect(within(milano).getByRole('cell', { name: 'Lombardia' })).toBeInTheDocument();
    expect(within(milano).getByRole('cell', { name: 'MI' })).toBeInTheDocument();
    const orphan = screen.getByRole('cell', { name: 'Orfana' }).closest('tr') as HTMLElement;
    expect(within(orphan).getByText('N/D')).toBeInTheDocument();

    const filter = await screen.findByRole('combobox', { name: 'Regione' });
    await user.click(filter);
    await user.keyboard('{ArrowDown}');
    await user.click(await screen.findByRole('option', { name: 'Lombardia' }));
    await user.click(screen.getByRole('button', { name: 'Cerca' }));
    await waitFor(() =>
      expect(Object.fromEntries(calls.list.at(-1)!.entries())).toEqual({
        page: '1',
        pageSize: '5',
        'filters[regionId]': '3',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Torino' })).not.toBeInTheDocument());
    // Region options come 10 at a time (spec §7).
    expect(selectCalls[0]!.get('pageSize')).toBe('10');
  });

  it('edit form shows its region (selectedIds sent) and saves regionId', async () => {
    const { calls } = fakeEntityServer('province', [
      { id: 15, name: 'Milano', abbreviation: 'MI', regionId: 3, region: { id: 3, name: 'Lombardia' } },
    ]);
    const selectCalls = fakeSelectServer('region', regions);
    const { user } = renderScreens({
      entity: 'province',
      list: <p />,
      form: <provincePages.FormScreen />,
      entries: ['/province', '/province/15'],
    });
    expect(await screen.findByText('Lombardia')).toBeInTheDocument();
    expect(selectCalls.some((p) => p.get('selectedIds') === '3')).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Sigla' })).toHaveValue('MI');

    await user.click(screen.getByRole('combobox', { name: 'Regione' }));
    await user.keyboard('{ArrowDown}');
    await user.click(await screen.findByRole('option', { name: 'Veneto' }));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() =>
      expect(calls.updated).toEqual([{ id: 15, name: 'Milano', abbreviation: 'MI', regionId: 5 }]),
    );
  });

  it('searches regions on the server as the user types', async () => {
    const selectCalls = fakeSelectServer('region', regions);
    const { user } = renderScreens({
      entity: 'province',
      list: <p />,
      form: <provincePages.FormScreen />,
      entries: ['/province/new'],
    });
    await user.type(await screen.findByRole('combobox', { name: 'Regione' }), 'ven');
    await waitFor(() => expect(selectCalls.some((p) => p.get('searchTerm') === 'ven')).toBe(true));
    expect(await screen.findByRole('option', { name: 'Veneto' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Piemonte' })).not.toBeInTheDocument());
  });
});

describe('municipality screens', () => {
  it("label the zip 'Cap', show province.name, pick the province (20 per page) and send zip", async () => {
    const { calls } = fakeEntityServer('municipality', [
      {
        id: 1,
        name: 'Torino',
        zip: '10121',
        provinceId: 1,
        province: { id: 1, name: 'Torino', abbreviation: 'TO' },
      },
    ]);
    const selectCalls = fakeSelectServer('province', provinces);
    const { user } = renderScreens({
      entity: 'municipality',
      list: <municipalityPages.ListScreen />,
      form: <municipalityPages.FormScreen />,
      entries: ['/municipality'],
    });
    const row = (await screen.findByRole('cell', { name: '10121' })).closest('tr') as HTMLElement;
    expect(screen.getByRole('columnheader', { name: 'Cap' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Provincia' })).toBeInTheDocument();
    expect(within(row).getAllByRole('cell', { name: 'Torino' })).toHaveLength(2);

    await user.click(screen.getByRole('link', { name: 'Crea Nuovo Municipality' }));
    await user.type(await screen.findByRole('textbox', { name: 'Nome' }), 'Rho');
    await user.type(screen.getByRole('textbox', { name: 'Cap' }), '20017');
    await user.click(screen.getByRole('combobox', { name: 'Provincia' }));
    await user.keyboard('{ArrowDown}');
    await user.click(await screen.findByRole('option', { name: 'Milano' }));
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() => expect(calls.created).toEqual([{ name: 'Rho', zip: '20017', provinceId: 15 }]));
    expect(selectCalls.every((p) => p.get('pageSize') === '20')).toBe(true);
  });
});
