/**
 * The delivery function served over HTTP for the operator suites (rotation, replay, attempts,
 * throttle): events written with emitEvent go through the local QStash to it, as in production.
 */
import { expect } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import type { Env } from '../../../src/platform/env.ts';
import { notifyOutbox, recordRawEvent } from '../../../src/platform/events.ts';
import { testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor as poll } from '../../support/wait.ts';
import { api, BASE, merchant } from './helpers.ts';

type Json = any;
export const RETRY_ENV = {
  WEBHOOK_RETRY_BASE_SECONDS: '1',
  WEBHOOK_RETRY_MAX_SECONDS: '1',
  WEBHOOK_LEASE_SECONDS: '8',
};

export interface Harness {
  env: Env;
  m: Awaited<ReturnType<typeof merchant>>;
  close(): Promise<void>;
}

export async function startHarness(merchantId: string, overrides: Record<string, string> = {}): Promise<Harness> {
  const fnEnv = (url: string) =>
    testEnv({ DELIVERY_URL: url, ...RETRY_ENV, WEBHOOK_DISABLE_AFTER_FAILURES: '1000', ...overrides });
  const served: Served = await serveWorker(delivery, fnEnv);
  const env = testEnv({ DELIVERY_URL: served.url, ...RETRY_ENV, ...overrides });
  const m = await merchant(merchantId);
  await quiesce();
  return { env, m, close: () => served.close() };
}

/** Isolation from other suites on the same stack: nothing older is delivered to this file's webhooks. */
export async function quiesce(): Promise<void> {
  await testDb().query('UPDATE webhooks.outbox SET fanned_out_at = now() WHERE fanned_out_at IS NULL');
  await testDb().query('UPDATE webhooks.webhooks SET disabled = true');
}

export async function emit(env: Env, events: { name: string; id: string; payload: unknown }[]): Promise<void> {
  await testDb().transaction(async (tx) => {
    for (const e of events) await recordRawEvent(tx, { name: e.name, objectId: e.id, payload: e.payload });
  });
  await notifyOutbox(env);
}

export async function pending(oid: number): Promise<number> {
  const sql = 'SELECT count(*)::int AS n FROM webhooks.queue WHERE webhook_oid = $1 AND delivered_at IS NULL';
  return (await testDb().query<{ n: number }>(sql, [oid]))[0]!.n;
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
  explain?: () => Promise<unknown>,
): Promise<void> {
  await poll(what, check, { timeoutMs, intervalMs: 100, explain });
}

export async function createHook(
  h: Harness,
  body: Record<string, unknown>,
): Promise<{ oid: number; secret: string; webhook: Json }> {
  const res = await api(h.env).post(BASE, body, h.m.headers);
  expect(res.status).toBe(200);
  const json = (await res.json()) as Json;
  return { oid: json.webhook.webhook_oid, secret: res.headers.get('Webhook-Signing-Secret')!, webhook: json.webhook };
}
