/**
 * The workerd suite: tests under test/workers run inside the Workers runtime (Miniflare) through
 * Cloudflare's Vitest integration, with the delivery function's wrangler environment and the test
 * stack's addresses as bindings, so the real Neon driver and QStash Receiver run where they deploy.
 */
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';
import { DEFAULT_PORTS, localUrls, workerVars } from './tools/stack/config.ts';

export default defineProject({
  plugins: [
    cloudflareTest(({ inject }) => {
      const stack = inject('stack');
      return {
        main: './functions/delivery.ts',
        wrangler: { configPath: './wrangler.toml', environment: 'delivery' },
        miniflare: {
          bindings: workerVars(
            stack.databaseUrl,
            {
              NEON_LOCAL_PROXY: stack.neonProxy,
              QSTASH_URL: stack.qstashUrl,
              MAIL_API_URL: stack.mailUrl,
              DELIVERY_URL: stack.deliveryUrl,
            },
            localUrls(DEFAULT_PORTS),
          ),
        },
      };
    }),
  ],
  test: {
    name: 'workers',
    include: ['test/workers/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
