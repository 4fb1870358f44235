/**
 * Maven resolver, following Maven 3 mediation as deps.dev's util/resolve/maven models Maven 3.6.3:
 *  - breadth-first from the root; the nearest declaration of a package (group:artifact plus
 *    classifier and non-jar type) wins, and on equal depth the first declared wins;
 *  - one version per package: all requirements met so far are kept in encounter order and the
 *    chosen version is the first soft requirement (bare version) meeting every hard range, or, at
 *    the position of the first hard range, the highest listed version meeting them all; a later
 *    hard requirement the selection does not meet restarts the resolution with it known (<=100x);
 *  - the root's dependencyManagement overrides transitive (never direct) requirements;
 *  - the root keeps its test/provided/optional dependencies; below it test, provided and optional
 *    ones are dropped (not transitive); war/ear/rar artifacts include their dependencies;
 *  - exclusions (`g:a`, `g:*`, `*:a`, `*:*`) accumulate down each path;
 *  - `blocked` versions are unlisted (not in maven-metadata) yet exist for soft requirements; so
 *    does a version the client does not list at all whose POM it can read (`Client.pom`), for a
 *    soft requirement (Maven reads that version's POM by path); ranges, `[v]` included, consider
 *    listed versions only (checked with Maven 3.8.7);
 *  - registries: versions carry `registries` (fetch ids, `dep:` declared repositories,
 *    `default:`); when some version is only reachable through a repository the path did not
 *    declare, the graph is resolved again with visibility limits and a difference is reported as
 *    the graph error "multi-registry resolution differ: missing repository configuration".
 *  - effective models: when the client reads POMs (`Client.pom`), each version's dependencies are
 *    those of its effective model (maven-model.ts: parents, profiles, interpolation, imported BOMs,
 *    managed versions); the root's model errors are the graph's error, another POM's are errors of
 *    its node; a version whose POM relocates it is replaced by the relocation target, which is then
 *    processed as that dependency (exclusions and management of the new coordinates, but no version
 *    management when the target is the same artifact: maven-resolver's disableVersionManagement), at
 *    most 5 hops;
 *    the root's managed exclusions are added to those of any dependency below the direct ones.
 *    Without `pom` (the conformance vectors), `requirements` are taken as effective already.
 */
import { compare, parseRequirement } from '../versions/index.ts';
import { isSoftRequirement } from '../versions/maven.ts';
import { addEdge, addError, addNode, canon, newGraph } from './graph.ts';
import { MavenModels, type PomDependency } from './maven-model.ts';
import type { ActivationTarget } from './maven-profiles.ts';
import type { Attrs, Client, Dependency, Graph, VersionInfo } from './types.ts';
import { has } from './types.ts';

interface Todo {
  name: string;
  version: string;
  pkey: string;
  includesDependencies: boolean;
  exclusions: Set<string> | null;
  repositories: string[];
}

const MAX_RETRIES = 100;

function packageKey(d: { name: string; attrs: Record<string, string> }): string {
  const cls = d.attrs.mavenclassifier ?? '';
  const typ = d.attrs.mavenartifacttype && d.attrs.mavenartifacttype !== 'jar' ? d.attrs.mavenartifacttype : '';
  return `${d.name}\u0000${cls}\u0000${typ}`;
}

function parseRegistries(v: VersionInfo | undefined): { def: string; fetch: string[]; dep: string[] } {
  const out = { def: '', fetch: [] as string[], dep: [] as string[] };
  const r = v?.attrs.registries;
  if (r === undefined) return out;
  for (const raw of r.split('|')) {
    const rr = raw.trim();
    if (rr.startsWith('default:')) out.def = rr.slice(8);
    else if (rr.startsWith('dep:')) out.dep.push(rr.slice(4));
    else out.fetch.push(rr);
  }
  return out;
}

function parseExclusions(s: string | undefined): Set<string> | null {
  if (!s) return null;
  return new Set(s.split(/[|,]/).filter((x) => x !== ''));
}

function isExcluded(excl: Set<string> | null, name: string): boolean {
  if (!excl) return false;
  if (excl.has('*:*') || excl.has(name)) return true;
  const [g, a] = name.split(':');
  return excl.has(`${g}:*`) || excl.has(`*:${a}`);
}

const CENTRAL = /^https?:\/\/repo\.maven\.apache\.org\/maven2\/?$/;
const MAX_RELOCATIONS = 5;

/** A POM dependency in the resolver's vocabulary (scope, opt, classifier, type, exclusions; `origin` for management rows). */
export function mavenDependency(
  x: Pick<PomDependency, 'name' | 'version' | 'classifier' | 'type' | 'scope' | 'exclusions'> & { optional?: unknown },
  origin?: string,
): Dependency {
  const attrs: Attrs = {};
  if (x.scope === 'test') attrs.test = '';
  else if (x.scope && x.scope !== 'compile') attrs.scope = x.scope;
  if (x.optional === 'true' || x.optional === true) attrs.opt = '';
  if (x.classifier) attrs.mavenclassifier = x.classifier;
  if (x.type && x.type !== 'jar') attrs.mavenartifacttype = x.type;
  if (Array.isArray(x.exclusions) && x.exclusions.length) attrs.mavenexclusions = x.exclusions.join('|');
  if (origin) attrs.mavendependencyorigin = origin;
  return { name: x.name, requirement: x.version || '', attrs };
}

export interface MavenOptions {
  target?: ActivationTarget;
}

/** What the resolver reads of one version: its dependencies (null: no POM), its model errors and relocation. */
interface Descriptor {
  deps: readonly Dependency[] | null;
  errors: string[];
  relocation: { name: string; version: string } | null;
}

function descriptors(client: Client, opts: MavenOptions): (name: string, version: string) => Promise<Descriptor> {
  const pom = client.pom?.bind(client);
  if (!pom) return async (n, v) => ({ deps: await client.requirements(n, v), errors: [], relocation: null });
  const models = new MavenModels(pom, opts.target);
  return async (n, v) => {
    const m = await models.effective(n, v);
    if (!m) return { deps: null, errors: [], relocation: null };
    return {
      deps: [
        ...m.dependencies.map((d) => mavenDependency(d)),
        ...m.management.map((d) => mavenDependency(d, 'management')),
      ],
      errors: m.errors,
      relocation: m.relocation,
    };
  };
}

export async function resolveMaven(
  client: Client,
  name: string,
  version: string,
  opts: MavenOptions = {},
): Promise<Graph> {
  const requirements = new Map<string, Dependency[]>();
  const read = descriptors(client, opts);
  let res = await resolveOnce(client, read, name, version, requirements, false);
  for (let i = 0; i < MAX_RETRIES && res === 'incompatible'; i++) {
    res = await resolveOnce(client, read, name, version, requirements, false);
  }
  if (res === 'incompatible') {
    const g = newGraph(name, version);
    g.error = 'could not resolve: incompatible requirements';
    return g;
  }
  if (!res.hasMulti) return res.g;
  const multi = await resolveOnce(client, read, name, version, requirements, true);
  if (multi !== 'incompatible' && JSON.stringify(canon(multi.g)) !== JSON.stringify(canon(res.g))) {
    const e = 'multi-registry resolution differ: missing repository configuration';
    res.g.error = res.g.error ? `${res.g.error}; ${e}` : e;
  }
  return res.g;
}

/**
 * A version maven-metadata.xml does not list whose POM is at its path (common on Maven Central for
 * old artifacts): Maven takes a soft requirement as the version itself and reads its POM by path,
 * so it is a candidate for soft requirements only (marked `blocked`, unlisted). A range, even `[v]`,
 * is matched against the metadata's versions (Maven 3.8.7: "No versions available ... within
 * specified range").
 */
async function unlistedVersion(client: Client, name: string, version: string): Promise<VersionInfo | null> {
  if (!client.pom) return null;
  return (await client.pom(name, version)) ? { name, version, attrs: { blocked: '' } } : null;
}

async function findMatch(client: Client, name: string, reqs: Dependency[]): Promise<VersionInfo | 'nomatch' | string> {
  const all = await client.versions(name);
  const softs: string[] = [];
  const hards: ((v: string) => boolean)[] = [];
  let hardIdx = -1;
  let listed: VersionInfo[] = [];
  for (const [i, r] of reqs.entries()) {
    const p = parseRequirement('MAVEN', r.requirement);
    if (!p.ok) return `invalid requirement ${r.requirement} for package ${name}`;
    if (isSoftRequirement(r.requirement)) {
      softs.push(r.requirement.trim());
      continue;
    }
    if (hardIdx === -1) {
      hardIdx = i;
      listed = all.filter((v) => !has(v.attrs, 'blocked')).sort((a, b) => compare('MAVEN', b.version, a.version));
    }
    if (!listed.some((v) => p.requirement.matches(v.version))) {
      return `could not find a version that satisfies requirement ${r.requirement} for package ${name}`;
    }
    hards.push((v) => p.requirement.matches(v));
  }
  const matchesAll = (v: string) => hards.every((h) => h(v));
  for (const [i, soft] of softs.entries()) {
    if (i === hardIdx) {
      const hit = listed.find((v) => matchesAll(v.version));
      if (hit) return hit;
    }
    if (matchesAll(soft)) {
      const hit =
        all.find((v) => v.version === soft) ??
        all.find((v) => compare('MAVEN', v.version, soft) === 0) ??
        (await unlistedVersion(client, name, soft));
      return hit ?? `could not find a version that satisfies requirement ${soft} for package ${name}`;
    }
  }
  if (softs.length === hardIdx) {
    const hit = listed.find((v) => matchesAll(v.version));
    if (hit) return hit;
  }
  return 'nomatch';
}

type Read = (name: string, version: string) => Promise<Descriptor>;

/** One resolution's state: the graph so far, what is placed, and the root's management and registries. */
interface Walk {
  client: Client;
  read: Read;
  /** Every requirement seen per package key, kept across retries (a conflict restarts with them). */
  requirements: Map<string, Dependency[]>;
  /** The second pass (resolveMaven), run when the first placed artifacts of other registries: it places only reachable ones. */
  multi: boolean;
  g: Graph;
  /** A placed artifact came from a registry the root does not reach. */
  hasMulti: boolean;
  rootRegs: ReturnType<typeof parseRegistries>;
  todo: Todo[];
  resolvedPackages: Set<string>;
  /** `pkey\u0001version` -> node. */
  concrete: Map<string, number>;
  /** `name\u0000version` -> node. */
  nodes: Map<string, number>;
  /** Package keys relocated away from, to the node of their target (Maven's ConflictMarker). */
  relocatedTo: Map<string, number>;
  /** The root's dependencyManagement: versions and exclusions by package key. */
  mgt: Map<string, string>;
  mgtExclusions: Map<string, string>;
}

/** The dependency being placed, from the artifact `cur` (node `curId`); `first` = cur is the root. */
interface Placing {
  cur: Todo;
  curId: number;
  first: boolean;
}

async function resolveOnce(
  client: Client,
  read: Read,
  rootName: string,
  rootVersion: string,
  requirements: Map<string, Dependency[]>,
  multi: boolean,
): Promise<{ g: Graph; hasMulti: boolean } | 'incompatible'> {
  const rootInfo = (await client.versions(rootName)).find((v) => v.version === rootVersion);
  const rootRegs = parseRegistries(rootInfo);
  const rootPkey = packageKey({ name: rootName, attrs: {} });
  const w: Walk = {
    client,
    read,
    requirements,
    multi,
    g: newGraph(rootName, rootVersion),
    hasMulti: false,
    rootRegs,
    todo: [
      {
        name: rootName,
        version: rootVersion,
        pkey: rootPkey,
        includesDependencies: false,
        exclusions: null,
        repositories: rootRegs.dep.length > 0 ? [...rootRegs.dep, ...rootRegs.fetch] : rootRegs.fetch,
      },
    ],
    resolvedPackages: new Set([rootPkey]),
    concrete: new Map([[`${rootPkey}\u0001${rootVersion}`, 0]]),
    nodes: new Map([[`${rootName}\u0000${rootVersion}`, 0]]),
    relocatedTo: new Map(),
    mgt: new Map(),
    mgtExclusions: new Map(),
  };
  const root = await read(rootName, rootVersion);
  if (root.errors.length) w.g.error = root.errors.join('; ');
  const rootDeps = root.deps ?? [];
  for (const d of rootDeps) {
    if (d.attrs.mavendependencyorigin !== 'management') continue;
    if (d.requirement) w.mgt.set(packageKey(d), d.requirement);
    if (d.attrs.mavenexclusions) w.mgtExclusions.set(packageKey(d), d.attrs.mavenexclusions);
  }

  for (let first = true; w.todo.length > 0; first = false) {
    const cur = w.todo.shift()!;
    if (cur.includesDependencies) continue;
    const curId = w.concrete.get(`${cur.pkey}\u0001${cur.version}`)!;
    let imps: readonly Dependency[] | null = rootDeps;
    if (!first) {
      const desc = await read(cur.name, cur.version);
      for (const e of desc.errors) addError(w.g, curId, cur.name, cur.version, e);
      imps = desc.deps;
    }
    if (!imps) continue;
    const at: Placing = { cur, curId, first };
    for (const imp of imps) {
      if (has(imp.attrs, 'mavendependencyorigin')) continue;
      if (!first && (has(imp.attrs, 'test') || has(imp.attrs, 'opt') || imp.attrs.scope === 'provided')) continue;
      let dep: Dependency = imp;
      const aliases: string[] = []; // package keys relocated away from on the way to this dependency
      let managed = true;
      for (let hop = 0; dep; hop++) {
        const next = await place(w, at, dep, { hop, managed }, aliases);
        if (next === 'incompatible') return 'incompatible';
        // a relocation to another version of the same artifact is not version-managed again
        // (maven-resolver's DefaultDependencyCollector: disableVersionManagement)
        managed = next?.name !== dep.name;
        dep = next!;
      }
    }
  }
  return { g: w.g, hasMulti: w.hasMulti };
}

/** Places one dependency of `at.cur`; answers the dependency to process instead when the chosen version relocates. */
async function place(
  w: Walk,
  at: Placing,
  imp: Dependency,
  { hop, managed: manageVersion }: { hop: number; managed: boolean },
  aliases: string[],
): Promise<Dependency | null | 'incompatible'> {
  const { g } = w;
  const { cur, curId, first } = at;
  if (isExcluded(cur.exclusions, imp.name)) return null;
  const pkey = packageKey(imp);
  const managed = w.mgt.get(pkey);
  const d: Dependency = !first && manageVersion && managed !== undefined ? { ...imp, requirement: managed } : imp;
  const relocated = w.relocatedTo.get(pkey);
  if (relocated !== undefined) {
    // the package was relocated nearer the root: its conflict group is the target's (Maven's ConflictMarker)
    if (rejectsRelocated(w, pkey, d, g.nodes[relocated]!.version)) return 'incompatible';
    addEdge(g, curId, relocated, imp.requirement, { ...imp.attrs });
    return null;
  }
  const mark = (id: number) => {
    for (const a of aliases) if (!w.resolvedPackages.has(a) && !w.relocatedTo.has(a)) w.relocatedTo.set(a, id);
  };
  const chosen = await chooseVersion(w, at, pkey, d);
  if (chosen === null) return null;
  const { match, reqs, added } = chosen;
  const ckey = `${pkey}\u0001${match.version}`;
  const existing = w.concrete.get(ckey);
  if (existing !== undefined) {
    addEdge(g, curId, existing, d.requirement, { ...d.attrs });
    mark(existing);
    return null;
  }
  if (w.resolvedPackages.has(pkey)) {
    reqs.push(d);
    return 'incompatible';
  }
  const relocation = (await w.read(match.name, match.version)).relocation;
  if (relocation) {
    if (hop >= MAX_RELOCATIONS) {
      addError(g, curId, d.name, d.requirement, `more than ${MAX_RELOCATIONS} relocations from ${d.name}`);
      return null;
    }
    if (added) reqs.splice(reqs.indexOf(d), 1); // the relocated dependency stands in its place (a new version of the same package included)
    if (relocation.name !== d.name) aliases.push(pkey);
    return { name: relocation.name, requirement: relocation.version, attrs: d.attrs };
  }
  if (!reachable(w, at, match)) {
    if (d.attrs.scope === 'provided') return null;
    addError(
      g,
      curId,
      d.name,
      d.requirement,
      `could not find a version that satisfies requirement ${d.requirement} for package ${d.name}`,
    );
    return null;
  }
  const nkey = `${match.name}\u0000${match.version}`;
  const known = w.nodes.get(nkey);
  if (known !== undefined) {
    addEdge(g, curId, known, d.requirement, { ...d.attrs });
    mark(known);
    return null;
  }
  const id = addNode(g, match.name, match.version);
  mark(id);
  w.nodes.set(nkey, id);
  addEdge(g, curId, id, d.requirement, { ...d.attrs, selector: '' });
  w.concrete.set(ckey, id);
  w.resolvedPackages.add(pkey);
  w.todo.push(nextTodo(w, at, pkey, d, match));
  return null;
}

/**
 * Whether a hard range met for a package that was relocated nearer the root rejects the target's
 * version: the relocation target and the package are one conflict group in Maven (ConflictMarker keys a
 * node by its relocations too), and NearestVersionSelector skips a candidate outside the group's ranges,
 * so the range's own version of the package wins instead. The range is recorded for the package and
 * the walk restarts with it known (once per range, so a target the range never admits cannot loop).
 */
function rejectsRelocated(w: Walk, pkey: string, d: Dependency, targetVersion: string): boolean {
  if (isSoftRequirement(d.requirement)) return false;
  const p = parseRequirement('MAVEN', d.requirement);
  if (!p.ok || p.requirement.matches(targetVersion)) return false;
  return noteRequirement(w, pkey, d).added;
}

/** The requirements seen for the package, `d`'s recorded among them once (`added` when it was new). */
function noteRequirement(w: Walk, pkey: string, d: Dependency): { reqs: Dependency[]; added: boolean } {
  const reqs = w.requirements.get(pkey) ?? [];
  const added = !reqs.some((r) => r.name === d.name && r.requirement === d.requirement);
  if (added) reqs.push(d);
  w.requirements.set(pkey, reqs);
  return { reqs, added };
}

/**
 * The version every requirement seen for the package admits, `d`'s requirement recorded among them
 * (`added` when it was new); null (after the node error) when none does.
 */
async function chooseVersion(
  w: Walk,
  at: Placing,
  pkey: string,
  d: Dependency,
): Promise<{ match: VersionInfo; reqs: Dependency[]; added: boolean } | null> {
  const { reqs, added } = noteRequirement(w, pkey, d);
  const match = await findMatch(w.client, d.name, reqs);
  if (match === 'nomatch') {
    const list = reqs.map((r) => r.requirement).sort();
    addError(
      w.g,
      at.curId,
      d.name,
      d.requirement,
      `could not find a version that satisfies requirements [${list.join(' ')}] for package ${d.name}`,
    );
    return null;
  }
  if (typeof match === 'string') {
    addError(w.g, at.curId, d.name, d.requirement, match);
    return null;
  }
  return { match, reqs, added };
}

/**
 * Whether the artifact may be placed in this pass: the first pass places everything (noting in
 * `hasMulti` an artifact from a registry the root does not reach); the multi-registry pass only those
 * from the root's registries or those declared on the way.
 */
function reachable(w: Walk, at: Placing, match: VersionInfo): boolean {
  let reached = false;
  if (!w.hasMulti || w.multi) {
    const regs = parseRegistries(match);
    let keep = regs.fetch.length === 0;
    for (const reg of regs.fetch) {
      if (
        reg === '' ||
        (w.rootRegs.def === '' ? CENTRAL.test(reg) : reg === w.rootRegs.def) ||
        at.cur.repositories.includes(reg)
      ) {
        keep = true;
        break;
      }
    }
    if (w.multi && keep) reached = true;
    if (!keep) w.hasMulti = true;
  }
  return !w.multi || reached;
}

/** The placed artifact's entry to walk: its exclusions (its own, managed, and inherited) and repositories. */
function nextTodo(w: Walk, at: Placing, pkey: string, d: Dependency, match: VersionInfo): Todo {
  const { cur, first } = at;
  const t = d.attrs.mavenartifacttype;
  let exclusions = cur.exclusions;
  const own = parseExclusions(
    [d.attrs.mavenexclusions, first ? undefined : w.mgtExclusions.get(pkey)].filter(Boolean).join('|'),
  );
  if (own) {
    for (const e of cur.exclusions ?? []) own.add(e);
    exclusions = own;
  }
  const declared = parseRegistries(match).dep;
  return {
    name: match.name,
    version: match.version,
    pkey,
    exclusions,
    includesDependencies: t === 'ear' || t === 'war' || t === 'rar',
    repositories: declared.length > 0 ? [...cur.repositories, ...declared] : cur.repositories,
  };
}
