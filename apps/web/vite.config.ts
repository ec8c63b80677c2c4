import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress';

// Explicit root so `vitest --config apps/web/vite.config.ts` from the repo root finds the same files.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    // The API, and the few calls the spec puts outside its prefix (uploads, folders/*, enhance).
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '^/(uploads|enhance|folders/(add|delete|query))$': 'http://127.0.0.1:8080',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph scripts/bundle-budget.mjs checks (not served to browsers).
    manifest: true,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one chunk: the same code as a score of small shared chunks, but
        // one request and one gzip stream (each small file compresses on its own, worse).
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    root,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Full pages of antd in jsdom are slow on a busy two-core machine; the limits catch hangs, not slowness.
    testTimeout: 30_000,
    // Node would pair the CJS 'react-router' with the ESM 'react-router/dom' (two router contexts); pin both to ESM.
    alias: [
      { find: /^react-router\/dom$/, replacement: fileURLToPath(import.meta.resolve('react-router/dom')) },
      { find: /^react-router$/, replacement: fileURLToPath(import.meta.resolve('react-router')) },
    ],
  },
});
