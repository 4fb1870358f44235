/**
 * Go module proxy adapter (GOPROXY protocol): `{GO_PROXY_URL}/{escaped module}/@v/list`, then per
 * version `.info` ({Version, Time}) and `.mod` (go.mod: `require` lines, `// indirect` marks,
 * `replace`, `exclude`). Module paths are case-escaped (`A` -> `!a`). Licenses are empty here: deps.dev
 * detects them from source, which the .mod/.info do not carry (go-licenses.ts reads the zip). A github.com/gitlab.com/
 * bitbucket.org module links its repository as SOURCE_REPO (relation provenance GO_ORIGIN).
 *
 * For a dependency resolution (fetchGoForResolve) the module is read in one request, `@v/list`, every
 * version `pending` until the resolver reads its go.mod (fetchGoVersion: `.info` and `.mod`, listed or
 * not, as the go command reads pseudo-versions); such modules are stored partial. The parsed go.mod
 * keeps its `go` directive (`goVersion`, '' when absent: graph pruning) and `retract` lines.
 */
import * as z from 'zod';
import { escapeModulePath } from '../../versions/names/index.ts';
import { byName, fetchText, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { UpstreamNotFound, type IngestedPackage, type IngestedVersion } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';

/** A version's `.info` from the module proxy (`{"Version": ..., "Time": ...}`; `Origin` and others ignored). */
export const GoInfo = z.looseObject({ Version: z.string().nullish(), Time: z.string().nullish() });

export async function fetchGo(env: UpstreamEnv, module: string): Promise<IngestedPackage> {
  const base = `${upstreamUrl(env, 'GO_PROXY_URL')}/${escapeModulePath(module)}/@v`;
  const list = (await fetchText(`${base}/list`))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UpstreamNotFound(`module ${module} has no tagged versions`);
  const versions = await mapLimit(list, 8, async (v) => {
    const [info, mod] = await Promise.all([fetchDoc(`${base}/${v}.info`, GoInfo), fetchText(`${base}/${v}.mod`)]);
    return goVersion(module, info.Version ?? v, isoTime(info.Time), mod);
  });
  return { system: 'GO', name: module, versions };
}

/** The module for a dependency resolution: its version list only, each version `pending` until its go.mod is read. */
export async function fetchGoForResolve(env: UpstreamEnv, module: string): Promise<IngestedPackage> {
  const base = `${upstreamUrl(env, 'GO_PROXY_URL')}/${escapeModulePath(module)}/@v`;
  const list = (await fetchText(`${base}/list`))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UpstreamNotFound(`module ${module} has no tagged versions`);
  const versions: IngestedVersion[] = list.map((version) => ({
    version,
    publishedAt: null,
    deprecated: null,
    licenses: [],
    links: [],
    registries: [],
    slsaProvenances: [],
    attestations: [],
    requirements: null,
    meta: { pending: true },
    artifacts: [],
  }));
  return { system: 'GO', name: module, versions, partial: true };
}

/** One version's `.info` and `.mod` (listed or not); throws UpstreamNotFound when the proxy has no such version. */
export async function fetchGoVersion(env: UpstreamEnv, module: string, version: string): Promise<IngestedVersion> {
  const base = `${upstreamUrl(env, 'GO_PROXY_URL')}/${escapeModulePath(module)}/@v/${escapeModulePath(version)}`;
  const [info, mod] = await Promise.all([fetchDoc(`${base}.info`, GoInfo), fetchText(`${base}.mod`)]);
  return goVersion(module, info.Version ?? version, isoTime(info.Time), mod);
}

export function parseGoMod(text: string) {
  const direct: { name: string; requirement: string }[] = [];
  const indirect: { name: string; requirement: string }[] = [];
  const replaces: { src: string; replacement: string; localPath: string }[] = [];
  const excludes: string[] = [];
  const retracts: string[] = [];
  let goDirective = '';
  let block: string | null = null;
  for (const raw of text.split('\n')) {
    const isIndirect = /\/\/\s*indirect\b/.test(raw);
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (block && line === ')') {
      block = null;
      continue;
    }
    let verb: string | null = block;
    let rest = line;
    const m = /^(require|replace|exclude|module|go|toolchain|retract|godebug)\b\s*(.*)$/.exec(line);
    if (!block && m) {
      verb = m[1]!;
      rest = m[2]!.trim();
      if (rest === '(') {
        block = verb;
        continue;
      }
    }
    const parts = rest.split(/\s+/);
    const req = { name: parts[0]!, requirement: parts[1]! };
    if (verb === 'require' && parts.length >= 2) (isIndirect ? indirect : direct).push(req);
    else if (verb === 'exclude' && parts.length >= 2) excludes.push(`${parts[0]} ${parts[1]}`);
    else if (verb === 'go' && parts[0]) goDirective = parts[0];
    else if (verb === 'retract' && parts[0]) retracts.push(rest);
    else if (verb === 'replace') {
      const [src, dst] = rest.split('=>').map((s) => s.trim());
      if (src && dst) {
        const local = dst.startsWith('.') || dst.startsWith('/');
        replaces.push({ src, replacement: local ? '' : dst, localPath: local ? dst : '' });
      }
    }
  }
  return {
    directDependencies: direct.sort(byName),
    indirectDependencies: indirect.sort(byName),
    replaces,
    excludes,
    goVersion: goDirective,
    retracts,
  };
}

function goVersion(module: string, version: string, time: string | null, mod: string): IngestedVersion {
  const repo = /^(github\.com|gitlab\.com|bitbucket\.org)\/[^/]+\/[^/]+/.exec(module)?.[0];
  return {
    version,
    publishedAt: time,
    deprecated: /^\s*\/\/\s*Deprecated:/m.test(mod) ? (/\/\/\s*Deprecated:\s*(.*)/.exec(mod)?.[1] ?? '') : null,
    licenses: [],
    links: repo ? [{ label: 'SOURCE_REPO', url: `https://${repo}` }] : [],
    registries: [],
    slsaProvenances: [],
    attestations: [],
    requirements: { go: parseGoMod(mod) },
    meta: {},
    artifacts: [],
  };
}
