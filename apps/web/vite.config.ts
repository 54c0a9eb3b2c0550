// Vite build for the web app. Built files go to <repo>/dist/web, which the api serves with SPA fallback;
// in development the dev server proxies /api to the api on port 3000 (one origin, so cookies just work).
// `vite build --ssr src/entry-server.tsx` (npm run build:web) makes the prerender bundle in dist/web-ssr.
// The prerendered public pages load only the small island script (src/islands), never the app bundle.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = decodeURIComponent(new URL('.', import.meta.url).pathname);
const repoDir = decodeURIComponent(new URL('../../', import.meta.url).pathname);

export default defineConfig(({ isSsrBuild, mode }) => ({
  root: webDir,
  plugins: [react()],
  resolve: {
    alias: [
      { find: '@csv-mapper/domain', replacement: `${repoDir}libs/domain/src/index.ts` },
      { find: '@csv-mapper/rules', replacement: `${repoDir}libs/rules/src/index.ts` },
      // react-router only exports its development build; the production one drops dev-only warnings.
      ...(mode === 'production'
        ? [
            {
              find: /^react-router$/,
              replacement: `${repoDir}node_modules/react-router/dist/production/index.mjs`,
            },
          ]
        : []),
    ],
  },
  build: isSsrBuild
    ? {
        outDir: `${repoDir}dist/web-ssr`,
        emptyOutDir: true,
        sourcemap: false,
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' } },
      }
    : {
        outDir: `${repoDir}dist/web`,
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        rollupOptions: {
          // The app (index.html → src/main.tsx), the public pages' island script, which the prerender
          // puts on those pages instead of the app (they do not hydrate), and the small classic script
          // that picks the variant of an app shell's first-screen frame before it paints.
          input: {
            index: `${webDir}index.html`,
            islands: `${webDir}src/islands/public-islands.ts`,
            // The sign-in page's forms (/auth before sign-in), which load no app code either.
            auth: `${webDir}src/islands/auth-island.ts`,
            frame: `${webDir}src/islands/app-frame-boot.ts`,
          },
          // libs/domain is pure data and functions (STYLE.md rule 3): a page that reads PLANS must not
          // also download the common-password list just because both sit behind the same index.ts.
          treeshake: { moduleSideEffects: (id: string) => !id.includes('/libs/domain/') },
        },
      },
  ssr: { noExternal: ['@chakra-ui/react', '@ark-ui/react', /^@zag-js\//, /^@emotion\//] },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
  },
}));
