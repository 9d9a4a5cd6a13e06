import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { bootstrap } from './app/bootstrap';
import { AppProviders } from './app/providers';
import { createAppRoutes } from './app/routes';
import './index.css';

const { queryClient } = bootstrap();
const router = createBrowserRouter(createAppRoutes());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
