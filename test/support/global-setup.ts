/**
 * Starts one local stack for a vitest project: PGlite in memory (or, with TEST_DATABASE_URL, a fresh
 * database created on that PostgreSQL server and dropped afterwards), the Neon-compatible proxy, the
 * QStash-compatible server (fast retries) and the mail catcher, all on free ports, migrated.
 * Tests read the addresses with `inject('stack')` (see env.ts).
 */
import type { TestProject } from 'vitest/node';
import { freshDatabase } from '../../tools/stack/fresh-database.ts';
import { startStack } from '../../tools/stack/index.ts';

export interface StackInfo {
  databaseUrl: string;
  neonProxy: string;
  qstashUrl: string;
  mailUrl: string;
  embedded: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

export default async function setup(project: TestProject) {
  const server = process.env.TEST_DATABASE_URL;
  const fresh = server ? await freshDatabase(server, 'edge_test') : undefined;
  const stack = await startStack({
    databaseUrl: fresh?.url,
    ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0 },
    qstashRetryBaseMs: 100,
    log: process.env.STACK_LOG ? (l) => console.log(l) : undefined,
  });
  project.provide('stack', { databaseUrl: stack.databaseUrl, neonProxy: stack.neonProxy, qstashUrl: stack.qstashUrl, mailUrl: stack.mailUrl, embedded: stack.embedded });
  return async () => {
    await stack.close();
    await fresh?.drop();
  };
}
