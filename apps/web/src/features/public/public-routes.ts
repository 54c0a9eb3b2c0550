// The public, indexable routes: prerendered to static HTML at build time and listed in sitemap.xml.
// App routes are kept out of search engines (robots.txt Disallow + their own 'noindex' tags).

export const PUBLIC_ROUTES: ReadonlyArray<{ path: string; priority: number }> = [
  { path: '/', priority: 1.0 },
  { path: '/csv-converter-online', priority: 0.9 },
  { path: '/quickbooks-csv-import', priority: 0.9 },
  { path: '/shopify-csv-upload', priority: 0.9 },
  { path: '/csv-uploader', priority: 0.8 },
  { path: '/help-center', priority: 0.7 },
  { path: '/documentation', priority: 0.7 },
  { path: '/privacy', priority: 0.3 },
  { path: '/terms', priority: 0.3 },
];

// /auth (log in / sign up) is indexed but not in the sitemap: a page people search for, not a landing page.
export const NOINDEX_PATHS = [
  '/forgot-password',
  '/reset-password',
  '/dashboard',
  '/csv-mapper',
  '/saved-mappings',
  '/profile',
  '/billing/',
  '/api/',
];

export const GUIDE_PAGES = [
  { to: '/csv-converter-online', label: 'CSV Converter Online' },
  { to: '/quickbooks-csv-import', label: 'QuickBooks CSV Import' },
  { to: '/shopify-csv-upload', label: 'Shopify CSV Upload' },
  { to: '/csv-uploader', label: 'CSV Uploader' },
];
