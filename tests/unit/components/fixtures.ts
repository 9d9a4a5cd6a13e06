/**
 * A test-only entity that uses every column type and filter kind, and an in-memory server for
 * it (getAll with paging and filters, GetById, Create, Update, Delete) on the shared MSW server.
 */
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { expect } from 'vitest';
import { defineResource } from '../../../src/lib/resource';
import { apiDelete, apiGet, apiPost, apiPut, fail, ok, server } from '../msw/server';

export interface Widget {
  id: number;
  name: string;
  isActive: boolean | null;
  price: number | string | null;
  startDate: string | null;
  status: number | null;
  owner: { id: number; name: string } | null;
  [key: string]: unknown;
}

export const widgetResource = defineResource<Widget>({
  name: 'widget',
  label: 'Widget',
  columns: [
    { key: 'name', name: 'Nome' },
    { key: 'isActive', name: 'Attivo', type: 'bool' },
    { key: 'price', name: 'Prezzo', type: 'currency' },
    { key: 'startDate', name: 'Inizio', type: 'dateTime' },
    { key: 'status', name: 'Stato', type: 'subscriptionstatusenum' },
    { key: 'owner.name', name: 'Proprietario' },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'bool', key: 'isActive', name: 'Attivo' },
  ],
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'number', key: 'price', label: 'Prezzo' },
    { kind: 'checkbox', key: 'isActive', label: 'Attivo' },
  ],
  // Who sees 'Crea', 'Modifica', 'Elimina': the access table's row of an admin-only entity.
  access: 'plan',
});

export function widget(id: number, over: Partial<Widget> = {}): Widget {
  return {
    id,
    name: `Widget ${id}`,
    isActive: true,
    price: 10,
    startDate: '2024-03-05T12:00:00Z',
    status: 1,
    owner: { id: 1, name: 'Mario Rossi' },
    ...over,
  };
}

/** An in-memory `api/{entity}` honouring the contract's paging and filters; records every call. */
export function fakeEntityServer<T extends { id: number }>(entity: string, initial: T[]) {
  const rows = [...initial];
  const calls = {
    list: [] as URLSearchParams[],
    created: [] as unknown[],
    updated: [] as unknown[],
    deleted: [] as string[],
  };
  let nextId = Math.max(0, ...rows.map((r) => r.id)) + 1;
  server.use(
    apiGet(`${entity}/getAll`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.list.push(params);
      const page = Number(params.get('page'));
      const pageSize = Number(params.get('pageSize'));
      let filtered = rows;
      for (const [key, value] of params.entries()) {
        const m = /^filters\[(.+)\]$/.exec(key);
        if (!m?.[1]) continue;
        const field = m[1];
        filtered = filtered.filter((r) => {
          const v = (r as Record<string, unknown>)[field];
          if (typeof v === 'boolean') return String(v) === value;
          if (typeof v === 'number') return String(v) === value;
          return String(v ?? '')
            .toLowerCase()
            .includes(value.toLowerCase());
        });
      }
      const term = params.get('searchTerm')?.toLowerCase();
      if (term) filtered = filtered.filter((r) => JSON.stringify(r).toLowerCase().includes(term));
      return ok({
        items: filtered.slice((page - 1) * pageSize, page * pageSize),
        totalCount: filtered.length,
      });
    }),
    apiGet(`${entity}/GetById/:id`, ({ params }) => {
      const row = rows.find((r) => r.id === Number(params.id));
      return row ? ok(row) : fail(404, 'Elemento non trovato.');
    }),
    apiPost(`${entity}/Create`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.created.push(body);
      const row = { ...body, id: nextId++ } as unknown as T;
      rows.unshift(row);
      return ok(row);
    }),
    apiPut(`${entity}/Update`, async ({ request }) => {
      const body = (await request.json()) as T;
      calls.updated.push(body);
      const i = rows.findIndex((r) => r.id === body.id);
      if (i < 0) return fail(404, 'Elemento non trovato.');
      rows[i] = { ...rows[i], ...body };
      return ok(rows[i]);
    }),
    apiDelete(`${entity}/Delete/:id`, ({ params }) => {
      calls.deleted.push(String(params.id));
      const i = rows.findIndex((r) => r.id === Number(params.id));
      if (i < 0) return fail(404, 'Elemento non trovato.');
      rows.splice(i, 1);
      return ok(null);
    }),
  );
  return { rows, calls };
}

/** A getAllForSelect answering from a fixed option list, honouring searchTerm, selectedIds and filters. */
export function fakeSelectServer(
  entity: string,
  options: { value: number; label: string; [k: string]: unknown }[],
  calls: URLSearchParams[] = [],
) {
  server.use(
    apiGet(`${entity}/getAllForSelect`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.push(params);
      const term = params.get('searchTerm')?.toLowerCase() ?? '';
      const selected = (params.get('selectedIds') ?? '').split(',').filter(Boolean).map(Number);
      let list = options.filter((o) => o.label.toLowerCase().includes(term));
      for (const [key, value] of params.entries()) {
        const m = /^filters\[(.+)\]$/.exec(key);
        if (m?.[1]) list = list.filter((o) => String(o[m[1] as string]) === value);
      }
      list = list.slice(0, Number(params.get('pageSize')));
      for (const id of selected) {
        const o = options.find((x) => x.value === id);
        if (o && !list.includes(o)) list.push(o);
      }
      return HttpResponse.json({
        success: true,
        message: null,
        data: { options: list.map(({ value, label }) => ({ value, label })), totalCount: list.length },
      });
    }),
  );
  return calls;
}

/** Two regions with a province and a municipality each, as getAllForSelect answers; returns the province calls. */
export function fakeGeographySelects() {
  fakeSelectServer('region', [
    { value: 1, label: 'Piemonte' },
    { value: 3, label: 'Lombardia' },
  ]);
  const provinceCalls = fakeSelectServer('province', [
    { value: 1, label: 'Torino', regionId: 1 },
    { value: 15, label: 'Milano', regionId: 3 },
  ]);
  fakeSelectServer('municipality', [
    { value: 100, label: 'Moncalieri', provinceId: 1 },
    { value: 200, label: 'Rho', provinceId: 15 },
  ]);
  return { provinceCalls };
}

/** Opens the searchable select named `label` once it is enabled and picks `option`. */
export async function pickOption(user: UserEvent, label: string, option: string) {
  const input = await screen.findByRole('combobox', { name: label });
  await waitFor(() => expect(input).toBeEnabled());
  await user.click(input);
  await user.keyboard('{ArrowDown}');
  await user.click(await screen.findByRole('option', { name: option }));
}
