/**
 * The Webhook object as written by clients (POST/PUT), and the rules that turn it into stored
 * values. Read-only fields the SDKs send back (webhook_oid, merchant_id, pending,
 * consecutive_failures, next_retry_after) are accepted and ignored; null means "not given".
 *
 * Rules (UltraCart's, plus the gaps decided in docs/webhooks.md):
 *  - api_version only `2017-03-01`; authentication_type one of none | basic | api user | aws iam.
 *  - basic: a missing basic_username / basic_password is generated (the original's insert rule).
 *  - api user: api_user_oid defaults to the calling key and must be one of the merchant's keys.
 *  - aws iam: iam_access_key and iam_secret_key are required; webhook_url is the SQS queue URL
 *    (`/<account>/<queue>` path).
 *  - webhook_url passes the outbound-URL guard, and must be HTTPS when a subscribed category
 *    carries customer data.
 *  - A secret sent back in its masked form (`****abcd`) keeps the stored secret.
 *  - Fields absent from a PUT keep their stored value.
 */
import * as z from 'zod';
import { checkOutboundUrl } from '../platform/url-guard.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { API_VERSION, carriesCustomerData, findCategory } from './catalog.ts';
import type { WebhookValues } from './queries.ts';

export const AUTH_TYPES = ['none', 'basic', 'api user', 'aws iam'] as const;
export const LIMITS = {
  maximumEvents: { min: 1, max: 1000, default: 10 },
  maximumSize: { min: 1000, max: 5_242_880, default: 900_000 },
};

const str = (max: number) => z.string().max(max).nullish();

const subscription = z.object({
  event_name: z.string().max(100),
  subscribed: z.boolean().nullish(),
  expansion: str(1000),
});

const category = z.object({
  event_category: z.string().max(100),
  subscribed: z.boolean().nullish(),
  any_subscribed: z.boolean().nullish(),
  events: z.array(subscription).max(100).nullish(),
});

export const webhookInput = z.object({
  webhook_url: str(2048),
  api_version: z
    .string()
    .refine((v) => v === API_VERSION, { message: `api_version must be ${API_VERSION}` })
    .nullish(),
  authentication_type: z
    .enum(AUTH_TYPES, { message: `authentication_type must be one of: ${AUTH_TYPES.join(', ')}` })
    .nullish(),
  basic_username: str(200),
  basic_password: str(200),
  iam_access_key: str(200),
  iam_secret_key: str(200),
  api_user_oid: z.number().int().positive().nullish(),
  application_profile: z
    .object({
      api_application_logo_url: str(2048),
      application_description: str(2000),
      application_name: str(200),
      developer_name: str(200),
      developer_website: str(2048),
    })
    .nullish(),
  compress_events: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
  event_categories: z.array(category).max(50).nullish(),
  maximum_events: z.number().int().min(LIMITS.maximumEvents.min).max(LIMITS.maximumEvents.max).nullish(),
  maximum_size: z.number().int().min(LIMITS.maximumSize.min).max(LIMITS.maximumSize.max).nullish(),
  merchant_comments: str(4000),
  name: str(200),
});
export type WebhookInput = z.infer<typeof webhookInput>;

/** Subscribed events and their expansions from event_categories; unknown names are a 400. */
export function subscriptions(categories: NonNullable<WebhookInput['event_categories']>): {
  events: string[];
  expansions: Record<string, string>;
} {
  const events = new Set<string>();
  const expansions: Record<string, string> = {};
  for (const c of categories) {
    const known = findCategory(c.event_category);
    if (!known) throw new HttpError(400, `event_categories: unknown event category ${c.event_category}`);
    const listed = new Map((c.events ?? []).map((e) => [e.event_name, e]));
    for (const name of listed.keys()) {
      if (!known.events.some((e) => e.event_name === name))
        throw new HttpError(400, `event_categories: unknown event ${name} in category ${c.event_category}`);
    }
    for (const e of known.events) {
      const given = listed.get(e.event_name);
      const on = given ? given.subscribed !== false : c.subscribed === true;
      if (on) events.add(e.event_name);
      if (on && given?.expansion) expansions[e.event_name] = given.expansion;
    }
  }
  return { events: [...events].sort(), expansions };
}

export function isMasked(v: string | null | undefined): boolean {
  return typeof v === 'string' && v.startsWith('****');
}

/** Secrets in the merged values, still clear (encrypted by the caller); undefined = keep stored. */
export interface SecretsIn {
  basicPassword: string | null | undefined;
  iamSecretKey: string | null | undefined;
}

export interface Merged {
  values: Omit<WebhookValues, 'basic_password_enc' | 'iam_secret_key_enc'>;
  secrets: SecretsIn;
  generatedPassword: boolean;
}

/** Merges input over stored values (or defaults) and applies the rules. */
export function mergeWebhook(
  input: WebhookInput,
  stored: (WebhookValues & { hasBasicPassword: boolean; hasIamSecret: boolean }) | undefined,
  env: Pick<Env, 'OUTBOUND_ALLOWLIST' | 'OUTBOUND_LOOPBACK_HTTP' | 'DATABASE_URL'>,
  callerKeyId: number,
  generate: () => string,
): Merged {
  const pick = <K extends keyof WebhookInput, D>(k: K, fallback: D): NonNullable<WebhookInput[K]> | D =>
    (input[k] ?? fallback) as NonNullable<WebhookInput[K]> | D;
  const subs = input.event_categories
    ? subscriptions(input.event_categories)
    : { events: stored?.events ?? [], expansions: stored?.expansions ?? {} };
  const authType = pick('authentication_type', stored?.authentication_type ?? 'none');
  const url = pick('webhook_url', stored?.webhook_url ?? '');
  if (!url) throw new HttpError(400, 'webhook_url is required');

  const needsHttps = carriesCustomerData(subs.events);
  const check = checkOutboundUrl(url, env, { requireHttps: needsHttps });
  if (!check.ok)
    throw new HttpError(
      400,
      `webhook_url: ${check.reason}${needsHttps && check.reason === 'HTTPS is required' ? ' (subscribed events carry customer data)' : ''}`,
    );

  const values: Merged['values'] = {
    api_user_oid: null,
    application_profile: input.application_profile
      ? ({ ...input.application_profile } as Record<string, string | null>)
      : (stored?.application_profile ?? null),
    api_version: API_VERSION,
    authentication_type: authType,
    basic_username: null,
    iam_access_key: null,
    compress_events: pick('compress_events', stored?.compress_events ?? false),
    disabled: pick('disabled', stored?.disabled ?? false),
    events: subs.events,
    expansions: subs.expansions,
    maximum_events: pick('maximum_events', stored?.maximum_events ?? LIMITS.maximumEvents.default),
    maximum_size: pick('maximum_size', stored?.maximum_size ?? LIMITS.maximumSize.default),
    merchant_comments: pick('merchant_comments', stored?.merchant_comments ?? null),
    name: pick('name', stored?.name ?? null),
    webhook_url: url,
  };
  const secrets: SecretsIn = { basicPassword: null, iamSecretKey: null };
  let generatedPassword = false;

  if (authType === 'basic') {
    values.basic_username = pick('basic_username', stored?.basic_username ?? null) ?? `uc_${generate().slice(0, 12)}`;
    const given = input.basic_password;
    if (given && !isMasked(given)) secrets.basicPassword = given;
    else if (stored?.hasBasicPassword && stored.authentication_type === 'basic') secrets.basicPassword = undefined;
    else {
      secrets.basicPassword = generate();
      generatedPassword = true;
    }
  } else if (authType === 'api user') {
    values.api_user_oid = pick('api_user_oid', stored?.api_user_oid ?? callerKeyId);
  } else if (authType === 'aws iam') {
    values.iam_access_key = pick('iam_access_key', stored?.iam_access_key ?? null);
    const given = input.iam_secret_key;
    if (given && !isMasked(given)) secrets.iamSecretKey = given;
    else if (stored?.hasIamSecret && stored.authentication_type === 'aws iam') secrets.iamSecretKey = undefined;
    if (!values.iam_access_key || secrets.iamSecretKey === null)
      throw new HttpError(400, 'aws iam authentication needs iam_access_key and iam_secret_key');
    if (!/^\/\d{12}\/[A-Za-z0-9_-]{1,80}(\.fifo)?\/?$/.test(check.url.pathname))
      throw new HttpError(
        400,
        'webhook_url: aws iam delivery needs an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>)',
      );
  }
  return { values, secrets, generatedPassword };
}
