import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { getQueryFn } from '../lib/api-client';
import { system } from './theme';

/**
 * Spec §7 client defaults: the default fetcher GETs the key's parts joined by '/', a 401 is an error;
 * cached data never goes stale, no refetch on focus or reconnect, no polling, no retries. Hooks that need
 * fresher data (the session user, the profile) say so themselves.
 */
export const swrDefaults: SWRConfiguration = {
  fetcher: getQueryFn<unknown>({ on401: 'throw' }),
  revalidateIfStale: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  refreshInterval: 0,
  shouldRetryOnError: false,
};

/** The toast area is mounted by RootLayout (lazily, so public pages do not download it). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <SWRConfig value={swrDefaults}>{children}</SWRConfig>
    </ChakraProvider>
  );
}
