/**
 * Maven rows in the resolver vocabulary: `pom()` answers each POM as declared (requirements.maven plus meta
 * packaging/relocation, the version in its published spelling) and the resolver builds effective models from
 * them (src/resolve/maven-model.ts); a version listed `pending` (read through for a resolution) has its POM
 * read on demand, and so has a parent or BOM the repository's metadata does not list; `requirements()` keeps
 * the declared rows (dependencies, then dependencyManagement with origin `management`); meta.yanked -> blocked.
 * The lookahead reads POMs: the parent chain, and the POM of each exact dependency (and imported BOM) listed.
 */
import { mavenDependency } from '../../resolve/maven.ts';
import type { PomDependency, RawPom } from '../../resolve/maven-model.ts';
import type { Attrs, Dependency } from '../../resolve/types.ts';
import { canon } from '../../versions/index.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type ClientCore, type Json, list, type SystemReads, versionKey, yankedAttrs } from './system.ts';

/** A stored POM dependency (ingest/maven.ts) in the model builder's shape. */
function pomDependency(x: Json): PomDependency {
  return {
    name: String(x?.name ?? ''),
    version: String(x?.version ?? ''),
    classifier: String(x?.classifier ?? ''),
    type: String(x?.type || 'jar'),
    scope: String(x?.scope ?? ''),
    optional: String(x?.optional ?? ''),
    exclusions: Array.isArray(x?.exclusions) ? x.exclusions.map(String) : [],
  };
}

/** requirements.maven as declared: dependencies, then dependencyManagement with origin `management`. */
function mavenDependencies(req: Json): Dependency[] {
  const m = req.maven ?? {};
  const one = (x: Json, origin?: string) =>
    mavenDependency(
      {
        ...pomDependency(x),
        name: x.resolvedName || String(x.name ?? ''),
        version: x.resolvedVersion || String(x.version ?? ''),
      },
      origin,
    );
  return [
    ...(m.dependencies ?? []).map((x: Json) => one(x)),
    ...(m.dependencyManagement ?? []).map((x: Json) => one(x, 'management')),
  ];
}

/** A stored Maven version (requirements.maven + meta) as the POM the model builder reads. */
function rawPom(name: string, version: string, req: Json, meta: Json): RawPom {
  const m = req.maven ?? {};
  const props = (l: unknown) => list(l).map((p) => ({ name: String(p?.name ?? ''), value: String(p?.value ?? '') }));
  const deps = (l: unknown) => list(l).map(pomDependency);
  const parent =
    m.parent && typeof m.parent.name === 'string'
      ? { name: m.parent.name, version: String(m.parent.version ?? '') }
      : undefined;
  const r = meta.relocation;
  return {
    name,
    version,
    packaging: typeof meta.packaging === 'string' ? meta.packaging : 'jar',
    ...(parent ? { parent } : {}),
    dependencies: deps(m.dependencies),
    dependencyManagement: deps(m.dependencyManagement),
    properties: props(m.properties),
    profiles: list(m.profiles).map((p) => ({
      id: String(p?.id ?? ''),
      ...(p?.activation ? { activation: p.activation } : {}),
      dependencies: deps(p?.dependencies),
      dependencyManagement: deps(p?.dependencyManagement),
      properties: props(p?.properties),
    })),
    ...(r && typeof r === 'object'
      ? {
          relocation: {
            groupId: String(r.groupId ?? ''),
            artifactId: String(r.artifactId ?? ''),
            version: String(r.version ?? ''),
          },
        }
      : {}),
  };
}

export class MavenReads implements SystemReads {
  private readonly client: ClientCore;
  /** version meta (packaging, relocation) and requirements documents by versionKey, and the POMs read (memoised) */
  private readonly metas = new Map<string, Json>();
  private readonly raw = new Map<string, Json>();
  private readonly poms = new Map<string, Promise<RawPom | null>>();

  constructor(client: ClientCore) {
    this.client = client;
  }

  attrs(row: VersionRow): Attrs {
    return yankedAttrs(row.meta ?? {});
  }

  noteVersion(row: VersionRow): void {
    this.metas.set(versionKey(row.name, row.version), row.meta ?? {});
  }

  dependencies(name: string, version: string, req: Json): Dependency[] {
    this.raw.set(versionKey(name, version), req);
    return mavenDependencies(req);
  }

  /**
   * The POM of `name` at `version` (canonical or as a POM writes it) as declared, null when the
   * repository has none. Stored versions are read from their requirements row; pending ones, and
   * versions the package's metadata does not list (parents, BOMs), are read on demand.
   */
  pom(name: string, version: string): Promise<RawPom | null> {
    const c = canon('MAVEN', version) ?? version;
    const k = versionKey(name, c);
    let p = this.poms.get(k);
    if (!p) {
      p = this.readPom(name, version, c);
      this.poms.set(k, p);
      if (this.client.lookingAhead) {
        // the parent chain is read one POM after another: ask for the next one as soon as this one is here
        void p
          .then((pom) =>
            this.client.lookingAhead && pom?.parent && !pom.parent.version.includes('${')
              ? this.pom(pom.parent.name, pom.parent.version)
              : null,
          )
          .catch(() => {});
      }
    }
    return p;
  }

  private async readPom(name: string, asked: string, c: string): Promise<RawPom | null> {
    const client = this.client;
    const k = versionKey(name, c);
    // the stored row is asked for in the same round trip as the version list (a parent or BOM is usually stored with it)
    const row = client.row(name, c);
    row.catch(() => {});
    const listed = (await client.versions(name)).some((v) => v.version === c);
    let req: Json | undefined;
    let meta: Json | undefined;
    let spelled = listed ? client.spelling(name, c) : asked;
    if (listed && !client.pending.has(k)) {
      const deps = await row; // the row's dependencies, already mapped (dependencies() kept its raw form)
      req = this.raw.get(k);
      meta = this.metas.get(k);
      if (deps && client.lookingAhead) client.lookAhead(deps);
    } else if (client.fetchVersion) {
      const v = await client.fetchVersion(name, spelled);
      if (v?.requirements) {
        req = v.requirements;
        meta = v.meta;
        spelled = v.version;
        client.touched.add(name);
        if (client.lookingAhead) client.lookAhead(mavenDependencies(req));
      }
    }
    if (!req) return null;
    return rawPom(name, spelled, req, meta ?? {});
  }

  /** The lookahead reads the POM of an exact version listed (a BOM may manage hundreds: only imported ones). */
  aheadOf(d: Dependency): boolean {
    if (d.name.includes('${') || d.requirement.includes('${')) return true;
    if (d.attrs.mavendependencyorigin === 'management' && d.attrs.scope !== 'import') return true;
    void this.client
      .versions(d.name)
      .then((vs) => {
        const exact = canon('MAVEN', d.requirement);
        return this.client.lookingAhead && exact && vs.some((v) => v.version === exact)
          ? this.pom(d.name, d.requirement)
          : null;
      })
      .catch(() => {});
    return true;
  }
}
