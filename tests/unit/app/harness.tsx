/**
 * Renders the whole SPA (real route tree, providers, error catalogue) at a path, in memory.
 *   const { router, user } = renderApp('/region', { role: Role.Admin, tenantId: 1 });
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { RoleId } from '../../../contract/enums';
import { bootstrap } from '../../../src/app/bootstrap';
import { AppProviders } from '../../../src/app/providers';
import { createAppRoutes } from '../../../src/app/routes';
import { setSelectedTenantId } from '../../../src/lib/tenant-store';

export interface AppOptions {
  /** Signs in as this role (token 'test-token', e-mail admin@rinnova.test). */
  role?: RoleId;
  email?: string;
  tenantId?: number | null;
  /** Raw storage values, written as they are (for the restore rules). */
  storage?: Record<string, string>;
}

export function renderApp(path: string, options: AppOptions = {}) {
  window.localStorage.clear();
  if (options.role !== undefined) {
    window.localStorage.setItem('token', 'test-token');
    window.localStorage.setItem(
      'user',
      JSON.stringify({ email: options.email ?? 'admin@rinnova.test', role: options.role }),
    );
  }
  for (const [k, v] of Object.entries(options.storage ?? {})) window.localStorage.setItem(k, v);
  setSelectedTenantId(options.tenantId ?? null);
  const { queryClient } = bootstrap();
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  // No delay between keystrokes: tests stay fast and deterministic on a loaded machine.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user };
}

/** The router's current path and query. */
export function currentUrl(router: { state: { location: { pathname: string; search: string } } }): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}
