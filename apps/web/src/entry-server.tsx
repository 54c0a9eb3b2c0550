// Build-time rendering of the public pages (npm run build:web → scripts/prerender-web.js). Renders the theme
// and the page (public-app.tsx, no router) to static HTML: the pages do not hydrate, so the emotion styles
// rendered here are the pages' whole CSS (the prerender moves them into <head>). Also renders the
// not-found page the api answers 404 with, the sign-in page (/auth, made interactive by
// islands/auth-island.ts), the first-screen frame of /dashboard (lib/app-frame.tsx), and lists the app's
// routes (one source: app/router.tsx) so the api answers 404 for every other path.
import type { ComponentType, ReactNode } from 'react';
import { MemoryRouter, type RouteObject } from 'react-router';
import { prerenderToNodeStream } from 'react-dom/static';
import { PublicApp } from './public-app';
import { normalisePath, PUBLIC_PAGES } from './public-pages';
import { routes } from './app/router';
import { NotFoundPage } from './pages/not-found/not-found-page';
import { FrameContext } from './lib/app-frame';
import { AuthStaticPage } from './pages/auth/auth-static-page';
import { DashboardPage } from './pages/dashboard/dashboard-page';

export { PUBLIC_ROUTES, NOINDEX_PATHS } from './features/public/public-routes';
export { SITE_URL } from './features/public/seo-head';

async function toHtml(tree: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(tree);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export async function render(path: string): Promise<string> {
  const load = PUBLIC_PAGES[normalisePath(path)];
  if (!load) throw new Error(`${path} is not a public page; only those are prerendered`);
  const Page = await load();
  return toHtml(<PublicApp Page={Page} />);
}

/** The not-found page (its "Back to Home" is a router link, hence the router around it). */
export function renderNotFound(): Promise<string> {
  const Page = () => (
    <MemoryRouter initialEntries={['/404']}>
      <NotFoundPage />
    </MemoryRouter>
  );
  return toHtml(<PublicApp Page={Page} />);
}

/** The sign-in page as a visitor who is not signed in first gets it (its links need a router). */
export function renderAuth(): Promise<string> {
  const Page = () => (
    <MemoryRouter initialEntries={['/auth']}>
      <AuthStaticPage />
    </MemoryRouter>
  );
  return toHtml(<PublicApp Page={Page} />);
}

/** The app pages whose shell carries a first-screen frame (lib/app-frame.tsx). */
const FRAMES: Record<string, ComponentType> = { '/dashboard': DashboardPage };

/** The first screen of an app page, drawn without data (lib/app-frame.tsx). */
export function renderFrame(path: string): Promise<string> {
  const Frame = FRAMES[path];
  if (!Frame) throw new Error(`${path} has no frame`);
  const Page = () => (
    <FrameContext.Provider value={true}>
      <MemoryRouter initialEntries={[path]}>
        <Frame />
      </MemoryRouter>
    </FrameContext.Provider>
  );
  return toHtml(<PublicApp Page={Page} />);
}

/** Every path pattern of the app's router ('/billing/checkout/:sessionId'), without the catch-all. */
export function appRoutePaths(): string[] {
  const out: string[] = [];
  const walk = (list: RouteObject[]) => {
    for (const r of list) {
      if (r.path && r.path !== '*') out.push(r.path);
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return out;
}
