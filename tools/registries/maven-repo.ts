/**
 * Small Maven repositories ("universes") for the Maven end-to-end tests, written as a Maven 2
 * repository layout in memory and served on loopback.
 *
 * A universe is a list of published POMs, each under its own groupId prefix (`h3.…` for the hand cases,
 * `r<seed>.…` for the seeded random ones), so many universes can share one repository and one local
 * Maven repository. Every universe has the root artifact `<prefix>.org.example:root:1.0.0`. POMs are
 * described structurally (`MavenPom`) and rendered as Maven writes them; versions, groupIds and
 * property references are written verbatim, so a universe can exercise what makes a POM effective:
 * parent chains (groupId/version inherited, properties defined and overridden at different levels,
 * `${project.version}`, `${project.groupId}`, `${project.parent.version}`, properties whose value is
 * another property), dependencyManagement (in parents, imported BOMs, BOMs importing BOMs), versions
 * left to management, the root's management of transitive dependencies, version ranges resolved
 * against maven-metadata.xml, scopes/optional/exclusions, and relocations.
 *
 * Layout (`mavenLayout`): `/{g/as/path}/{a}/maven-metadata.xml` listing every version in the order
 * the universe declares them (ascending by construction; `<latest>` and `<release>` = the last), and
 * `/{g}/{a}/{v}/{a}-{v}.pom`, each with a `.sha1`. Parents and BOMs are listed like any artifact.
 * `startMavenRepo` serves such a layout over HTTP on 127.0.0.1 (plus an empty jar beside each POM,
 * for Maven), falling back to files under a local Maven repository (default ~/.m2/repository, which
 * holds the plugin Maven runs, see maven-trees.ts) for every other path, binary-safe; 404 otherwise.
 * (tools/registries/registry-server.ts serves text and JSON only, hence a server of its own.)
 *
 * Known Maven 3.8.7 quirks the random universes keep clear of (a real Maven run differs from what the
 * POMs mean there): in a range whose versions include a relocated one, the versions above the lowest
 * relocated one are never candidates (the collector returns out of its loop over the range's versions
 * after following a relocation, so `[1.0,5.0)` over 1.0 -> 1.1 (relocated), 1.1, 2.0 gives 1.1); a
 * child's `${project.groupId}:x` does not replace a parent's `g:x` dependency (inheritance merges by
 * the raw key, before interpolation), so both stay and the higher version wins.
 */
import { countedPath } from './registry-server.ts';
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { seededRandom } from '../seeded-random.ts';

export interface MavenDep {
  /** groupId as written (may be `${project.groupId}`). */
  g: string;
  a: string;
  /** version as written: a version, a range, a `${property}`; absent = left to dependencyManagement. */
  v?: string;
  type?: string;
  scope?: 'compile' | 'runtime' | 'provided' | 'test' | 'import';
  optional?: boolean;
  /** `groupId:artifactId`, either part may be `*`. */
  exclusions?: string[];
}

export interface MavenPom {
  /** Published coordinates (where the POM lives in the repository). */
  g: string;
  a: string;
  v: string;
  packaging?: 'jar' | 'pom';
  parent?: { g: string; a: string; v: string };
  /** Leave out `<groupId>` / `<version>`: inherited from the parent (which must carry the same values). */
  inheritGroup?: boolean;
  inheritVersion?: boolean;
  properties?: Record<string, string>;
  managed?: MavenDep[];
  deps?: MavenDep[];
  /** `<distributionManagement><relocation>`: the parts given replace the artifact's own. */
  relocation?: { g?: string; a?: string; v?: string };
  /** Published (the POM is at its path) but not listed in maven-metadata.xml, as many old artifacts on Maven Central. */
  unlisted?: boolean;
}

export interface MavenUniverse {
  label: string;
  /** groupId prefix owned by this universe. */
  prefix: string;
  /** `group:artifact` of the root; its version is always 1.0.0. */
  root: string;
  poms: MavenPom[];
  /** Real Maven is expected to fail collecting the root's dependencies (an unsatisfiable range). */
  expectFailure?: boolean;
  /** Features the universe exercises (for reports). */
  features: string[];
}

export const ROOT_VERSION = '1.0.0';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function depXml(d: MavenDep, indent: string): string {
  const i2 = `${indent}  `;
  const lines = [
    `${indent}<dependency>`,
    `${i2}<groupId>${esc(d.g)}</groupId>`,
    `${i2}<artifactId>${esc(d.a)}</artifactId>`,
  ];
  if (d.v !== undefined) lines.push(`${i2}<version>${esc(d.v)}</version>`);
  if (d.type) lines.push(`${i2}<type>${d.type}</type>`);
  if (d.scope) lines.push(`${i2}<scope>${d.scope}</scope>`);
  if (d.optional) lines.push(`${i2}<optional>true</optional>`);
  if (d.exclusions?.length) {
    lines.push(`${i2}<exclusions>`);
    for (const e of d.exclusions) {
      const [g, a] = e.split(':');
      lines.push(
        `${i2}  <exclusion>`,
        `${i2}    <groupId>${esc(g!)}</groupId>`,
        `${i2}    <artifactId>${esc(a!)}</artifactId>`,
        `${i2}  </exclusion>`,
      );
    }
    lines.push(`${i2}</exclusions>`);
  }
  lines.push(`${indent}</dependency>`);
  return lines.join('\n');
}

/** The POM as published; `emptyRelativePath` adds `<relativePath/>` to `<parent>` (a project copy outside its parent's tree). */
export function renderPom(p: MavenPom, opts: { emptyRelativePath?: boolean } = {}): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">',
    '  <modelVersion>4.0.0</modelVersion>',
  ];
  if (p.parent) {
    out.push(
      '  <parent>',
      `    <groupId>${esc(p.parent.g)}</groupId>`,
      `    <artifactId>${esc(p.parent.a)}</artifactId>`,
      `    <version>${esc(p.parent.v)}</version>`,
    );
    if (opts.emptyRelativePath) out.push('    <relativePath/>');
    out.push('  </parent>');
  }
  if (!(p.parent && p.inheritGroup)) out.push(`  <groupId>${esc(p.g)}</groupId>`);
  out.push(`  <artifactId>${esc(p.a)}</artifactId>`);
  if (!(p.parent && p.inheritVersion)) out.push(`  <version>${esc(p.v)}</version>`);
  if (p.packaging && p.packaging !== 'jar') out.push(`  <packaging>${p.packaging}</packaging>`);
  if (p.relocation) {
    out.push('  <distributionManagement>', '    <relocation>');
    if (p.relocation.g) out.push(`      <groupId>${esc(p.relocation.g)}</groupId>`);
    if (p.relocation.a) out.push(`      <artifactId>${esc(p.relocation.a)}</artifactId>`);
    if (p.relocation.v) out.push(`      <version>${esc(p.relocation.v)}</version>`);
    out.push('    </relocation>', '  </distributionManagement>');
  }
  const props = Object.entries(p.properties ?? {});
  if (props.length)
    out.push('  <properties>', ...props.map(([k, v]) => `    <${k}>${esc(v)}</${k}>`), '  </properties>');
  if (p.managed?.length)
    out.push(
      '  <dependencyManagement>',
      '    <dependencies>',
      ...p.managed.map((d) => depXml(d, '      ')),
      '    </dependencies>',
      '  </dependencyManagement>',
    );
  if (p.deps?.length) out.push('  <dependencies>', ...p.deps.map((d) => depXml(d, '    ')), '  </dependencies>');
  out.push('</project>', '');
  return out.join('\n');
}

export const artifactDir = (g: string, a: string) => `/${g.split('.').join('/')}/${a}`;
export const pomPath = (g: string, a: string, v: string) => `${artifactDir(g, a)}/${v}/${a}-${v}.pom`;
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

/** The root POM of a universe. */
export function rootPom(u: MavenUniverse): MavenPom {
  const [g, a] = u.root.split(':');
  const p = u.poms.find((x) => x.g === g && x.a === a && x.v === ROOT_VERSION);
  if (!p) throw new Error(`${u.label}: no root POM ${u.root}:${ROOT_VERSION}`);
  return p;
}

/** URL path -> body of the universes as one Maven repository (metadata and POMs, each with a .sha1). */
export function mavenLayout(universes: readonly MavenUniverse[]): Map<string, string> {
  const files = new Map<string, string>();
  const versions = new Map<string, string[]>();
  for (const u of universes) {
    for (const p of u.poms) {
      const path = pomPath(p.g, p.a, p.v);
      if (files.has(path)) throw new Error(`${u.label}: ${p.g}:${p.a}:${p.v} published twice`);
      const body = renderPom(p);
      files.set(path, body);
      files.set(`${path}.sha1`, sha1(body));
      const key = `${p.g}:${p.a}`;
      if (!p.unlisted) versions.set(key, [...(versions.get(key) ?? []), p.v]);
    }
  }
  for (const [key, vs] of versions) {
    const [g, a] = key.split(':') as [string, string];
    const last = vs[vs.length - 1]!;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<metadata>',
      `  <groupId>${g}</groupId>`,
      `  <artifactId>${a}</artifactId>`,
      '  <versioning>',
      `    <latest>${last}</latest>`,
      `    <release>${last}</release>`,
      '    <versions>',
      ...vs.map((v) => `      <version>${v}</version>`),
      '    </versions>',
      '    <lastUpdated>20240101000000</lastUpdated>',
      '  </versioning>',
      '</metadata>',
      '',
    ].join('\n');
    files.set(`${artifactDir(g, a)}/maven-metadata.xml`, body);
    files.set(`${artifactDir(g, a)}/maven-metadata.xml.sha1`, sha1(body));
  }
  return files;
}

export interface MavenRepoServer {
  url: string;
  /** Requests per raw path. */
  hits: Map<string, number>;
  /** Paths answered from the fallback directory. */
  fallbackHits(): number;
  close(): Promise<void>;
}

export const DEFAULT_M2 = join(homedir(), '.m2', 'repository');

/** An empty zip archive (just the end-of-central-directory record). */
const EMPTY_JAR = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);

/**
 * Serves `files` (path -> body) on 127.0.0.1, and an empty jar for `{a}-{v}.jar` beside each POM
 * `{a}-{v}.pom` of `files` (no checksum: the insights worker never reads jars, it asks for their
 * checksums only); any other path is looked up as a file under `fallback` (a local Maven repository:
 * the plugins Maven itself needs), else 404. `extra` may answer first
 * (e.g. the OSV query of the insights worker). GET and HEAD, any other method as GET.
 */
export async function startMavenRepo(
  files: ReadonlyMap<string, string>,
  opts: { fallback?: string | null; extra?: (path: string) => string | undefined } = {},
): Promise<MavenRepoServer> {
  const fallback = opts.fallback === undefined ? DEFAULT_M2 : opts.fallback;
  const hits = new Map<string, number>();
  let fromFallback = 0;
  const server = createServer((req, res) => {
    const path = countedPath(req, res, hits);
    if (path === null) return;
    req.resume();
    const head = req.method === 'HEAD';
    const text = opts.extra?.(path) ?? files.get(path);
    if (text !== undefined) {
      const body = Buffer.from(text);
      res.writeHead(200, {
        'content-type': path.endsWith('.json') || text.startsWith('{') ? 'application/json' : 'text/xml',
        'content-length': body.length,
      });
      res.end(head ? undefined : body);
      return;
    }
    if (path.endsWith('.jar') && files.has(`${path.slice(0, -4)}.pom`)) {
      // an artifact of the universe: an empty jar (Maven resolves the files of the dependencies it collects)
      res.writeHead(200, { 'content-type': 'application/java-archive', 'content-length': EMPTY_JAR.length });
      res.end(head ? undefined : EMPTY_JAR);
      return;
    }
    if (fallback) {
      const file = normalize(join(fallback, path));
      if (file.startsWith(fallback + sep)) {
        let size = -1;
        try {
          const st = statSync(file);
          if (st.isFile()) size = st.size;
        } catch {
          /* absent */
        }
        if (size >= 0) {
          fromFallback++;
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
          if (head) res.end();
          else createReadStream(file).pipe(res);
          return;
        }
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    hits,
    fallbackHits: () => fromFallback,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Hand-written universes

const dep = (g: string, a: string, v?: string, more: Omit<MavenDep, 'g' | 'a' | 'v'> = {}): MavenDep => ({
  g,
  a,
  ...(v !== undefined ? { v } : {}),
  ...more,
});
const bomImport = (g: string, a: string, v: string): MavenDep => ({ g, a, v, type: 'pom', scope: 'import' });
const leaf = (g: string, a: string, ...vs: string[]): MavenPom[] => vs.map((v) => ({ g, a, v }));

function hand(
  n: number,
  label: string,
  features: string[],
  build: (G: string, G2: string) => MavenPom[],
  expectFailure = false,
): MavenUniverse {
  const prefix = `h${n}`;
  const G = `${prefix}.org.example`;
  return {
    label: `hand ${n}: ${label}`,
    prefix,
    root: `${G}:root`,
    poms: build(G, `${prefix}.net.other`),
    features,
    ...(expectFailure ? { expectFailure } : {}),
  };
}

export const MAVEN_HAND: readonly MavenUniverse[] = [
  hand(
    1,
    'parent chain, inherited coordinates and properties',
    [
      'parent chain 3',
      'inherited groupId',
      'inherited version',
      'property override',
      'nested property',
      '${project.version}',
      '${project.groupId}',
      '${project.parent.version}',
      'parent dependencyManagement',
      'property in parent management overridden by child',
      'dependency inherited from parent',
      'transitive parent',
    ],
    (G) => [
      {
        g: G,
        a: 'grandparent',
        v: '3',
        packaging: 'pom',
        properties: {
          'lib.version': '1.0',
          'nested.version': '${nested.base}',
          'nested.base': '1.0',
          'managed.version': '1.0',
        },
        managed: [dep(G, 'managed', '${managed.version}'), dep(G, 'sibling', '${project.version}')],
      },
      {
        g: G,
        a: 'parent',
        v: '1.0.0',
        packaging: 'pom',
        parent: { g: G, a: 'grandparent', v: '3' },
        inheritGroup: true,
        properties: { 'lib.version': '1.1', 'nested.base': '2.0-beta-1' },
        deps: [dep(G, 'inherited', '4.0.0')],
      },
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        parent: { g: G, a: 'parent', v: '1.0.0' },
        inheritGroup: true,
        inheritVersion: true,
        properties: { 'managed.version': '1.1' },
        deps: [
          dep(G, 'lib', '${lib.version}'),
          dep(G, 'nested', '${nested.version}'),
          dep(G, 'managed'),
          dep(G, 'sibling'),
          dep('${project.groupId}', 'companion', '${project.parent.version}'),
          dep(G, 'withparent', '2.0'),
        ],
      },
      ...leaf(G, 'lib', '1.0', '1.1'),
      ...leaf(G, 'nested', '1.0', '2.0-beta-1'),
      ...leaf(G, 'managed', '1.0', '1.1'),
      // the versions a wrong context would give: the grandparent's (3)
      ...leaf(G, 'sibling', '1.0.0', '3'),
      ...leaf(G, 'companion', '1.0.0', '3'),
      ...leaf(G, 'inherited', '4.0.0'),
      // a dependency whose own versions and groupId come from its parent
      {
        g: G,
        a: 'lib-parent',
        v: '7',
        packaging: 'pom',
        properties: { 'deep.version': '3.0.0' },
        managed: [dep(G, 'deep2', '1.0')],
      },
      {
        g: G,
        a: 'withparent',
        v: '2.0',
        parent: { g: G, a: 'lib-parent', v: '7' },
        inheritGroup: true,
        deps: [dep(G, 'deep', '${deep.version}'), dep(G, 'deep2')],
      },
      ...leaf(G, 'deep', '1.0', '3.0.0'),
      ...leaf(G, 'deep2', '1.0', '2.0'),
    ],
  ),
  hand(
    2,
    'imported BOMs',
    [
      'import BOM',
      'BOM importing BOM',
      'first BOM wins',
      'own management beats BOM',
      'BOM property in BOM context',
      'management in parent imports BOM',
      'version from management',
    ],
    (G, G2) => [
      { g: G, a: 'bom-base', v: '1.0', packaging: 'pom', managed: [dep(G, 'x', '9.9'), dep(G, 'z', '3.0.0')] },
      {
        g: G,
        a: 'bom-a',
        v: '1.0',
        packaging: 'pom',
        properties: { 'v.y': '2.0' },
        managed: [dep(G, 'x', '1.0'), dep(G, 'y', '${v.y}'), bomImport(G, 'bom-base', '1.0')],
      },
      {
        g: G2,
        a: 'bom-b',
        v: '2.0-beta-1',
        packaging: 'pom',
        managed: [dep(G, 'y', '1.0'), dep(G, 'w', '1.0'), dep(G, 'v', '1.0')],
      },
      { g: G, a: 'parent', v: '3', packaging: 'pom', managed: [bomImport(G2, 'bom-b', '2.0-beta-1')] },
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        parent: { g: G, a: 'parent', v: '3' },
        inheritGroup: true,
        properties: { 'v.y': '1.0' },
        managed: [bomImport(G, 'bom-a', '1.0'), dep(G, 'w', '2.0')],
        deps: [dep(G, 'x'), dep(G, 'y'), dep(G, 'z'), dep(G, 'w'), dep(G, 'v')],
      },
      ...leaf(G, 'x', '1.0', '9.9'),
      ...leaf(G, 'y', '1.0', '2.0'),
      ...leaf(G, 'z', '3.0.0'),
      ...leaf(G, 'w', '1.0', '2.0'),
      ...leaf(G, 'v', '1.0'),
    ],
  ),
  hand(
    3,
    'version ranges',
    [
      'version range [a,b)',
      'version range [a,)',
      'prerelease inside a range',
      'transitive range',
      'range against soft version',
      'hard pin [v]',
    ],
    (G) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        deps: [dep(G, 'a', '[1.0,2.0)'), dep(G, 'b', '[1.2,)'), dep(G, 'c', '1.0'), dep(G, 'd', '[1.1]')],
      },
      ...leaf(G, 'a', '1.0', '1.1', '1.5', '2.0-beta-1', '2.0', '2.1'),
      ...leaf(G, 'b', '1.0', '1.2.0', '1.10', '3.0.0'),
      { g: G, a: 'c', v: '1.0', deps: [dep(G, 'e', '[1.0,2.0)'), dep(G, 'f', '1.0')] },
      { g: G, a: 'd', v: '1.0' },
      { g: G, a: 'd', v: '1.1', deps: [dep(G, 'f', '[2.0,3.0)')] },
      ...leaf(G, 'e', '0.9', '1.0', '1.9.9', '2.0'),
      ...leaf(G, 'f', '1.0', '2.0', '2.5', '3.0'),
    ],
  ),
  hand(
    4,
    'version conflicts',
    [
      'nearest wins',
      'first declaration wins',
      'loser subtree dropped',
      'root management overrides transitive',
      'root management does not override direct',
    ],
    (G) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        managed: [dep(G, 'm', '1.0'), dep(G, 'c', '3.0')],
        deps: [dep(G, 'a', '1.0'), dep(G, 'b', '1.0'), dep(G, 'c', '1.0')],
      },
      { g: G, a: 'a', v: '1.0', deps: [dep(G, 'd', '1.0'), dep(G, 'c', '2.0'), dep(G, 'm', '2.0')] },
      { g: G, a: 'b', v: '1.0', deps: [dep(G, 'd', '2.0')] },
      ...leaf(G, 'c', '1.0', '2.0', '3.0'),
      { g: G, a: 'd', v: '1.0', deps: [dep(G, 'e', '1.0')] },
      { g: G, a: 'd', v: '2.0', deps: [dep(G, 'only-under-d2', '1.0')] },
      { g: G, a: 'e', v: '1.0', deps: [dep(G, 'c', '2.0')] },
      ...leaf(G, 'only-under-d2', '1.0'),
      { g: G, a: 'm', v: '1.0', deps: [dep(G, 'under-m1', '1.0')] },
      { g: G, a: 'm', v: '2.0', deps: [dep(G, 'under-m2', '1.0')] },
      ...leaf(G, 'under-m1', '1.0'),
      ...leaf(G, 'under-m2', '1.0'),
    ],
  ),
  hand(
    5,
    'scopes and optional',
    [
      'test scope',
      'provided scope',
      'runtime scope',
      'optional',
      'root keeps its own test/provided/optional',
      'transitive test/provided/optional dropped',
      'pom-type dependency',
    ],
    (G) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        deps: [
          dep(G, 'a', '1.0'),
          dep(G, 't', '1.0', { scope: 'test' }),
          dep(G, 'p', '1.0', { scope: 'provided' }),
          dep(G, 'r', '1.0', { scope: 'runtime' }),
          dep(G, 'o', '1.0', { optional: true }),
          dep(G, 'agg', '1.0', { type: 'pom' }),
        ],
      },
      {
        g: G,
        a: 'a',
        v: '1.0',
        deps: [
          dep(G, 'a-test', '1.0', { scope: 'test' }),
          dep(G, 'a-prov', '1.0', { scope: 'provided' }),
          dep(G, 'a-run', '1.0', { scope: 'runtime' }),
          dep(G, 'a-opt', '1.0', { optional: true }),
          dep(G, 'a-comp', '1.0', { scope: 'compile' }),
        ],
      },
      ...leaf(G, 'a-test', '1.0'),
      ...leaf(G, 'a-prov', '1.0'),
      ...leaf(G, 'a-opt', '1.0'),
      ...leaf(G, 'a-comp', '1.0'),
      { g: G, a: 'a-run', v: '1.0', deps: [dep(G, 'run-child', '1.0')] },
      ...leaf(G, 'run-child', '1.0'),
      { g: G, a: 't', v: '1.0', deps: [dep(G, 't-comp', '1.0')] },
      { g: G, a: 'p', v: '1.0', deps: [dep(G, 'p-comp', '1.0')] },
      { g: G, a: 'r', v: '1.0', deps: [dep(G, 'r-comp', '1.0')] },
      { g: G, a: 'o', v: '1.0', deps: [dep(G, 'o-comp', '1.0')] },
      ...leaf(G, 't-comp', '1.0'),
      ...leaf(G, 'p-comp', '1.0'),
      ...leaf(G, 'r-comp', '1.0'),
      ...leaf(G, 'o-comp', '1.0'),
      { g: G, a: 'agg', v: '1.0', packaging: 'pom', deps: [dep(G, 'agg-child', '1.0')] },
      ...leaf(G, 'agg-child', '1.0'),
    ],
  ),
  hand(
    6,
    'exclusions',
    [
      'exclusion g:a',
      'exclusion *:*',
      'exclusion g:*',
      'exclusion *:a',
      'exclusions accumulate down a path',
      'exclusion in a transitive POM',
      'exclusion from root management',
    ],
    (G, G2) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        managed: [dep(G, 'k', '1.0', { exclusions: [`${G}:k-child`] })],
        deps: [
          dep(G, 'a', '1.0', { exclusions: [`${G}:b`] }),
          dep(G, 'c', '1.0', { exclusions: ['*:*'] }),
          dep(G, 'd', '1.0', { exclusions: [`${G2}:*`] }),
          dep(G, 'e', '1.0', { exclusions: ['*:f'] }),
          dep(G, 'j', '1.0'),
        ],
      },
      { g: G, a: 'a', v: '1.0', deps: [dep(G, 'b', '1.0'), dep(G, 'n', '1.0')] },
      { g: G, a: 'n', v: '1.0', deps: [dep(G, 'b', '1.0'), dep(G, 'x', '1.0')] },
      ...leaf(G, 'b', '1.0'),
      { g: G, a: 'c', v: '1.0', deps: [dep(G, 'c-child', '1.0')] },
      ...leaf(G, 'c-child', '1.0'),
      { g: G, a: 'd', v: '1.0', deps: [dep(G2, 'o1', '1.0'), dep(G, 'd-child', '1.0')] },
      ...leaf(G2, 'o1', '1.0'),
      ...leaf(G, 'd-child', '1.0'),
      { g: G, a: 'e', v: '1.0', deps: [dep(G, 'f', '1.0'), dep(G, 'g', '1.0', { exclusions: [`${G}:h`] })] },
      ...leaf(G, 'f', '1.0'),
      { g: G, a: 'g', v: '1.0', deps: [dep(G, 'h', '1.0'), dep(G, 'i', '1.0')] },
      ...leaf(G, 'h', '1.0'),
      ...leaf(G, 'i', '1.0'),
      { g: G, a: 'x', v: '1.0' },
      { g: G, a: 'j', v: '1.0', deps: [dep(G, 'k', '1.0')] },
      { g: G, a: 'k', v: '1.0', deps: [dep(G, 'k-child', '1.0'), dep(G, 'k-other', '1.0')] },
      ...leaf(G, 'k-child', '1.0'),
      ...leaf(G, 'k-other', '1.0'),
    ],
  ),
  hand(
    7,
    'relocations',
    [
      'relocation to groupId+artifactId',
      'relocation to version',
      'relocation to artifactId',
      'relocated target dependencies',
      'relocation of a transitive dependency',
    ],
    (G, G2) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        deps: [dep(G, 'old', '1.0'), dep(G, 'bumped', '1.0'), dep(G, 'renamed', '2.0'), dep(G, 'user', '1.0')],
      },
      { g: G, a: 'old', v: '1.0', relocation: { g: G2, a: 'new' } },
      { g: G2, a: 'new', v: '1.0', deps: [dep(G2, 'new-child', '1.0')] },
      ...leaf(G2, 'new-child', '1.0'),
      { g: G, a: 'bumped', v: '1.0', relocation: { v: '2.0' } },
      { g: G, a: 'bumped', v: '2.0', deps: [dep(G, 'bumped-child', '1.0')] },
      ...leaf(G, 'bumped-child', '1.0'),
      { g: G, a: 'renamed', v: '2.0', relocation: { a: 'renamed-core' } },
      { g: G, a: 'renamed-core', v: '2.0' },
      { g: G, a: 'user', v: '1.0', deps: [dep(G, 'legacy', '4.0.0')] },
      { g: G, a: 'legacy', v: '4.0.0', relocation: { g: G2, a: 'modern', v: '5.0' } },
      ...leaf(G2, 'modern', '5.0'),
    ],
  ),
  hand(
    8,
    'a range nothing satisfies (Maven fails)',
    ['unsatisfiable range'],
    (G) => [
      { g: G, a: 'root', v: ROOT_VERSION, deps: [dep(G, 'a', '1.0'), dep(G, 'lib', '[5.0,)')] },
      ...leaf(G, 'a', '1.0'),
      ...leaf(G, 'lib', '1.0', '2.0'),
    ],
    true,
  ),
  hand(
    9,
    'a transitive range nothing satisfies (Maven fails)',
    ['unsatisfiable transitive range'],
    (G) => [
      { g: G, a: 'root', v: ROOT_VERSION, deps: [dep(G, 'a', '1.0')] },
      { g: G, a: 'a', v: '1.0', deps: [dep(G, 'lib', '[3.0,4.0)')] },
      ...leaf(G, 'lib', '1.0', '2.0', '4.0'),
    ],
    true,
  ),
  hand(
    10,
    'an imported BOM that does not exist (Maven fails)',
    ['missing imported BOM'],
    (G) => [
      { g: G, a: 'root', v: ROOT_VERSION, managed: [bomImport(G, 'bom', '1.0')], deps: [dep(G, 'a')] },
      ...leaf(G, 'a', '1.0'),
    ],
    true,
  ),
  hand(
    11,
    'versions maven-metadata.xml does not list: a soft requirement takes one, a range does not',
    ['unlisted version (soft)', 'unlisted version beside a range'],
    (G) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        deps: [dep(G, 'old', '2.2'), dep(G, 'ranged', '[1.0,)')],
      },
      ...leaf(G, 'old', '1.0', '3.0'),
      { g: G, a: 'old', v: '2.2', unlisted: true, deps: [dep(G, 'x', '1.0')] },
      ...leaf(G, 'x', '1.0'),
      ...leaf(G, 'ranged', '1.0', '2.0'),
      { g: G, a: 'ranged', v: '9.0', unlisted: true },
    ],
  ),
  hand(
    12,
    'a managed version that relocates to another version of itself (the target is not managed back)',
    ['relocation to version under management'],
    (G) => [
      {
        g: G,
        a: 'root',
        v: ROOT_VERSION,
        managed: [dep(G, 'lib', '1.0.1')],
        deps: [dep(G, 'user', '1.0')],
      },
      { g: G, a: 'user', v: '1.0', deps: [dep(G, 'lib', '2.0')] },
      { g: G, a: 'lib', v: '1.0.1', relocation: { v: '1.0' } },
      { g: G, a: 'lib', v: '1.0', deps: [dep(G, 'x', '1.0')] },
      ...leaf(G, 'lib', '2.0'),
      ...leaf(G, 'x', '1.0'),
    ],
  ),
  hand(
    13,
    'a deeper range on a package relocated nearer the root: the range version of the old coordinates wins',
    ['range on a relocated package'],
    (G, G2) => [
      { g: G, a: 'root', v: ROOT_VERSION, deps: [dep(G, 'a', '1.0'), dep(G, 'lib', '4.0.0')] },
      { g: G, a: 'a', v: '1.0', deps: [dep(G, 'b', '1.0')] },
      { g: G, a: 'b', v: '1.0', deps: [dep(G, 'lib', '[1.0,3.0.0)')] },
      ...leaf(G, 'lib', '1.2.0'),
      { g: G, a: 'lib', v: '4.0.0', relocation: { g: G2, a: 'lib-moved' } },
      ...leaf(G2, 'lib-moved', '4.0.0'),
    ],
  ),
  hand(
    14,
    'a deeper range on a relocated package that only the target satisfies (Maven fails)',
    ['unsatisfiable range on a relocated package'],
    (G, G2) => [
      { g: G, a: 'root', v: ROOT_VERSION, deps: [dep(G, 'a', '1.0'), dep(G, 'lib', '4.0.0')] },
      { g: G, a: 'a', v: '1.0', deps: [dep(G, 'lib', '[7.0,8.0)')] },
      ...leaf(G, 'lib', '1.0'),
      { g: G, a: 'lib', v: '4.0.0', relocation: { g: G2, a: 'lib-moved' } },
      ...leaf(G2, 'lib-moved', '4.0.0'),
    ],
    true,
  ),
];

// ---------------------------------------------------------------------------------------------
// Seeded random universes

/** In Maven's order (ComparableVersion), so an index range is a version range. */
const POOL = ['1.0', '1.0.1', '1.1', '1.2.0', '2.0-beta-1', '2.0', '2.1', '3.0.0', '4.0.0'] as const;
const PARENT_VERSIONS = ['1', '2.0', '5.1', '1.0.0', '10'] as const;

interface Lib {
  g: string;
  a: string;
  idx: number;
  versions: string[];
}

/** A POM in construction with what its chain defines: properties (own) and inherited names, managed keys. */
interface Ctx {
  props: Record<string, string>;
  inheritedProps: Set<string>;
  managedKeys: Set<string>;
  g: string;
  v: string;
  parentV?: string;
}

/** A BOM of the universe and the keys it manages (its imports' included). */
interface Bom {
  pom: MavenPom;
  keys: Set<string>;
}

/** The parent the libraries may share: its POM, the properties it defines and the keys it manages. */
interface LibParent {
  pom: MavenPom;
  props: Set<string>;
  keys: Set<string>;
}

/** The state of one universe's generation: its random draws (in a fixed order: the seed decides all) and what is built so far. */
interface Gen {
  int: (n: number) => number;
  pick: <T>(xs: readonly T[]) => T;
  chance: (p: number) => boolean;
  roll: () => number;
  G: string;
  G2: string;
  features: Set<string>;
  poms: MavenPom[];
  libs: Lib[];
  /** Relocated library versions (`lib@version`), decided before any requirement. */
  relocs: Map<string, NonNullable<MavenPom['relocation']>>;
  /**
   * Keys of the dependencies a root parent declares: the root names them with a literal groupId
   * (inheritance merges dependencies by their raw management key, before `${project.groupId}` is
   * interpolated, so `${project.groupId}:x` would not replace the parent's `g:x`).
   */
  inheritedDeps: Set<string>;
  boms: Bom[];
}

const key = (g: string, a: string) => `${g}:${a}`;
const propName = (l: Lib, kind: 'version' | 'base') => `${l.a}.${kind}`;

function newGen(seed: number, prefix: string): Gen {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r() * n);
  return {
    int,
    pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]!,
    chance: (p: number) => r() < p,
    roll: r,
    G: `${prefix}.org.example`,
    G2: `${prefix}.net.other`,
    features: new Set(),
    poms: [],
    libs: [],
    relocs: new Map(),
    inheritedDeps: new Set(),
    boms: [],
  };
}

function randomLibs(gen: Gen): Lib[] {
  const n = 3 + gen.int(4);
  return Array.from({ length: n }, (_, i) => {
    const k = 1 + gen.int(3);
    const idxs = new Set<number>();
    while (idxs.size < k) idxs.add(gen.int(POOL.length));
    return {
      g: i > 0 && gen.chance(0.25) ? gen.G2 : gen.G,
      a: `lib${i}`,
      idx: i,
      versions: [...idxs].sort((a, b) => a - b).map((x) => POOL[x]!),
    };
  });
}

/**
 * Relocations, decided up front so that ranges can keep clear of them: Maven 3.8's dependency
 * collector stops going through a range's versions at the first relocated one (it returns after
 * following the relocation), a resolver quirk the universes are not meant to test.
 */
function decideRelocations(gen: Gen): void {
  const { G, G2, relocs } = gen;
  for (const l of gen.libs) {
    for (const v of l.versions) {
      const others = l.versions.filter((x) => x !== v);
      const roll = gen.roll();
      if (roll < 0.06 && others.length) relocs.set(`${l.a}@${v}`, { v: gen.pick(others) });
      else if (roll < 0.14)
        relocs.set(
          `${l.a}@${v}`,
          gen.chance(0.5) ? { g: l.g === G ? G2 : G } : { g: l.g === G ? G2 : G, a: `${l.a}-moved` },
        );
    }
  }
  // a version relocated to a version that is relocated itself goes to a plain artifact instead
  for (const [k, rel] of relocs) {
    const a = k.slice(0, k.indexOf('@'));
    if (rel.v && relocs.has(`${a}@${rel.v}`)) relocs.set(k, { a: `${a}-v` });
  }
}

/** `${libN.version}` usable in ctx, defining (or overriding) in ctx.props what it needs. */
function propRef(gen: Gen, ctx: Ctx, l: Lib): string {
  const { chance, pick, features } = gen;
  const vp = propName(l, 'version');
  const bp = propName(l, 'base');
  if (ctx.props[vp] !== undefined) return `\${${vp}}`;
  if (ctx.inheritedProps.has(vp) && chance(0.7)) {
    features.add('property from parent');
    if (chance(0.3)) {
      ctx.props[vp] = pick(l.versions);
      features.add('property override');
    } else if (ctx.inheritedProps.has(bp) && chance(0.5)) {
      ctx.props[bp] = pick(l.versions);
      features.add('nested property base overridden by child');
    }
    return `\${${vp}}`;
  }
  if (chance(0.35)) {
    ctx.props[vp] = `\${${bp}}`;
    if (!ctx.inheritedProps.has(bp) || chance(0.5)) ctx.props[bp] = pick(l.versions);
    features.add('nested property');
  } else {
    ctx.props[vp] = pick(l.versions);
  }
  return `\${${vp}}`;
}

/** A range holding at least one listed version of l and no relocated one (undefined when none is found). */
function rangeFor(gen: Gen, l: Lib): string | undefined {
  const at = (v: string) => (POOL as readonly string[]).indexOf(v);
  for (let attempt = 0; attempt < 12; attempt++) {
    const hit = at(gen.pick(l.versions));
    const lo = gen.int(hit + 1);
    const open = gen.chance(0.4);
    const hi = open ? POOL.length : hit + 1 + gen.int(POOL.length - hit);
    const inside = l.versions.filter((v) => at(v) >= lo && at(v) < hi);
    if (!inside.length || inside.some((v) => gen.relocs.has(`${l.a}@${v}`))) continue;
    gen.features.add(open ? 'version range [a,)' : 'version range [a,b)');
    if (open) return `[${POOL[lo]},)`;
    return hi >= POOL.length ? `[${POOL[lo]},5.0)` : `[${POOL[lo]},${POOL[hi]})`;
  }
  return undefined;
}

/** The version written for a requirement on l in ctx (undefined: left to management). */
function requirement(gen: Gen, ctx: Ctx, l: Lib): string | undefined {
  const managed = ctx.managedKeys.has(key(l.g, l.a));
  const roll = gen.roll();
  if (managed && roll < 0.35) {
    gen.features.add('version from management');
    return undefined;
  }
  if (roll < 0.55) return propRef(gen, ctx, l);
  const range = roll < 0.72 ? rangeFor(gen, l) : undefined;
  if (range) return range;
  if (l.versions.includes(ctx.v) && roll < 0.8) {
    gen.features.add('${project.version} dependency');
    return '${project.version}';
  }
  return gen.pick(l.versions);
}

/** Scope, optional, exclusions and `${project.groupId}`, at random. */
function decorate(gen: Gen, d: MavenDep, ctx: Ctx, below: Lib[], transitive: boolean): MavenDep {
  const { chance, pick, features } = gen;
  const s = gen.roll();
  if (s < 0.08) d.scope = 'test';
  else if (s < 0.15) d.scope = 'provided';
  else if (s < 0.25) d.scope = 'runtime';
  else if (s < 0.3) d.scope = 'compile';
  if (d.scope && d.scope !== 'compile') features.add(`${transitive ? 'transitive' : 'root'} ${d.scope} scope`);
  if (chance(0.1)) {
    d.optional = true;
    features.add(`${transitive ? 'transitive' : 'root'} optional`);
  }
  if (chance(0.15)) {
    const e = gen.roll();
    const target = below.length ? pick(below) : undefined;
    if (e < 0.15) d.exclusions = ['*:*'];
    else if (e < 0.3) d.exclusions = [`${pick([gen.G, gen.G2])}:*`];
    else if (e < 0.45 && target) d.exclusions = [`*:${target.a}`];
    else if (target) d.exclusions = [`${target.g}:${target.a}`];
    if (d.exclusions) features.add(`exclusion ${d.exclusions[0]!.includes('*') ? 'wildcard' : 'g:a'}`);
  }
  if (d.g === ctx.g && !gen.inheritedDeps.has(key(d.g, d.a)) && chance(0.15)) {
    d.g = '${project.groupId}';
    features.add('${project.groupId} dependency');
  }
  return d;
}

/** BOMs: bom0 may import bom1; two BOMs may manage the same library. */
function randomBoms(gen: Gen): void {
  const { chance, pick, boms } = gen;
  const bomCount = chance(0.55) ? 1 + gen.int(3) : 0;
  for (let b = bomCount - 1; b >= 0; b--) {
    const v = pick(['1.0', '2.0-beta-1', '3.0.0']);
    const g = b === 2 ? gen.G2 : gen.G;
    const ctx: Ctx = { props: {}, inheritedProps: new Set(), managedKeys: new Set(), g, v };
    const managed: MavenDep[] = [];
    const keys = new Set<string>();
    for (const l of gen.libs) {
      if (!chance(0.45)) continue;
      managed.push(dep(l.g, l.a, chance(0.3) ? propRef(gen, ctx, l) : pick(l.versions)));
      keys.add(key(l.g, l.a));
    }
    if (b === 0 && boms.length && chance(0.6)) {
      const inner = boms[boms.length - 1]!;
      managed.push(bomImport(inner.pom.g, inner.pom.a, inner.pom.v));
      for (const k of inner.keys) keys.add(k);
      gen.features.add('BOM importing BOM');
    }
    const pom: MavenPom = { g, a: `bom${b}`, v, packaging: 'pom', properties: ctx.props, managed };
    boms.push({ pom, keys });
    gen.poms.push(pom);
  }
  if (boms.some((x, i) => boms.some((y, j) => i < j && [...x.keys].some((k) => y.keys.has(k)))))
    gen.features.add('two BOMs managing one artifact');
}

function importInto(gen: Gen, ctx: Ctx, managed: MavenDep[]): void {
  for (const b of gen.boms) {
    if (!gen.chance(0.5)) continue;
    managed.push(bomImport(b.pom.g, b.pom.a, b.pom.v));
    for (const k of b.keys) ctx.managedKeys.add(k);
    gen.features.add('import BOM');
  }
}

/** A shared parent for libraries, or none. */
function randomLibParent(gen: Gen): LibParent | undefined {
  const { chance, pick, G } = gen;
  if (!chance(0.5)) return undefined;
  const ctx: Ctx = { props: {}, inheritedProps: new Set(), managedKeys: new Set(), g: G, v: '7' };
  const managed: MavenDep[] = [];
  for (const l of gen.libs.slice(1)) {
    if (chance(0.3)) propRef(gen, ctx, l);
    if (chance(0.3)) {
      managed.push(dep(l.g, l.a, chance(0.5) ? propRef(gen, ctx, l) : pick(l.versions)));
      ctx.managedKeys.add(key(l.g, l.a));
    }
  }
  if (chance(0.3)) importInto(gen, ctx, managed);
  const pom: MavenPom = { g: G, a: 'lib-parent', v: '7', packaging: 'pom', properties: ctx.props, managed };
  gen.poms.push(pom);
  gen.features.add('transitive parent');
  return { pom, props: new Set(Object.keys(ctx.props)), keys: ctx.managedKeys };
}

function libPom(gen: Gen, libParent: LibParent | undefined, l: Lib, v: string, a = l.a, g = l.g): MavenPom {
  const withParent = libParent && gen.chance(0.5);
  const ctx: Ctx = {
    props: {},
    inheritedProps: new Set(withParent ? libParent!.props : []),
    managedKeys: new Set(withParent ? libParent!.keys : []),
    g,
    v,
  };
  const managed: MavenDep[] = [];
  if (gen.chance(0.15)) importInto(gen, ctx, managed);
  const targets = gen.libs
    .slice(l.idx + 1)
    .filter(() => gen.chance(0.45))
    .slice(0, 3);
  const deps = targets.map((t) =>
    decorate(gen, dep(t.g, t.a, requirement(gen, ctx, t)), ctx, gen.libs.slice(t.idx + 1), true),
  );
  const pom: MavenPom = { g, a, v, properties: ctx.props, managed, deps };
  if (withParent) {
    pom.parent = { g: libParent!.pom.g, a: libParent!.pom.a, v: libParent!.pom.v };
    if (g === libParent!.pom.g && gen.chance(0.7)) pom.inheritGroup = true;
  }
  return pom;
}

/** Every library version's POM, a relocated one as its relocation (and the artifact it moved to after all). */
function libraryPoms(gen: Gen, libParent: LibParent | undefined): void {
  const moved: MavenPom[] = [];
  for (const l of gen.libs) {
    for (const v of l.versions) {
      const rel = gen.relocs.get(`${l.a}@${v}`);
      if (!rel) {
        gen.poms.push(libPom(gen, libParent, l, v));
        continue;
      }
      gen.poms.push({ g: l.g, a: l.a, v, relocation: rel });
      if (rel.v) {
        gen.features.add('relocation to version');
      } else if (rel.g) {
        moved.push(libPom(gen, libParent, l, v, rel.a ?? l.a, rel.g));
        gen.features.add('relocation to groupId/artifactId');
      } else {
        moved.push({ g: l.g, a: rel.a!, v });
        gen.features.add('relocation to artifactId');
      }
    }
  }
  gen.poms.push(...moved);
}

type Chain = { pom: MavenPom; ctx: Ctx }[];

/** The context of a POM whose parent is the chain's last. */
function inherited(gen: Gen, chain: Chain): Ctx {
  const up = chain[chain.length - 1];
  return {
    props: {},
    inheritedProps: new Set(up ? [...up.ctx.inheritedProps, ...Object.keys(up.ctx.props)] : []),
    managedKeys: new Set(up ? up.ctx.managedKeys : []),
    g: gen.G,
    v: ROOT_VERSION, // `${project.version}` in a parent is interpolated in the root
    parentV: up?.pom.v,
  };
}

/** The root's parent chain (outermost first), and whether it manages the `sibling` artifact. */
function rootParentChain(gen: Gen): { chain: Chain; sibling: boolean } {
  const { chance, pick, G, features } = gen;
  const depth = gen.int(4);
  const chain: Chain = [];
  let sibling = false;
  for (let k = depth; k >= 1; k--) {
    const ctx = inherited(gen, chain);
    const v = k === 1 && chance(0.4) ? ROOT_VERSION : pick(PARENT_VERSIONS);
    const managed: MavenDep[] = [];
    const deps: MavenDep[] = [];
    for (const l of gen.libs) {
      if (chance(0.25)) propRef(gen, ctx, l);
      if (chance(0.25) && !ctx.managedKeys.has(key(l.g, l.a))) {
        managed.push(dep(l.g, l.a, chance(0.5) ? propRef(gen, ctx, l) : pick(l.versions)));
        ctx.managedKeys.add(key(l.g, l.a));
        features.add('parent dependencyManagement');
      }
    }
    if (chance(0.3)) {
      managed.push(dep(G, 'sibling', '${project.version}'));
      ctx.managedKeys.add(key(G, 'sibling'));
      sibling = true;
      features.add('${project.version} in parent management');
    }
    if (chance(0.4)) importInto(gen, ctx, managed);
    if (chance(0.2)) {
      const l = pick(gen.libs);
      deps.push(dep(l.g, l.a, pick(l.versions)));
      gen.inheritedDeps.add(key(l.g, l.a));
      features.add('dependency inherited from parent');
    }
    const pom: MavenPom = { g: G, a: `parent${k}`, v, packaging: 'pom', properties: ctx.props, managed, deps };
    const up = chain[chain.length - 1];
    if (up) {
      pom.parent = { g: up.pom.g, a: up.pom.a, v: up.pom.v };
      if (chance(0.6)) pom.inheritGroup = true;
    }
    chain.push({ pom, ctx });
    gen.poms.push(pom);
  }
  if (depth) features.add(`parent chain ${depth}`);
  return { chain, sibling };
}

/** The root POM under the chain: its own management and imports, its direct dependencies; then sibling and companion. */
function randomRoot(gen: Gen, chain: Chain, sibling: boolean): void {
  const { chance, pick, G, features } = gen;
  const ctx = inherited(gen, chain);
  const top = chain[chain.length - 1];
  const root: MavenPom = { g: G, a: 'root', v: ROOT_VERSION };
  if (top) {
    root.parent = { g: top.pom.g, a: top.pom.a, v: top.pom.v };
    if (chance(0.6)) {
      root.inheritGroup = true;
      features.add('inherited groupId');
    }
    if (top.pom.v === ROOT_VERSION && chance(0.7)) {
      root.inheritVersion = true;
      features.add('inherited version');
    }
  }
  const managed: MavenDep[] = [];
  // the root's own management: some libraries (often only transitive ones), before or after its imports
  const ownFirst = chance(0.5);
  const own = () => {
    for (const l of gen.libs) {
      if (!chance(0.3)) continue;
      managed.push(dep(l.g, l.a, chance(0.4) ? propRef(gen, ctx, l) : pick(l.versions)));
      if (ctx.managedKeys.has(key(l.g, l.a))) features.add('own management beats inherited/imported');
      ctx.managedKeys.add(key(l.g, l.a));
      features.add('root dependencyManagement');
    }
  };
  if (ownFirst) own();
  importInto(gen, ctx, managed);
  if (!ownFirst) own();
  const direct = gen.libs.filter((l) => l.idx < 2 || chance(0.4)).slice(0, 5);
  const deps = direct.map((l) =>
    decorate(gen, dep(l.g, l.a, requirement(gen, ctx, l)), ctx, gen.libs.slice(l.idx + 1), false),
  );
  if (sibling && chance(0.8)) deps.push(dep(G, 'sibling'));
  let companion: MavenPom[] = [];
  if (ctx.parentV && chance(0.5)) {
    deps.push(dep(G, 'companion', '${project.parent.version}'));
    companion = [{ g: G, a: 'companion', v: ctx.parentV }];
    features.add('${project.parent.version}');
  }
  root.properties = ctx.props;
  root.managed = managed;
  root.deps = deps;
  gen.poms.push(root);
  if (sibling) gen.poms.push({ g: G, a: 'sibling', v: '0.9' }, { g: G, a: 'sibling', v: ROOT_VERSION });
  gen.poms.push(...companion);
}

/**
 * A random universe: libraries lib0..libN (N < 6, some in a second groupId) where lib i depends only
 * on lib j > i, 1-3 versions each from POOL, an optional shared parent for libraries, 0-3 BOMs (one
 * may import another), a root parent chain of 0-3 levels (properties, management, imports, inherited
 * dependencies), relocations (to another version, groupId and/or artifactId), and requirement forms
 * chosen at random (literal, property, nested property, range, left to management,
 * `${project.version}`, `${project.groupId}`, `${project.parent.version}`), scopes, optional and
 * exclusions. Every property a POM uses is defined in its chain with a listed version of the library
 * it names, every version left out is managed, every range holds a listed version and no relocated
 * one: real Maven could only fail on ranges that exclude each other (none of seeds 7000-7043 does).
 */
export function randomMavenUniverse(seed: number): MavenUniverse {
  const prefix = `r${seed}`;
  const gen = newGen(seed, prefix);
  gen.libs = randomLibs(gen);
  decideRelocations(gen);
  randomBoms(gen);
  const libParent = randomLibParent(gen);
  libraryPoms(gen, libParent);
  const { chain, sibling } = rootParentChain(gen);
  randomRoot(gen, chain, sibling);
  return {
    label: `random universe ${seed}`,
    prefix,
    root: `${gen.G}:root`,
    poms: orderVersions(gen.poms),
    features: [...gen.features].sort(),
  };
}

/** POMs grouped per artifact (first appearance order), versions in POOL order where known (the metadata lists them so). */
function orderVersions(poms: MavenPom[]): MavenPom[] {
  const rank = (v: string) => {
    const i = (POOL as readonly string[]).indexOf(v);
    return i === -1 ? POOL.length : i;
  };
  const groups = new Map<string, MavenPom[]>();
  for (const p of poms) groups.set(`${p.g}:${p.a}`, [...(groups.get(`${p.g}:${p.a}`) ?? []), p]);
  return [...groups.values()].flatMap((ps) =>
    ps
      .map((p, i) => ({ p, i }))
      .sort((x, y) => rank(x.p.v) - rank(y.p.v) || x.i - y.i)
      .map((x) => x.p),
  );
}

/** The hand cases and `count` seeded random universes (seeds 7000…). */
export function mavenUniverses(count = 44): MavenUniverse[] {
  return [...MAVEN_HAND, ...Array.from({ length: count }, (_, i) => randomMavenUniverse(7000 + i))];
}
