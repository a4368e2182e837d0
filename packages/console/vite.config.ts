import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { shoelaceAssets, thirdPartyLicenses } from './scripts/vite-plugins.js';
import { ICON_NAMES } from './src/ui/icon-names.js';

const API = 'http://127.0.0.1:4000';
const proxied = ['/oauth', '/auth', '/media', '/upload', '/dev', '/player', '/billing'];

export default defineConfig({
  plugins: [react(), shoelaceAssets(ICON_NAMES), thirdPartyLicenses()],
  server: {
    proxy: {
      '/query': { target: API, ws: true, changeOrigin: true },
      ...Object.fromEntries(proxied.map((p) => [p, { target: API, changeOrigin: true }])),
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // The one chunk over 700 kB is the Agora SDK (about 1.5 MB, 425 kB gzip), loaded only when an Agora call starts;
    // scripts/print-bundle-size.mjs keeps the first-load budget.
    chunkSizeWarningLimit: 1600,
    rollupOptions: {
      // @roomwalk/shared's modules only declare constants and schemas; letting the bundler drop the unused ones keeps
      // zod and libphonenumber out of the first load (the routes that validate forms load them). The one exception,
      // shared/src/zod.ts, sets zod's configuration (no eval probe under our CSP) wherever a schema is loaded.
      treeshake: {
        moduleSideEffects: (id: string) => !id.includes('/packages/shared/src/') || id.endsWith('/shared/src/zod.ts'),
      },
    },
  },
});
