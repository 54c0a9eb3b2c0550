// Loaded by the sign-in island (auth-island.ts) for its first toast (a refused log-in, a missing field): the
// app's own toast area (components/toaster), mounted in a React root of its own at the end of <body>.
import { ChakraProvider } from '@chakra-ui/react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { system } from '../app/theme';
import { Toaster, showToast, type ShowToastOptions } from '../components/toaster';

let mounted = false;

export function showAuthToast(options: ShowToastOptions): void {
  if (!mounted) {
    mounted = true;
    const host = document.createElement('div');
    document.body.append(host);
    flushSync(() =>
      createRoot(host).render(
        <ChakraProvider value={system}>
          <Toaster />
        </ChakraProvider>,
      ),
    );
  }
  showToast(options);
}
