/**
 * Generated gem universes for the RubyGems graph tests, served from loopback in two layouts of one
 * universe: the rubygems.org JSON API the insights adapter reads (`/api/v1/versions/{name}.json`,
 * `/api/v2/rubygems/{name}/versions/{number}.json[?platform=]`) and the compact index Bundler reads
 * (`/versions`, `/info/{name}`); and `bundle lock` (Debian's Bundler 2.3) over the second, its
 * Gemfile.lock read back as the sets graphSets gives.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryClient } from '../../src/resolve/memory-client.ts';
import { seededRandom } from '../seeded-random.ts';

export type GemDeps = readonly (readonly [string, string])[];
/** A version: its `ruby` gem's dependencies (absent: no ruby gem), and those of its `x86_64-linux` or `java` gem. */
export interface GemSpec {
  deps?: GemDeps;
  linux?: GemDeps;
  java?: GemDeps;
}
export type GemUniverse = Record<string, Record<string, GemSpec>>;

export const HAS_BUNDLER = spawnSync('bundle', ['--version'], { encoding: 'utf8' }).status === 0;

const platformsOf = (s: GemSpec) => [
  ...(s.deps ? ['ruby'] : []),
  ...(s.linux ? ['x86_64-linux'] : []),
  ...(s.java ? ['java'] : []),
];
const depsFor = (s: GemSpec, p: string) => (p === 'ruby' ? s.deps : p === 'java' ? s.java : s.linux) ?? [];
/** The universe in the resolver's client vocabulary (src/resolve/rubygems.ts), for resolving it in memory. */
export function gemClient(u: GemUniverse): MemoryClient {
  const c = new MemoryClient();
  for (const [name, versions] of Object.entries(u)) {
    for (const [version, s] of Object.entries(versions)) {
      const attrs: Record<string, string> = { spelling: version, platforms: platformsOf(s).join(',') };
      if (s.linux)
        attrs.linuxdependencies = JSON.stringify(s.linux.map(([n, requirement]) => ({ name: n, requirement })));
      const own = s.deps ?? s.linux ?? s.java ?? [];
      c.addVersion(
        { name, version, attrs },
        own.map(([n, requirement]) => ({ name: n, requirement, attrs: {} })),
      );
    }
  }
  return c;
}
const md5 = (t: string) => createHash('md5').update(t).digest('hex');
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

function infoFile(name: string, versions: Record<string, GemSpec>): string {
  const lines = ['---'];
  for (const [v, s] of Object.entries(versions)) {
    for (const p of platformsOf(s)) {
      const deps = depsFor(s, p)
        .map(
          ([d, r]) =>
            `${d}:${r
              .split(',')
              .map((x) => x.trim())
              .join('&')}`,
        )
        .join(',');
      lines.push(`${p === 'ruby' ? v : `${v}-${p}`} ${deps}|checksum:${sha(`${name}-${v}-${p}`)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The documents of universe `u` by path (below its prefix). */
export function gemDocuments(u: GemUniverse): (path: string, query: string) => string | object | undefined {
  const infos = new Map(Object.entries(u).map(([n, vs]) => [n, infoFile(n, vs)]));
  const versions = `${[
    'created_at: 2024-01-01T00:00:00Z',
    '---',
    ...Object.entries(u).map(
      ([n, vs]) =>
        `${n} ${Object.entries(vs)
          .flatMap(([v, s]) => platformsOf(s).map((p) => (p === 'ruby' ? v : `${v}-${p}`)))
          .join(',')} ${md5(infos.get(n)!)}`,
    ),
  ].join('\n')}\n`;
  return (path, query) => {
    if (path === '/versions') return versions;
    let m = /^\/info\/([^/]+)$/.exec(path);
    if (m) return infos.get(m[1]!);
    m = /^\/api\/v1\/versions\/([^/]+)\.json$/.exec(path);
    if (m) {
      const vs = u[m[1]!];
      return (
        vs &&
        Object.entries(vs).flatMap(([v, s]) =>
          platformsOf(s).map((platform) => ({
            number: v,
            platform,
            created_at: '2024-01-01T00:00:00Z',
            licenses: ['MIT'],
          })),
        )
      );
    }
    m = /^\/api\/v2\/rubygems\/([^/]+)\/versions\/([^/]+)\.json$/.exec(path);
    if (m) {
      const s = u[m[1]!]?.[m[2]!];
      const p = /platform=([^&]+)/.exec(query)?.[1] ?? platformsOf(s ?? {})[0];
      if (!s || !p || !platformsOf(s).includes(p)) return undefined;
      return {
        name: m[1],
        number: m[2],
        platform: p,
        dependencies: {
          runtime: depsFor(s, p).map(([name, requirements]) => ({ name, requirements })),
          development: [],
        },
      };
    }
    return undefined;
  };
}

/** Serves universe i under `/u{i}/`. */
export async function startGemSource(
  universes: readonly GemUniverse[],
): Promise<{ url: string; close(): Promise<void> }> {
  const docs = universes.map(gemDocuments);
  const server = createServer((req, res) => {
    const [raw = '/', query = ''] = (req.url ?? '/').split('?');
    const m = /^\/u(\d+)(\/.*)$/.exec(decodeURIComponent(raw));
    const body = m ? docs[Number(m[1])]?.(m[2]!, query) : undefined;
    if (body === undefined) return void res.writeHead(404).end('not found');
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res
      .writeHead(200, {
        'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
        etag: `"${md5(text)}"`,
      })
      .end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export interface LockResult {
  ok: boolean;
  stderr: string;
  nodes: string[];
  edges: string[];
}

/**
 * `bundle lock` of `gem "{root}", "= {version}"` over `source`; the lockfile's specs as graph sets. Asynchronous:
 * the source is usually served by this very process.
 */
export async function bundleLock(source: string, root: string, version: string): Promise<LockResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-lock-'));
  try {
    writeFileSync(join(dir, 'Gemfile'), `source "${source}"\ngem "${root}", "= ${version}"\n`);
    const env = {
      ...process.env,
      HOME: dir,
      BUNDLE_USER_HOME: join(dir, '.bundle'),
      BUNDLE_APP_CONFIG: join(dir, '.bundle-app'),
      BUNDLE_GEMFILE: join(dir, 'Gemfile'),
      BUNDLE_SILENCE_ROOT_WARNING: '1',
      BUNDLE_RETRY: '0',
      http_proxy: '',
      https_proxy: '',
      HTTP_PROXY: '',
      HTTPS_PROXY: '',
    };
    const r = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bundle', ['lock'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) =>
        resolve({ status: err ? 1 : 0, stdout, stderr }),
      );
    });
    if (r.status !== 0) return { ok: false, stderr: `${r.stdout}\n${r.stderr}`, nodes: [], edges: [] };
    return { ok: true, stderr: r.stderr, ...lockSets(readFileSync(join(dir, 'Gemfile.lock'), 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Gemfile.lock's GEM specs as `name@version` nodes (platform suffix dropped) and `a@1 -> b@2` edges. */
export function lockSets(lock: string): { nodes: string[]; edges: string[] } {
  const specs = new Map<string, { version: string; deps: string[] }>();
  let cur: { version: string; deps: string[] } | null = null;
  let inSpecs = false;
  for (const line of lock.split('\n')) {
    if (/^\S/.test(line)) inSpecs = false;
    if (line === '  specs:') {
      inSpecs = true;
      continue;
    }
    if (!inSpecs) continue;
    let m = /^ {4}(\S+) \(([^)]+)\)$/.exec(line);
    if (m) {
      const version = m[2]!.replace(/-(x86_64-linux|java)$/, '');
      cur = { version, deps: [] };
      specs.set(m[1]!, cur);
      continue;
    }
    m = /^ {6}(\S+)/.exec(line);
    if (m && cur) cur.deps.push(m[1]!);
  }
  const id = (n: string) => `${n}@${specs.get(n)!.version}`;
  const nodes = [...specs.keys()].map(id).sort();
  const edges = [
    ...new Set([...specs].flatMap(([n, s]) => s.deps.filter((d) => specs.has(d)).map((d) => `${id(n)} -> ${id(d)}`))),
  ].sort();
  return { nodes, edges };
}

/**
 * A seeded universe: gems g0..gN with releases (some spelled with two components), prereleases,
 * versions that also ship an `x86_64-linux` gem with other dependencies, linux-only and java-only
 * versions; requirements `~>`, ranges, exact pins, `!=`, prerelease requirements; dependencies point to
 * later gems (no cycles), so most universes resolve and some conflict.
 */
export function randomGemUniverse(seed: number): GemUniverse {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const n = 4 + Math.floor(rnd() * 6);
  const names = ['root', ...Array.from({ length: n }, (_, i) => `g${i}`)];
  const spellings = ['1.0.0', '1.1', '1.2.0', '2.0.0', '2.1', '2.2.0.beta1', '3.0.0.rc1', '3.0.0'];
  const reqOf = (): string =>
    pick([
      '>= 0',
      '~> 1.0',
      '~> 2.0',
      '>= 1.1',
      '< 2',
      '>= 1.0, < 3',
      '= 1.0.0',
      '!= 2.1',
      '~> 2.2.0.a',
      '>= 0',
      '~> 1.1',
      '>= 1.0',
      '> 1.1',
    ]);
  const depsOf = (i: number): GemDeps => {
    const out: [string, string][] = [];
    for (let j = i + 1; j < names.length; j++) if (rnd() < (i === 0 ? 0.6 : 0.3)) out.push([names[j]!, reqOf()]);
    return out;
  };
  const u: GemUniverse = {};
  names.forEach((name, i) => {
    const vs: Record<string, GemSpec> = {};
    const list = name === 'root' ? ['1.0.0'] : spellings.filter(() => rnd() < 0.6);
    if (!list.length) list.push('1.0.0');
    for (const v of list) {
      const r = rnd();
      const deps = depsOf(i);
      if (name !== 'root' && r < 0.15) vs[v] = { deps, linux: depsOf(i) };
      else if (name !== 'root' && r < 0.22) vs[v] = { linux: deps };
      else if (name !== 'root' && r < 0.27) vs[v] = { java: deps };
      else vs[v] = { deps };
    }
    u[name] = vs;
  });
  return u;
}
