import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner';

/** Every route renders inside this: a spinner while a page's code downloads, scroll reset between pages. */
export function RootLayout() {
  return (
    <>
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
