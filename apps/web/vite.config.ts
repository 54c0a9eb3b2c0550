// Vite build for the web app. Built files go to <repo>/dist/web, which the api serves with SPA fallback;
// in development the dev server proxies /api to the api on port 3000 (one origin, so cookies just work).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = decodeURIComponent(new URL('.', import.meta.url).pathname);
const repoDir = decodeURIComponent(new URL('../../', import.meta.url).pathname);

export default defineConfig({
  root: webDir,
  plugins: [react()],
  resolve: {
    alias: {
      '@csv-mapper/domain': `${repoDir}libs/domain/src/index.ts`,
    },
  },
  build: {
    outDir: `${repoDir}dist/web`,
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
  },
});
