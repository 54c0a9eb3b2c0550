// The Chakra system: Chakra's defaults plus the brand font stack and a few global touches.
import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

const config = defineConfig({
  globalCss: {
    'html, body': { bg: 'bg', color: 'fg' },
    '*:focus-visible': { outlineColor: 'blue.500' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: {
          value:
            'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        },
        body: {
          value:
            'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
