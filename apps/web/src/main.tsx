// The signed-in app and every route the app shell (app.html) serves. Prerendered public pages do not load
// this: they are static HTML with their CSS inlined and an island script for the FAQ (scripts/prerender-web.js);
// when the app itself navigates to a public page, the router renders it like any other page.
// The app's code is a chunk of its own (app/start.tsx; the shells preload it). When the page came with its
// first screen in the HTML (/auth, /dashboard: lib/app-frame.tsx), the app starts after the browser has
// painted that frame (and only then asks for its code and the page's data, scripts/prerender-web.js), so
// they do not stand between the page and its first paint.
import { FRAME_ID, FRAME_PRELOADS_ID } from './lib/frame-ids';

const RELOADED = 'csv-mapper:reloaded-for-app-code';

function start(): void {
  const preloads = document.getElementById(FRAME_PRELOADS_ID);
  if (preloads instanceof HTMLTemplateElement) document.head.append(preloads.content.cloneNode(true));
  import('./app/start')
    .then((m) => {
      sessionStorage.removeItem(RELOADED);
      m.start();
    })
    .catch((err: unknown) => {
      // The app's code could not be loaded (typically a page from before a deploy): one reload, not a
      // frame that never answers.
      console.error(err);
      if (sessionStorage.getItem(RELOADED)) return;
      sessionStorage.setItem(RELOADED, '1');
      window.location.reload();
    });
}

// After the frame's first paint: requestAnimationFrame runs just before it, the timeout just after.
if (document.getElementById(FRAME_ID)) requestAnimationFrame(() => setTimeout(start, 0));
else start();
