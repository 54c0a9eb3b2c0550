import { Suspense, lazy, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { PUBLIC_ROUTES } from '../features/public/public-routes';

// The toast machine is ~17 KB gzipped that the public pages never use. It loads with the first app page
// and then stays mounted for the rest of the visit, so a toast raised just before navigating to a public
// page (e.g. 'Logged out successfully' on the way to '/') still shows.
const Toaster = lazy(() => import('../components/toaster').then((m) => ({ default: m.Toaster })));
const PUBLIC_PATHS = new Set(PUBLIC_ROUTES.map((r) => r.path));

/** Every route renders inside this: a spinner while a page's code downloads, scroll reset between pages. */
export function RootLayout() {
  const { pathname } = useLocation();
  const toasterNeeded = useRef(false);
  if (!PUBLIC_PATHS.has(pathname.replace(/\/+$/, '') || '/')) toasterNeeded.current = true;
  return (
    <>
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
      {toasterNeeded.current ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </>
  );
}
