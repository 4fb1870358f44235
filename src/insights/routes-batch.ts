/**
 * The v3alpha batch methods, each `{requests: [...], pageToken}` -> `{responses: [{request, ...}], nextPageToken}`
 * in proto3 JSON (`null` = absent, `page_token`/`version_key` spellings accepted, unknown fields ignored):
 * - `POST /v3alpha/versionbatch` {versionKey} -> {request, version}
 * - `POST /v3alpha/purlbatch` {purl} -> {request, result: {version}}; every purl names a version (deps.dev:
 *   "only supports version lookups"); qualifiers and subpaths are accepted and Go module paths matched
 *   ignoring case (purl-target.ts; deps.dev fails them)
 * - `POST /v3alpha/projectbatch` {projectKey: {id}} -> {request, project}
 * At most 5000 requests (an empty list is a 400 too), 1000 per page (batch-paging.ts). Only stored
 * items are answered (v3alpha Version messages, version-alpha.ts), nothing is read through inside a batch;
 * an unknown one comes back with its `request` alone. `request` is echoed as sent (after proto3
 * normalisation), not canonicalised, but for the key's `system`, written as its enum name (echoRequest).
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { MAX_BATCH, pageOf } from './batch-paging.ts';
import { parseProjectId } from './ingest/projects.ts';
import { canonicalName, canonicalVersion, parseSystem } from './paths.ts';
import { echoRequest, proto3 } from './proto-json.ts';
import { parsePurl } from './purl.ts';
import { canonicalPurlKey, purlKeys } from './purl-target.ts';
import { batchVersions } from './queries.ts';
import { batchProjects } from './queries-batch.ts';
import { cooldownDays } from './cooldown.ts';
import { withAlphaFields } from './version-alpha.ts';
import { projectWarning, versionWarning } from './read-status.ts';
import { readContext } from './route-context.ts';

export const batchRoutes = new Hono<AppEnv>();

function batchOf<T extends z.ZodType>(request: T) {
  return proto3(z.object({ requests: z.array(request).min(1).max(MAX_BATCH), pageToken: z.string().optional() }));
}

const versionKey = z.object({ system: z.string(), name: z.string(), version: z.string() });
export const versionBatchBody = batchOf(z.object({ versionKey }));
export const purlBatchBody = batchOf(z.object({ purl: z.string().describe('a purl with @version') }));
export const projectBatchBody = batchOf(z.object({ projectKey: z.object({ id: z.string() }) }));

/** Canonical keys of all the requests (every page checks the whole batch); a bad one fails it, naming its index. */
function keysOf<T>(requests: T[], key: (r: T) => { system: string; name: string; version: string }) {
  return requests.map((r, i) => {
    try {
      const k = key(r);
      const system = parseSystem(k.system);
      return { system, name: canonicalName(system, k.name), version: canonicalVersion(system, k.version) };
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.status, `requests[${i}]: ${err.message}`);
      throw err;
    }
  });
}

type Key = ReturnType<typeof keysOf>[number];

/**
 * v3alpha Versions (null: not stored) of the keys, in their order, with every v3alpha field (version-alpha.ts);
 * the batch answer's Warning header names what the stored ones show without a successful read (read-status.ts).
 */
async function alphaVersions(c: Context<AppEnv>, keys: { system: string; name: string; version: string }[]) {
  const versions = (await batchVersions(c.get('db'), keys, true)) as (Record<string, unknown> | null)[];
  const warning = await versionWarning(
    readContext(c),
    keys.filter((_k, i) => versions[i]),
  );
  if (warning) c.header('Warning', warning);
  return withAlphaFields(c.get('db'), versions, cooldownDays(c.env));
}

/** One page of versions: `answer(request, version)` for a stored one, `{request}` for an unknown one. */
async function versionPage<T>(
  c: Context<AppEnv>,
  requests: T[],
  keys: Key[],
  pageToken: string | undefined,
  answer: (request: T, version: unknown) => object,
): Promise<Response> {
  const page = pageOf(
    requests.map((request, i) => ({ request: echoRequest(request as object) as T, key: keys[i]! })),
    pageToken,
  );
  const versions = await alphaVersions(
    c,
    page.items.map((p) => p.key),
  );
  return c.json({
    responses: page.items.map(({ request }, i) => (versions[i] ? answer(request, versions[i]) : { request })),
    nextPageToken: page.nextPageToken,
  });
}

batchRoutes.post('/v3alpha/versionbatch', validate('json', versionBatchBody), async (c) => {
  const { requests, pageToken } = c.req.valid('json');
  const keys = keysOf(requests, (r) => r.versionKey);
  return versionPage(c, requests, keys, pageToken, (request, version) => ({ request, version }));
});

batchRoutes.post('/v3alpha/purlbatch', validate('json', purlBatchBody), async (c) => {
  const { requests, pageToken } = c.req.valid('json');
  const parsed = requests.map((r, i) => {
    try {
      const purl = parsePurl(r.purl);
      if (purl.version === undefined) {
        throw new HttpError(400, `purl "${r.purl}" has no version (purlbatch reads versions)`);
      }
      return { purl, key: canonicalPurlKey(purl) };
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.status, `requests[${i}]: ${err.message}`);
      throw err;
    }
  });
  const page = pageOf(
    requests.map((request, i) => ({ request, ...parsed[i]! })),
    pageToken,
  );
  const db = c.get('db');
  const keys = await purlKeys(
    db,
    c.env,
    page.items.map((p) => p.purl),
    page.items.map((p) => p.key),
  );
  const found = keys.map((k, i) => ({ k, i })).filter(({ k }) => !k.notHere);
  const wanted = found.map(({ k }) => ({ system: k.system, name: k.name, version: k.version! }));
  const versions = await alphaVersions(c, wanted);
  const byIndex = new Map(found.map(({ i }, j) => [i, versions[j]]));
  return c.json({
    responses: page.items.map(({ request }, i) => {
      const version = byIndex.get(i);
      return version ? { request, result: { version } } : { request };
    }),
    nextPageToken: page.nextPageToken,
  });
});

batchRoutes.post('/v3alpha/projectbatch', validate('json', projectBatchBody), async (c) => {
  const { requests, pageToken } = c.req.valid('json');
  const want = 'want github.com|gitlab.com|bitbucket.org/<owner>/<repo>';
  const ids = requests.map((r, i) => {
    const id = r.projectKey.id.toLowerCase();
    if (parseProjectId(id)) return id;
    throw new HttpError(400, `requests[${i}]: invalid project id "${r.projectKey.id}" (${want})`);
  });
  const page = pageOf(
    requests.map((request, i) => ({ request, id: ids[i]! })),
    pageToken,
  );
  const projects = await batchProjects(
    c.get('db'),
    page.items.map((p) => p.id),
  );
  const warning = await projectWarning(
    readContext(c),
    page.items.map((p) => p.id),
  );
  if (warning) c.header('Warning', warning);
  return c.json({
    responses: page.items.map(({ request }, i) => (projects[i] ? { request, project: projects[i] } : { request })),
    nextPageToken: page.nextPageToken,
  });
});
