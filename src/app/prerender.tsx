/**
 * The build's server-side render of a public page (issue 8: /login paints from its HTML, before
 * the JavaScript has run). Built by Vite in SSR mode and run once at the end of `vite build`
 * (scripts/prerender.mjs): the same route tree, providers and screens as the browser's, through
 * React Router's static router, signed out and without a query string. The page's file
 * (dist/login.html) carries the markup in #root; main.tsx hydrates it when the visit matches that
 * state and renders afresh otherwise.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProviders } from './providers';
import { createQueryClient } from './query-client';
import { createAppRoutes } from './routes';

/** The markup of `pathname` once every lazy screen on it has loaded (React's prerender waits). */
export async function renderPage(pathname: string): Promise<string> {
  const { query, dataRoutes } = createStaticHandler(createAppRoutes());
  const context = await query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`prerender ${pathname}: redirected (${context.status})`);
  if (context.errors) throw new Error(`prerender ${pathname}: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
