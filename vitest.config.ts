import { defineConfig } from 'vitest/config';

/**
 * Projects:
 *  - unit: pure libraries and platform modules, no stack.
 *  - http: each function through its worker fetch on the local stack (embedded PGlite by default;
 *    TEST_DATABASE_URL=postgres://... runs them on a fresh database of that server).
 *  - workers: a small suite inside workerd (Workers runtime) via vitest.workers.config.ts.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'http',
          include: ['test/http/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      'vitest.workers.config.ts',
    ],
  },
});
