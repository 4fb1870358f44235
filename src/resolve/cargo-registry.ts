/**
 * What the Cargo resolver asks of the index (cargo's RegistryQueryer), over a Client: the usable
 * versions of a crate (yanked `blocked` and `deleted` skipped, highest first), a version's
 * dependency declarations (loaded once per package), and the candidates of a declaration
 * (versions its requirement matches: matchesCargo admits prereleases only when a comparator names
 * one). The root package is one object wherever it appears, so activations compare by identity.
 */
import { compareCargo, matchesCargo, parseCargoReq, parseCargoVersion, type CargoVersion } from '../versions/cargo.ts';
import type { CargoDecl } from './cargo-features.ts';
import type { Attrs, Client, Dependency } from './types.ts';
import { has } from './types.ts';

export interface Pkg {
  name: string;
  version: string;
  v: CargoVersion;
  links: string;
  features: Record<string, string[]>;
  decls: CargoDecl[] | null; // loaded lazily
}

export const pkgId = (p: Pkg): string => `${p.name}\u0000${p.version}`;

/** The semver-compatibility slot (`1.x.y`, `0.3.y`, `0.0.3`): at most one activated version per slot. */
export function slotOf(p: Pkg): string {
  const v = p.v;
  const compat = v.major !== 0 ? `${v.major}` : v.minor !== 0 ? `0.${v.minor}` : `0.0.${v.patch}`;
  return `${p.name}\u0000${compat}`;
}

export function cargoDecl(d: Dependency, index: number): CargoDecl {
  const a = d.attrs;
  const kind = a.scope === 'build' ? 'build' : a.scope === 'dev' || has(a, 'dev') ? 'dev' : 'normal';
  return {
    index,
    name: d.name,
    local: a.knownas || d.name,
    requirement: d.requirement,
    kind,
    optional: has(a, 'opt'),
    features: a.features
      ? a.features
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [],
    defaultFeatures: !has(a, 'nodefault'),
    target: a.environment ?? '',
  };
}

function parseFeatures(json: string | undefined): Record<string, string[]> {
  if (!json) return {};
  try {
    const o = JSON.parse(json);
    return o && typeof o === 'object' && !Array.isArray(o) ? o : {};
  } catch {
    return {};
  }
}

function toPkg(name: string, version: string, v: CargoVersion, attrs: Attrs): Pkg {
  return { name, version, v, links: attrs.links ?? '', features: parseFeatures(attrs.features), decls: null };
}

export class CargoRegistry {
  readonly client: Client;
  private readonly pkgs = new Map<string, Promise<Pkg[]>>();
  private root: Pkg | null = null;

  constructor(client: Client) {
    this.client = client;
  }

  /** The root package, or null when the index has no such (parseable) version. */
  async rootPackage(name: string, version: string): Promise<Pkg | null> {
    const info = (await this.client.versions(name)).find((x) => x.version === version);
    const v = parseCargoVersion(version);
    if (!info || !v) return null;
    this.root = toPkg(name, version, v, info.attrs);
    this.pkgs.set(name, this.versionsOf(name));
    return this.root;
  }

  /** Usable versions, highest first. */
  versionsOf(name: string): Promise<Pkg[]> {
    let p = this.pkgs.get(name);
    if (!p) {
      p = this.client.versions(name).then((vs) => {
        const out: Pkg[] = [];
        for (const x of vs) {
          const v = parseCargoVersion(x.version);
          if (!v || has(x.attrs, 'blocked') || has(x.attrs, 'deleted')) continue;
          const isRoot = this.root && x.name === this.root.name && x.version === this.root.version;
          out.push(isRoot ? this.root! : toPkg(name, x.version, v, x.attrs));
        }
        return out.sort((a, b) => compareCargo(b.v, a.v));
      });
      this.pkgs.set(name, p);
    }
    return p;
  }

  async declsOf(p: Pkg): Promise<CargoDecl[]> {
    if (!p.decls) p.decls = ((await this.client.requirements(p.name, p.version)) ?? []).map(cargoDecl);
    return p.decls;
  }

  async candidatesOf(d: CargoDecl): Promise<Pkg[]> {
    const req = parseCargoReq(d.requirement);
    if (typeof req === 'string') return [];
    return (await this.versionsOf(d.name)).filter((p) => matchesCargo(req, p.v));
  }
}
