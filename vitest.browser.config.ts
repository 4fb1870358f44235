import { defineConfig } from 'vitest/config';

/**
 * Browser checks (not part of `npm test`: a fresh machine has no Chromium): report pages loaded in
 * headless Chromium (`/usr/bin/chromium`) through playwright-core, on the same local stack as the
 * http project. Run with `npm run test:browser`.
 */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
