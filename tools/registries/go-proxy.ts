/**
 * Real `go` as an oracle for Go graphs: generated universes of modules (go.mod files with require,
 * `// indirect`, exclude, replace and retract lines, go directives below and above 1.17, a module with
 * `+incompatible` versions, a `/v2` module path, an upper-case path, a pseudo-version the list does not
 * show) served as a GOPROXY (`{escaped path}/@v/list`, `.info`, `.mod`), and `go mod graph` plus
 * `go list -m all` run for a main module at `go 1.17` that requires only the root, offline
 * (GOPROXY the loopback proxy, GOSUMDB=off, GOFLAGS=-mod=mod, GOTOOLCHAIN=local, private caches).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeModulePath } from '../../src/versions/names/index.ts';
import { compare } from '../../src/versions/index.ts';
import { seededRandom } from '../seeded-random.ts';

export const GO_VERSION = spawnSync('go', ['version'], { encoding: 'utf8' });
export const HAS_GO = GO_VERSION.status === 0;

export interface GoModSpec {
  go?: string;
  require?: [string, string, 'indirect'?][];
  exclude?: [string, string][];
  replace?: [string, string, string, string][];
  retract?: string[];
  /** a version without a go.mod of its own (`+incompatible`): the proxy synthesises `module <path>` */
  noGoMod?: boolean;
}
export type GoUniverse = Record<string, Record<string, GoModSpec>>;

export function goModText(path: string, s: GoModSpec): string {
  if (s.noGoMod) return `module ${path}\n`;
  const lines = [`module ${path}`, ''];
  if (s.go) lines.push(`go ${s.go}`, '');
  if (s.require?.length) {
    lines.push('require (');
    for (const [p, v, ind] of s.require) lines.push(`\t${p} ${v}${ind ? ' // indirect' : ''}`);
    lines.push(')', '');
  }
  for (const [p, v] of s.exclude ?? []) lines.push(`exclude ${p} ${v}`);
  for (const [p, v, q, w] of s.replace ?? []) lines.push(`replace ${p} ${v} => ${q} ${w}`);
  for (const r of s.retract ?? []) lines.push(`retract ${r}`);
  return `${lines.join('\n')}\n`;
}

const PSEUDO = 'v0.0.0-20200102030405-abcdefabcdef';

/** The proxy's documents of a universe by path (`/{escaped}/@v/list|.info|.mod`); pseudo-versions are not listed. */
export function proxyRoutes(u: GoUniverse, into = new Map<string, string>()): Map<string, string> {
  for (const [path, versions] of Object.entries(u)) {
    const base = `/${escapeModulePath(path)}/@v`;
    into.set(
      `${base}/list`,
      `${Object.keys(versions)
        .filter((v) => !v.includes('-2020'))
        .join('\n')}\n`,
    );
    for (const [v, s] of Object.entries(versions)) {
      into.set(`${base}/${escapeModulePath(v)}.info`, JSON.stringify({ Version: v, Time: '2020-01-02T03:04:05Z' }));
      into.set(`${base}/${escapeModulePath(v)}.mod`, goModText(path, s));
    }
  }
  return into;
}

/**
 * A random universe under `example.com/u<seed>/`: root (v1.0.0) and modules m0..m5 (plus `old` with
 * `+incompatible` versions, `m1/v2`, `Upper`), each version requiring modules of higher index only (no
 * cycle back to the root), at random versions and go directives.
 */
export function randomGoUniverse(seed: number, missing = false): { root: string; u: GoUniverse } {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const pre = `example.com/u${seed}`;
  const mods: { path: string; versions: string[] }[] = [{ path: `${pre}/root`, versions: ['v1.0.0'] }];
  const pool = ['v0.1.0', 'v1.0.0', 'v1.1.0', 'v1.2.0', 'v1.3.0-rc.1', 'v1.2.1'];
  for (let i = 0; i < 6; i++) {
    const n = 1 + Math.floor(rnd() * 3);
    const vs = [...new Set(Array.from({ length: n }, () => pick(pool)))];
    if (i === 4 && rnd() < 0.5) vs.push(PSEUDO);
    mods.push({ path: i === 3 ? `${pre}/Upper${i}` : `${pre}/m${i}`, versions: vs });
  }
  mods.push({ path: `${pre}/m1/v2`, versions: ['v2.0.0', 'v2.1.0'] });
  mods.push({ path: `${pre}/old`, versions: ['v1.0.0', 'v2.0.0+incompatible', 'v2.1.0+incompatible'] });
  const u: GoUniverse = {};
  mods.forEach((m, i) => {
    u[m.path] = {};
    for (const v of m.versions) {
      if (v.endsWith('+incompatible')) {
        u[m.path]![v] = { noGoMod: true };
        continue;
      }
      const s: GoModSpec = { go: pick(['', '1.16', '1.17', '1.18', '1.19', '1.17']) || undefined, require: [] };
      for (const d of mods.slice(i + 1)) {
        if (rnd() < 0.4) s.require!.push([d.path, pick(d.versions), rnd() < 0.3 ? 'indirect' : undefined]);
      }
      if (missing && i === 0) {
        s.require!.push([`${pre}/m5`, 'v1.9.9']); // not on the proxy; an unpruned root has its go.mod read
        s.go = '1.16';
      }
      if (rnd() < 0.3 && i + 1 < mods.length) s.exclude = [[mods[i + 1]!.path, pick(mods[i + 1]!.versions)]];
      if (rnd() < 0.3 && i + 2 < mods.length) {
        const d = mods[i + 2]!;
        s.replace = [[d.path, pick(d.versions), d.path, pick(d.versions)]];
      }
      const latest = v === m.versions[m.versions.length - 1];
      if (rnd() < 0.3 && latest) s.retract = [pick(m.versions.filter((x) => x !== PSEUDO))];
      u[m.path]![v] = s;
    }
  });
  return { root: `${pre}/root`, u };
}

export interface GoGraph {
  ok: boolean;
  nodes: string[];
  edges: string[];
  stderr: string;
  listed: string[] | null;
}
function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile('go', args, { cwd, env, maxBuffer: 1 << 24 }, (e, out, err) => resolve({ ok: !e, out, err }));
  });
}

/** The environment that keeps `go` offline: the loopback proxy only, no checksum database, private caches. */
export function goEnv(proxy: string, home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    GOPATH: join(home, 'gopath'),
    GOMODCACHE: join(home, 'modcache'),
    GOCACHE: join(home, 'cache'),
    GOPROXY: proxy,
    GOSUMDB: 'off',
    GONOSUMDB: '',
    GOPRIVATE: '',
    GONOPROXY: '',
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'local',
    GO111MODULE: 'on',
    GOWORK: 'off',
    GOENV: 'off',
  };
}

/**
 * `go mod graph` for a main module at go 1.17 requiring only `root@version`, as selected versions: nodes
 * `path@version` the highest version of each path in the graph (the main module left out), edges
 * `a@v -> b@selected` for each graph line whose source is a selected version. `listed` is what
 * `go list -m all` selects (null when it fails: it also reads `.info` of every selected version, which
 * `go mod graph` does not need).
 */
export async function goModGraph(proxy: string, root: string, version: string, home: string): Promise<GoGraph> {
  const dir = mkdtempSync(join(tmpdir(), 'go-oracle-'));
  try {
    writeFileSync(join(dir, 'go.mod'), `module example.com/main\n\ngo 1.17\n\nrequire ${root} ${version}\n`);
    const env = goEnv(proxy, home);
    const graph = await run(['mod', 'graph'], dir, env);
    if (!graph.ok) return { ok: false, nodes: [], edges: [], stderr: graph.err, listed: null };
    const list = await run(['list', '-m', 'all'], dir, env);
    const lines = graph.out
      .trim()
      .split('\n')
      .map((l) =>
        l.split(' ').map((m) => {
          const at = m.lastIndexOf('@');
          return at < 0 ? { path: m, v: '' } : { path: m.slice(0, at), v: m.slice(at + 1) };
        }),
      );
    const selected = new Map<string, string>();
    for (const m of lines.flat()) {
      const cur = selected.get(m.path);
      if (m.v && (cur === undefined || compare('GO', m.v, cur) > 0)) selected.set(m.path, m.v);
    }
    const nodes = [...selected].map(([p, v]) => `${p}@${v}`).sort();
    const edges = new Set<string>();
    for (const [from, to] of lines) {
      if (!from!.v || selected.get(from!.path) !== from!.v) continue;
      edges.add(`${from!.path}@${from!.v} -> ${to!.path}@${selected.get(to!.path)}`);
    }
    const listed = list.ok
      ? list.out
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.replace(' ', '@'))
          .sort()
      : null;
    return { ok: true, nodes, edges: [...edges].sort(), stderr: '', listed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs only `go mod graph` for the main module requiring `root@version` (benches); throws when go fails. */
export async function runGoModGraph(proxy: string, root: string, version: string, home: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'go-oracle-'));
  try {
    writeFileSync(join(dir, 'go.mod'), `module example.com/main\n\ngo 1.17\n\nrequire ${root} ${version}\n`);
    const graph = await run(['mod', 'graph'], dir, goEnv(proxy, home));
    if (!graph.ok) throw new Error(`go mod graph failed: ${graph.err}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
