import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormPage } from '../../../src/components/form-page';
import { defineResource } from '../../../src/lib/resource';
import { fakeEntityServer, fakeGeographySelects, pickOption } from './fixtures';
import { renderScreens } from './test-utils';

/** An address-like declaration: region → province → municipality, each select depending on the previous. */
const placeResource = defineResource<{ id: number }>({
  name: 'place',
  // Who may save: the access table's row of addresses, which this declaration imitates.
  access: 'address',
  label: 'Luogo',
  columns: [{ key: 'street', name: 'Via' }],
  fields: [
    {
      kind: 'text',
      key: 'street',
      label: 'Via',
      required: true,
      validate: (v) => (v.trim() === '' ? 'La via è obbligatoria.' : undefined),
    },
    { kind: 'select', key: 'regionId', label: 'Regione', source: { entity: 'region', pageSize: 10 } },
    {
      kind: 'select',
      key: 'provinceId',
      label: 'Provincia',
      source: { entity: 'province', pageSize: 20 },
      dependsOn: { field: 'regionId', filterKey: 'regionId' },
    },
    {
      kind: 'select',
      key: 'municipalityId',
      label: 'Comune',
      source: { entity: 'municipality', pageSize: 20 },
      dependsOn: { field: 'provinceId', filterKey: 'provinceId' },
    },
  ],
});

function setup() {
  const { provinceCalls } = fakeGeographySelects();
  const server = fakeEntityServer('place', []);
  const utils = renderScreens({
    entity: 'place',
    list: <p />,
    form: <FormPage resource={placeResource} />,
    entries: ['/place/new'],
  });
  return { ...utils, provinceCalls, calls: server.calls };
}

describe('form fields', () => {
  it('disable a dependent select until its parent has a value, filter it by the parent, clear it when the parent changes', async () => {
    const { user, provinceCalls, calls } = setup();
    expect(await screen.findByRole('combobox', { name: 'Regione' })).toBeEnabled();
    expect(screen.getByRole('combobox', { name: 'Provincia' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();

    await pickOption(user, 'Regione', 'Lombardia');
    await pickOption(user, 'Provincia', 'Milano');
    expect(provinceCalls.some((p) => p.get('filters[regionId]') === '3')).toBe(true);
    expect(screen.queryByRole('option', { name: 'Torino' })).not.toBeInTheDocument();
    await pickOption(user, 'Comune', 'Rho');
    expect(screen.getByText('Rho')).toBeInTheDocument();

    // Changing the region clears province and municipality, and disables the municipality again.
    await pickOption(user, 'Regione', 'Piemonte');
    await waitFor(() => expect(screen.queryByText('Milano')).not.toBeInTheDocument());
    expect(screen.queryByText('Rho')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();

    await user.type(screen.getByRole('textbox', { name: /Via/ }), 'Via Roma 1');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() =>
      expect(calls.created).toEqual([
        { street: 'Via Roma 1', regionId: 1, provinceId: null, municipalityId: null },
      ]),
    );
  });

  it('run a declared text validation on blur and show its message under the field', async () => {
    const { user, calls } = setup();
    const street = screen.getByRole('textbox', { name: /Via/ });
    await user.click(street);
    await user.tab();
    expect(await screen.findByText('La via è obbligatoria.')).toBeInTheDocument();
    expect(street).toHaveAttribute('aria-invalid', 'true');
    expect(street).toHaveAccessibleDescription('La via è obbligatoria.');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(calls.created).toEqual([]);

    await user.type(street, 'Via Po');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('La via è obbligatoria.')).not.toBeInTheDocument());
  });
});
