import AxeBuilder from '@axe-core/playwright';
import { PLANS, PLAN_KEYS } from '@csv-mapper/domain';
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

// The public site (issue 8): every page's key sections, links, the FAQ accordion, accessibility, the
// prerendered HTML a crawler gets, and screenshots at phone and desktop widths for a human to look at.

const SCREEN_DIR = path.resolve(__dirname, '../../test-output/public-screens');

const PAGES: Array<{ path: string; h1: RegExp; sections: string[] }> = [
  {
    path: '/',
    h1: /Map any CSV to the format your software expects/,
    sections: [
      'Every system wants its own CSV',
      'Everything a messy export needs',
      'Worked examples',
      'How it works',
      'Simple pricing',
      'Security and privacy',
      'Frequently asked questions',
      'Your next import, without the spreadsheet surgery',
    ],
  },
  {
    path: '/csv-converter-online',
    h1: /CSV converter online/,
    sections: [
      'How it works',
      'Basic converter vs smart mapping',
      'Supported formats',
      'Three common conversions',
      'Benefits',
      'Worked examples',
      'Security',
      'CSV converter FAQ',
    ],
  },
  {
    path: '/quickbooks-csv-import',
    h1: /QuickBooks CSV import/,
    sections: [
      'Common import errors and the fix',
      'Import a CSV into QuickBooks in 5 steps',
      'Online vs Desktop, CSV vs IIF',
      'What each import needs',
      'Import wizard, spreadsheet or CSV Mapper?',
      'Worked examples',
      'Before and after',
      'Security',
      'QuickBooks CSV import FAQ',
    ],
  },
  {
    path: '/shopify-csv-upload',
    h1: /Shopify CSV upload/,
    sections: [
      'Why Shopify uploads fail',
      'Worked examples',
      'How it works',
      'Example mapping',
      'Benefits',
      'Security',
      'Shopify CSV upload FAQ',
      'Case study: 500 products a month',
    ],
  },
  {
    path: '/csv-uploader',
    h1: /Upload a CSV/,
    sections: [
      'What happens when you upload',
      'A CSV that uploads cleanly',
      'Where is your file going?',
      'Security',
    ],
  },
  {
    path: '/terms',
    h1: /Terms of Service/,
    sections: ['1. Acceptance of these terms', '6. Subscriptions and billing', '12. Contact'],
  },
  { path: '/privacy', h1: /Privacy Policy/, sections: ['1. Who we are', '13. Changes to this policy'] },
  {
    path: '/help-center',
    h1: /Help Center/,
    sections: ['Getting Started', 'Frequently Asked Questions', 'Troubleshooting', 'Still stuck?'],
  },
  {
    path: '/documentation',
    h1: /Documentation/,
    sections: [
      'User guide',
      'API reference',
      'Authentication: Bearer API keys',
      'curl quick start: upload → process → poll → download',
      'Webhooks',
      'Integrations',
    ],
  },
];

/** Visits a page and fails on any console error or page error. */
async function open(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  return errors;
}

for (const p of PAGES) {
  test(`${p.path} renders its key sections without errors`, async ({ page }) => {
    const errors = await open(page, p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
    for (const s of p.sections)
      await expect(page.getByRole('heading', { level: 2, name: s, exact: true })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'CSV Mapper home' })).toHaveAttribute(
      'href',
      '/',
    );
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${p.path}$`),
    );
    await expect(page.locator('head meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
    if (
      ![
        '/',
        '/csv-converter-online',
        '/quickbooks-csv-import',
        '/shopify-csv-upload',
        '/csv-uploader',
      ].includes(p.path)
    )
      await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(errors).toEqual([]);
  });
}

test('every call to action on the landing pages goes to /auth, and the landing page sells the catalogue plans', async ({
  page,
}) => {
  for (const p of [
    '/',
    '/csv-converter-online',
    '/quickbooks-csv-import',
    '/shopify-csv-upload',
    '/csv-uploader',
  ]) {
    await page.goto(p);
    const ctas = page.getByRole('link', { name: /^(Get Started Free|Try Free|Start with|Convert)/ });
    expect(await ctas.count()).toBeGreaterThan(1);
    for (const href of await ctas.evaluateAll((els) => els.map((e) => e.getAttribute('href'))))
      // /auth, opening its Sign Up tab (public pages are static HTML: they link with ?tab=signup)
      expect(href, `a call to action on ${p}`).toMatch(/^\/auth(\?tab=signup)?$/);
  }
  await page.goto('/auth?tab=signup');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/');
  const pricing = page.locator('#pricing');
  for (const key of PLAN_KEYS) {
    const plan = PLANS[key];
    const card = pricing.locator('[aria-labelledby="plan-' + key + '"]');
    await expect(card.getByRole('heading', { name: plan.name })).toBeVisible();
    await expect(card).toContainText(plan.priceGbp === null ? 'Custom' : `£${plan.priceGbp}`);
    for (const f of plan.features) await expect(card).toContainText(f);
  }
});

test('skip-to-content link is the first stop on two landing pages', async ({ page }) => {
  for (const p of ['/', '/quickbooks-csv-import', '/shopify-csv-upload']) {
    await page.goto(p);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  }
});

test('internal links on the public pages resolve to real pages (no 404)', async ({ page }) => {
  const targets = new Set<string>();
  for (const p of PAGES) {
    await page.goto(p.path);
    const hrefs = await page
      .locator('a[href^="/"]')
      .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).getAttribute('href') as string));
    for (const h of hrefs) targets.add(h.split('#')[0] || '/');
  }
  expect(targets.size).toBeGreaterThanOrEqual(10);
  for (const t of targets) {
    await page.goto(t);
    await expect(
      page
        .getByRole('heading', { level: 1 })
        .or(page.getByRole('tab', { name: 'Login' }))
        .first(),
    ).toBeVisible();
    await expect(page.getByText('404 Page Not Found'), `link target ${t}`).toHaveCount(0);
  }
  // In-page anchors of the footer exist on the landing page.
  await page.goto('/');
  for (const id of ['features', 'how-it-works', 'pricing']) {
    await expect(page.locator('footer').locator(`a[href="#${id}"]`)).toHaveCount(1);
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  }
  for (const to of ['/help-center', '/privacy', '/terms'])
    await expect(page.locator('footer').locator(`a[href="${to}"]`)).toHaveCount(1);
});

test('FAQ accordion: one answer open at a time, clicking the open one closes it, keyboard operable', async ({
  page,
}) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const faq = page.locator('#faq');
  const triggers = faq.getByRole('button');
  await expect(triggers).toHaveCount(5);
  // The prerendered page does not hydrate: the island script wires the buttons and marks the accordion ready.
  await expect(faq.locator('[data-faq][data-faq-ready]')).toHaveCount(1);
  const expanded = () => faq.locator('button[aria-expanded="true"]');

  await triggers.nth(0).click();
  await expect(triggers.nth(0)).toHaveAttribute('aria-expanded', 'true');
  await expect(faq.getByText(/runs in the browser on any device/)).toBeVisible();
  await triggers.nth(2).click();
  await expect(triggers.nth(2)).toHaveAttribute('aria-expanded', 'true');
  await expect(triggers.nth(0)).toHaveAttribute('aria-expanded', 'false');
  await expect(expanded()).toHaveCount(1);
  await triggers.nth(2).click();
  await expect(expanded()).toHaveCount(0);

  // Keyboard: focus a question, Enter opens it, Space closes it, ArrowDown moves to the next question.
  await triggers.nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(triggers.nth(1)).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Space');
  await expect(triggers.nth(1)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowDown');
  await expect(triggers.nth(2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(expanded()).toHaveCount(1);
  await expect(triggers.nth(2)).toHaveAttribute('aria-expanded', 'true');
});

test('public pages load no app JavaScript: only the island script, on the pages with an FAQ or the API reference', async ({
  page,
}) => {
  for (const p of PAGES) {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(p.path);
    await page.waitForLoadState('networkidle');
    page.removeAllListeners('request');
    const hasIsland = (await page.locator('[data-faq], [data-island]').count()) > 0;
    // The island script and Vite's small preload helper it imports (for the API reference's lazy chunk).
    if (hasIsland)
      expect(scripts, p.path).toContainEqual(expect.stringMatching(/^\/assets\/islands-[\w-]+\.js$/));
    for (const s of scripts) expect(s, p.path).toMatch(/^\/assets\/(islands|preload-helper)-[\w-]+\.js$/);
    if (!hasIsland) expect(scripts, p.path).toEqual([]);
    // The CSS is in the page: one <style> in <head>, none left in the body for a script to manage.
    expect(await page.locator('head style').count(), p.path).toBe(1);
    expect(await page.locator('body style').count(), p.path).toBe(0);
  }
  // Into the app and back: the public page's link loads /auth, the app renders the sign-in form, and the
  // app's own navigation to a public page renders it there.
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('unknown paths answer 404 with the not-found page; public pages and app routes answer 200', async ({
  page,
  request,
}) => {
  for (const path of ['/no-such-page', '/pricing', '/dashboard/extra/segments', '/terms/nested']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(res.headers()['content-type'], path).toMatch(/text\/html/);
    expect(await res.text(), path).toContain('404 Page Not Found');
  }
  for (const path of [
    '/',
    '/terms',
    '/help-center/',
    '/auth',
    '/dashboard',
    '/team/join?token=x',
    '/billing/checkout/cs_1',
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
  }
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  const api = await request.get('/api/no-such-endpoint');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
});

test('axe-core finds no serious or critical violations on any public page', async ({ page }) => {
  const report: string[] = [];
  for (const p of PAGES) {
    await page.goto(p.path);
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    for (const v of bad)
      report.push(
        `${p.path}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
      );
    console.log(
      `axe ${p.path}: ${violations.length} violations (${violations.map((v) => `${v.id}:${v.impact}`).join(', ')}), ${bad.length} serious/critical`,
    );
  }
  expect(report).toEqual([]);
});

test('the HTML served for / without JavaScript has the content, head tags and JSON-LD', async ({
  request,
  browser,
}) => {
  const res = await request.get('/');
  expect(res.status()).toBe(200);
  const html = await res.text();
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toMatch(/<title>CSV Mapper – [^<]+<\/title>/);
  expect(head).toMatch(/<meta name="description" content="[^"]{50,}"/);
  expect(head).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/"/);
  expect(head).toContain('<meta property="og:locale" content="en_GB"/>');
  expect(head).toContain('<meta name="twitter:card" content="summary_large_image"/>');
  expect(head).toContain('<meta property="og:image:width" content="1200"/>');
  const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]),
  );
  const types = jsonLd.map((d) => [d['@type']].flat().join(','));
  expect(types).toEqual(
    expect.arrayContaining(['FAQPage', 'BreadcrumbList', 'SoftwareApplication,WebApplication']),
  );
  const app = jsonLd.find((d) => [d['@type']].flat().includes('WebApplication'));
  expect(app.offers).toContainEqual(
    expect.objectContaining({ name: 'Free', price: '0', priceCurrency: 'GBP' }),
  );
  expect(app.offers).toContainEqual(
    expect.objectContaining({
      name: PLANS.pro.name,
      price: String(PLANS.pro.priceGbp),
      priceCurrency: 'GBP',
    }),
  );
  expect(jsonLd.find((d) => d['@type'] === 'FAQPage').mainEntity).toHaveLength(5);
  expect(html).toContain('Map any CSV to the format your software expects');

  // A browser without JavaScript sees the prerendered page, styled, for every public route.
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  for (const p of PAGES) {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
  }
  await ctx.close();

  // App routes get the empty shell; crawler files are served at the root.
  expect(await (await request.get('/dashboard')).text()).toContain('<div id="root"></div>');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /dashboard');
  // the sign-in page is a page people search for ("csv mapper login"): crawlable and indexed
  expect(robots).not.toContain('Disallow: /auth');
  expect(await (await request.get('/auth')).text()).toMatch(/<meta name="robots" content="index, follow"/);
  expect(robots).toMatch(/Sitemap: https?:\/\/\S+\/sitemap\.xml/);
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const p of PAGES)
    expect(sitemap).toMatch(new RegExp(`<loc>[^<]*${p.path === '/' ? '/' : p.path}</loc>`));
});

test('the documentation lists every endpoint of the served OpenAPI document', async ({ page, request }) => {
  const doc = await (await request.get('/api/docs/openapi.json')).json();
  await page.goto('/documentation');
  // The static page loads the live reference when its section comes near the viewport.
  await page.locator('#api-reference').scrollIntoViewIfNeeded();
  const rows = page.getByTestId('api-endpoint');
  let count = 0;
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
    for (const method of Object.keys(ops)) {
      count += 1;
      await expect(
        rows.filter({ hasText: p }).filter({ hasText: method.toUpperCase() }).first(),
      ).toBeVisible();
    }
  await expect(rows).toHaveCount(count);
  await expect(page.getByText('Authorization: Bearer csvm_…').first()).toBeVisible();
  await expect(page.getByLabel('curl example of the API flow')).toContainText('/api/jobs/$JOB_ID/result');
  await expect(page.getByLabel('Webhook signature verification in Node.js')).toContainText(
    'webhook-signature',
  );
});

test('screenshots of every public page at 375 and 1280 px', async ({ browser }) => {
  fs.mkdirSync(SCREEN_DIR, { recursive: true });
  for (const width of [375, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await ctx.newPage();
    for (const p of PAGES) {
      await page.goto(p.path);
      await page.waitForLoadState('networkidle');
      // Nothing may stick out sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${p.path} at ${width}px is wider than the screen`).toBeLessThanOrEqual(0);
      const file = path.join(SCREEN_DIR, `${p.path === '/' ? 'home' : p.path.slice(1)}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    }
    await ctx.close();
  }
});
