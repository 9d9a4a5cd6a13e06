/**
 * One table-driven suite over every entity declaration (src/entities/<name>/<name>.resource.ts):
 * list → create → edit → delete through the entity's own route screens. A new declaration joins
 * automatically, and must be bound in the app's registry (src/app/registry.ts) to a screens module
 * that exports ListScreen and FormScreen.
 *
 * Titles come from the declaration (`titles` or the generic 'Lista di …' / 'Crea Nuovo …' /
 * 'Modifica …'); fields in tabs (`group`) are filled tab by tab. A declaration whose create is a
 * custom screen (`createPath`, the user wizard) skips the create step here: that screen has its
 * own tests.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import {
  createButtonLabel,
  createTitle,
  editTitle,
  listTitle,
  type FieldDef,
  type ResourceDef,
} from '../../../src/lib/resource';
import { resourceBindings, screensOf, type ScreensModule } from '../../../src/app/registry';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';
import { apiGet, server } from '../msw/server';
import { currentLocation, renderScreens } from '../components/test-utils';

type Row = { id: number } & Record<string, unknown>;

const resourceModules = import.meta.glob<Record<string, unknown>>('../../../src/entities/*/*.resource.ts', {
  eager: true,
});
/** The screens module the registry binds to each declaration, loaded as the route would. */
const screensByResource = new Map<ResourceDef, ScreensModule>(
  await Promise.all(
    Object.values(resourceBindings).map(
      async (b) => [b.resource as ResourceDef, await screensOf(b)()] as [ResourceDef, ScreensModule],
    ),
  ),
);

function isResource(value: unknown): value is ResourceDef<Row> {
  return (
    typeof value === 'object' && value !== null && 'name' in value && 'columns' in value && 'fields' in value
  );
}

/**
 * Declarations whose create and detail are custom screens (no generic form, no delete): they have
 * their own suites (tests/unit/subscription, tests/unit/invoice: invoices are read-only). A coupon's
 * form has rules across fields (a percentage or an amount, never both; periods only for
 * 'repeating') that filling every field cannot meet, and a plans section below it: its list,
 * create, edit and delete are tests/unit/coupon's.
 */
const customScreens = new Set(['subscription', 'invoice', 'coupon']);

const cases = Object.values(resourceModules).flatMap((mod) => {
  const resources = Object.values(mod)
    .filter(isResource)
    .filter((r) => !customScreens.has(r.name));
  return resources.map((resource) => ({
    name: resource.name,
    resource,
    pages: screensByResource.get(resource as ResourceDef),
  }));
});

/**
 * Every select's source answers with two options. A select that depends on another (region →
 * province) offers them under the parent's second option, the one fillForm picks; under the
 * parent's first option (the loaded row) only the selected id comes back, as the contract says.
 */
function fakeSelectSources(resource: ResourceDef<Row>) {
  const entities = new Map<string, Record<string, number>>();
  for (const f of resource.fields) {
    if (f.kind !== 'select') continue;
    const extra = entities.get(f.source.entity) ?? {};
    if (f.dependsOn) extra[f.dependsOn.filterKey] = 2;
    entities.set(f.source.entity, extra);
  }
  for (const f of resource.filters ?? [])
    if (f.kind === 'select' && !entities.has(f.source.entity)) entities.set(f.source.entity, {});
  for (const [entity, extra] of entities) {
    fakeSelectServer(entity, [
      { value: 1, label: `${entity} uno`, ...extra },
      { value: 2, label: `${entity} due`, ...extra },
    ]);
  }
}

/** Calls some form screens make besides the entity's own CRUD (the plan's iframe code). */
const extraHandlers: Record<string, () => void> = {
  plan: () =>
    server.use(
      apiGet('plan/iframe', () => HttpResponse.text('<iframe src="https://example.it/piano"></iframe>')),
    ),
};

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
      c.type === 'bool'
        ? true
        : c.type === 'currency'
          ? 10
          : c.type === 'dateTime'
            ? '2024-05-06T12:00:00Z'
            : c.type === 'subscriptionstatusenum'
              ? 1
              : `${c.name} ${id}`;
    setPath(row, c.key, value);
  }
  for (const f of resource.fields) {
    const at = f.from ?? f.key;
    if (f.kind === 'select') setPath(row, at, 1);
    else if (f.kind === 'choice') setPath(row, at, f.options[0]!.value);
    else if (f.kind === 'number') setPath(row, at, 5);
    else if (f.kind === 'checkbox') setPath(row, at, false);
    else if (row[at] === undefined) setPath(row, at, `${f.label} ${id}`);
  }
  return row;
}

/** Matches a field's label whether or not it carries the required marker ('*', hidden from assistive tech). */
const labelled = (label: string) => (content: string) => content.replace(/\*$/, '').trim() === label;

async function pickOption(user: UserEvent, label: string, option: string) {
  const input = await screen.findByRole('combobox', { name: label });
  await waitFor(() => expect(input).toBeEnabled());
  await user.click(input);
  await user.keyboard('{ArrowDown}');
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Fills every field with a new value (opening its tab first); returns the body the server should receive. */
async function fillForm(user: UserEvent, fields: readonly FieldDef[]) {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.group) {
      const tab = screen.getByRole('tab', { name: f.group });
      if (tab.getAttribute('aria-selected') !== 'true') await user.click(tab);
    }
    if (f.kind === 'choice') {
      const select = screen.getByRole('combobox', { name: f.label });
      const option = f.options[1]!;
      await user.selectOptions(select, String(option.value));
      body[f.key] = option.value;
    } else if (f.kind === 'text' || f.kind === 'textarea') {
      const input = screen.getByLabelText(labelled(f.label));
      const value =
        f.kind === 'text' && f.inputType === 'email'
          ? 'nuovo@example.it'
          : f.kind === 'text' && f.inputType === 'url'
            ? 'https://nuovo.example.it'
            : `Nuovo ${f.label}`;
      // Pasted in one input event: per-keystroke typing is covered by the form's own tests.
      await user.clear(input);
      await user.click(input);
      await user.paste(value);
      body[f.key] = value;
    } else if (f.kind === 'number') {
      // Decimals are typed the Italian way (a text box with a decimal keyboard).
      const input = screen.getByRole('textbox', { name: labelled(f.label) });
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
  // A field that names where the body takes it (`to: 'pensionFund.type'`) is sent in that object.
  for (const f of fields) {
    if (!f.to?.includes('.')) continue;
    const [head, part] = f.to.split('.') as [string, string];
    body[head] = { ...(body[head] as Record<string, unknown> | undefined), [part]: body[f.key] };
    delete body[f.key];
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
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'region',
        'province',
        'municipality',
        'tenant',
        'user',
        'address',
        'plan',
        'feature',
        'planfeature',
        'paymentprovider',
      ]),
    );
  });

  describe.each(cases)('$name', ({ resource, pages }) => {
    it('has route screens', () => {
      expect(pages?.ListScreen).toBeTypeOf('function');
      expect(pages?.FormScreen).toBeTypeOf('function');
    });

    /** The entity's list screen on two rows, every select source and extra call answered. */
    async function openList() {
      const { ListScreen, FormScreen } = pages as { ListScreen: ComponentType; FormScreen: ComponentType };
      const { calls } = fakeEntityServer<Row>(resource.name, [
        sampleRow(resource, 2),
        sampleRow(resource, 1),
      ]);
      fakeSelectSources(resource);
      extraHandlers[resource.name]?.();
      const { user } = renderScreens({
        entity: resource.name,
        list: <ListScreen />,
        form: <FormScreen />,
        entries: [`/${resource.name}`],
      });
      expect(await screen.findByRole('heading', { level: 1, name: listTitle(resource) })).toBeInTheDocument();
      const table = screen.getByRole('table');
      expect(await within(table).findByRole('cell', { name: `${firstText.name} 2` })).toBeInTheDocument();
      return { user, calls, table };
    }
    const firstText = resource.columns.find((c) => !c.type || c.type === 'text')!;

    it('lists its rows under every column, page 1 of 5', async () => {
      const { calls, table } = await openList();
      for (const c of resource.columns) {
        expect(within(table).getByRole('columnheader', { name: c.name })).toBeInTheDocument();
      }
      expect(within(table).getByRole('cell', { name: `${firstText.name} 1` })).toBeInTheDocument();
      expect(Object.fromEntries(calls.list[0]!.entries())).toEqual({ page: '1', pageSize: '5' });
    });

    it(resource.createPath ? 'links to its own create screen' : 'creates from the list', async () => {
      const { user, calls } = await openList();
      const createLink = screen.getByRole('link', { name: createButtonLabel(resource) });
      if (resource.createPath) {
        expect(createLink).toHaveAttribute('href', resource.createPath);
        return;
      }
      await user.click(createLink);
      expect(
        await screen.findByRole('heading', { level: 1, name: createTitle(resource) }),
      ).toBeInTheDocument();
      const created = await fillForm(user, resource.fields);
      await user.click(screen.getByRole('button', { name: 'Crea' }));
      expect(
        await screen.findByText(resource.messages?.created ?? 'Nuovo elemento creato!'),
      ).toBeInTheDocument();
      expect(calls.created).toEqual([created]);
      if (resource.afterCreate === 'edit') {
        // Stays on the new item (a plan's features need it saved), then back to the list.
        await waitFor(() => expect(currentLocation()).toMatch(new RegExp(`^/${resource.name}/\\d+$`)));
        expect(
          await screen.findByRole('heading', { level: 1, name: editTitle(resource) }),
        ).toBeInTheDocument();
        await user.click(screen.getByRole('link', { name: listTitle(resource) }));
      }
      await waitFor(() => expect(currentLocation()).toBe(`/${resource.name}`));
    });

    it('edits a row: the form shows its values, Salva PUTs them with the id', async () => {
      const { user, calls, table } = await openList();
      const row1 = within(table)
        .getByRole('cell', { name: `${firstText.name} 1` })
        .closest('tr')!;
      await user.click(within(row1 as HTMLElement).getByRole('link', { name: 'Modifica' }));
      expect(await screen.findByRole('heading', { level: 1, name: editTitle(resource) })).toBeInTheDocument();
      const firstField = resource.fields.find((f) => f.kind === 'text')!;
      await waitFor(() =>
        expect(screen.getByLabelText(labelled(firstField.label))).toHaveValue(`${firstField.label} 1`),
      );
      for (const f of resource.fields) {
        if (f.kind === 'select')
          expect(await screen.findByText(`${f.source.entity} uno`)).toBeInTheDocument();
        if (f.kind === 'choice')
          expect(screen.getByRole('combobox', { name: f.label, hidden: true })).toHaveValue(
            String(f.options[0]!.value),
          );
      }
      const edited = await fillForm(user, resource.fields);
      await user.click(screen.getByRole('button', { name: 'Salva' }));
      expect(
        await screen.findByText(resource.messages?.updated ?? 'Elemento aggiornato!'),
      ).toBeInTheDocument();
      expect(calls.updated).toEqual([{ ...edited, id: 1 }]);
      await waitFor(() => expect(currentLocation()).toBe(`/${resource.name}`));
    });

    it('deletes a row after confirmation; the list refetches without it', async () => {
      const { user, calls, table } = await openList();
      const row2 = within(table)
        .getByRole('cell', { name: `${firstText.name} 2` })
        .closest('tr')!;
      await user.click(within(row2 as HTMLElement).getByRole('button', { name: 'Elimina' }));
      await confirmDelete();
      await waitFor(() => expect(calls.deleted).toEqual(['2']));
      await waitFor(() =>
        expect(
          within(screen.getByRole('table')).queryByRole('cell', { name: `${firstText.name} 2` }),
        ).not.toBeInTheDocument(),
      );
    });
  });
});
