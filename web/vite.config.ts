/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { i18nCore } from './src/i18n/corePlugin';

const backend = process.env.TANKWATCH_BACKEND ?? 'http://127.0.0.1:8080';
const proxied = ['/authority-app', '/base-info-app', '/monitor-app', '/alarm-app', '/hbase', '/themes'];

export default defineConfig({
  base: './',
  plugins: [react(), i18nCore(fileURLToPath(new URL('./src/i18n', import.meta.url)))],
  server: {
    proxy: {
      ...Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
      '/ws': { target: backend, changeOrigin: true, ws: true },
      '/mqtt': { target: backend, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Vitest leaves one core free by default, which on CI's two cores means one worker: every core
    // cuts the suite from about 290 s to 190 s there. Under that load single tests take a few seconds,
    // so the per-test limit only catches a hang, never a slow machine.
    maxWorkers: '100%',
    testTimeout: 30_000,
  },
});
