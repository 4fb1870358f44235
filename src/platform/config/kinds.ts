/**
 * Schemas of the kinds of value configuration holds, over the trimmed raw string. Messages say what the
 * value must be and never repeat it (a value may be a secret).
 */
import * as z from 'zod';

/** Any non-empty string. */
export const text = z.string();

/** A secret string of at least `bytes` UTF-8 bytes. */
export function secretText(bytes = 1) {
  return z.string().refine((s) => new TextEncoder().encode(s).length >= bytes, `must be at least ${bytes} bytes`);
}

/** An absolute http(s) URL, without trailing slashes. */
export const httpUrl = z
  .string()
  .refine((s) => {
    try {
      return ['http:', 'https:'].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .transform((s) => s.replace(/\/+$/, ''));

/** An absolute http(s) or ws(s) URL (a DevTools endpoint, or its browser WebSocket), kept as given. */
export const devtoolsUrl = z.string().refine((s) => {
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
}, 'must be an absolute http(s) or ws(s) URL');

/** host:port (no scheme). */
export const hostPort = z.string().regex(/^[^\s/:]+:\d{1,5}$/, 'must be host:port');

/** An integer ≥ `min`. */
export function integer(min: number) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number ≥ ${min}`)
    .transform(Number)
    .refine((n) => n >= min, `must be a whole number ≥ ${min}`);
}

/** A finite number ≥ 0 (fractions allowed). */
export const nonNegative = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be a number ≥ 0')
  .transform(Number);

/** A finite number > 0 (fractions allowed). */
export const positive = nonNegative.refine((n) => n > 0, 'must be a number > 0');

/** `on` or `off` (any case) as a boolean. */
export const onOff = z
  .string()
  .transform((s) => s.toLowerCase())
  .refine((s) => s === 'on' || s === 'off', 'must be on or off')
  .transform((s) => s === 'on');

/** A comma-separated list, entries trimmed and lower-cased, empty entries dropped. */
export const lowerList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean),
);

/** base64 of exactly 32 bytes (an AES-256 key). */
export const base64Key32 = z.string().refine((s) => {
  try {
    return atob(s.replace(/-/g, '+').replace(/_/g, '/')).length === 32;
  } catch {
    return false;
  }
}, 'must be base64 of 32 bytes');

/** A string matching `re`, described by `what` in the error. */
export function matching(re: RegExp, what: string) {
  return z.string().regex(re, `must be ${what}`);
}
