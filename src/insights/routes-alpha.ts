/**
 * v3alpha additions: `POST /v3alpha/versionbatch` ({requests: [{versionKey}], pageToken}, proto3 JSON:
 * `null` = absent, `page_token`/`version_key` spellings accepted, unknown fields ignored; at most
 * 5000 keys, answered 1000 per page; the page token is the base64 offset of the next page; only
 * stored versions are answered, unknown ones come back with `request` alone) and
 * `GET /v3alpha/purl/{purl}` (the whole purl percent-encoded; {package} or {version}).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { canonicalName, canonicalVersion, decodeSegment, parseSystem, rawSegments } from './paths.ts';
import { proto3 } from './proto-json.ts';
import { parsePurl } from './purl.ts';
import { batchVersions, getPackage, getVersion } from './queries.ts';
import { readThroughPackage } from './read-through.ts';

export const alphaRoutes = new Hono<AppEnv>();

export const MAX_BATCH = 5000;
export const BATCH_PAGE = 1000;

const batchBody = proto3(z.object({
  requests: z.array(z.object({ versionKey: z.object({ system: z.string(), name: z.string(), version: z.string() }) })).min(1).max(MAX_BATCH),
  pageToken: z.string().optional(),
}));

alphaRoutes.post('/v3alpha/versionbatch', validate('json', batchBody), async (c) => {
  const { requests, pageToken } = c.req.valid('json');
  let offset = 0;
  if (pageToken) {
    offset = Number.parseInt(atobSafe(pageToken), 10);
    if (!Number.isInteger(offset) || offset < 0 || offset >= requests.length) throw new HttpError(400, 'invalid pageToken');
  }
  const page = requests.slice(offset, offset + BATCH_PAGE);
  const keys = page.map((r) => {
    const system = parseSystem(r.versionKey.system);
    const name = canonicalName(system, r.versionKey.name);
    return { system, name, version: canonicalVersion(system, r.versionKey.version) };
  });
  const versions = await batchVersions(c.get('db'), keys);
  const next = offset + BATCH_PAGE < requests.length ? btoa(String(offset + BATCH_PAGE)) : '';
  return c.json({
    responses: page.map((request, i) => (versions[i] ? { request, version: versions[i] } : { request })),
    nextPageToken: next,
  });
});

function atobSafe(s: string): string {
  try {
    return atob(s);
  } catch {
    throw new HttpError(400, 'invalid pageToken');
  }
}

alphaRoutes.get('/v3alpha/purl/*', async (c) => {
  const raw = rawSegments(c.req.url).slice(2).join('/');
  const { system, name: rawName, version } = parsePurl(decodeSegment(raw));
  const name = canonicalName(system, rawName);
  const db = c.get('db');
  const read = async (n: string) => (version === undefined ? getPackage(db, system, n) : getVersion(db, system, n, canonicalVersion(system, version)));
  let found = await read(name);
  if (found.fetched === null) {
    const canonical = await readThroughPackage(c, system, name);
    if (canonical) found = await read(canonical);
  }
  if (found.body === null) throw new HttpError(404, `${version === undefined ? 'package' : 'version'} for purl not found`);
  return c.body(`{"${version === undefined ? 'package' : 'version'}":${found.body}}`, 200, { 'content-type': 'application/json; charset=UTF-8' });
});
