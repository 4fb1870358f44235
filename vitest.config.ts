import { defineConfig } from 'vitest/config';

/** The end-to-end suites: real npm/pip/cargo/mvn/go/bundler, `npm start`, the webhook ledger's own stack. */
const E2E = ['test/http/insights/dependencies/e2e-*.test.ts', 'test/e2e/**/*.test.ts'];

/**
 * Projects:
 *  - unit: pure libraries and platform modules, no stack.
 *  - http: each function through its worker fetch on the local stack (embedded PGlite by default;
 *    TEST_DATABASE_URL=postgres://... runs them on a fresh database of that server).
 *  - e2e: the suites that compare with the real tools (test/http/insights/dependencies/e2e-*: npm, pip,
 *    cargo, Maven, Go, Bundler) and the whole-stack runs (test/e2e), on a stack of their own; over half of
 *    the http time, so `npm test` leaves them to `npm run test:e2e` (.ci/run runs both).
 *  - workers: a small suite inside workerd (Workers runtime) via vitest.workers.config.ts.
 * The database projects run their files one at a time (fileParallelism false: one shared database).
 */
const stackProject = (name: string, include: string[], exclude: string[] = [], isolate = true) => ({
  test: {
    name,
    include,
    exclude,
    isolate,
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

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
      // isolate false: the files share one worker and its module graph (the functions, hono, zod, the drivers),
      // imported once instead of once per file: about a second of each file's time on this machine. A Worker
      // isolate also keeps module state across requests, so the suites must not depend on a fresh one.
      stackProject('http', ['test/http/**/*.test.ts'], E2E, false),
      stackProject('e2e', E2E),
      'vitest.workers.config.ts',
    ],
  },
});
