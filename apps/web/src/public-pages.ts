// The prerendered public pages and how the build-time prerender loads each (no react-router: see public-app.tsx).
import type { ComponentType } from 'react';

export const PUBLIC_PAGES: Record<string, () => Promise<ComponentType>> = {
  '/': () => import('./pages/landing/landing-page').then((m) => m.LandingPage),
  '/csv-converter-online': () =>
    import('./pages/csv-converter-online/csv-converter-online-page').then((m) => m.CsvConverterOnlinePage),
  '/quickbooks-csv-import': () =>
    import('./pages/quickbooks-csv-import/quickbooks-csv-import-page').then((m) => m.QuickbooksCsvImportPage),
  '/shopify-csv-upload': () =>
    import('./pages/shopify-csv-upload/shopify-csv-upload-page').then((m) => m.ShopifyCsvUploadPage),
  '/csv-uploader': () => import('./pages/csv-uploader/csv-uploader-page').then((m) => m.CsvUploaderPage),
  '/help-center': () => import('./pages/help-center/help-center-page').then((m) => m.HelpCenterPage),
  '/documentation': () => import('./pages/documentation/documentation-page').then((m) => m.DocumentationPage),
  '/privacy': () => import('./pages/privacy/privacy-page').then((m) => m.PrivacyPage),
  '/terms': () => import('./pages/terms/terms-page').then((m) => m.TermsPage),
};

/** '/terms/' → '/terms'. */
export function normalisePath(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}
