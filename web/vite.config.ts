/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { i18nCore } from './src/i18n/corePlugin';

const backend = process.env.TANKWATCH_BACKEND ?? 'http://127.0.0.1:8080';
// Test files without a DOM or the console's texts (see test.projects below).
const NODE_TESTS = [
  'src/components/map/vehicleIndex.test.ts', 'src/proto/chat_vectors.test.ts',
  'src/app/pages.test.ts', 'src/api/tankMonitor.test.ts',
  'src/api/liveStream.test.ts',
  'src/features/basedata/groupCar/fleetOptions.test.ts', 'src/features/basedata/tankInfo/strap.test.ts',
  'src/features/access/names.test.ts', 'src/features/access/roleInfo/resourceTree.test.ts',
  'src/features/manager/tankMonitor2VXE/rows.test.ts',
  'src/features/manager/monitoring/vehicleTree.test.ts', 'src/features/manager/monitoring/store.test.ts',
  'src/features/manager/hydtrend/option.test.ts', 'src/features/manager/hydtrend/model.test.ts',
  'src/features/manager/tankMonitor/tankDraw.test.ts', 'src/features/manager/parameter/logic.test.ts',
  'src/lib/fence.test.ts', 'src/lib/vehicleColors.test.ts',
  'src/lib/coords.test.ts', 'src/lib/playback.test.ts', 'src/lib/menuFilter.test.ts', 'src/lib/percent.test.ts',
  'src/lib/zone.test.ts', 'src/lib/buttonPermission.test.ts', 'src/lib/bearing.test.ts', 'src/lib/cockpit.test.ts',
  'src/lib/presets.test.ts', 'src/lib/mapCoords.test.ts', 'src/lib/lockState.test.ts', 'src/i18n/i18n.test.ts',
];
const proxied = ['/authority-app', '/base-info-app', '/monitor-app', '/alarm-app', '/hbase', '/themes'];

export default defineConfig({
  base: './',
  plugins: [react(), i18nCore(fileURLToPath(new URL('./src/i18n', import.meta.url)))],
  server: {
    proxy: {
      ...Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
      '/ws': { target: backend, changeOrigin: true, ws: true },
      '/mqtt': { target: backend, changeOrigin: true, ws: true },
      '/video-app': { target: backend, changeOrigin: true, ws: true }, // live video WebSockets (issue 17)
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
  },
  test: {
    globals: false,
    css: false,
    // Vitest leaves one core free by default, which on CI's two cores means one worker: every core
    // cuts the suite from about 290 s to 190 s there. Under that load single tests take a few seconds,
    // so the per-test limit only catches a hang, never a slow machine.
    maxWorkers: '100%',
    testTimeout: 30_000,
    // Pure-logic test files run in Node: no jsdom and no console-wide setup (antd shims, every text
    // loaded) for each of them, which is most of their time (DECISIONS D49). Everything else (and
    // every new file unless listed here) runs in jsdom as the browser would.
    projects: [
      { extends: true, test: { name: 'dom', environment: 'jsdom', isolate: false, setupFiles: ['./src/test/setup.ts'], include: ['src/**/*.test.{ts,tsx}'], exclude: ['**/node_modules/**', ...NODE_TESTS] } },
      { extends: true, test: { name: 'node', environment: 'node', include: NODE_TESTS } },
    ],
  },
});
