// The signed-in app and every route the app shell (app.html) serves. Prerendered public pages do not load
// this: they are static HTML with their CSS inlined and an island script for the FAQ (scripts/prerender-web.js);
// when the app itself navigates to a public page, the router renders it like any other page.
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(<App />);
