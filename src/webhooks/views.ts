/**
 * Stored rows rendered as the original's objects: Webhook (secrets masked, never clear),
 * WebhookEventCategory (all catalogue entries with `_placeholders=true`, else only subscribed
 * ones), WebhookLog / WebhookLogSummary, and the response wrapper with ResponseMetadata.
 */
import type { Env } from '../platform/env.ts';
import { decryptSecret, maskSecret } from '../platform/crypto.ts';
import { catalog } from './catalog.ts';
import type { LogRow, LogSummaryRow, WebhookRow } from './queries.ts';
import { encryptionKey } from '../platform/config/shared.ts';

async function masked(env: Pick<Env, 'ENCRYPTION_KEY'>, enc: string | null): Promise<string | null> {
  if (!enc) return null;
  try {
    return maskSecret(await decryptSecret(encryptionKey(env), enc));
  } catch {
    return '****';
  }
}

export function eventCategories(events: string[], expansions: Record<string, string>, placeholders: boolean) {
  const on = new Set(events);
  return catalog()
    .map((c) => {
      const list = c.events
        .filter((e) => placeholders || on.has(e.event_name))
        .map((e) => ({
          comments: null,
          deprecated_flag: false,
          discontinued_flag: false,
          event_description: e.event_description,
          event_name: e.event_name,
          event_ruler: null,
          expansion: expansions[e.event_name] ?? null,
          subscribed: on.has(e.event_name),
          supports_reflow: e.supports_reflow,
          webhook_event_oid: e.webhook_event_oid,
        }));
      return {
        any_subscribed: c.events.some((e) => on.has(e.event_name)),
        available_expansions: c.available_expansions,
        event_category: c.event_category,
        events: list,
        subscribed: c.events.every((e) => on.has(e.event_name)),
      };
    })
    .filter((c) => placeholders || c.any_subscribed);
}

export async function webhookView(env: Pick<Env, 'ENCRYPTION_KEY'>, w: WebhookRow, placeholders = false) {
  return {
    api_user_oid: w.api_user_oid,
    api_version: w.api_version,
    application_profile: w.application_profile,
    authentication_type: w.authentication_type,
    basic_password: await masked(env, w.basic_password_enc),
    basic_username: w.basic_username,
    compress_events: w.compress_events,
    consecutive_failures: w.consecutive_failures,
    disabled: w.disabled,
    event_categories: eventCategories(w.events, w.expansions, placeholders),
    iam_access_key: w.iam_access_key,
    iam_secret_key: await masked(env, w.iam_secret_key_enc),
    maximum_events: w.maximum_events,
    maximum_size: w.maximum_size,
    merchant_comments: w.merchant_comments,
    merchant_id: w.merchant_id,
    name: w.name,
    next_retry_after: w.next_retry_after ? new Date(w.next_retry_after).toISOString() : null,
    pending: w.pending,
    webhook_oid: w.webhook_oid,
    webhook_url: w.webhook_url,
  };
}

export function logSummaryView(l: LogSummaryRow) {
  return { delivery_dts: new Date(l.delivery_dts).toISOString(), request_id: l.request_id, success: l.success };
}

export function logView(l: LogRow) {
  return {
    delivery_dts: new Date(l.delivery_dts).toISOString(),
    duration: l.duration,
    queue_delay: l.queue_delay,
    request: l.request,
    request_headers: l.request_headers,
    request_id: l.request_id,
    response: l.response,
    response_headers: l.response_headers,
    status_code: l.status_code,
    success: l.success,
    uri: l.uri,
    webhook_oid: l.webhook_oid,
  };
}

export function resultSet(payloadName: string, count: number, limit: number, offset: number, total: number) {
  const more = offset + count < total;
  return {
    payload_name: payloadName,
    result_set: { count, limit, more, next_offset: more ? offset + count : null, offset, total_records: total },
  };
}

/**
 * The response wrapper. UltraCart omits absent members rather than sending `null` (its SDKs' models are
 * not nullable and reject a null), so every null member is dropped, at any depth.
 */
export function ok<T extends Record<string, unknown>>(body: T, metadata: Record<string, unknown> = {}) {
  return withoutNulls({ ...body, success: true, metadata });
}

export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = withoutNulls(v);
  return out as T;
}
