#!/usr/bin/env node
// Step 2 of `npm run build:web`: renders the public routes to static HTML so crawlers (and visitors before
// the JavaScript arrives) get the content and head tags; the browser then hydrates the same markup.
//   dist/web/index.html            → '/' prerendered
//   dist/web/<route>/index.html    → each other public route
//   dist/web/app.html              → the empty SPA shell the api serves for every other path
//   dist/web/sitemap.xml, robots.txt
// Uses the SSR bundle from `vite build --ssr src/entry-server.tsx` (dist/web-ssr); needs no browser.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist/web');
const ssrEntry = path.join(root, 'dist/web-ssr/entry-server.mjs');

/**
 * React 19 emits <title>, <meta> and <link> where they are rendered and, when hydrating, adopts the matching
 * tags in <head>: move them there. JSON-LD scripts stay in place (in the body), where hydration expects them.
 */
const HEAD_TAG = /<title>[\s\S]*?<\/title>|<meta [^>]*>|<link rel="canonical"[^>]*>/g;

function splitHead(html) {
  const head = [];
  const body = html.replace(HEAD_TAG, (tag) => {
    head.push(tag);
    return '';
  });
  return { head, body };
}

function xmlEscape(s) {
  return s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c],
  );
}

async function main() {
  const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  if (!shell.includes('<div id="root"></div>')) throw new Error('dist/web/index.html has no empty #root');
  fs.writeFileSync(path.join(dist, 'app.html'), shell);

  const { render, PUBLIC_ROUTES, NOINDEX_PATHS, SITE_URL } = await import(pathToFileURL(ssrEntry).href);
  for (const { path: route } of PUBLIC_ROUTES) {
    const { head, body } = splitHead(await render(route));
    if (!head.some((t) => t.startsWith('<title>'))) throw new Error(`${route} rendered no <title>`);
    if (body.includes('404 Page Not Found')) throw new Error(`${route} rendered the not-found page`);
    const html = shell
      .replace(/<title>[^<]*<\/title>/, head.join('\n    '))
      .replace('<div id="root"></div>', `<div id="root">${body}</div>`)
      // The page reads fine without JavaScript, so the shell's "needs JavaScript" notice does not apply.
      .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
    const file =
      route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, html);
    console.log(`prerender: ${route} → ${path.relative(root, file)} (${(html.length / 1024).toFixed(0)} KB)`);
  }

  const today = new Date().toISOString().slice(0, 10);
  const urls = PUBLIC_ROUTES.map(
    (r) =>
      `  <url><loc>${xmlEscape(`${SITE_URL}${r.path}`)}</loc><lastmod>${today}</lastmod><priority>${r.priority.toFixed(1)}</priority></url>`,
  );
  fs.writeFileSync(
    path.join(dist, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
  fs.writeFileSync(
    path.join(dist, 'robots.txt'),
    `User-agent: *\nAllow: /\n${NOINDEX_PATHS.map((p) => `Disallow: ${p}`).join('\n')}\n\nSitemap: ${SITE_URL}/sitemap.xml\n`,
  );
  console.log(`prerender: sitemap.xml (${PUBLIC_ROUTES.length} URLs) and robots.txt`);
}

main().catch((err) => {
  console.error('prerender:', err);
  process.exit(1);
});
