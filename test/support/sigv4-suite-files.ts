/// <reference types="vite/client" />
/** The vendored SigV4 suite's files through Vite (works in the unit and the workerd projects). */
export const SUITE_FILES = import.meta.glob('../fixtures/webhooks/aws-sig-v4-test-suite/*/*', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
