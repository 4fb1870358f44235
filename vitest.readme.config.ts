import { defineConfig } from 'vitest/config';

/**
 * The README test (`npm run test:readme`, run by .ci/run): every shell example of README.md and
 * docs/*.md, in order, against a fresh `npm start` on its own ports and data directory
 * (test/readme/readme.test.ts). Not part of `npm test`: it starts the whole stack under wrangler.
 */
export default defineConfig({
  test: {
    name: 'readme',
    include: ['test/readme/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
