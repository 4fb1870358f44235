/**
 * v3alpha single-item methods: `GET /v3alpha/purl/{purl}` (the whole purl percent-encoded;
 * {package} or {version}, v3alpha messages: with `purl`, `upstreamIdentifiers`) and
 * `GET /v3alpha/querycontainerimages/{chainId}` (an OCI chain id `sha256:<64 hex>`; an
 * unknown one answers 200 `{"results": []}`, as deps.dev does; the rows come from the importer in
 * container-images.ts, which also says where production data would come from). The batch methods are in
 * routes-batch.ts.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { decodeSegment, rawSegments } from './paths.ts';
import { parsePurl } from './purl.ts';
import { purlKeys } from './purl-target.ts';
import { getPackage, getVersion } from './queries.ts';
import { queryContainerImages } from './queries-batch.ts';
import { packages, readThrough, storedFound, type PackageKey } from './read-through.ts';
import { jsonText } from './views.ts';
import { readContext } from './route-context.ts';
import { packageWarning, versionWarning } from './read-status.ts';
import { cooldownDays } from './cooldown.ts';
import { alphaVersionText } from './version-alpha.ts';
import { ensureGoLicences } from './go-licenses.ts';
import { joinWarnings } from './warning-header.ts';
import { chainIdParam, check, purlParam } from './schemas.ts';

export const alphaRoutes = new Hono<AppEnv>();

alphaRoutes.get('/v3alpha/purl/*', async (c) => {
  const raw = rawSegments(c.req.url).slice(2).join('/');
  check(purlParam, decodeSegment(raw), `invalid purl "${decodeSegment(raw)}"`);
  const db = c.get('db');
  const [key] = await purlKeys(db, c.env, [parsePurl(decodeSegment(raw))]);
  const { system, name, version, notHere } = key!;
  const kind = version === undefined ? 'package' : 'version';
  if (notHere) throw new HttpError(404, `${kind} for purl not found: ${notHere}`);
  const read = async (k: PackageKey) =>
    storedFound(
      version === undefined
        ? await getPackage(db, k.system, k.name, true)
        : await getVersion(db, k.system, k.name, version, true),
    );
  const ctx = readContext(c);
  const found = await readThrough(ctx, packages, { system, name }, read);
  if (!found?.value) throw new HttpError(404, `${kind} for purl not found`);
  // a Go version's licences are read from its source zip the first time it is shown (go-licenses.ts)
  const go = version !== undefined && system === 'GO' ? await ensureGoLicences(ctx.env, db, name, version) : null;
  const value = go?.stored ? ((await getVersion(db, system, name, version!, true)).body ?? found.value) : found.value;
  const warning =
    version === undefined
      ? await packageWarning(ctx, [{ system, name }])
      : joinWarnings([go?.warning, await versionWarning(ctx, [{ system, name, version }])]);
  if (warning) c.header('Warning', warning);
  const body = kind === 'version' ? await alphaVersionText(db, value, cooldownDays(c.env)) : value;
  return jsonText(c, `{"${kind}":${body}}`);
});

alphaRoutes.get('/v3alpha/querycontainerimages/*', async (c) => {
  const seg = rawSegments(c.req.url).slice(2);
  const chainId = seg.length === 1 ? decodeSegment(seg[0]!) : '';
  const got = seg.map(decodeSegment).join('/');
  check(chainIdParam, chainId, `invalid chain id "${got}" (want sha256:<64 lower-case hex>)`);
  return jsonText(c, await queryContainerImages(c.get('db'), chainId));
});
