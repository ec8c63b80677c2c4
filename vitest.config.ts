import { defineConfig } from 'vitest/config';

// `npx vitest` from the root runs every suite; `npm test` runs them one by one with a summary.
export default defineConfig({
  test: { projects: ['apps/server/vitest.config.ts', 'apps/web/vite.config.ts', 'e2e/vitest.config.ts'] },
});
