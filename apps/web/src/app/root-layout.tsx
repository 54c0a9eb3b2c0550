import { Suspense, lazy, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { PUBLIC_ROUTES } from '../features/public/public-routes';
import { frameRoute, showApp } from '../lib/app-frame';

// The toast machine is ~17 KB gzipped that the public pages never use. It loads with the first app page
// and then stays mounted for the rest of the visit, so a toast raised just before navigating to a public
// page (e.g. 'Logged out successfully' on the way to '/') still shows. It mounts a moment after the page
// has loaded, so its download does not compete with the first screen's code and data; a toast raised
// before then shows when it mounts (the toast store keeps it).
const Toaster = lazy(() => import('../components/toaster').then((m) => ({ default: m.Toaster })));
const TOASTER_DELAY_MS = 500;
const PUBLIC_PATHS = new Set(PUBLIC_ROUTES.map((r) => r.path));

/** Every route renders inside this: a spinner while a page's code downloads, scroll reset between pages. */
export function RootLayout() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '') || '/';
  // The page came with a frame drawn for another path (a signed-out visitor sent on from /dashboard, a
  // signed-in one from /auth): the app shows at once; the frame's own page shows it when it is ready.
  useLayoutEffect(() => {
    const route = frameRoute();
    if (route !== null && path !== route) showApp();
  }, [path]);
  const toasterNeeded = useRef(false);
  if (!PUBLIC_PATHS.has(path)) toasterNeeded.current = true;
  const toasterWanted = toasterNeeded.current;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!toasterWanted || ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      timer = setTimeout(() => setReady(true), TOASTER_DELAY_MS);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      clearTimeout(timer);
    };
  }, [toasterWanted, ready]);
  return (
    <>
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
      {toasterWanted && ready ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </>
  );
}
