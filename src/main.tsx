import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { bootstrap } from './app/bootstrap';
import { AppProviders } from './app/providers';
import { createAppRoutes } from './app/routes';
import { getSession } from './lib/session';
import './index.css';

const { queryClient } = bootstrap();
const router = createBrowserRouter(createAppRoutes());
const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);
const container = document.getElementById('root')!;

// A prerendered page (dist/login.html, src/app/prerender.tsx) was rendered signed out and without
// a query string: hydrated when the visit is the same, rendered afresh (its markup replaced)
// otherwise, e.g. a signed-in visit that /login sends home or ?sessionExpired=true.
if (container.hasChildNodes() && getSession() === null && window.location.search === '') {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}
