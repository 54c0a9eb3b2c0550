// The tree the build-time prerender renders for a public page (entry-server.tsx): the theme and the page,
// without the router, SWR or the signed-in app. The result is static HTML that does not hydrate (budget:
// ≤ 60 KB gzipped JavaScript per public page, scripts/check-js-budget.js); links between public pages and
// into the app are plain page loads.
import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode, type ComponentType } from 'react';
import { system } from './app/theme';

export function PublicApp({ Page }: { Page: ComponentType }) {
  return (
    <StrictMode>
      <ChakraProvider value={system}>
        <Page />
      </ChakraProvider>
    </StrictMode>
  );
}
