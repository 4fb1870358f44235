/**
 * A POM's effective model as Maven 3 builds it for a dependency (maven-model-builder), from POMs as
 * declared (the stored `requirements.maven` of each version plus its packaging and relocation):
 *  1. profiles of each POM of the lineage activated on the raw model (maven-profiles.ts) and injected,
 *     the profile's entries dominant;
 *  2. the parent chain read through the repository (`relativePath` is never used for remote
 *     artifacts) and inherited child-first: properties (the child's win), dependencies and
 *     dependencyManagement merged by management key `groupId:artifactId:type:classifier` on the values
 *     as written, the child's entries first and an ancestor's added after them when the key is new;
 *  3. interpolation of every dependency field (maven-interpolate.ts): `project.*`/`pom.*` (groupId,
 *     artifactId, version, packaging, parent.*), then the inherited properties, then the bare model
 *     fields; an expression nothing defines stays as written and is reported;
 *  4. `import`-scoped `pom` entries of dependencyManagement replaced by the management of the BOM's
 *     own effective model (recursively), an imported entry added only when its key is new (the POM's
 *     own entries and earlier imports win);
 *  5. management injected into the POM's own dependencies: a missing version, scope, type-specific
 *     exclusions (only when the dependency declares none); `optional` is never managed;
 *  6. the relocation of the POM itself (`distributionManagement/relocation`, not inherited), its
 *     missing parts taken from the artifact.
 * Errors (a parent that cannot be read, a cycle, a version left empty or unresolved) are returned with
 * the model; the resolver reports them where Maven would fail.
 */
import { interpolate, type Lookup } from './maven-interpolate.ts';
import { activeProfiles, type ActivationTarget, type PomActivation } from './maven-profiles.ts';

export interface PomDependency {
  name: string;
  version: string;
  classifier: string;
  type: string;
  scope: string;
  optional: string;
  exclusions: string[];
}

export interface PomProfile {
  id: string;
  activation?: PomActivation;
  dependencies: PomDependency[];
  dependencyManagement: PomDependency[];
  properties: { name: string; value: string }[];
}

/** A POM as declared, with the version in its published spelling. */
export interface RawPom {
  name: string;
  version: string;
  packaging: string;
  parent?: { name: string; version: string };
  dependencies: PomDependency[];
  dependencyManagement: PomDependency[];
  properties: { name: string; value: string }[];
  profiles: PomProfile[];
  relocation?: { groupId: string; artifactId: string; version: string };
}

/** Reads a declared POM by coordinates (the version as written in the referring POM); null when the repository has none. */
export type PomSource = (name: string, version: string) => Promise<RawPom | null>;

export interface EffectivePom {
  name: string;
  version: string;
  dependencies: PomDependency[];
  management: PomDependency[];
  relocation: { name: string; version: string } | null;
  errors: string[];
}

/** The management key Maven merges and manages by. */
export function managementKey(d: Pick<PomDependency, 'name' | 'type' | 'classifier'>): string {
  return `${d.name}:${d.type || 'jar'}:${d.classifier}`;
}

const MAX_LINEAGE = 32;

/** Merges `extra` into `base` by management key: base's entries first; `dominant` entries of extra replace base's in place. */
function mergeByKey(base: PomDependency[], extra: PomDependency[], dominant: boolean): PomDependency[] {
  const out = [...base];
  const at = new Map(out.map((d, i) => [managementKey(d), i]));
  for (const d of extra) {
    const i = at.get(managementKey(d));
    if (i === undefined) {
      at.set(managementKey(d), out.length);
      out.push(d);
    } else if (dominant) out[i] = d;
  }
  return out;
}

/** The raw model with its active profiles injected (profile entries dominant). */
function withProfiles(pom: RawPom, target: ActivationTarget): RawPom {
  const active = activeProfiles(pom.profiles, target);
  if (active.length === 0) return pom;
  let { dependencies, dependencyManagement, properties } = pom;
  for (const p of active) {
    dependencies = mergeByKey(dependencies, p.dependencies, true);
    dependencyManagement = mergeByKey(dependencyManagement, p.dependencyManagement, true);
    properties = [...properties, ...p.properties];
  }
  return { ...pom, dependencies, dependencyManagement, properties };
}

export class MavenModels {
  private readonly source: PomSource;
  private readonly target: ActivationTarget;
  private readonly memo = new Map<string, Promise<EffectivePom | null>>();

  constructor(source: PomSource, target: ActivationTarget = {}) {
    this.source = source;
    this.target = target;
  }

  /** The effective model of `name` at `version` (memoised); null when the repository has no such POM. */
  effective(name: string, version: string): Promise<EffectivePom | null> {
    return this.build(name, version, []);
  }

  private build(name: string, version: string, importing: string[]): Promise<EffectivePom | null> {
    const key = `${name}:${version}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.compute(name, version, [...importing, key]);
      this.memo.set(key, p);
    }
    return p;
  }

  private async compute(name: string, version: string, importing: string[]): Promise<EffectivePom | null> {
    const own = await this.source(name, version);
    if (!own) return null;
    const errors: string[] = [];
    const lineage: RawPom[] = [withProfiles(own, this.target)];
    const seen = new Set([`${own.name}:${own.version}`]);
    for (let cur = own; cur.parent; ) {
      const { name: pn, version: pv } = cur.parent;
      if (seen.has(`${pn}:${pv}`) || lineage.length >= MAX_LINEAGE) {
        errors.push(`the parents of ${name}:${version} form a cycle at ${pn}:${pv}`);
        break;
      }
      seen.add(`${pn}:${pv}`);
      const parent = await this.source(pn, pv);
      if (!parent) {
        errors.push(`non-resolvable parent POM ${pn}:${pv} of ${cur.name}:${cur.version}`);
        break;
      }
      lineage.push(withProfiles(parent, this.target));
      cur = parent;
    }

    // inheritance, child first
    const properties = new Map<string, string>();
    for (const pom of [...lineage].reverse()) for (const p of pom.properties) properties.set(p.name, p.value);
    let dependencies: PomDependency[] = [];
    let management: PomDependency[] = [];
    for (const pom of lineage) {
      dependencies = mergeByKey(dependencies, pom.dependencies, false);
      management = mergeByKey(management, pom.dependencyManagement, false);
    }

    // interpolation over the inherited model
    const [group, artifact] = splitName(own.name);
    const parent = own.parent ? splitName(own.parent.name) : null;
    const fields: Record<string, string> = {
      groupId: group,
      artifactId: artifact,
      version: own.version,
      packaging: own.packaging || 'jar',
    };
    if (parent && own.parent)
      Object.assign(fields, {
        'parent.groupId': parent[0],
        'parent.artifactId': parent[1],
        'parent.version': own.parent.version,
      });
    const lookup: Lookup = (expr) => {
      const m = /^(?:project|pom)\.(.+)$/.exec(expr);
      if (m && fields[m[1]!] !== undefined) return fields[m[1]!];
      if (properties.has(expr)) return properties.get(expr);
      return fields[expr]; // bare model expressions (deprecated in Maven 3, still read)
    };
    const interp = (s: string) => interpolate(s, lookup);
    const resolveDep = (d: PomDependency): PomDependency => ({
      name: interp(d.name),
      version: interp(d.version),
      classifier: interp(d.classifier),
      type: interp(d.type) || 'jar',
      scope: interp(d.scope),
      optional: interp(d.optional),
      exclusions: d.exclusions.map(interp),
    });
    dependencies = dependencies.map(resolveDep);
    management = management.map(resolveDep);

    // imported BOMs
    const imports = management.filter((d) => d.scope === 'import' && d.type === 'pom');
    if (imports.length) {
      management = management.filter((d) => !(d.scope === 'import' && d.type === 'pom'));
      for (const imp of imports) {
        const k = `${imp.name}:${imp.version}`;
        if (!imp.version || imp.version.includes('${')) {
          errors.push(`the imported POM ${imp.name} of ${name}:${version} has no usable version '${imp.version}'`);
          continue;
        }
        if (importing.includes(k)) {
          errors.push(`the imports of ${name}:${version} form a cycle at ${k}`);
          continue;
        }
        const bom = await this.build(imp.name, imp.version, importing);
        if (!bom) {
          errors.push(`non-resolvable import POM ${k} of ${name}:${version}`);
          continue;
        }
        errors.push(...bom.errors);
        management = mergeByKey(management, bom.management, false);
      }
    }

    // management injected into the POM's own dependencies
    const managed = new Map(management.map((d) => [managementKey(d), d]));
    dependencies = dependencies.map((d) => {
      const m = managed.get(managementKey(d));
      if (!m) return d;
      return {
        ...d,
        version: d.version || m.version,
        scope: d.scope || m.scope,
        exclusions: d.exclusions.length ? d.exclusions : m.exclusions,
      };
    });
    for (const d of dependencies) {
      if (!d.version)
        errors.push(`'dependencies.dependency.version' for ${d.name}:${d.type} is missing in ${name}:${version}`);
      for (const expr of unresolvedIn(d))
        errors.push(`\${${expr}} in a dependency of ${name}:${version} is not defined by it or its parents`);
    }

    let relocation: EffectivePom['relocation'] = null;
    if (own.relocation) {
      const g = interp(own.relocation.groupId) || group;
      const a = interp(own.relocation.artifactId) || artifact;
      const v = interp(own.relocation.version) || own.version;
      if (`${g}:${a}` !== own.name || v !== own.version) relocation = { name: `${g}:${a}`, version: v };
    }
    return { name: own.name, version: own.version, dependencies, management, relocation, errors };
  }
}

function unresolvedIn(d: PomDependency): string[] {
  return [...`${d.name} ${d.version}`.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]!);
}

function splitName(name: string): [string, string] {
  const i = name.indexOf(':');
  return i < 0 ? [name, ''] : [name.slice(0, i), name.slice(i + 1)];
}
