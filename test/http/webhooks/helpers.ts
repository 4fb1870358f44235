/** Shared fixtures for the webhook suites: merchant keys and a client of the pipeline worker. */
import pipeline from '../../../functions/pipeline.ts';
import { createMerchantKey } from '../../../src/webhooks/merchant-keys.ts';
import { testDb, testEnv, workerClient, type Worker } from '../../support/env.ts';
import { encryptionKey } from '../../../src/platform/config/shared.ts';

export const BASE = '/rest/v2/webhook/webhooks';

export async function merchant(
  merchantId: string,
): Promise<{ key: string; keyId: number; headers: Record<string, string> }> {
  const { key, keyId } = await createMerchantKey(testDb(), encryptionKey(testEnv()), merchantId);
  return { key, keyId, headers: { 'X-UltraCart-Simple-Key': key } };
}

export function api(env = testEnv()) {
  return workerClient(pipeline, env);
}

export const HOOK = {
  webhook_url: 'https://hooks.example.com/in',
  event_categories: [{ event_category: 'book', subscribed: true }],
};

/** DELETE through the worker's fetch (a 204 answer has no body). */
export async function deleteNoContent(
  path: string,
  headers: Record<string, string>,
  env = testEnv(),
): Promise<Response> {
  return workerClient(pipeline as Worker, env).delete(path, undefined, headers);
}
