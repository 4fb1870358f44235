/**
 * What pip's provider answers the PyPI resolver (resolvelib's Provider: find_matches,
 * get_dependencies), over a Client:
 *  - the versions pip's finder lists for a project: those whose Requires-Python (`requirespython`)
 *    admits the environment's python_full_version (an unreadable one admits all, as pip ignores
 *    it), in ascending order, with the yanked (`blocked`, `deleted`) ones noted;
 *  - `findMatches`: the candidates of an identifier, either the explicit versions (pins of its
 *    extras identifiers, or of the project) that every requirement contains, or the finder's
 *    versions that meet every specifier, with pip's prerelease and yanked rules applied;
 *  - `dependencies`: a version's requirements whose PEP 508 markers hold for the identifier's
 *    extras, plus, for an extras identifier, the explicit requirement on the project itself; with
 *    `split` (pip >= 23.3), `a[x]>=1` is preceded by `a>=1`.
 */
import { compare, isPrerelease, parseRequirement } from '../versions/index.ts';
import { parseSpecifierSet } from '../versions/pypi.ts';
import { evaluateMarker, type PythonEnv } from './pypi-markers.ts';
import { Conflict, EXPLICIT, explicitRequirement, isExplicit, projectOf, splitExtras } from './pypi-identify.ts';
import type { Client, Dependency } from './types.ts';
import { has } from './types.ts';

/** packaging's Specifier.prereleases: a clause names a prerelease with ==, >=, <=, ~= or === (never <, >, !=). */
function namesPrerelease(req: string): boolean {
  const set = parseSpecifierSet(req);
  if (typeof set === 'string') return false;
  const admitting = ['==', '>=', '<=', '~=', '==='];
  return set.specs.some((c) => admitting.includes(c.op) && isPrerelease('PYPI', c.text.replace(/\.\*$/, '')));
}

/** A clause pins one version (`===`, or `==` without a wildcard). */
function pins(req: string): boolean {
  const set = parseSpecifierSet(req);
  return typeof set !== 'string' && set.specs.some((c) => c.op === '===' || (c.op === '==' && !c.wildcard));
}

/**
 * packaging's SpecifierSet.filter (pip 23.2, 24.2): prereleases only when a clause names one, or
 * when every requirement is bare and the project has no final release at all.
 */
function dropPrereleases(matches: string[], reqs: Dependency[]): string[] {
  if (reqs.some((r) => namesPrerelease(r.requirement))) return matches;
  const finals = matches.filter((v) => !isPrerelease('PYPI', v));
  const allBare = reqs.every((r) => r.requirement.trim() === '');
  return finals.length > 0 || !allBare ? finals : matches;
}

/** PEP 592 as pip's factory applies it: yanked versions only when all matches are yanked and a clause pins. */
function dropYanked(matches: string[], reqs: Dependency[], yanked: Set<string>): string[] {
  const onlyYanked = matches.every((v) => yanked.has(v));
  if (onlyYanked && reqs.some((r) => pins(r.requirement))) return matches;
  return matches.filter((v) => !yanked.has(v));
}

export class PypiProvider {
  readonly python: string;
  private readonly client: Client;
  private readonly rootName: string;
  private readonly rootVersion: string;
  private readonly env: PythonEnv;
  private readonly sorted = new Map<string, string[]>();
  private readonly yanked = new Map<string, Set<string>>();
  private readonly matchCache = new Map<string, Set<string>>();

  /** pip >= 23.3 splits a requirement with extras and a specifier in two (splitExtras) */
  private readonly split: boolean;

  constructor(client: Client, root: { name: string; version: string }, env: PythonEnv, split = false) {
    this.client = client;
    this.split = split;
    this.rootName = root.name;
    this.rootVersion = root.version;
    this.env = env;
    this.python = env.python_full_version ?? '';
  }

  /** Whether a Requires-Python admits the environment's Python (pip ignores an unreadable one). */
  pythonFits(spec: string | undefined): boolean {
    if (spec === undefined || spec.trim() === '') return true;
    const p = parseRequirement('PYPI', spec, { includePrerelease: true });
    return !p.ok || p.requirement.matches(this.python);
  }

  /** The versions pip's finder lists, ascending (the root's are never filtered by Requires-Python). */
  async versionsOf(name: string): Promise<string[]> {
    const cached = this.sorted.get(name);
    if (cached) return cached;
    const listed = await this.client.versions(name);
    const vs = listed.filter((v) => name === this.rootName || this.pythonFits(v.attrs.requirespython));
    const yanked = vs.filter((v) => has(v.attrs, 'blocked') || has(v.attrs, 'deleted')).map((v) => v.version);
    this.yanked.set(name, new Set(yanked));
    const sorted = vs.map((v) => v.version).sort((a, b) => compare('PYPI', a, b));
    this.sorted.set(name, sorted);
    return sorted;
  }

  /** The finder's versions of d's project that d's specifier contains (prereleases included). */
  private async matching(d: Dependency): Promise<Set<string>> {
    const ck = `${d.name}\u0000${d.requirement}`;
    let hit = this.matchCache.get(ck);
    if (!hit) {
      const p = parseRequirement('PYPI', d.requirement, { includePrerelease: true });
      hit = new Set(p.ok ? (await this.versionsOf(d.name)).filter((v) => p.requirement.matches(v)) : []);
      this.matchCache.set(ck, hit);
    }
    return hit;
  }

  /** pip's is_satisfied_by for a specifier requirement: the specifier contains the version, prereleases included. */
  async contains(d: Dependency, version: string): Promise<boolean> {
    return (await this.matching(d)).has(version);
  }

  /**
   * pip's candidates for an identifier, ascending. `projectReqs` are the project's own requirements
   * when `id` is an extras identifier (pip >= 23.3 looks them up too). Throws Conflict when none.
   */
  async findMatches(
    id: string,
    projectReqs: Dependency[],
    reqs: Dependency[],
    incompat: Set<string>,
  ): Promise<string[]> {
    const lookup = [...reqs, ...projectReqs];
    const explicit = lookup.filter(isExplicit).map((r) => r.attrs[EXPLICIT]!);
    if (explicit.length > 0) return this.explicitMatches(id, new Set(explicit), reqs, incompat);
    const name = projectOf(id);
    const all = await this.versionsOf(name);
    const sets = await Promise.all(lookup.map((r) => this.matching(r)));
    let matches = all.filter((v) => sets.every((s) => s.has(v)));
    matches = dropPrereleases(matches, lookup);
    matches = dropYanked(matches, lookup, this.yanked.get(name)!);
    if (name === this.rootName) matches = matches.includes(this.rootVersion) ? [this.rootVersion] : [];
    matches = matches.filter((v) => !incompat.has(v));
    if (matches.length === 0) throw new Conflict(id, reqs, reqs.length === 1);
    return matches;
  }

  /** With explicit requirements, only their versions that every requirement contains (prereleases and yanked too). */
  private async explicitMatches(id: string, explicit: Set<string>, reqs: Dependency[], incompat: Set<string>) {
    const out: string[] = [];
    for (const v of explicit) {
      if (incompat.has(v)) continue;
      let ok = true;
      for (const r of reqs) ok &&= isExplicit(r) ? r.attrs[EXPLICIT] === v : (await this.matching(r)).has(v);
      if (ok) out.push(v);
    }
    if (out.length === 0) throw new Conflict(id, reqs, false);
    return out;
  }

  /** A version's requirements under the identifier's extras (markers evaluated), explicit one first. */
  async dependencies(name: string, version: string, extras: Set<string>): Promise<Dependency[]> {
    const deps = (await this.client.requirements(name, version)) ?? [];
    const applies = (marker: string | undefined) => marker === undefined || evaluateMarker(marker, extras, this.env);
    const own = deps.filter((d) => applies(d.attrs.environment)).flatMap((d) => (this.split ? splitExtras(d) : [d]));
    return extras.size === 0 ? own : [explicitRequirement(name, version), ...own];
  }
}
