/**
 * GetPackage, GetVersion, GetRequirements and GetDependencies under
 * `/v3/systems/{system}/packages/{name}[/versions/{version}[:requirements|:dependencies]]`
 * (also `/v3alpha/...`, which adds GetDependents `:dependents`, dependents.ts, and
 * GetSimilarlyNamedPackages `{name}:similarlyNamedPackages`, similar-names.ts, `:findings` on packages
 * and versions, routes-findings.ts, and the v3alpha-only fields). Parsed from the raw path so encoded `/`, `@`, `:` in names survive; an
 * unencoded npm scope (`@scope/name`) is accepted too. Unknown packages are read through from the
 * upstream once; stale ones are refreshed in the background. A `:method` suffix the service does not
 * serve (deps.dev's `:dependents`, `:capabilities`, `:similarlyNamedPackages`, ...) is a 404 naming the
 * method, not a missing version or package.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith } from '../platform/validate.ts';
import type { System } from '../versions/index.ts';
import { getDependencies, includeOf } from './dependencies.ts';
import { getCapabilities } from './capabilities.ts';
import { ensureGoLicences } from './go-licenses.ts';
import { joinWarnings } from './warning-header.ts';
import { getDependents } from './dependents.ts';
import { cooldownDays } from './findings.ts';
import { getFindings } from './routes-findings.ts';
import { similarlyNamed } from './similar-names.ts';
import { canonicalName, canonicalVersion, decodeSegment, parseSystem, rawSegments } from './paths.ts';
import { getPackage, getRequirements, getVersion, type Found } from './queries.ts';
import { packages, readThrough, storedFound, type PackageKey, type Stored } from './read-through.ts';
import { firstPackageRead } from './package-first-read.ts';
import { firstVersionRead } from './version-first-read.ts';
import type { ReadContext } from './read-context.ts';
import { jsonText } from './views.ts';
import { completeNpmVersion, type NpmRead } from './npm-pending.ts';
import { readContext } from './route-context.ts';
import { dependenciesQuery, dependentsQuery } from './schemas.ts';
import { alphaVersionText } from './version-alpha.ts';
import { packageWarning, versionWarning } from './read-status.ts';

export const packageRoutes = new Hono<AppEnv>();

interface Target {
  /** A /v3alpha request: answers carry the v3alpha-only fields (purl, upstreamIdentifiers). */
  alpha: boolean;
  system: System;
  name: string;
  version?: string;
  action?: 'requirements' | 'dependencies' | 'dependents' | 'similarlyNamedPackages' | 'findings' | 'capabilities';
}

/** The methods on a version, per API: deps.dev serves `:dependents` under v3alpha only. */
export const VERSION_METHODS = {
  v3: ['requirements', 'dependencies'],
  v3alpha: ['requirements', 'dependencies', 'dependents', 'findings', 'capabilities'],
} as const;
/** The methods on a package, served under /v3alpha only. */
export const PACKAGE_METHODS = ['similarlyNamedPackages', 'findings'];

function parseTarget(url: string): Target {
  const all = rawSegments(url);
  const api = all[0] === 'v3alpha' ? 'v3alpha' : 'v3';
  const seg = all.slice(2); // drop v3|v3alpha, systems
  if (seg.length < 3 || seg[1] !== 'packages') throw new HttpError(404, 'no such route');
  const system = parseSystem(decodeSegment(seg[0]!));
  let rest = seg.slice(2);
  if (
    rest.length >= 2 &&
    decodeSegment(rest[0]!).startsWith('@') &&
    !decodeSegment(rest[0]!).includes('/') &&
    rest[1] !== 'versions'
  ) {
    rest = [`${rest[0]}%2F${rest[1]}`, ...rest.slice(2)];
  }
  const rawName = decodeSegment(rest[0]!);
  if (rest.length === 1) {
    // a `:method` after a package name (no name of these systems holds a `:`; a Maven name holds one)
    const method = /^[^:]+(?::[^:]+)?:([A-Za-z]+)$/.exec(rawName);
    if (method && rawName.split(':').length === (system === 'MAVEN' ? 3 : 2)) {
      if (api !== 'v3alpha' || !PACKAGE_METHODS.includes(method[1]!)) {
        const served = api === 'v3alpha' ? PACKAGE_METHODS.map((m) => `:${m}`).join(', ') : 'no method under /v3';
        throw noSuchMethod(method[1]!, 'a package', served);
      }
      const name = canonicalName(system, rawName.slice(0, -method[1]!.length - 1));
      return { alpha: true, system, name, action: method[1] as Target['action'] };
    }
    return { alpha: api === 'v3alpha', system, name: canonicalName(system, rawName) };
  }
  const name = canonicalName(system, rawName);
  if (rest.length !== 3 || rest[1] !== 'versions') throw new HttpError(404, 'no such route');
  let version = decodeSegment(rest[2]!);
  let action: Target['action'];
  const m = /:([A-Za-z]+)$/.exec(version); // no version of these systems holds a `:`
  if (m) {
    const served: readonly string[] = VERSION_METHODS[api];
    if (!served.includes(m[1]!)) {
      throw noSuchMethod(m[1]!, 'a version', `${served.map((s) => `:${s}`).join(', ')} under /${api}`);
    }
    action = m[1] as Target['action'];
    version = version.slice(0, -m[0].length);
  }
  return { alpha: api === 'v3alpha', system, name, version: canonicalVersion(system, version), action };
}

/** A `:method` suffix this service does not serve: a 404 that names it, never "version not found". */
function noSuchMethod(method: string, on: string, served: string): HttpError {
  return new HttpError(404, `no such method ":${method}" on ${on} (this service serves ${served} there)`);
}

/** A read of the package route: the store, else the upstream once; stale packages are refreshed in the background. */
async function readPackage(
  ctx: ReadContext,
  t: Target,
  read: (name: string) => Promise<Found>,
  onMiss?: () => Promise<Stored<string | null> | null>,
) {
  const key = { system: t.system, name: t.name };
  const stored = async (k: PackageKey) => storedFound(await read(k.name));
  const found = await readThrough(ctx, packages, key, stored, { refreshStale: true, onMiss });
  if (found === null) throw new HttpError(404, `package ${t.system} ${t.name} not found`);
  return found.value;
}

/**
 * readPackage for an answer that shows an npm read left pending at ingestion (npm-pending.ts): the
 * version's own tarball or attestations are read and stored first, then the answer is read again.
 */
async function readNpmPending(
  ctx: ReadContext,
  t: Target,
  version: string,
  what: NpmRead,
  read: (name: string) => Promise<Found>,
  onMiss?: (read: (name: string) => Promise<Found>) => Promise<Stored<string | null> | null>,
) {
  let pending = false;
  const tracked = async (n: string) => {
    const found = await read(n);
    pending = !!found.pending;
    return found;
  };
  const body = await readPackage(ctx, t, tracked, onMiss && (() => onMiss(tracked)));
  if (!pending) return body;
  await completeNpmVersion(ctx.env, ctx.db, t.name, version, what);
  return (await read(t.name)).body;
}

packageRoutes.get('/:api{v3|v3alpha}/systems/*', async (c) => {
  const t = parseTarget(c.req.url);
  const ctx = readContext(c);
  const db = ctx.db;
  if (t.action === 'findings') {
    return c.json(await getFindings(ctx, t, cooldownDays(c.env), (w) => c.header('Warning', w)));
  }
  if (t.version === undefined && t.action === 'similarlyNamedPackages') {
    return jsonText(c, (await readPackage(ctx, t, (n) => similarlyNamed(db, t.system, n)))!);
  }
  if (t.version === undefined) {
    const read = (n: string) => getPackage(db, t.system, n, t.alpha);
    const first = () => firstPackageRead(ctx, { system: t.system, name: t.name }, t.alpha); // answered, then stored
    const body = (await readPackage(ctx, t, read, first))!;
    const warning = await packageWarning(ctx, [{ system: t.system, name: t.name }]);
    if (warning) c.header('Warning', warning);
    return jsonText(c, body);
  }
  const version = t.version;
  const key = { system: t.system, name: t.name, version };
  const missing = `version ${t.system} ${t.name}@${version} not found`;
  if (t.action === 'dependencies') {
    const query = parseWith(dependenciesQuery, c.req.query(), 'query');
    const include = includeOf(query.include);
    return jsonText(c, await getDependencies(ctx, key, include, (w) => c.header('Warning', w)));
  }
  if (t.action === 'capabilities') {
    if (t.system !== 'GO') throw new HttpError(404, `capabilities are computed for Go modules only, not ${t.system}`);
    const stored = await readPackage(ctx, t, (n) => getVersion(db, t.system, n, version));
    if (stored === null) throw new HttpError(404, missing);
    return jsonText(c, await getCapabilities(ctx.env, db, t.name, version));
  }
  if (t.action === 'dependents') {
    const stored = await readPackage(ctx, t, (n) => getVersion(db, t.system, n, version));
    if (stored === null) throw new HttpError(404, missing);
    return c.json(await getDependents(db, key, parseWith(dependentsQuery, c.req.query(), 'query')));
  }
  if (t.action === 'requirements') {
    const body = await readNpmPending(ctx, t, version, 'tarball', (n) => getRequirements(db, t.system, n, version));
    if (body === null) throw new HttpError(404, `requirements of ${t.system} ${t.name}@${version} not found`);
    return jsonText(c, body);
  }
  const days = cooldownDays(c.env);
  let whole = false; // a first read answered from the fetched document (version-first-read.ts)
  const first = async (read: (name: string) => Promise<Found>) => {
    const r = await firstVersionRead(ctx, key, t.alpha, days, async (n) => storedFound(await read(n)));
    whole = r.whole;
    return r.found;
  };
  // Go's licences come from the module's source zip, read and kept with the stored version (below): a Go
  // first read waits for the store
  let body = await readNpmPending(
    ctx,
    t,
    version,
    'attestations',
    (n) => getVersion(db, t.system, n, version, t.alpha),
    t.system === 'GO' ? undefined : first,
  );
  if (body === null) throw new HttpError(404, missing);
  if (whole) return jsonText(c, body); // every source it shows was read: no Warning, v3alpha fields included
  // Go licences are read from the module's source zip the first time a version is shown (go-licenses.ts)
  const go = t.system === 'GO' ? await ensureGoLicences(ctx.env, db, t.name, version) : null;
  if (go?.stored) body = (await getVersion(db, t.system, t.name, version, t.alpha)).body ?? body;
  // advisoryKeys (OSV), attestations and the package's registry data: unknown or stale ones are named (read-status.ts)
  const warning = joinWarnings([go?.warning, await versionWarning(ctx, [key])]);
  if (warning) c.header('Warning', warning);
  return jsonText(c, t.alpha ? await alphaVersionText(db, body, days) : body);
});
