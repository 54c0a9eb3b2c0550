// Loaded on demand by public-islands.ts on the prerendered /documentation page: the live API reference
// (read from the document the api serves) mounted where the static page shows its loading state.
import { ChakraProvider } from '@chakra-ui/react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { system } from '../app/theme';
import { EndpointTable } from '../features/api-reference/components/endpoint-table';

export function mountEndpointTable(placeholder: HTMLElement): void {
  // `display: contents`: the table's parts stay direct children of the section's stack (same spacing).
  const host = document.createElement('div');
  host.style.display = 'contents';
  placeholder.before(host);
  const root = createRoot(host);
  flushSync(() =>
    root.render(
      <ChakraProvider value={system}>
        <EndpointTable />
      </ChakraProvider>,
    ),
  );
  placeholder.remove();
}
