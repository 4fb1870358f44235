/**
 * Starts one local stack for a vitest project: PGlite in memory (or, with TEST_DATABASE_URL, a fresh
 * database created on that PostgreSQL server and dropped afterwards), the Neon-compatible proxy, the
 * QStash-compatible server (fast retries), the mail catcher and the sample blog, all on free ports,
 * migrated. Nothing points at a running `npm start`: the default DELIVERY_URL of the tests is a sink
 * of this run that answers 503 to every call (suites that need the delivery function serve it
 * themselves with serveWorker and pass its URL). Tests read the addresses with `inject('stack')`.
 */
import { createServer } from 'node:http';
import type { TestProject } from 'vitest/node';
import { freshDatabase } from '../../tools/stack/fresh-database.ts';
import { startStack } from '../../tools/stack/index.ts';

export interface StackInfo {
  databaseUrl: string;
  neonProxy: string;
  qstashUrl: string;
  mailUrl: string;
  sampleUrl: string;
  deliveryUrl: string;
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
    ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
    qstashRetryBaseMs: 100,
    log: process.env.STACK_LOG ? (l) => console.log(l) : undefined,
  });
  const sink = createServer((req, res) => {
    req.resume();
    res.writeHead(503, { 'content-type': 'text/plain' }).end('no delivery function in this test run\n');
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  const deliveryUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  project.provide('stack', {
    databaseUrl: stack.databaseUrl,
    neonProxy: stack.neonProxy,
    qstashUrl: stack.qstashUrl,
    mailUrl: stack.mailUrl,
    sampleUrl: stack.sampleUrl,
    deliveryUrl,
    embedded: stack.embedded,
  });
  return async () => {
    await new Promise((r) => sink.close(r));
    await stack.close();
    await fresh?.drop();
  };
}
