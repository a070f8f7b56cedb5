/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.TANKWATCH_BACKEND ?? 'http://127.0.0.1:8080';
const proxied = ['/authority-app', '/base-info-app', '/monitor-app', '/alarm-app', '/hbase', '/themes'];

export default defineConfig({
  base: './',
  plugins: [react()],
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
  },
});
