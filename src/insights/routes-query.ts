/**
 * Query (`GET /v3/query`): query parameters are QueryRequest's fields in proto JSON dotted form —
 * `hash.type` (MD5|SHA1|SHA256|SHA512) + `hash.value` (base64), and/or `versionKey.system`,
 * `versionKey.name`, `versionKey.version`. At least a hash or a system+name is required. At most
 * 1000 results, ordered by (system, name, version order). A versionKey naming an unknown package
 * reads it through first. `versionKey.version` matches a version by its canonical form or by its
 * published spelling (npm's `1.0.2beta` is found as written, not only as `1.0.2-beta`). Under /v3alpha
 * each result adds `artifacts: [{url}]` (the artifacts matching the hash; [] without one) and its Version
 * has the v3alpha fields. The parameters are checked against `queryQuery` (schemas.ts) first.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import type { System } from '../versions/index.ts';
import { canonicalName, canonicalVersion, parseSystem } from './paths.ts';
import { packageExists, queryVersions, type QueryArgs } from './queries.ts';
import { packages, readThrough, type PackageKey } from './read-through.ts';
import { jsonText } from './views.ts';
import { readContext } from './route-context.ts';
import { versionWarning, type VersionRef } from './read-status.ts';
import { cooldownDays } from './cooldown.ts';
import { withAlphaFields } from './version-alpha.ts';
import { HASH_TYPES, queryQuery } from './schemas.ts';

export const queryRoutes = new Hono<AppEnv>();

const HASH_BYTES: Record<string, number> = { MD5: 16, SHA1: 20, SHA256: 32, SHA512: 64 };

queryRoutes.get('/:api{v3|v3alpha}/query', validate('query', queryQuery), async (c) => {
  const q = (k: string) => c.req.query(k) ?? c.req.query(k.replace(/\.(\w)/, (_m, ch: string) => `_${ch}`));
  const args: QueryArgs & { system?: System } = {};
  const hashType = q('hash.type');
  const hashValue = q('hash.value');
  if (hashType !== undefined || hashValue !== undefined) {
    if (!hashType || !(HASH_TYPES as readonly string[]).includes(hashType.toUpperCase()))
      throw new HttpError(400, `invalid hash.type "${hashType ?? ''}" (want ${HASH_TYPES.join('|')})`);
    let bytes: string;
    try {
      bytes = atob((hashValue ?? '').replace(/-/g, '+').replace(/_/g, '/'));
    } catch {
      throw new HttpError(400, 'hash.value is not base64');
    }
    if (bytes.length !== HASH_BYTES[hashType.toUpperCase()])
      throw new HttpError(
        400,
        `hash.value must be ${HASH_BYTES[hashType.toUpperCase()]} bytes for ${hashType.toUpperCase()}`,
      );
    args.hashType = hashType.toUpperCase();
    args.hashValue = btoa(bytes);
  }
  const sys = q('versionKey.system');
  const name = q('versionKey.name');
  const version = q('versionKey.version');
  if (sys !== undefined) args.system = parseSystem(sys);
  if (name !== undefined) {
    if (!args.system) throw new HttpError(400, 'versionKey.name needs versionKey.system');
    args.name = canonicalName(args.system, name);
  }
  if (version !== undefined) {
    if (!args.system || !args.name)
      throw new HttpError(400, 'versionKey.version needs versionKey.system and versionKey.name');
    args.version = canonicalVersion(args.system, version);
    args.spelled = version;
  }
  if (!args.hashType && !args.name)
    throw new HttpError(400, 'query needs hash.type+hash.value or versionKey.system+versionKey.name');
  const ctx = readContext(c);
  if (args.system && args.name) {
    const exists = async (k: PackageKey) =>
      (await packageExists(ctx.db, k.system, k.name)) ? { value: k.name } : null;
    const stored = await readThrough(ctx, packages, { system: args.system, name: args.name }, exists);
    if (stored) args.name = stored.value;
  }
  const alpha = new URL(c.req.url).pathname.startsWith('/v3alpha/');
  const body = await queryVersions(ctx.db, args, alpha);
  const { results } = JSON.parse(body) as { results: { version: Record<string, unknown>; artifacts: unknown }[] };
  const keys = results.map((r) => r.version.versionKey as VersionRef);
  const warning = await versionWarning(ctx, keys); // what the results show without a successful read
  if (warning) c.header('Warning', warning);
  if (!alpha) return jsonText(c, body);
  const versions = await withAlphaFields(
    ctx.db,
    results.map((r) => r.version),
    cooldownDays(c.env),
  );
  return c.json({ results: results.map((r, i) => ({ version: versions[i], artifacts: r.artifacts })) });
});
