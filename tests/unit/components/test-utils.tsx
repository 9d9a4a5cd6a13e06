/**
 * Rendering helpers for the generic list and form screens: a fresh QueryClient per test, a
 * MemoryRouter with the entity's two routes, a toast container, and a signed-in session.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import type { RoleId } from '../../../contract/enums';
import { restoreSession } from '../../../src/lib/session';

export function signIn(role: RoleId = 1) {
  window.localStorage.setItem('token', 'test-token');
  window.localStorage.setItem('user', JSON.stringify({ email: 'admin@example.it', role }));
  restoreSession();
}

export function signOut() {
  window.localStorage.clear();
  restoreSession();
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface RenderScreensOptions {
  entity: string;
  list: ReactElement;
  form: ReactElement;
  /** History entries; the last one is shown. */
  entries: (string | { pathname: string; search?: string; state?: unknown })[];
  role?: RoleId | null;
}

/** Renders an entity's list (/{entity}) and form (/{entity}/:id) routes at the given history. */
export function renderScreens({ entity, list, form, entries, role = 1 }: RenderScreensOptions) {
  if (role === null) signOut();
  else signIn(role);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  // No delay between keystrokes: tests stay fast and deterministic on a loaded machine.
  const user = userEvent.setup({ delay: null });
  const utils = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
        <Routes>
          <Route path={`/${entity}`} element={list} />
          <Route path={`/${entity}/:id`} element={form} />
          <Route path="*" element={<p>altrove</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
      <ToastContainer />
    </QueryClientProvider>,
  );
  return { ...utils, user, client };
}

export function currentLocation(): string {
  return screen.getByTestId('location').textContent ?? '';
}

/** The query string of a recorded request as a plain object. */
export function paramsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams.entries());
}
