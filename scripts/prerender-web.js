#!/usr/bin/env node
// Step 2 of `npm run build:web`: renders the public routes to static HTML. The pages do not hydrate: they
// ship no app JavaScript, their CSS (the emotion styles rendered at build time) sits in one <style> in
// <head>, and a page with an FAQ loads only the island script (src/islands/public-islands.ts, ~1 KB).
//   dist/web/index.html            → '/' prerendered
//   dist/web/<route>/index.html    → each other public route
//   dist/web/app.html              → the empty SPA shell the api serves for the app's routes (app code preloaded)
//   dist/web/auth/index.html       → the sign-in page, static with its own island (signInPage)
//   dist/web/dashboard/index.html  → the app shell for the dashboard, with the page's first screen drawn in
//                                    the HTML and its code and first data preloaded (APP_SHELLS)
//   dist/web/404.html              → the not-found page, which the api answers 404 with for every other path
//   dist/web/app-routes.json       → the app router's paths (apps/web/src/app/router.tsx), read by the api
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

let manifestCache;
/** Vite's manifest of the build, read once. */
function viteManifest() {
  manifestCache ??= JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  return manifestCache;
}

/** The build's public paths of an island script (and anything it imports), from Vite's manifest. */
function islandScripts(key = 'src/islands/public-islands.ts') {
  const manifest = viteManifest();
  if (!manifest[key]) throw new Error(`the Vite manifest has no ${key}`);
  return {
    entry: `/${manifest[key].file}`,
    preload: (manifest[key].imports ?? []).map((k) => `/${manifest[k].file}`),
  };
}

/**
 * The emotion <style> tags React rendered in place, moved into one <style> in <head> (same order, so the
 * same cascade; a tag rendered twice is kept once). Nothing is injected at run time: the pages do not hydrate.
 */
const STYLE_TAG = /<style data-emotion="([^"]*)"[^>]*>([\s\S]*?)<\/style>/g;

function extractStyles(body) {
  const seen = new Set();
  const css = [];
  const rest = body.replace(STYLE_TAG, (_, key, rules) => {
    const id = `${key}\n${rules}`;
    if (!seen.has(id)) {
      seen.add(id);
      css.push(rules);
    }
    return '';
  });
  return { css: css.join(''), body: rest };
}

/**
 * Chakra's global CSS declares every theme token as a custom property on :root (~500 of them); a static page
 * uses a fraction. Keeps the declarations the page reaches through var(), directly or through other
 * custom properties, and drops the rest: less CSS to parse and less to inherit on every element. A
 * declaration the simple pattern cannot read whole (a ';' inside a string) is kept as it is.
 */
const CUSTOM_PROPERTY = /([{;])\s*(--[\w-]+)\s*:([^;{}]*)(?=[;}])/g;
const VAR_REF = /var\(\s*(--[\w-]+)/g;

function pruneCustomProperties(css, body) {
  const values = new Map();
  for (const [, , name, value] of css.matchAll(CUSTOM_PROPERTY)) {
    if (!values.has(name)) values.set(name, []);
    values.get(name).push(value);
  }
  const used = new Set();
  const pending = [...`${css.replace(CUSTOM_PROPERTY, '$1')}${body}`.matchAll(VAR_REF)].map((m) => m[1]);
  while (pending.length) {
    const name = pending.pop();
    if (used.has(name)) continue;
    used.add(name);
    for (const value of values.get(name) ?? []) for (const m of value.matchAll(VAR_REF)) pending.push(m[1]);
  }
  const balanced = (v) =>
    (v.match(/\(/g) ?? []).length === (v.match(/\)/g) ?? []).length &&
    (v.match(/["']/g) ?? []).length % 2 === 0;
  return css
    .replace(CUSTOM_PROPERTY, (all, lead, name, value) => (used.has(name) || !balanced(value) ? all : lead))
    .replace(/;{2,}/g, ';')
    .replace(/\{;/g, '{');
}

/**
 * A static page: the shell without the app's scripts, the page's head tags and CSS, the island if needed.
 * `page.css` adds rules of the page's own and `page.scripts` replaces the island's tags (the sign-in page's,
 * signInPage).
 */
function staticPage(shell, html, islands, page = {}) {
  const { head, body: withStyles } = splitHead(html);
  const { css: allCss, body } = extractStyles(withStyles);
  const css = pruneCustomProperties(allCss, body) + (page.css ?? '');
  const interactive = body.includes('data-faq=') || body.includes('data-island=');
  const script = (
    page.scripts ??
    (interactive
      ? [
          ...islands.preload.map((f) => `<link rel="modulepreload" crossorigin href="${f}">`),
          `<script type="module" crossorigin src="${islands.entry}"></script>`,
        ]
      : [])
  ).join('\n    ');
  return {
    head,
    interactive,
    html: shell
      .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
      .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
      // Replacer functions: a '$' in the page or its CSS is text, not a replacement pattern.
      .replace(/<title>[^<]*<\/title>/, () =>
        [...head, `<style>${css}</style>`, script].filter(Boolean).join('\n    '),
      )
      .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`)
      // The page reads fine without JavaScript, so the shell's "needs JavaScript" notice does not apply
      // (the sign-in page's forms do need it: page.noscript keeps the notice).
      .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, (notice) => (page.noscript ? notice : '')),
  };
}

/**
 * An app shell with a page's frame: the app's scripts stay, the page's head tags and CSS (with the variant
 * rules) replace the shell's <title>, and the frame goes before the empty #root, inert and hidden from
 * assistive technology (it is a picture of the page until the app takes its place).
 */
function framePage(shell, html, route) {
  const { head, body: withStyles } = splitHead(html);
  const { css: allCss, body } = extractStyles(withStyles);
  const css = pruneCustomProperties(allCss, body) + frameCss(body);
  return shell
    .replace(/<title>[^<]*<\/title>/, () => [...head, `<style>${css}</style>`].join('\n    '))
    .replace(
      '<div id="root"></div>',
      () =>
        `<div id="app-frame" data-route="${route}" inert aria-hidden="true">${body}</div><div id="root"></div>`,
    );
}

/**
 * App routes whose first screen gets a shell of its own (served for that path like a prerendered page): the
 * app shell plus <link rel="modulepreload"> for the app's code and the route's page chunk (and everything
 * they import statically), and <link rel="preload" as="fetch"> for the api answers the page waits for.
 * Without them the browser learns of the page chunk only after the app bundle ran and the session check
 * (/api/user) answered, and of the page's data after that: three round trips one after another before the
 * first screen. The preloads match the app's own fetches (same URL, CORS mode, credentials 'include'),
 * which take their answers.
 *
 * Each also carries the page's first screen, drawn at build time without data (renderFrame, see
 * src/lib/app-frame.tsx): <div id="app-frame" inert> before the empty #root, its CSS in <head>, so the
 * browser paints the page from the HTML; the app starts after that paint, renders off the document and
 * takes the frame's place when its page is ready. Its preloads wait in a <template> until that paint. A
 * small classic script in <head> (src/islands/app-frame-boot.ts) picks the frame's variant before it
 * paints: the dashboard's greeting and upgrade card from the last visit.
 */
const APP_SHELLS = {
  '/dashboard': {
    page: 'src/pages/dashboard/dashboard-page.tsx',
    data: ['/api/user', '/api/user/profile', '/api/jobs', '/api/plans'],
  },
};
/** The app's own chunk, which src/main.tsx imports (after the frame's paint, when there is one). */
const APP_START = 'src/app/start.tsx';
const FRAME_BOOT = 'src/islands/app-frame-boot.ts';
/** The id of the <template> holding a frame shell's preloads (src/lib/frame-ids.ts FRAME_PRELOADS_ID). */
const FRAME_PRELOADS = 'app-preloads';

/** Shows the frame variant the boot script chose (attributes on <html>); the defaults without it. */
function frameCss(body) {
  const plans = [...new Set([...body.matchAll(/data-frame-upsell="([\w-]+)"/g)].map((m) => m[1]))];
  return [
    '[data-frame-upsell]{display:none}',
    'html:not([data-frame-plan]) [data-frame-upsell="free"]{display:block}',
    ...plans.map((p) => `html[data-frame-plan="${p}"] [data-frame-upsell="${p}"]{display:block}`),
  ].join('');
}

/** The files a manifest entry loads: its own and everything it imports statically, minus `skip`. */
function chunkFiles(manifest, key, skip) {
  if (!manifest[key]) throw new Error(`the Vite manifest has no ${key}`);
  const files = [];
  const seen = new Set();
  const walk = (k) => {
    if (seen.has(k)) return;
    seen.add(k);
    const file = manifest[k].file;
    if (!skip.has(file)) {
      skip.add(file);
      files.push(file);
    }
    for (const imp of manifest[k].imports ?? []) walk(imp);
  };
  walk(key);
  return files;
}

function inHead(html, links) {
  const out = html.replace(/(\s*)<\/head>/, (all, space) => `${space}  ${links.join(`${space}  `)}${all}`);
  if (out === html) throw new Error('dist/web/index.html has no </head>');
  return out;
}

async function appShells(shell, renderFrame) {
  const manifest = viteManifest();
  const inShell = () =>
    new Set(
      [
        ...shell.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]*(?:src|href)="\/([^"]+)"/g),
      ].map((m) => m[1]),
    );
  const modulepreload = (f) => `<link rel="modulepreload" crossorigin href="/${f}">`;
  // After the app's own scripts (the most bytes, needed first), before </head>.
  const app = inHead(shell, chunkFiles(manifest, APP_START, inShell()).map(modulepreload));
  const boot = manifest[FRAME_BOOT];
  if (!boot) throw new Error(`the Vite manifest has no ${FRAME_BOOT}`);
  const shells = [];
  for (const [route, { page, data }] of Object.entries(APP_SHELLS)) {
    const skip = inShell();
    const appFiles = chunkFiles(manifest, APP_START, skip);
    const pageFiles = chunkFiles(manifest, page, skip);
    // The session check and the page's data, then the app's code and the page's: in a <template> that
    // src/main.tsx puts into <head> after the frame's first paint, so they do not compete with it (and
    // Lighthouse, which cannot tell when a module ran, does not count them as blocking that paint).
    const preloads = [
      ...data.map((url) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">`),
      ...[...appFiles, ...pageFiles].map(modulepreload),
    ];
    const html = inHead(framePage(shell, await renderFrame(route), route), [
      `<script src="/${boot.file}"></script>`,
      `<template id="${FRAME_PRELOADS}">${preloads.join('')}</template>`,
    ]);
    shells.push({ route, html, count: pageFiles.length });
  }
  return { app, shells };
}

/**
 * The sign-in page (/auth) as a visitor who is not signed in gets it: static, like the public pages, with
 * both tabs' views (src/pages/auth/auth-static-page.tsx) and the island that makes its forms work
 * (src/islands/auth-island.ts); the app loads only on the page signing in leads to. The boot script
 * (src/islands/app-frame-boot.ts) shows the Sign Up tab before the first paint when the link asked for
 * it (?tab=signup), the island when the tab is chosen; the CSS below shows the view the <html> attribute
 * names. The boot script also loads the island, after the first paint, so its code does not stand before
 * that paint. The forms post if submitted before the island runs, so a password never goes into a URL; the
 * api sends such a post back to /auth (apps/api/src/bootstrap.ts).
 */
const SIGN_IN_ISLAND = 'src/islands/auth-island.ts';
const TAB_CSS = [
  '[data-frame-tab-variant]{display:none}',
  'html:not([data-frame-tab]) [data-frame-tab-variant="login"],html[data-frame-tab="signup"] [data-frame-tab-variant="signup"]{display:block}',
].join('');

function signInPage(shell, html) {
  const boot = viteManifest()[FRAME_BOOT];
  if (!boot) throw new Error(`the Vite manifest has no ${FRAME_BOOT}`);
  if (!/<form aria-label="Login"/.test(html) || !/<form aria-label="Sign Up"/.test(html))
    throw new Error('the sign-in page rendered without its Login and Sign Up forms');
  const island = islandScripts(SIGN_IN_ISLAND);
  const bootTag = `<script src="/${boot.file}" data-island="${island.entry}" data-preload="${island.preload.join(' ')}"></script>`;
  return staticPage(shell, html.replace(/<form /g, '<form method="post" '), null, {
    css: TAB_CSS,
    scripts: [bootTag],
    noscript: true,
  }).html;
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
  const {
    render,
    renderNotFound,
    renderFrame,
    renderAuth,
    appRoutePaths,
    PUBLIC_ROUTES,
    NOINDEX_PATHS,
    SITE_URL,
  } = await import(pathToFileURL(ssrEntry).href);
  const { app, shells } = await appShells(shell, renderFrame);
  fs.writeFileSync(path.join(dist, 'app.html'), app);
  for (const { route, html, count } of shells) {
    const file = path.join(dist, route.slice(1), 'index.html');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, html);
    console.log(
      `prerender: ${route} → ${path.relative(root, file)} (app shell with its first screen, ${(html.length / 1024).toFixed(0)} KB; ${count} page chunks preloaded)`,
    );
  }

  const signIn = signInPage(shell, await renderAuth());
  fs.mkdirSync(path.join(dist, 'auth'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'auth/index.html'), signIn);
  console.log(
    `prerender: /auth → dist/web/auth/index.html (sign-in page, ${(signIn.length / 1024).toFixed(0)} KB, sign-in island)`,
  );

  const islands = islandScripts();
  for (const { path: route } of PUBLIC_ROUTES) {
    const { head, html, interactive } = staticPage(shell, await render(route), islands);
    if (!head.some((t) => t.startsWith('<title>'))) throw new Error(`${route} rendered no <title>`);
    if (html.includes('404 Page Not Found')) throw new Error(`${route} rendered the not-found page`);
    const file =
      route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, html);
    console.log(
      `prerender: ${route} → ${path.relative(root, file)} (${(html.length / 1024).toFixed(0)} KB${interactive ? ', FAQ island' : ', no JS'})`,
    );
  }
  const notFound = staticPage(shell, await renderNotFound(), islands);
  fs.writeFileSync(path.join(dist, '404.html'), notFound.html);
  const appRoutes = appRoutePaths();
  fs.writeFileSync(path.join(dist, 'app-routes.json'), `${JSON.stringify(appRoutes, null, 2)}\n`);
  console.log(`prerender: 404.html and app-routes.json (${appRoutes.length} app routes)`);

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
