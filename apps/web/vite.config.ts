/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './src/build/precompress.ts';

const webPackage = JSON.parse(readFileSync(fileURLToPath(new URL('./package.json', import.meta.url)), 'utf8')) as {
  version: string;
};

/**
 * The contract package (packages/contract) only declares: a module of it whose exports are unused can
 * be left out. Without this its barrel drags every family's declaration (and zod) into the entry, for
 * /login too, since the bundler must otherwise assume each module's top-level calls matter.
 */
const CONTRACT_SOURCE = /[\\/]packages[\\/]contract[\\/]src[\\/]/;

export default defineConfig({
  // Brotli and gzip copies of the build beside each file: the server sends them as they are.
  plugins: [react(), precompress()],
  define: {
    __APP_VERSION__: JSON.stringify(webPackage.version),
    __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true },
      '/uploads': { target: 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // bench:bundle follows each route's imports through the manifest.
    manifest: true,
    rolldownOptions: {
      // undefined: every other module keeps its package's own `sideEffects` declaration.
      treeshake: {
        moduleSideEffects: (id) => (CONTRACT_SOURCE.test(id) ? false : undefined),
        // Building a zod schema has no effect beyond its value: an unused schema can go.
        manualPureFunctions: ['z'],
      },
    },
  },
  test: {
    setupFiles: ['./src/test/setup.ts'],
  },
});
