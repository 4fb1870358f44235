/**
 * Test helpers shared by every HTTP suite: the env a worker gets on the test stack, a worker call with
 * a real execution context (waitUntil promises are awaited before the call returns), and a direct
 * database handle for assertions.
 */
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/platform/db.ts';
import type { Env } from '../../src/platform/env.ts';
import { DEFAULT_PORTS, localUrls, workerVars } from '../../tools/stack/config.ts';

/** Public URLs (links in mail, feeds, reports) as the documented defaults, whatever ports the developer set. */
const LINK_URLS = localUrls(DEFAULT_PORTS);

export function stackInfo() {
  return inject('stack');
}

/** The bindings a function receives on the test stack; `overrides` replace single values. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  const s = inject('stack');
  return workerVars(
    s.databaseUrl,
    {
      NEON_LOCAL_PROXY: s.neonProxy,
      QSTASH_URL: s.qstashUrl,
      MAIL_API_URL: s.mailUrl,
      DELIVERY_URL: s.deliveryUrl,
      ...overrides,
    },
    LINK_URLS,
  ) as unknown as Env;
}

/** Anything with a Workers-style fetch (the ctx type is loose: Hono types it as ExecutionContext). */
export interface Worker {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fetch(req: Request, env: any, ctx: any): Response | Promise<Response>;
}

/**
 * A Worker's execution context for calls made by hand: `pending` is its waitUntil work, `settle()` waits for
 * that work and for the work it deferred in turn.
 */
export function executionContext() {
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {} };
  const settle = async () => {
    for (let done = 0; done < pending.length; done = pending.length) await Promise.allSettled(pending.slice(done));
  };
  return { ctx, pending, settle };
}

/** Calls a worker's fetch like the runtime does, then waits for its waitUntil work. */
export async function callWorker(worker: Worker, req: Request, env: Env = testEnv()): Promise<Response> {
  const { ctx, settle } = executionContext();
  const res = await worker.fetch(req, env, ctx);
  const body = await res.arrayBuffer();
  await settle();
  const nullBody = [101, 204, 205, 304].includes(res.status);
  return new Response(nullBody ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** A small client for a worker: `api.get(path)`, `api.post(path, json, headers)`, ... */
export function workerClient(worker: Worker, env: Env = testEnv(), base = 'http://localhost') {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    callWorker(
      worker,
      new Request(base + path, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
      env,
    );
  return {
    env,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call('PUT', path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call('PATCH', path, body, headers),
    delete: (path: string, body?: unknown, headers?: Record<string, string>) => call('DELETE', path, body, headers),
    request: call,
  };
}

let shared: Db | undefined;
/** A database handle for test assertions and fixtures (one per test file). */
export function testDb(): Db {
  shared ??= createDb(testEnv());
  return shared;
}
