import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which paths the web app answers, read once from the build: `app-routes.json` lists the paths of the
 * app's router (apps/web/src/app/router.tsx, written by scripts/prerender-web.js, so the list has one
 * source). A path that matches none of them is not a page: the api answers 404 with the not-found page
 * instead of the app shell with 200, which search engines would take for a real page.
 * Returns null for a build without the list (every path then gets the shell, as before).
 */
export function loadAppRoutes(dist: string): ((path: string) => boolean) | null {
  const file = join(dist, 'app-routes.json');
  if (!existsSync(file)) return null;
  const patterns = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map(routePattern);
  return (path: string) => patterns.some((re) => re.test(path));
}

/** '/billing/checkout/:sessionId' → /^\/billing\/checkout\/[^/]+$/ (react-router's path syntax, no splats). */
function routePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
