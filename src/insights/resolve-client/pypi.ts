/**
 * PyPI rows in the resolver vocabulary: meta.yanked -> blocked, meta.requiresPython -> requirespython;
 * requirements.pypi.dependencies -> requirement = versionSpecifier, environment = environmentMarker,
 * enableddependencies = extras. A version listed without its metadata (`meta.pending`) has it read on
 * demand when the resolver considers it; the lookahead never guesses behind a marker.
 */
import type { Attrs, Dependency } from '../../resolve/types.ts';
import { normalizePypiName } from '../../versions/names/index.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type ClientCore, type Json, type SystemReads, versionKey, yankedAttrs } from './system.ts';

function pypiDependencies(req: Json): Dependency[] {
  return (req.pypi?.dependencies ?? []).map((x: Json) => {
    const attrs: Attrs = {};
    if (x.environmentMarker) attrs.environment = x.environmentMarker;
    if (x.extras) attrs.enableddependencies = String(x.extras).replace(/\s+/g, '');
    return { name: normalizePypiName(String(x.projectName)), requirement: x.versionSpecifier ?? '', attrs };
  });
}

export class PypiReads implements SystemReads {
  private readonly client: ClientCore;

  constructor(client: ClientCore) {
    this.client = client;
  }

  attrs(row: VersionRow): Attrs {
    const meta: Json = row.meta ?? {};
    const a = yankedAttrs(meta);
    if (typeof meta.requiresPython === 'string' && meta.requiresPython.trim())
      a.requirespython = meta.requiresPython.trim();
    return a;
  }

  dependencies(_name: string, _version: string, req: Json): Dependency[] {
    return pypiDependencies(req);
  }

  /** A version listed without its metadata has it read on demand (the resolver considers it). */
  async requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    await this.client.versions(name); // learns which versions are pending
    if (!this.client.pending.has(versionKey(name, version))) return this.client.row(name, version);
    if (!this.client.fetchVersion) return null;
    const v = await this.client.fetchVersion(name, this.client.spelling(name, version));
    return v?.requirements ? pypiDependencies(v.requirements) : null;
  }

  /** a marker may exclude it: fetch only what pip would */
  skipAhead(d: Dependency): boolean {
    return Boolean(d.attrs.environment);
  }
}
