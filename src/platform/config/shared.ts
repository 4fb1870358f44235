/**
 * Variables more than one function reads, declared once in groups by concern, with a memoised reader
 * per group for the platform code that reads them. Functions compose these groups with their
 * services' own (functions/config.ts).
 */
import { configReader, variable, type VariableGroup } from './define.ts';
import { isLoopbackUrl } from '../loopback.ts';
import { base64Key32, hostPort, httpUrl, lowerList, onOff, secretText, text } from './kinds.ts';

export const DATABASE = {
  DATABASE_URL: variable({ schema: text, secret: true, meaning: 'Postgres connection string (Neon in production)' }),
  NEON_LOCAL_PROXY: variable({
    schema: hostPort,
    optional: true,
    meaning: 'host:port of a Neon-compatible local proxy; unset in production (local only)',
  }),
} satisfies VariableGroup;

export const QUEUE = {
  QSTASH_URL: variable({ schema: httpUrl, optional: true, meaning: "QStash base URL (unset: Upstash's)" }),
  QSTASH_TOKEN: variable({ schema: text, secret: true, meaning: 'QStash token, to publish messages' }),
  DELIVERY_URL: variable({
    schema: httpUrl,
    meaning: 'public URL of the `delivery` function (QStash calls it back there)',
  }),
} satisfies VariableGroup;

export const QUEUE_RECEIVER = {
  QSTASH_CURRENT_SIGNING_KEY: variable({ schema: text, secret: true, meaning: 'QStash key that verifies callbacks' }),
  QSTASH_NEXT_SIGNING_KEY: variable({ schema: text, secret: true, meaning: 'QStash next key (key rotation)' }),
} satisfies VariableGroup;

export const MAIL = {
  MAIL_API_URL: variable({ schema: httpUrl, meaning: 'Resend-compatible mail API (`POST /emails`)' }),
  MAIL_API_KEY: variable({ schema: text, secret: true, meaning: 'bearer key of the mail API' }),
  MAIL_FROM: variable({
    schema: text,
    default: 'Edge Services <no-reply@example.edu>',
    meaning: 'sender of mail that names none',
  }),
} satisfies VariableGroup;

export const AUTH = {
  JWT_SECRET: variable({ schema: secretText(32), secret: true, meaning: 'HS256 key of user tokens (≥ 32 bytes)' }),
  JWT_ISSUER: variable({
    schema: text,
    default: 'edge-services',
    meaning: '`iss` of issued tokens, checked on verify',
  }),
} satisfies VariableGroup;

export const ENCRYPTION = {
  ENCRYPTION_KEY: variable({
    schema: base64Key32,
    secret: true,
    meaning: 'base64 of 32 bytes: AES-GCM key for secrets stored at rest',
  }),
} satisfies VariableGroup;

export const OUTBOUND = {
  OUTBOUND_ALLOWLIST: variable({
    schema: lowerList,
    default: '',
    meaning: 'comma-separated hosts (or host:port) the SSRF guard lets through although private (local testing)',
  }),
  OUTBOUND_LOOPBACK_HTTP: variable({
    schema: onOff,
    default: 'off',
    meaning:
      'local development: allow-listed loopback receivers may use http where https is required (webhooks with customer data); refused unless DATABASE_URL is on loopback',
    check: (on, raw) =>
      on && !isLoopbackUrl(raw('DATABASE_URL'))
        ? 'may be on only in local development (DATABASE_URL on a loopback host); production refuses it'
        : undefined,
  }),
} satisfies VariableGroup;

export const databaseConfig = configReader(DATABASE);
export const queueConfig = configReader(QUEUE);
export const queueReceiverConfig = configReader(QUEUE_RECEIVER);
export const mailConfig = configReader(MAIL);
export const authConfig = configReader(AUTH);
export const encryptionConfig = configReader(ENCRYPTION);
export const outboundConfig = configReader(OUTBOUND);

/** The AES-GCM key for secrets at rest (crypto.ts's encryptSecret / decryptSecret). */
export function encryptionKey(env: object): string {
  return encryptionConfig(env).ENCRYPTION_KEY;
}
