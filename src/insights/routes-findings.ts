/**
 * Findings routes (findings.ts computes them): `GET /v3alpha/systems/{s}/packages/{p}:findings` and
 * `.../versions/{v}:findings` (dispatched from routes-packages.ts; an unknown package is read through
 * once, and one still unknown answers 200 with a NOT_FOUND finding, never 404), and
 * `POST /v3alpha/findingsbatch` `{requests: [{versionKey} | {packageKey}], pageToken}` ->
 * `{responses: [{request, findings}], nextPageToken}`, paged like the other batches (batch-paging.ts).
 * The batch answers from the store only (no read-through inside a batch): there NOT_FOUND means "not
 * stored here", which a single request would have looked up upstream first. Advisories are another
 * matter: a stored package whose advisories were never read is read inline, and one still unknown
 * makes the whole batch a 503 with Retry-After naming it (the FindingsBatch message has no per-item
 * error, and an empty item would read as clean).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { Queryable } from '../platform/db.ts';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { MAX_BATCH, pageOf } from './batch-paging.ts';
import { cooldownDays, findingsOf, lowUsageThreshold } from './findings.ts';
import { canonicalName, canonicalVersion, parseSystem } from './paths.ts';
import { echoRequest, proto3 } from './proto-json.ts';
import { findingPackages, type FindingPackage } from './queries-findings.ts';
import { usageOf } from './queries-usage.ts';
import { packages, readThrough, type PackageKey } from './read-through.ts';
import type { ReadContext } from './read-context.ts';
import { requireAdvisories } from './advisory-reads.ts';
import { readContext } from './route-context.ts';

export const findingsRoutes = new Hono<AppEnv>();

/**
 * The findings of one package or version; an unknown package is read through once, one still unknown is
 * NOT_FOUND. A known package whose advisories were never read is a 503 (advisory-reads.ts); `warn`
 * receives the Warning header when they are stale.
 */
export async function getFindings(
  ctx: ReadContext,
  t: PackageKey & { version?: string },
  days: number,
  warn: (warning: string) => void = () => {},
) {
  const read = async (k: PackageKey) => {
    const [pkg] = await findingPackages(ctx.db, [k]);
    return pkg!.known ? { value: pkg! } : null;
  };
  const found = await readThrough(ctx, packages, { system: t.system, name: t.name }, read);
  let pkg: FindingPackage = found?.value ?? { system: t.system, name: t.name, known: false, versions: [] };
  if (pkg.known) {
    const warning = await requireAdvisories(ctx, [pkg]);
    if (warning) warn(warning);
    [pkg] = (await findingPackages(ctx.db, [pkg])) as [FindingPackage]; // with what an inline read stored
  }
  await withUsage(ctx.db, lowUsageThreshold(ctx.env), [pkg]);
  return findingsOf(t.system, pkg, t.version, new Date(), days);
}

/** Attaches the usage LOW_USAGE reads to the known packages, when it is on (one count query per system). */
/** LOW_USAGE's input: each known package's dependents count, when the finding is on (threshold > 0). */
async function withUsage(db: Queryable, threshold: number, pkgs: FindingPackage[]): Promise<void> {
  if (threshold === 0) return;
  const known = pkgs.filter((p) => p.known);
  for (const system of new Set(known.map((p) => p.system))) {
    const mine = known.filter((p) => p.system === system);
    const usage = await usageOf(
      db,
      system,
      mine.map((p) => p.name),
      threshold,
    );
    for (const p of mine) p.usage = { ...usage.get(p.name)!, threshold };
  }
}

const request = z.union([
  z.object({ versionKey: z.object({ system: z.string(), name: z.string(), version: z.string() }) }),
  z.object({ packageKey: z.object({ system: z.string(), name: z.string() }) }),
]);
export const findingsBatchBody = proto3(
  z.object({
    requests: z.array(request).min(1).max(MAX_BATCH),
    pageToken: z.string().optional(),
  }),
);

findingsRoutes.post('/v3alpha/findingsbatch', validate('json', findingsBatchBody), async (c) => {
  const { requests, pageToken } = c.req.valid('json');
  const keys = requests.map((r, i) => {
    try {
      const k = 'versionKey' in r ? r.versionKey : r.packageKey;
      const system = parseSystem(k.system);
      const version = 'versionKey' in r ? canonicalVersion(system, r.versionKey.version) : undefined;
      return { system, name: canonicalName(system, k.name), version };
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.status, `requests[${i}]: ${err.message}`);
      throw err;
    }
  });
  const page = pageOf(
    requests.map((request, i) => ({ request: echoRequest(request), key: keys[i]! })),
    pageToken,
  );
  const distinct = [...new Map(page.items.map(({ key }) => [`${key.system}\u0000${key.name}`, key])).values()];
  const keysOf = distinct.map((k) => ({ system: k.system, name: k.name }));
  const known = (await findingPackages(c.get('db'), keysOf)).filter((p) => p.known);
  const warning = await requireAdvisories(readContext(c), known);
  if (warning) c.header('Warning', warning);
  const pkgs = await findingPackages(c.get('db'), keysOf); // with what an inline read stored
  await withUsage(c.get('db'), lowUsageThreshold(c.env), pkgs);
  const byKey = new Map(pkgs.map((p) => [`${p.system}\u0000${p.name}`, p]));
  const now = new Date();
  const days = cooldownDays(c.env);
  return c.json({
    responses: page.items.map(({ request, key }) => ({
      request,
      findings: findingsOf(key.system, byKey.get(`${key.system}\u0000${key.name}`)!, key.version, now, days),
    })),
    nextPageToken: page.nextPageToken,
  });
});
