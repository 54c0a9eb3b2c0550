// Build-time rendering of the public pages (npm run build:web → scripts/prerender-web.js). Renders the same
// route table and providers as the browser, waits for lazy pages, and returns the HTML of #root.
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';

export { PUBLIC_ROUTES, NOINDEX_PATHS } from './features/public/public-routes';
export { SITE_URL } from './features/public/seo-head';

export async function render(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered a redirect while prerendering`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders>
        {/* hydrate={false}: no inline hydration script (the CSP allows none); nothing to hydrate, no loaders. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
