/**
 * Providers and destinations as the API shows them and as the runners use them. Secrets (provider
 * api_key, Notion token, Obsidian api_key) are stored only as `encryptSecret` ciphertext and shown
 * only through `maskSecret`; an update that sends a masked value back (`****abcd`) keeps the stored
 * secret, an empty string clears it (so a UI can round-trip what it was shown).
 */
import { decryptSecret, encryptSecret, maskSecret } from '../platform/crypto.ts';
import type { Env } from '../platform/env.ts';
import type { ChatSettings } from './chat-client.ts';
import type { DestinationRow, ProviderRow } from './queries-settings.ts';
import { encryptionKey } from '../platform/config/shared.ts';

export const PROVIDER_IDS = ['llm_alpha', 'llm_beta'] as const;
export const DESTINATION_IDS = ['notion', 'obsidian', 'rss'] as const;
export type DestinationId = (typeof DESTINATION_IDS)[number];

/** The config key holding a destination's secret. */
export const SECRET_KEY: Record<DestinationId, string | null> = { notion: 'token', obsidian: 'api_key', rss: null };

async function clear(env: Env, enc: string | null): Promise<string | null> {
  return enc ? decryptSecret(encryptionKey(env), enc) : null;
}

export function isMasked(v: string): boolean {
  return /^\*{4}/.test(v);
}

/** New ciphertext for an incoming secret value (undefined = unchanged). */
export async function nextSecret(
  env: Env,
  incoming: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  if (incoming === undefined || (incoming !== null && isMasked(incoming))) return current;
  if (incoming === null || incoming === '') return null;
  return encryptSecret(encryptionKey(env), incoming);
}

export async function providerView(env: Env, p: ProviderRow) {
  return {
    id: p.id,
    name: p.name,
    type: 'llm',
    enabled: p.enabled,
    config: {
      base_url: p.base_url,
      model: p.model,
      api_key: maskSecret(await clear(env, p.api_key_enc)),
      timeout_sec: p.timeout_sec,
      max_retry: p.max_retry,
      temperature: p.temperature,
      max_output_tokens: p.max_output_tokens,
    },
    updated_at: p.updated_at,
  };
}

export async function chatSettings(env: Env, p: ProviderRow): Promise<ChatSettings> {
  return {
    base_url: p.base_url,
    model: p.model,
    api_key: await clear(env, p.api_key_enc),
    timeout_sec: p.timeout_sec,
    max_retry: p.max_retry,
    temperature: p.temperature,
    max_output_tokens: p.max_output_tokens,
  };
}

export async function destinationSecret(env: Env, d: Pick<DestinationRow, 'secret_enc'>): Promise<string | null> {
  return clear(env, d.secret_enc);
}

export async function destinationView(env: Env, d: DestinationRow, feedUrl: string) {
  const key = SECRET_KEY[d.id];
  const config: Record<string, unknown> = { ...d.config };
  if (key) config[key] = maskSecret(await clear(env, d.secret_enc));
  if (d.id === 'rss' && !config.feed_url) config.feed_url = feedUrl;
  return {
    id: d.id,
    type: d.id,
    name: d.name,
    description: d.description,
    enabled: d.enabled,
    config,
    updated_at: d.updated_at,
  };
}
