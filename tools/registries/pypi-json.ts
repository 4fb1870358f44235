/**
 * A PyPI universe (tools/registries/pip-index.ts) as PyPI's JSON API, for the insights PyPI adapter:
 * `/pypi/<name>/json` lists the releases with one wheel each (`requires_python`, `yanked`, an upload time
 * before PEP 740 attestations existed) and, as PyPI does, describes the latest release in its `info`
 * (the highest final release, else the highest); `/pypi/<name>/<version>/json` carries that release's metadata
 * (`requires_dist` lines written as the wheel METADATA would have them, `requires_python`,
 * `provides_extra`).
 */
import { isPrerelease, sort } from '../../src/versions/index.ts';
import type { PipUniverse, PipVersionSpec } from './pip-index.ts';

function requiresDist(s: PipVersionSpec): string[] {
  return (s.deps ?? []).map(
    ([n, req, o]) =>
      `${n}${o?.extras ? `[${o.extras}]` : ''}${req ? ` ${req}` : ''}${o?.marker ? `; ${o.marker}` : ''}`,
  );
}

function extrasOf(s: PipVersionSpec): string[] {
  const out = new Set(s.extras ?? []);
  for (const [, , o] of s.deps ?? [])
    for (const m of (o?.marker ?? '').matchAll(/extra\s*==\s*['"]([^'"]+)['"]/g)) out.add(m[1]!);
  return [...out];
}

function file(name: string, version: string, s: PipVersionSpec) {
  const filename = `${name.replace(/-/g, '_')}-${version}-py3-none-any.whl`;
  return {
    filename,
    url: `https://files.example/${filename}`,
    packagetype: 'bdist_wheel',
    upload_time_iso_8601: '2020-01-01T00:00:00Z',
    requires_python: s.requiresPython ?? null,
    yanked: s.yanked === true,
    yanked_reason: null,
    digests: {},
  };
}

/** A route for tools/registries/registry-server.ts answering the JSON API of universe `u` under `/pypi/`. */
export function pypiJsonRoute(u: PipUniverse): (path: string) => object | undefined {
  return (path) => {
    const m = /^\/pypi\/([^/]+)\/(?:([^/]+)\/)?json$/.exec(path);
    const versions = m ? u[m[1]!] : undefined;
    if (!m || !versions) return undefined;
    const name = m[1]!;
    const info = (v: string, s: PipVersionSpec) => ({
      name,
      version: v,
      requires_dist: requiresDist(s),
      requires_python: s.requiresPython ?? null,
      provides_extra: extrasOf(s),
    });
    if (m[2] === undefined) {
      const ordered = sort('PYPI', Object.keys(versions));
      const latest = ordered.filter((v) => !isPrerelease('PYPI', v)).at(-1) ?? ordered.at(-1)!;
      return {
        info: info(latest, versions[latest]!),
        releases: Object.fromEntries(Object.entries(versions).map(([v, s]) => [v, [file(name, v, s)]])),
      };
    }
    const s = versions[m[2]];
    if (!s) return undefined;
    return { info: info(m[2], s), urls: [file(name, m[2], s)] };
  };
}
