// Names shared by the app shells' first-screen frame (scripts/prerender-web.js), the app (app-frame.tsx) and
// main.tsx, in a module of their own so the small entry chunk does not pull in React for them.
export const FRAME_ID = 'app-frame';
/** A frame shell's preloads (api answers, the app's and the page's code), added after the first paint. */
export const FRAME_PRELOADS_ID = 'app-preloads';
/** localStorage key of the dashboard frame's hint; src/islands/app-frame-boot.ts spells it too. */
export const FRAME_HINT_KEY = 'csv-mapper:first-screen';

/** Forgets that hint (a new session: sign-in, sign-up, log out). */
export function forgetFrameHint(): void {
  try {
    localStorage.removeItem(FRAME_HINT_KEY);
  } catch {
    // Nothing stored.
  }
}
