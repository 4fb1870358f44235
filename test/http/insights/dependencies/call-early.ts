/**
 * A worker call that returns when the answer is sent, as a client sees it, with the time it took; the
 * work the worker left running (waitUntil) is awaited separately with `settled()`.
 */
import type { Env } from '../../../../src/platform/env.ts';
import type { Worker } from '../../../support/env.ts';

export interface EarlyAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Milliseconds from the call to the whole body. */
  ms: number;
  settled(): Promise<unknown>;
}

export async function callEarly(worker: Worker, env: Env, path: string): Promise<EarlyAnswer> {
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {} };
  const t0 = performance.now();
  const res = await worker.fetch(new Request(`http://localhost${path}`), env, ctx);
  const text = await res.text();
  const ms = performance.now() - t0;
  return { status: res.status, headers: res.headers, text, ms, settled: () => Promise.allSettled(pending) };
}
