/**
 * Request bodies as proto3 JSON parsers read them (what deps.dev's gRPC-gateway accepts and what its
 * clients send): a `null` member is the field's default (absent), a field may be written in
 * lowerCamelCase or with its original proto name (`page_token` = `pageToken`), and unknown fields are
 * ignored (zod objects strip them). `proto3(schema)` normalises a body before the schema sees it.
 */
import * as z from 'zod';

const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export function protoNormalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(protoNormalize);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    const key = camel(k);
    if (!(key in out) || k === key) out[key] = protoNormalize(v); // the lowerCamelCase spelling wins
  }
  return out;
}

export function proto3<T extends z.ZodType>(schema: T) {
  return z.preprocess(protoNormalize, schema);
}

/**
 * A batch request echoed in its answer's `request`, as the proto message it is: the key's `system`
 * by its enum name (`npm` is accepted, and echoed `NPM`, as a proto runtime would read it back); name
 * and version stay as sent ("the uncanonicalized request").
 */
export function echoRequest<T extends object>(request: T): T {
  const out: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  for (const field of ['versionKey', 'packageKey']) {
    const key = out[field] as { system?: unknown } | undefined;
    if (key && typeof key.system === 'string') out[field] = { ...key, system: key.system.toUpperCase() };
  }
  return out as T;
}
