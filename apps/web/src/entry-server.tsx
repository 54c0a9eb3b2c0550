// Build-time rendering of the public pages (npm run build:web → scripts/prerender-web.js). Renders exactly
// the tree the browser hydrates for a public page (public-app.tsx: theme + page, no router) and returns
// the HTML of #root.
import { prerenderToNodeStream } from 'react-dom/static';
import { PublicApp } from './public-app';
import { normalisePath, PUBLIC_PAGES } from './public-pages';

export { PUBLIC_ROUTES, NOINDEX_PATHS } from './features/public/public-routes';
export { SITE_URL } from './features/public/seo-head';

export async function render(path: string): Promise<string> {
  const load = PUBLIC_PAGES[normalisePath(path)];
  if (!load) throw new Error(`${path} is not a public page; only those are prerendered`);
  const Page = await load();
  const { prelude } = await prerenderToNodeStream(<PublicApp Page={Page} />);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
