/**
 * npm version selection, following npm-pick-manifest (npm 7+): for a range, the `latest` dist-tag
 * wins when it satisfies the range, is not deprecated and its `engines` accept the emulated
 * node/npm; otherwise candidates satisfying the range are ordered by (not deprecated and engine
 * ok) > engine ok > not deprecated > highest version. A dist-tag name as the spec selects that tag.
 * Ranges match like node-semver with `loose` (prereleases only when the range names them).
 */
import { compare, parseRequirement, satisfies } from '../versions/index.ts';
import type { VersionInfo } from './types.ts';
import { has } from './types.ts';

export interface NpmEnv {
  nodeVersion: string;
  npmVersion: string;
  os: string;
  cpu: string;
  /** libc family on linux (`glibc` | `musl`), as npm-install-checks detects it. */
  libc?: string;
}

export const DEFAULT_NPM_ENV: NpmEnv = Object.freeze({
  nodeVersion: '22.23.3',
  npmVersion: '11.19.1',
  os: 'linux',
  cpu: 'x64',
  libc: 'glibc',
});

export function engineOk(v: VersionInfo, env: NpmEnv): boolean {
  const raw = v.attrs.engines;
  if (!raw) return true;
  let engines: Record<string, unknown>;
  try {
    engines = JSON.parse(raw);
  } catch {
    return true;
  }
  if (!engines || typeof engines !== 'object' || Array.isArray(engines)) return true;
  const ok = (want: unknown, have: string) =>
    typeof want !== 'string' || want.trim() === '' || satisfies('NPM', have, want, { includePrerelease: true });
  return ok(engines.node, env.nodeVersion) && ok(engines.npm, env.npmVersion);
}

function listOk(list: string | undefined, value: string): boolean {
  if (!list) return true;
  const items = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return true;
  const neg = items.filter((i) => i.startsWith('!')).map((i) => i.slice(1));
  const pos = items.filter((i) => !i.startsWith('!'));
  if (neg.includes(value)) return false;
  return pos.length === 0 || pos.includes(value) || pos.includes('any');
}

/**
 * npm-install-checks checkPlatform (npm 10+): `os` / `cpu` / `libc` lists with `!` negations; a `libc`
 * list fails on any os but linux, and on linux is matched against the detected family (glibc here).
 */
export function platformOk(v: VersionInfo, env: NpmEnv): boolean {
  if (!listOk(v.attrs.os, env.os) || !listOk(v.attrs.cpu, env.cpu)) return false;
  if (!v.attrs.libc) return true;
  return env.os === 'linux' && listOk(v.attrs.libc, env.libc ?? 'glibc');
}

export function tagsOf(v: VersionInfo): string[] {
  return (v.attrs.tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Whether `version` satisfies the dependency spec `range` the way arborist's edges check it. */
export function specSatisfied(range: string, version: string, versions?: readonly VersionInfo[]): boolean {
  const r = range.trim();
  if (r === '' || r === '*' || r === 'x' || r === 'latest') return true;
  const p = parseRequirement('NPM', r);
  if (p.ok) return p.requirement.matches(version);
  // a dist-tag spec: arborist accepts whatever was installed for it
  return (
    versions === undefined ||
    versions.some((v) => v.version === version && tagsOf(v).includes(r)) ||
    /^[A-Za-z][\w.-]*$/.test(r)
  );
}

export function pickVersion(versions: readonly VersionInfo[], range: string, env: NpmEnv): VersionInfo | null {
  const live = versions.filter((v) => !has(v.attrs, 'deleted'));
  let r = range.trim();
  if (r === '' || r === 'x') r = '*';
  const byTag = live.find((v) => tagsOf(v).includes(r));
  if (byTag) return byTag;
  const p = parseRequirement('NPM', r);
  if (!p.ok) return null;
  const matches = (v: string) => p.requirement.matches(v);
  const latest = live.find((v) => tagsOf(v).includes('latest'));
  if (latest && matches(latest.version) && !has(latest.attrs, 'deprecated') && engineOk(latest, env)) return latest;
  const cands = live.filter((v) => matches(v.version));
  if (cands.length === 0) return null;
  const score = (v: VersionInfo) => {
    const nd = !has(v.attrs, 'deprecated');
    const eng = engineOk(v, env);
    return [nd && eng ? 1 : 0, eng ? 1 : 0, nd ? 1 : 0];
  };
  let best = cands[0]!;
  let bs = score(best);
  for (const c of cands.slice(1)) {
    const s = score(c);
    const d = s[0]! - bs[0]! || s[1]! - bs[1]! || s[2]! - bs[2]! || compare('NPM', c.version, best.version);
    if (d > 0) {
      best = c;
      bs = s;
    }
  }
  return best;
}
