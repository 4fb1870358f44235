/**
 * Cargo feature closure for one package version (what cargo's resolver/dep_cache.rs computes when
 * a summary is activated with a set of requested features). Requested items and the values of the
 * `[features]` table are FeatureValues:
 *  - `name`          a feature of the table, or the implicit feature of an optional dependency
 *                    (every optional dependency not named by some `dep:` value gets one);
 *                    `default` is allowed to be absent;
 *  - `dep:name`      enables the optional dependency `name` (local/toml name);
 *  - `name/feat`     enables feature `feat` of dependency `name`, and `name` itself when optional;
 *  - `name?/feat`    enables `feat` of `name` only if `name` is enabled by something else; with
 *                    `weakEnables` it acts as `name/feat`, which is what cargo's dependency resolver
 *                    does (Cargo.lock lists weakly named optional dependencies; only the build's
 *                    feature resolver honours `?`).
 * A requested feature the package does not have makes the candidate unusable (`missing`), as
 * Cargo rejects it. The result lists which optional dependencies are on and the features to pass
 * to each dependency (by local name; a local name can have several declarations, e.g. normal and
 * build, or per target, and all of them get the features).
 */

export interface CargoDecl {
  readonly index: number;
  readonly name: string; // real crate name
  readonly local: string; // name in the dependent's Cargo.toml (differs when `package =` renames)
  readonly requirement: string;
  readonly kind: 'normal' | 'build' | 'dev';
  readonly optional: boolean;
  readonly features: readonly string[];
  readonly defaultFeatures: boolean;
  readonly target: string;
}

export interface FeatureClosure {
  readonly features: Set<string>;
  readonly deps: Set<string>; // enabled optional dependencies (local names)
  readonly depFeatures: Map<string, Set<string>>;
  readonly weakFeatures: Map<string, Set<string>>;
  readonly missing: string[];
}

function addTo(m: Map<string, Set<string>>, k: string, v: string): void {
  const s = m.get(k) ?? new Set<string>();
  m.set(k, s);
  s.add(v);
}

export function featureClosure(
  table: Readonly<Record<string, readonly string[]>>,
  decls: readonly CargoDecl[],
  requested: Iterable<string>,
  weakEnables = false,
): FeatureClosure {
  const optional = new Set(decls.filter((d) => d.optional && d.kind !== 'dev').map((d) => d.local));
  const named = new Set<string>();
  for (const vals of Object.values(table)) for (const v of vals) if (v.startsWith('dep:')) named.add(v.slice(4));
  const implicit = new Set([...optional].filter((d) => !named.has(d) && !Object.hasOwn(table, d)));
  const out: FeatureClosure = {
    features: new Set(),
    deps: new Set(),
    depFeatures: new Map(),
    weakFeatures: new Map(),
    missing: [],
  };
  const stack = [...requested];
  while (stack.length) {
    const v = stack.pop()!;
    if (v.startsWith('dep:')) {
      const d = v.slice(4);
      if (optional.has(d)) out.deps.add(d);
      else out.missing.push(v);
      continue;
    }
    const slash = v.indexOf('/');
    if (slash >= 0) {
      let d = v.slice(0, slash);
      const f = v.slice(slash + 1);
      const weak = d.endsWith('?');
      if (weak) d = d.slice(0, -1);
      if (!decls.some((x) => x.local === d && x.kind !== 'dev')) {
        out.missing.push(v);
        continue;
      }
      if (weak && !weakEnables) addTo(out.weakFeatures, d, f);
      else {
        addTo(out.depFeatures, d, f);
        if (optional.has(d)) out.deps.add(d);
      }
      continue;
    }
    if (out.features.has(v)) continue;
    if (Object.hasOwn(table, v)) {
      out.features.add(v);
      stack.push(...table[v]!);
    } else if (implicit.has(v)) {
      out.features.add(v);
      out.deps.add(v);
    } else if (v !== 'default') out.missing.push(v);
  }
  return out;
}

/** The declarations a closure turns on (dev dependencies never), each with the features it asks of the child. */
export function activeDecls(
  decls: readonly CargoDecl[],
  fc: FeatureClosure,
  targetOk: (target: string) => boolean,
): { decl: CargoDecl; features: string[] }[] {
  const out: { decl: CargoDecl; features: string[] }[] = [];
  for (const d of decls) {
    if (d.kind === 'dev' || (d.optional && !fc.deps.has(d.local)) || !targetOk(d.target)) continue;
    const fs = new Set(d.features);
    if (d.defaultFeatures) fs.add('default');
    for (const f of fc.depFeatures.get(d.local) ?? []) fs.add(f);
    for (const f of fc.weakFeatures.get(d.local) ?? []) fs.add(f);
    out.push({ decl: d, features: [...fs].sort() });
  }
  return out;
}
