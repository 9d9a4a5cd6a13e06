/**
 * One table-driven suite over every entity declaration (src/entities/<name>/<name>.resource.ts):
 * list → create → edit → delete through the entity's own route screens. A new declaration joins
 * automatically; its pages module must export ListScreen and FormScreen.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import type { FieldDef, ResourceDef } from '../../../src/lib/resource';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';
import { currentLocation, renderScreens } from '../components/test-utils';

type Row = { id: number } & Record<string, unknown>;

const resourceModules = import.meta.glob<Record<string, unknown>>('../../../src/entities/*/*.resource.ts', { eager: true });
const pageModules = import.meta.glob<{ ListScreen?: ComponentType; FormScreen?: ComponentType }>(
  '../../../src/entities/*/*.pages.tsx',
  { eager: true },
);

function isResource(value: unknown): value is ResourceDef<Row> {
  return typeof value === 'object' && value !== null && 'name' in value && 'columns' in value && 'fields' in value;
}

const cases = Object.entries(resourceModules).flatMap(([path, mod]) => {
  const resources = Object.values(mod).filter(isResource);
  const pages = pageModules[path.replace(/\.resource\.ts$/, '.pages.tsx')];
  return resources.map((resource) => ({ name: resource.name, resource, pages }));
});

/** Every select's source answers with two options (filtered by whatever it depends on). */
function fakeSelectSources(resource: ResourceDef<Row>) {
  const entities = new Set<string>();
  for (const f of resource.fields) if (f.kind === 'select') entities.add(f.source.entity);
  for (const f of resource.filters ?? []) if (f.kind === 'select') entities.add(f.source.entity);
  for (const entity of entities) {
    fakeSelectServer(entity, [
      { value: 1, label: `${entity} uno` },
      { value: 2, label: `${entity} due` },
    ]);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] = (node[part] as Record<string, unknown> | undefined) ?? { id: 1 };
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

/** A row with a value for every column and field. */
function sampleRow(resource: ResourceDef<Row>, id: number): Row {
  const row: Row = { id };
  for (const c of resource.columns) {
    const value =
      c.type === 'bool' ? true : c.type === 'currency' ? 10 : c.type === 'dateTime' ? '2024-05-06T12:00:00Z' : c.type === 'subscriptionstatusenum' ? 1 : `${c.name} ${id}`;
    setPath(row, c.key, value);
  }
  for (const f of resource.fields) {
    if (f.kind === 'select') row[f.key] = 1;
    else if (f.kind === 'number') row[f.key] = 5;
    else if (f.kind === 'checkbox') row[f.key] = false;
    else if (row[f.key] === undefined) row[f.key] = `${f.label} ${id}`;
  }
  return row;
}

async function pickOption(user: UserEvent, label: string, option: string) {
  const input = await screen.findByRole('combobox', { name: label });
  await waitFor(() => expect(input).toBeEnabled());
  await user.click(input);
  await user.keyboard('{ArrowDown}');
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Fills every field with a new value; returns the body the server should receive. */
async function fillForm(user: UserEvent, fields: readonly FieldDef[]) {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.kind === 'text' || f.kind === 'textarea') {
      const input = screen.getByLabelText(f.label);
      const value = f.kind === 'text' && f.inputType === 'email' ? 'nuovo@example.it' : `Nuovo ${f.label}`;
      await user.clear(input);
      await user.type(input, value);
      body[f.key] = value;
    } else if (f.kind === 'number') {
      const input = screen.getByRole('spinbutton', { name: f.label });
      await user.clear(input);
      await user.type(input, '7');
      body[f.key] = 7;
    } else if (f.kind === 'checkbox') {
      const input = screen.getByRole('checkbox', { name: f.label });
      const was = (input as HTMLInputElement).checked;
      await user.click(input);
      body[f.key] = !was;
    } else {
      await pickOption(user, f.label, `${f.source.entity} due`);
      body[f.key] = 2;
    }
  }
  return body;
}

async function confirmDelete() {
  const dialog = await screen.findByRole('dialog');
  within(dialog).getByRole('button', { name: 'Sì, elimina!' }).click();
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('every entity declaration: list → create → edit → delete', () => {
  it('finds the geography declarations (and any added since)', () => {
    expect(cases.map((c) => c.name)).toEqual(expect.arrayContaining(['region', 'province', 'municipality']));
  });

  describe.each(cases)('$name', ({ resource, pages }) => {
    it('has route screens', () => {
      expect(pages?.ListScreen).toBeTypeOf('function');
      expect(pages?.FormScreen).toBeTypeOf('function');
    });

    it('lists, creates, edits and deletes', async () => {
      const { ListScreen, FormScreen } = pages as { ListScreen: ComponentType; FormScreen: ComponentType };
      const { calls } = fakeEntityServer<Row>(resource.name, [sampleRow(resource, 2), sampleRow(resource, 1)]);
      fakeSelectSources(resource);
      const { user } = renderScreens({
        entity: resource.name,
        list: <ListScreen />,
        form: <FormScreen />,
        entries: [`/${resource.name}`],
      });

      // List: title, headers, cells.
      expect(await screen.findByRole('heading', { level: 1, name: `Lista di ${resource.label}` })).toBeInTheDocument();
      const table = screen.getByRole('table');
      for (const c of resource.columns) {
        expect(within(table).getByRole('columnheader', { name: c.name })).toBeInTheDocument();
      }
      const firstText = resource.columns.find((c) => !c.type || c.type === 'text')!;
      expect(await within(table).findByRole('cell', { name: `${firstText.name} 2` })).toBeInTheDocument();
      expect(Object.fromEntries(calls.list[0]!.entries())).toEqual({ page: '1', pageSize: '5' });

      // Create.
      await user.click(screen.getByRole('link', { name: `Crea Nuovo ${resource.label}` }));
      expect(await screen.findByRole('heading', { level: 1, name: `Crea Nuovo ${resource.label}` })).toBeInTheDocument();
      const created = await fillForm(user, resource.fields);
      await user.click(screen.getByRole('button', { name: 'Crea' }));
      expect(await screen.findByText('Nuovo elemento creato!')).toBeInTheDocument();
      expect(calls.created).toEqual([created]);
      await waitFor(() => expect(currentLocation()).toBe(`/${resource.name}`));

      // Edit row 1: the form shows its values, Salva PUTs them with the id.
      const row1 = within(screen.getByRole('table')).getByRole('cell', { name: `${firstText.name} 1` }).closest('tr')!;
      await user.click(within(row1 as HTMLElement).getByRole('link', { name: 'Modifica' }));
      expect(await screen.findByRole('heading', { level: 1, name: `Modifica ${resource.label}` })).toBeInTheDocument();
      const firstField = resource.fields.find((f) => f.kind === 'text')!;
      await waitFor(() => expect(screen.getByLabelText(firstField.label)).toHaveValue(`${firstField.label} 1`));
      for (const f of resource.fields) {
        if (f.kind === 'select') expect(await screen.findByText(`${f.source.entity} uno`)).toBeInTheDocument();
      }
      const edited = await fillForm(user, resource.fields);
      await user.click(screen.getByRole('button', { name: 'Salva' }));
      expect(await screen.findByText('Elemento aggiornato!')).toBeInTheDocument();
      expect(calls.updated).toEqual([{ ...edited, id: 1 }]);
      await waitFor(() => expect(currentLocation()).toBe(`/${resource.name}`));

      // Delete row 2 after confirmation; the list refetches without it.
      const row2 = (await within(screen.getByRole('table')).findByRole('cell', { name: `${firstText.name} 2` })).closest('tr')!;
      await user.click(within(row2 as HTMLElement).getByRole('button', { name: 'Elimina' }));
      await confirmDelete();
      await waitFor(() => expect(calls.deleted).toEqual(['2']));
      await waitFor(() =>
        expect(within(screen.getByRole('table')).queryByRole('cell', { name: `${firstText.name} 2` })).not.toBeInTheDocument(),
      );
    });
  });
});
