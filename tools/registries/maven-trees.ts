/**
 * Real Maven as the oracle of the Maven end-to-end tests: `mavenTrees(universes)` serves the
 * universes (tools/registries/maven-repo.ts) on loopback, with ~/.m2/repository as the fallback for the
 * plugin Maven runs, and runs ONE `mvn` over an aggregator project whose modules are copies of the
 * roots' POMs (each `<parent>` given `<relativePath/>`, so the parent comes from the repository).
 *
 * What is read is Maven's own dependency graph of each project: the one DefaultProjectDependenciesResolver
 * builds (collection with Maven's conflict resolution, management, scopes, exclusions, relocations)
 * and logs at debug level before resolving the files, which is the graph `dependency:tree` prints.
 * Only that logger is put at debug level, and any goal asking for test-scope resolution makes Maven
 * build the graph; the one used is `maven-compiler-plugin:3.13.0:testCompile` with
 * `-Dmaven.test.skip=true` (nothing is compiled). maven-dependency-plugin itself cannot run here:
 * the copies of it in ~/.m2/repository (2.8, 3.6.1 ... 3.11.0) lack parts of their own dependency
 * closure for Maven 3.8.7 (e.g. org.jboss.weld:weld-api-parent:1.0, commons-beanutils 1.9.4) and
 * there is no network. The logged lines have the text-tree shape (`g:a:type[:classifier]:version:scope`
 * indented 3 columns per level) and `parseTree` also reads `dependency:tree -DoutputType=text` output.
 *
 * settings.xml mirrors `*` to the loopback repository, ignores checksums (the plugin's files have none),
 * and puts the local repository in a fresh directory under the repository's git-ignored `.tmp/`,
 * shared by every root of the run. A root fails when Maven says `Could not resolve dependencies for
 * project <root>` (collection errors: a range nothing satisfies, conflicting ranges) or could not
 * build its model (`The project <root> (...) has N errors`: a missing parent or imported BOM); such a
 * root is left out of the next reactor run, and a root still without an answer is run alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_M2,
  mavenLayout,
  renderPom,
  rootPom,
  startMavenRepo,
  ROOT_VERSION,
  type MavenUniverse,
} from './maven-repo.ts';

export const MVN = process.env.MVN ?? 'mvn';
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const probe = spawnSync(MVN, ['-v'], { encoding: 'utf8', env: { ...process.env, MAVEN_OPTS: '' } });
/** A goal making Maven resolve test-scope dependencies; its plugin must be resolvable from ~/.m2/repository. */
export const RESOLVING_GOAL =
  process.env.MVN_RESOLVING_GOAL ?? 'org.apache.maven.plugins:maven-compiler-plugin:3.13.0:testCompile';
const [goalGroup, goalArtifact, goalVersion] = RESOLVING_GOAL.split(':');
const goalPlugin = join(DEFAULT_M2, ...goalGroup!.split('.'), goalArtifact!, goalVersion!);
const pluginThere = process.env.MVN_RESOLVING_GOAL !== undefined || existsSync(goalPlugin);
export const HAS_MVN = probe.status === 0 && pluginThere;
/** First line of `mvn -v`, or why mvn is unusable. */
export const MVN_VERSION =
  probe.status !== 0
    ? `mvn unusable: ${probe.error?.message ?? probe.stderr}`
    : !pluginThere
      ? `the plugin Maven runs offline is not in ${goalPlugin} (no network to fetch it)`
      : strip(probe.stdout).split('\n')[0]!.trim();

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GRAPH_LOGGER = 'org.apache.maven.project.DefaultProjectDependenciesResolver';
/** Short JVM runs: C1 only; the graph logger at debug level. */
const MAVEN_OPTS = `-XX:TieredStopAtLevel=1 -Xshare:auto -Dorg.slf4j.simpleLogger.log.${GRAPH_LOGGER}=debug`;

export interface MavenTree {
  ok: true;
  /** `g:a:v` of the root as printed. */
  root: string;
  /** `g:a:v` of every node, root included, sorted (versions as published). */
  nodes: string[];
  /** `g:a:v -> g:a:v` of every tree edge, sorted. */
  edges: string[];
  /** The tree as Maven printed it. */
  text: string;
}
export interface MavenFailure {
  ok: false;
  error: string;
}
export type MavenOutcome = MavenTree | MavenFailure;

export interface MavenRun {
  /** Aligned with the universes given. */
  outcomes: MavenOutcome[];
  /** Wall time of the whole call (server, project files, every mvn run). */
  millis: number;
  invocations: { modules: number; millis: number; status: number | null }[];
  /** Requests the loopback repository answered from ~/.m2/repository (the plugin Maven runs). */
  fallbackHits: number;
}

/**
 * One printed coordinate -> `g:a:version`: `g:a:type:version` (a root), `g:a:type:version:scope`,
 * `g:a:type:classifier:version:scope`; a root line has no scope (4 or 5 parts), a child has one.
 */
export function coordinateKey(coord: string, isRoot: boolean): string {
  const parts = coord.split(':');
  const ok = isRoot ? parts.length === 4 || parts.length === 5 : parts.length === 5 || parts.length === 6;
  if (!ok || parts.some((p) => p === '')) throw new Error(`unexpected coordinate ${coord}`);
  return `${parts[0]}:${parts[1]}:${parts[parts.length - (isRoot ? 1 : 2)]}`;
}

/**
 * A dependency tree -> root, nodes and parent -> child edges. Reads `dependency:tree -DoutputType=text`
 * (`+- `, `\- `, `|  ` prefixes) and Maven's debug graph log (3 spaces per level, the `[DEBUG] `
 * prefix removed); annotations after the coordinate (`(optional)`, `(version managed from 2.0)`) are
 * ignored.
 */
export function parseTree(text: string): Omit<MavenTree, 'ok'> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error('empty dependency tree');
  const root = coordinateKey(lines[0]!.trim().split(/\s+/)[0]!, true);
  const nodes = new Set([root]);
  const edges = new Set<string>();
  const stack = [root];
  for (const line of lines.slice(1)) {
    const m = /^([ |+\\-]*)(\S+)/.exec(line);
    if (!m || m[1]!.length % 3 !== 0 || m[1]!.length === 0) throw new Error(`unexpected tree line: ${line}`);
    const depth = m[1]!.length / 3;
    if (depth > stack.length) throw new Error(`tree line deeper than its parent: ${line}`);
    const node = coordinateKey(m[2]!, false);
    stack.length = depth;
    nodes.add(node);
    edges.add(`${stack[depth - 1]} -> ${node}`);
    stack.push(node);
  }
  return { root, nodes: [...nodes].sort(), edges: [...edges].sort(), text: lines.join('\n') };
}

/** The graphs Maven logged, by the root's `g:a` (a block starts at an unindented `g:a:type:version`). */
export function loggedGraphs(log: string): Map<string, string> {
  const out = new Map<string, string>();
  let cur: string[] | null = null;
  let key = '';
  const flush = () => {
    if (cur) out.set(key, cur.join('\n'));
    cur = null;
  };
  for (const raw of log.split('\n')) {
    if (!raw.startsWith('[DEBUG] ')) {
      flush();
      continue;
    }
    const line = raw.slice(8).trimEnd();
    if (/^[^\s:]+:[^\s:]+:[^\s:]+:[^\s:]+(:[^\s:]+)?$/.test(line)) {
      flush();
      cur = [line];
      key = line.split(':').slice(0, 2).join(':');
    } else if (cur && /^(?: {3})+\S/.test(line)) {
      cur.push(line);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

function settingsXml(repoUrl: string, localRepo: string): string {
  const repo = (tag: string) =>
    `<${tag}><id>central</id><url>${repoUrl}</url><releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
  <localRepository>${localRepo}</localRepository>
  <interactiveMode>false</interactiveMode>
  <mirrors>
    <mirror>
      <id>loopback</id>
      <mirrorOf>*</mirrorOf>
      <url>${repoUrl}</url>
    </mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>loopback</id>
      <repositories>${repo('repository')}</repositories>
      <pluginRepositories>${repo('pluginRepository')}</pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>loopback</activeProfile></activeProfiles>
</settings>
`;
}

function aggregatorXml(modules: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>zz.maven.trees</groupId>
  <artifactId>aggregator</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <modules>
${modules.map((m) => `    <module>${m}</module>`).join('\n')}
  </modules>
</project>
`;
}

function runMvn(cwd: string, args: string[]): Promise<{ status: number | null; log: string; millis: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    // async: the loopback repository answering Maven lives in this process
    const child = spawn(MVN, args, {
      cwd,
      env: { ...process.env, MAVEN_OPTS, MAVEN_ARGS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', (err) => resolve({ status: -1, log: String(err), millis: performance.now() - t0 }));
    child.on('close', (status) =>
      resolve({ status, log: strip(Buffer.concat(out).toString('utf8')), millis: performance.now() - t0 }),
    );
  });
}

const errorLines = (log: string) =>
  log
    .split('\n')
    .filter((l) => l.startsWith('[ERROR]'))
    .map((l) => l.slice(7).trim());

/** Failures a log reports per project id `g:a:version`: dependency collection/resolution, model building. */
export function loggedFailures(log: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = errorLines(log);
  for (const [i, l] of lines.entries()) {
    const dep = /Could not resolve dependencies for project ([^:\s]+):([^:\s]+):[^:\s]+:([^:\s]+): (.*)$/.exec(l);
    if (dep) out.set(`${dep[1]}:${dep[2]}:${dep[3]}`, l);
    const model = /^The project ([^:\s]+):([^:\s]+):(\S+) \(.*\) has \d+ errors?$/.exec(l);
    if (model) {
      const detail = [];
      for (let j = i + 1; j < lines.length && lines[j] !== '' && !lines[j]!.startsWith('The project '); j++)
        detail.push(lines[j]);
      out.set(`${model[1]}:${model[2]}:${model[3]}`, `${l}: ${detail.join(' ')}`);
    }
  }
  return out;
}

/**
 * Maven's dependency tree for the root of each universe, one mvn run for all of them (more only when a
 * root breaks the reactor). `repoUrl`: a repository already serving the universes (else one is started
 * from `mavenLayout(universes)` and stopped at the end); `keep` leaves the working directory
 * (`.tmp/maven-trees-*`) in place.
 */
export async function mavenTrees(
  universes: readonly MavenUniverse[],
  opts: {
    repoUrl?: string;
    keep?: boolean;
    log?: (s: string) => void;
    /** a local repository to use (and leave) instead of a fresh one; with `offline`, Maven runs `-o` on it (the benchmark's warm runs) */
    localRepo?: string;
    offline?: boolean;
  } = {},
): Promise<MavenRun> {
  const t0 = performance.now();
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'maven-trees-'));
  const server = opts.repoUrl ? undefined : await startMavenRepo(mavenLayout(universes));
  const repoUrl = opts.repoUrl ?? server!.url;
  const invocations: MavenRun['invocations'] = [];
  try {
    const settings = join(dir, 'settings.xml');
    writeFileSync(settings, settingsXml(repoUrl, opts.localRepo ?? join(dir, 'm2')));
    const proj = join(dir, 'proj');
    const modules = universes.map((_, i) => `m${i}`);
    universes.forEach((u, i) => {
      mkdirSync(join(proj, modules[i]!), { recursive: true });
      writeFileSync(join(proj, modules[i]!, 'pom.xml'), renderPom(rootPom(u), { emptyRelativePath: true }));
    });
    const args = [
      '-B',
      '-ntp',
      '-fae',
      ...(opts.offline ? ['-o'] : []),
      '-s',
      settings,
      '-Dstyle.color=never',
      '-Dmaven.test.skip=true',
      RESOLVING_GOAL,
    ];
    const outcomes: (MavenOutcome | undefined)[] = universes.map(() => undefined);
    const collect = (pending: number[], log: string) => {
      const graphs = loggedGraphs(log);
      const failures = loggedFailures(log);
      for (const i of pending) {
        const failure = failures.get(`${universes[i]!.root}:${ROOT_VERSION}`);
        const graph = graphs.get(universes[i]!.root);
        if (failure) outcomes[i] = { ok: false, error: failure };
        else if (graph) outcomes[i] = { ok: true, ...parseTree(graph) };
      }
      return pending.filter((i) => !outcomes[i]);
    };
    let pending = universes.map((_, i) => i);
    for (let round = 0; pending.length > 1 && round < 3; round++) {
      writeFileSync(join(proj, 'pom.xml'), aggregatorXml(pending.map((i) => modules[i]!)));
      const run = await runMvn(proj, args);
      invocations.push({ modules: pending.length, millis: run.millis, status: run.status });
      opts.log?.(`mvn over ${pending.length} roots: exit ${run.status} in ${(run.millis / 1000).toFixed(1)}s`);
      const left = collect(pending, run.log);
      if (left.length === pending.length) {
        opts.log?.(`no answer for any root of the reactor:\n${errorLines(run.log).slice(0, 20).join('\n')}`);
        break;
      }
      pending = left;
    }
    for (const i of pending) {
      const run = await runMvn(join(proj, modules[i]!), args);
      invocations.push({ modules: 1, millis: run.millis, status: run.status });
      if (collect([i], run.log).length) {
        outcomes[i] = {
          ok: false,
          error:
            errorLines(run.log).filter(Boolean).slice(0, 6).join(' | ') ||
            `mvn exited ${run.status} without a dependency graph`,
        };
      }
    }
    return {
      outcomes: outcomes as MavenOutcome[],
      millis: performance.now() - t0,
      invocations,
      fallbackHits: server?.fallbackHits() ?? 0,
    };
  } finally {
    await server?.close();
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}
