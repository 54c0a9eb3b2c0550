// The route table of spec §2 (ARCHITECTURE: the mapper lives at /csv-mapper). Every page is its own chunk,
// so public pages never download the signed-in app. The table is shared by the browser router (app.tsx)
// and the build-time prerender of the public pages (entry-server.tsx).
import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ProtectedRoute } from './protected-route';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

function page(load: () => Promise<ComponentType>) {
  const Page = lazy(async () => ({ default: await load() }));
  return <Page />;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      // Public
      { path: '/', element: page(() => import('../pages/landing/landing-page').then((m) => m.LandingPage)) },
      { path: '/auth', element: page(() => import('../pages/auth/auth-page').then((m) => m.AuthPage)) },
      {
        path: '/forgot-password',
        element: page(() =>
          import('../pages/forgot-password/forgot-password-page').then((m) => m.ForgotPasswordPage),
        ),
      },
      {
        path: '/reset-password',
        element: page(() =>
          import('../pages/reset-password/reset-password-page').then((m) => m.ResetPasswordPage),
        ),
      },
      { path: '/terms', element: page(() => import('../pages/terms/terms-page').then((m) => m.TermsPage)) },
      {
        path: '/privacy',
        element: page(() => import('../pages/privacy/privacy-page').then((m) => m.PrivacyPage)),
      },
      {
        path: '/help-center',
        element: page(() => import('../pages/help-center/help-center-page').then((m) => m.HelpCenterPage)),
      },
      {
        path: '/documentation',
        element: page(() =>
          import('../pages/documentation/documentation-page').then((m) => m.DocumentationPage),
        ),
      },
      {
        path: '/csv-uploader',
        element: page(() => import('../pages/csv-uploader/csv-uploader-page').then((m) => m.CsvUploaderPage)),
      },
      {
        path: '/csv-converter-online',
        element: page(() =>
          import('../pages/csv-converter-online/csv-converter-online-page').then(
            (m) => m.CsvConverterOnlinePage,
          ),
        ),
      },
      {
        path: '/shopify-csv-upload',
        element: page(() =>
          import('../pages/shopify-csv-upload/shopify-csv-upload-page').then((m) => m.ShopifyCsvUploadPage),
        ),
      },
      {
        path: '/quickbooks-csv-import',
        element: page(() =>
          import('../pages/quickbooks-csv-import/quickbooks-csv-import-page').then(
            (m) => m.QuickbooksCsvImportPage,
          ),
        ),
      },
      // An invitation link: works signed in or out (signing in comes back here).
      {
        path: '/team/join',
        element: page(() => import('../pages/team-join/team-join-page').then((m) => m.TeamJoinPage)),
      },
      // Signed-in users only
      {
        element: <ProtectedRoute />,
        children: [
          {
            path: '/dashboard',
            element: page(() => import('../pages/dashboard/dashboard-page').then((m) => m.DashboardPage)),
          },
          {
            path: '/csv-mapper',
            element: page(() => import('../pages/csv-mapper/csv-mapper-page').then((m) => m.CsvMapperPage)),
          },
          {
            path: '/saved-mappings',
            element: page(() =>
              import('../pages/saved-mappings/saved-mappings-page').then((m) => m.SavedMappingsPage),
            ),
          },
          {
            path: '/profile',
            element: page(() => import('../pages/profile/profile-page').then((m) => m.ProfilePage)),
          },
          {
            path: '/billing/checkout/:sessionId',
            element: page(() =>
              import('../pages/billing-checkout/billing-checkout-page').then((m) => m.BillingCheckoutPage),
            ),
          },
        ],
      },
      {
        path: '*',
        element: page(() => import('../pages/not-found/not-found-page').then((m) => m.NotFoundPage)),
      },
    ],
  },
];
