/**
 * Real cargo as an oracle: writes a universe as a cargo local registry (index files in the
 * crates.io layout, one JSON line per version; features using `dep:`/`?/` go to `features2` with
 * `v: 2` as crates.io does), a wrapper package depending on `root = "=<version>"` with source
 * replacement in `.cargo/config.toml`, runs `cargo generate-lockfile --offline` under a private
 * CARGO_HOME, and reads Cargo.lock back as nodes and edges. No .crate files are needed: resolution
 * reads only the index. Also a seeded generator of random universes.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CargoDepSpec, CargoUniverse, CargoVersionSpec } from '../universes/cargo-universe.ts';
import { seededRandom } from '../seeded-random.ts';

export const HAS_CARGO = spawnSync('cargo', ['--version'], { encoding: 'utf8' }).status === 0;

const WRAPPER = 'zz-wrapper-of-root';
const ZERO = '0'.repeat(64);

/** The crates.io index layout path of a crate (`1/a`, `3/a/abc`, `ab/cd/abcd...`). */
export function indexPath(name: string): string {
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

function indexDep([name, req, a = {}]: CargoDepSpec) {
  return {
    name: a.knownas || name,
    req,
    features: a.features ? a.features.split(',') : [],
    optional: a.opt !== undefined,
    default_features: a.nodefault === undefined,
    target: a.environment || null,
    kind: a.scope === 'build' ? 'build' : a.scope === 'dev' || a.dev !== undefined ? 'dev' : 'normal',
    ...(a.knownas ? { package: name } : {}),
  };
}

/** One index line (JSON) of a crate version, as crates.io writes it. */
export function indexLine(name: string, vers: string, s: CargoVersionSpec): string {
  const features: Record<string, readonly string[]> = {};
  const features2: Record<string, readonly string[]> = {};
  for (const [f, vals] of Object.entries(s.features ?? {})) {
    if (vals.some((v) => v.startsWith('dep:') || v.includes('?/'))) features2[f] = vals;
    else features[f] = vals;
  }
  const v2 = Object.keys(features2).length > 0;
  return JSON.stringify({
    name,
    vers,
    deps: (s.deps ?? []).map(indexDep),
    cksum: ZERO,
    features,
    yanked: s.yanked === true,
    links: s.links ?? null,
    ...(v2 ? { features2, v: 2 } : {}),
  });
}

export interface LockGraph {
  ok: boolean;
  nodes: string[];
  edges: string[];
  stderr: string;
}

/** Runs cargo over the universe for `root@version`; nodes `name@version`, edges `a@1 -> b@2`, sorted. */
export async function cargoLock(u: CargoUniverse, root: string, version: string): Promise<LockGraph> {
  const dir = mkdtempSync(join(tmpdir(), 'cargo-oracle-'));
  try {
    for (const [name, versions] of Object.entries(u)) {
      const file = join(dir, 'registry/index', indexPath(name));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(
        file,
        `${Object.entries(versions)
          .map(([v, s]) => indexLine(name, v, s))
          .join('\n')}\n`,
      );
    }
    mkdirSync(join(dir, 'ws/.cargo'), { recursive: true });
    mkdirSync(join(dir, 'ws/src'), { recursive: true });
    writeFileSync(join(dir, 'ws/src/lib.rs'), '');
    writeFileSync(
      join(dir, 'ws/.cargo/config.toml'),
      `[source.crates-io]\nreplace-with = "local"\n[source.local]\nlocal-registry = ${JSON.stringify(join(dir, 'registry'))}\n`,
    );
    writeFileSync(
      join(dir, 'ws/Cargo.toml'),
      `[package]\nname = "${WRAPPER}"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n${root} = "=${version}"\n`,
    );
    const stderr = await new Promise<string | null>((resolve) => {
      execFile(
        'cargo',
        ['generate-lockfile', '--offline'],
        { cwd: join(dir, 'ws'), env: { ...process.env, CARGO_HOME: join(dir, 'home') } },
        (err, _out, errText) => resolve(err ? errText : null),
      );
    });
    if (stderr !== null) return { ok: false, nodes: [], edges: [], stderr };
    return { ok: true, ...parseLock(readFileSync(join(dir, 'ws/Cargo.lock'), 'utf8')), stderr: '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseLock(text: string): { nodes: string[]; edges: string[] } {
  const pkgs: { name: string; version: string; deps: string[] }[] = [];
  for (const block of text.split('[[package]]').slice(1)) {
    const name = /^name = "(.*)"$/m.exec(block)![1]!;
    const version = /^version = "(.*)"$/m.exec(block)![1]!;
    const deps = [...(/^dependencies = \[([^\]]*)\]/m.exec(block)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    pkgs.push({ name, version, deps });
  }
  const nodes: string[] = [];
  const edges: string[] = [];
  for (const p of pkgs) {
    if (p.name === WRAPPER) continue;
    nodes.push(`${p.name}@${p.version}`);
    for (const d of p.deps) {
      const [n, v] = d.split(' ');
      const to = v ?? pkgs.find((x) => x.name === n)!.version;
      edges.push(`${p.name}@${p.version} -> ${n}@${to}`);
    }
  }
  return { nodes: nodes.sort(), edges: edges.sort() };
}

const POOL = ['0.1.0', '0.1.3', '0.2.0', '1.0.0', '1.1.0', '1.2.5', '2.0.0', '2.3.0', '2.4.0-beta.1'];

/**
 * A random acyclic universe (cargo rejects cycles of normal/build dependencies): crates c0..cN
 * where ci depends only on cj (j > i), with random requirement forms, build/dev/optional kinds,
 * renames, target filters, features (`dep:`, `x/feat`, `x?/feat`, implicit), links and yanks; the
 * root's own dependencies have kinds too (dev, build, optional enabled by default or not, renamed).
 */
export function randomUniverse(seed: number): CargoUniverse {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const n = 5 + int(5);
  const names = Array.from({ length: n }, (_, i) => `c${i}`);
  const versions = new Map<string, string[]>();
  for (const name of names)
    versions.set(
      name,
      POOL.filter(() => r() < 0.4)
        .concat(pick(POOL))
        .filter((v, i, a) => a.indexOf(v) === i),
    );
  const req = (target: string): string => {
    const v = pick(versions.get(target)!);
    const [maj, min] = v.split('.');
    switch (int(7)) {
      case 0:
        return `=${v}`;
      case 1:
        return `~${maj}.${min}`;
      case 2:
        return `>=${v}`;
      case 3:
        return `>=${maj}.${min}, <${Number(maj) + 1}`;
      case 4:
        return '*';
      default:
        return v.includes('-') ? `^${v}` : `^${maj}.${min}`;
    }
  };
  const u: Record<string, Record<string, CargoVersionSpec>> = {};
  const mkVersion = (i: number): CargoVersionSpec => {
    const deps: CargoDepSpec[] = [];
    const features: Record<string, string[]> = { std: [], fast: ['std'] };
    const defaults: string[] = [];
    const later = names.slice(i + 1);
    const count = later.length ? int(Math.min(4, later.length + 1)) : 0;
    const targets = later.filter(() => r() < 0.5).slice(0, count);
    for (const t of targets) {
      const attrs: Record<string, string> = {};
      const local = r() < 0.15 ? `${t}_r` : t;
      if (local !== t) attrs.knownas = local;
      const kind = r();
      if (kind < 0.15) attrs.scope = 'build';
      else if (kind < 0.25) attrs.scope = 'dev';
      if (r() < 0.2) attrs.nodefault = '';
      if (r() < 0.3) attrs.features = pick(['std', 'fast', 'std,fast']);
      if (r() < 0.1)
        attrs.environment = pick(['cfg(windows)', 'cfg(unix)', 'cfg(not(unix))', 'x86_64-pc-windows-msvc']);
      if (attrs.scope !== 'dev' && r() < 0.35) {
        attrs.opt = '';
        const how = int(4);
        if (how === 0) features[`with-${local}`] = [`dep:${local}`];
        else if (how === 1) features.fast = [...features.fast!, `${local}/std`];
        else if (how === 2) defaults.push(local);
        else features.std = [...features.std!, `${local}?/fast`];
      }
      deps.push([t, req(t), attrs]);
    }
    if (defaults.length || r() < 0.5) features.default = [...defaults, ...(r() < 0.5 ? ['std'] : [])];
    const spec: CargoVersionSpec = { deps, features };
    return { ...spec, ...(r() < 0.08 ? { yanked: true } : {}), ...(r() < 0.06 ? { links: 'native' } : {}) };
  };
  names.forEach((name, i) => {
    u[name] = Object.fromEntries(versions.get(name)!.map((v) => [v, mkVersion(i)]));
  });
  const rootDeps = names.filter(() => r() < 0.5).slice(0, 4);
  const rootFeatures: Record<string, string[]> = { default: [] };
  const rootReqs: CargoDepSpec[] = (rootDeps.length ? rootDeps : [names[0]!]).map((t): CargoDepSpec => {
    const attrs: Record<string, string> = r() < 0.2 ? { features: 'fast' } : {};
    // the root's own kinds: a dev-dependency (not part of a dependent's lockfile), a build one, an
    // optional one (enabled by the root's default feature or not), a renamed one
    if (r() < 0.1) attrs.knownas = `${t}_root`;
    const kind = r();
    if (kind < 0.1) attrs.scope = 'dev';
    else if (kind < 0.2) attrs.scope = 'build';
    else if (kind < 0.35) {
      attrs.opt = '';
      if (r() < 0.5) rootFeatures.default!.push(attrs.knownas ?? t);
    }
    return [t, req(t), attrs];
  });
  // a crate the root reaches both directly (as a dev-dependency or not) and through another crate
  if (r() < 0.3) {
    const again = pick(names.slice(1));
    if (!rootReqs.some(([n]) => n === again)) rootReqs.push([again, req(again), r() < 0.5 ? { scope: 'dev' } : {}]);
  }
  u.root = { '1.0.0': { deps: rootReqs, features: rootFeatures } };
  return u;
}
