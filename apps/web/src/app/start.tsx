// The app itself (React, Chakra, the router, SWR): main.tsx loads this chunk, after the first paint when
// the page came with a frame.
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { adoptFrame, showApp } from '../lib/app-frame';
import { takeStashedToast } from '../features/auth/utils/auth-handoff';
import { showToast } from '../features/auth/utils/show-toast';

/** However long the frame's page takes to get its answers, the app shows after this long. */
const FRAME_LIMIT_MS = 10_000;

export function start(): void {
  // Signed in on the static sign-in page (islands/auth-island.ts), which came here with a full page load:
  // its welcome shows here (RootLayout's toast area shows it once it mounts).
  const welcome = takeStashedToast();
  if (welcome) showToast(welcome);
  const root = createRoot(adoptFrame());
  // A transition: React renders the app in slices, giving the browser back the main thread between them,
  // instead of one long task (the frame is on screen meanwhile).
  startTransition(() => root.render(<App />));
  setTimeout(showApp, FRAME_LIMIT_MS);
}
