/**
 * One HTTP attempt for a batch: the request (auth by authentication_type, Standard Webhooks
 * headers on every delivery (two `v1,` signatures during a secret rotation's
 * overlap), SigV4-signed SQS SendMessage for aws iam), sent through guardedFetch
 * (SSRF guard, 30 s timeout, no redirects followed: a 3xx is a failure), and what the log keeps:
 * request/response bodies cut at 100,000 characters, the Authorization header masked.
 */
import { decryptSecret } from '../platform/crypto.ts';
import type { Env } from '../platform/env.ts';
import { guardedFetch } from '../platform/url-guard.ts';
import type { LeasedWebhook } from './queries-delivery.ts';
import { apiUserSignature, basicAuthorization, standardSignature } from './signing.ts';
import { sqsRegion, sqsSendMessage } from './sigv4.ts';
import { encryptionKey } from '../platform/config/shared.ts';
import { webhooksConfig } from './config.ts';

export const LOG_BODY_LIMIT = 100_000;
export const TIMEOUT_MS = 30_000;

export interface Attempt {
  uri: string;
  requestBody: string;
  requestHeaders: Record<string, string>;
  status: number;
  responseBody: string;
  responseHeaders: Record<string, string>;
  durationMs: number;
}

export function cut(s: string): string {
  return s.length > LOG_BODY_LIMIT ? s.slice(0, LOG_BODY_LIMIT) : s;
}

export function headersForLog(h: Record<string, string>): { name: string; value: string }[] {
  return Object.entries(h).map(([name, value]) => ({
    name,
    value: name.toLowerCase() === 'authorization' && value.startsWith('Basic ') ? 'Basic ****' : value,
  }));
}

type SecretColumns = 'signing_secret_enc' | 'previous_signing_secret_enc' | 'previous_secret_until';

/** The encrypted secrets to sign with at `now`: the current one, then the previous one during an overlap. */
export function signingSecrets(w: Pick<LeasedWebhook, SecretColumns>, now: Date): string[] {
  const until = w.previous_secret_until === null ? 0 : new Date(w.previous_secret_until).getTime();
  const live = w.previous_signing_secret_enc && until > now.getTime();
  return live ? [w.signing_secret_enc, w.previous_signing_secret_enc!] : [w.signing_secret_enc];
}

export async function buildRequest(
  env: Env,
  w: LeasedWebhook,
  body: string,
  batchId: string,
  now: Date,
  apiUserKeyEnc: string | undefined,
): Promise<{ headers: Record<string, string>; body: string }> {
  const ts = Math.floor(now.getTime() / 1000);
  const standard: Record<string, string> = {
    'webhook-id': batchId,
    'webhook-timestamp': String(ts),
    'webhook-signature': (
      await Promise.all(
        signingSecrets(w, now).map(async (enc) =>
          standardSignature(await decryptSecret(encryptionKey(env), enc), batchId, ts, body),
        ),
      )
    ).join(' '),
  };
  const base = { 'content-type': 'application/json', 'user-agent': 'edge-services-webhooks/1', ...standard };
  switch (w.authentication_type) {
    case 'basic': {
      const password = w.basic_password_enc ? await decryptSecret(encryptionKey(env), w.basic_password_enc) : '';
      return { headers: { ...base, authorization: basicAuthorization(w.basic_username ?? '', password) }, body };
    }
    case 'api user': {
      if (!apiUserKeyEnc || w.api_user_oid === null) return { headers: base, body };
      const key = await decryptSecret(encryptionKey(env), apiUserKeyEnc);
      return {
        headers: {
          ...base,
          'x-ultracart-api-user-oid': String(w.api_user_oid),
          'x-ultracart-signature': await apiUserSignature(key, ts, body),
        },
        body,
      };
    }
    case 'aws iam': {
      const secretKey = w.iam_secret_key_enc ? await decryptSecret(encryptionKey(env), w.iam_secret_key_enc) : '';
      const region = sqsRegion(w.webhook_url, webhooksConfig(env).AWS_REGION);
      const signed = await sqsSendMessage(
        w.webhook_url,
        body,
        { accessKeyId: w.iam_access_key ?? '', secretAccessKey: secretKey },
        { region, now },
      );
      return { headers: { ...signed.headers, ...standard }, body: signed.body };
    }
    default:
      return { headers: base, body };
  }
}

export async function send(
  env: Env,
  url: string,
  req: { headers: Record<string, string>; body: string },
  timeoutMs = TIMEOUT_MS,
): Promise<Attempt> {
  const started = Date.now();
  const requestHeaders = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host'));
  try {
    const res = await guardedFetch(
      env,
      url,
      { method: 'POST', headers: requestHeaders, body: req.body },
      { timeoutMs, maxRedirects: 0, maxBytes: 1024 * 1024 },
    );
    return {
      uri: url,
      requestBody: req.body,
      requestHeaders,
      status: res.status,
      responseBody: res.text(),
      responseHeaders: Object.fromEntries(res.headers),
      durationMs: Date.now() - started,
    };
  } catch (err) {
    return {
      uri: url,
      requestBody: req.body,
      requestHeaders,
      status: 0,
      responseBody: (err as Error).message,
      responseHeaders: {},
      durationMs: Date.now() - started,
    };
  }
}
