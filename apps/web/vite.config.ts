import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';

/** Where `pnpm --filter @catalog/web dev` sends API calls: a catalog started with `pnpm start`. */
const CATALOG = 'http://127.0.0.1:8080';
const API_PATHS = ['/api', '/logIn', '/logOut', '/openapi'];

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    // The gateway serves these files itself; no module preload polyfill is needed by its browsers.
    modulePreload: { polyfill: false },
  },
  server: { proxy: Object.fromEntries(API_PATHS.map((path) => [path, CATALOG])) },
});
