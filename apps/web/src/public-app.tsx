// A prerendered public page, hydrated on its own: the theme and the page, without the router, SWR or the
// signed-in app (budget: ≤ 150 KB gzipped JavaScript for `/`). Links between public pages and into the
// app are plain page loads. The build-time prerender renders exactly this tree, so hydration matches.
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
