/**
 * Go rows in the resolver vocabulary: requirements.go direct and indirect requires -> dependencies
 * (requirement the version written, attr indirect), each with attr modulego = the go directive of its go.mod
 * (graph pruning); meta.yanked -> blocked. Versions listed `pending` (read through), or not listed
 * (pseudo-versions), have their go.mod read on demand (and kept: a pseudo-version's in
 * `unlisted_requirements`); every stored go.mod of a graph is read in one query. No lookahead: the resolver
 * reads each level's go.mod files at once.
 */
import type { Attrs, Dependency } from '../../resolve/types.ts';
import type { GoModMemory } from '../go-mod-memory.ts';
import { goModClosure, type GoModRow, type VersionRow } from '../queries-dependencies.ts';
import { type ClientCore, type Json, list, type SystemReads, versionKey, yankedAttrs } from './system.ts';

/** requirements.go as dependencies. */
export function goDependencies(req: Json): Dependency[] {
  const g = req.go ?? {};
  // a row stored before the go directive was kept: a placeholder without `modulego`, so the client reads it again
  if (typeof g.goVersion !== 'string') return [{ name: '', requirement: '', attrs: {} }];
  const one = (x: Json, indirect: boolean): Dependency => ({
    name: String(x.name),
    requirement: String(x.requirement),
    attrs: { modulego: g.goVersion, ...(indirect ? { indirect: '' } : {}) },
  });
  return [
    ...list(g.directDependencies).map((x) => one(x, false)),
    ...list(g.indirectDependencies).map((x) => one(x, true)),
  ];
}

/** Dependencies read from a go.mod stored with its go directive (not the placeholder of an older row). */
const complete = (deps: readonly Dependency[]): boolean => deps.length === 0 || deps[0]!.attrs.modulego !== undefined;

export class GoReads implements SystemReads {
  readonly looksAhead = false;
  private readonly client: ClientCore;
  private readonly memory?: GoModMemory;
  /** the stored go.mod files of the resolution, read in one round trip when the root's is first asked for */
  private goMods?: Promise<Map<string, GoModRow>>;

  constructor(client: ClientCore, memory: GoModMemory | undefined) {
    this.client = client;
    this.memory = memory;
  }

  attrs(row: VersionRow): Attrs {
    return yankedAttrs(row.meta ?? {});
  }

  dependencies(_name: string, _version: string, req: Json): Dependency[] {
    return goDependencies(req);
  }

  /**
   * A go.mod stored with the module is read from its row (all of the resolution's stored go.mod files at
   * once, goModClosure; a pseudo-version's from `unlisted_requirements`); one listed `pending`, one not stored
   * yet, and one stored before the go directive was kept are read from the proxy.
   */
  async requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    const client = this.client;
    // the first go.mod asked for is the root's: one query reads every stored go.mod the resolution reads
    this.goMods ??= goModClosure(client.db, name, version).then(
      (rows) => new Map(rows.map((r) => [versionKey(r.name, r.version), r])),
    );
    const k = versionKey(name, version);
    const stored = (await this.goMods).get(k);
    if (stored?.ready) {
      const deps = goDependencies(stored.requirements ?? {});
      if (complete(deps)) {
        client.touched.add(name);
        const spelled = stored.upstream_version;
        if (spelled && spelled !== version) client.spell(name, version, spelled);
        return this.remember(name, version, deps, stored.listed);
      }
    }
    const row = client.row(name, version); // in the same round trip as the version list
    row.catch(() => {});
    const listed = (await client.versions(name)).some((v) => v.version === version);
    if (listed && !client.pending.has(k)) {
      const deps = await row;
      if (deps && complete(deps)) return this.remember(name, version, deps, true);
    }
    if (!client.fetchVersion) return null;
    const v = await client.fetchVersion(name, version);
    if (!v?.requirements) return null;
    client.touched.add(name);
    return this.remember(name, version, goDependencies(v.requirements), listed);
  }

  /** A complete go.mod joins the isolate's memory (go-mod-memory.ts) as it is answered. */
  private remember(name: string, version: string, deps: readonly Dependency[], listed: boolean): readonly Dependency[] {
    const spelling = this.client.spelling(name, version); // the version itself when the registry spells it so
    this.memory?.put(name, version, { deps, listed, ...(spelling !== version ? { spelling } : {}) });
    return deps;
  }
}
