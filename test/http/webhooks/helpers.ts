/** Shared fixtures for the webhook suites: merchant keys and a client of the pipeline worker. */
import pipeline from '../../../functions/pipeline.ts';
import { createMerchantKey } from '../../../src/webhooks/merchant-keys.ts';
import { testDb, testEnv, workerClient, type Worker } from '../../support/env.ts';

export const BASE = '/rest/v2/webhook/webhooks';

export async function merchant(merchantId: string): Promise<{ key: string; keyId: number; headers: Record<string, string> }> {
  const { key, keyId } = await createMerchantKey(testDb(), testEnv().ENCRYPTION_KEY, merchantId);
  return { key, keyId, headers: { 'X-UltraCart-Simple-Key': key } };
}

export function api(env = testEnv()) {
  return workerClient(pipeline, env);
}

export const HOOK = {
  webhook_url: 'https://hooks.example.com/in',
  event_categories: [{ event_category: 'book', subscribed: true }],
};

/**
 * DELETE through the worker's fetch without test/support's callWorker, which cannot rebuild a 204
 * (it passes an empty body to `new Response`, which throws for 204): reported to the platform.
 */
export async function deleteNoContent(path: string, headers: Record<string, string>, env = testEnv()): Promise<Response> {
  const pending: Promise<unknown>[] = [];
  const res = await (pipeline as Worker).fetch(new Request(`http://localhost${path}`, { method: 'DELETE', headers }), env, { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {} });
  await Promise.allSettled(pending);
  return res;
}
