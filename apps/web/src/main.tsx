import { createRoot, hydrateRoot } from 'react-dom/client';
import { normalisePath, PUBLIC_PAGES } from './public-pages';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

async function start(el: HTMLElement): Promise<void> {
  const loadPublic = PUBLIC_PAGES[normalisePath(window.location.pathname)];
  // Public pages arrive prerendered (scripts/prerender-web.js): hydrate that markup with just the page.
  if (loadPublic && el.hasChildNodes()) {
    const [{ PublicApp }, Page] = await Promise.all([import('./public-app'), loadPublic()]);
    hydrateRoot(el, <PublicApp Page={Page} />);
    return;
  }
  // Every other route gets the empty shell (app.html) and the signed-in app with its router.
  const { App } = await import('./app/app');
  createRoot(el).render(<App />);
}

void start(root);
