/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webPackage = JSON.parse(readFileSync(fileURLToPath(new URL('./package.json', import.meta.url)), 'utf8')) as {
  version: string;
};

/** Which vendor chunk a module belongs to; antd and React change on different schedules, so they cache apart. */
const VENDOR_GROUPS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
  { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion)[\\/]/, priority: 20 },
  // ECharts is loaded only by report pages (a dynamic import): its own chunk, never in the shell's vendor chunk.
  { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 25 },
  // The place list (~160 KB) stays in the lazily loaded chunk of the address pickers.
  { name: 'vendor', test: /node_modules[\\/](?!@vant[\\/]area-data)/, priority: 10 },
];

export default defineConfig({
  plugins: [react()],
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
    rolldownOptions: {
      output: {
        // Vite 8 bundles with Rolldown: `codeSplitting.groups` is its form of Rollup's manualChunks.
        codeSplitting: { groups: VENDOR_GROUPS },
      },
    },
  },
  test: {
    setupFiles: ['./src/test/setup.ts'],
  },
});
