/**
 * Converts an npm packument (abbreviated "corgi" document: dist-tags, versions with dependencies,
 * optionalDependencies, peerDependencies(+Meta), bundleDependencies, os, cpu, libc, engines, deprecated)
 * into Client rows: version attrs `tags`, `deprecated`, `os`, `cpu`, `libc`, `engines` (JSON); dependency
 * attrs `opt`, `scope` peer|bundle, `knownas` for `npm:` aliases (the dependency then names the
 * real package and its range).
 */
import type { Attrs, Dependency, VersionInfo } from './types.ts';

export interface Packument {
  name: string;
  'dist-tags'?: Record<string, string>;
  versions: Record<string, PackumentVersion>;
}

export interface PackumentVersion {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bundleDependencies?: string[] | boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  engines?: Record<string, string> | string[];
  deprecated?: string | boolean;
}

/** A dependency entry `name: spec`; `npm:real@range` becomes real/range with `knownas` = name. */
export function npmDependency(name: string, spec: unknown, attrs: Attrs): Dependency {
  const s = typeof spec === 'string' ? spec : '';
  const m = /^npm:((?:@[^/@]+\/)?[^@]+)(?:@(.*))?$/.exec(s);
  if (m) return { name: m[1]!, requirement: m[2] ?? '*', attrs: { ...attrs, knownas: name } };
  return { name, requirement: s, attrs };
}

export function packumentRows(p: Packument): { info: VersionInfo; deps: Dependency[] }[] {
  const tags = new Map<string, string[]>();
  for (const [t, v] of Object.entries(p['dist-tags'] ?? {})) tags.set(v, [...(tags.get(v) ?? []), t]);
  return Object.entries(p.versions ?? {}).map(([version, m]) => {
    const attrs: Attrs = {};
    if (tags.has(version)) attrs.tags = tags.get(version)!.join(',');
    if (m.deprecated) attrs.deprecated = '';
    if (Array.isArray(m.os) && m.os.length) attrs.os = m.os.join(',');
    if (Array.isArray(m.cpu) && m.cpu.length) attrs.cpu = m.cpu.join(',');
    if (Array.isArray(m.libc) && m.libc.length) attrs.libc = m.libc.join(',');
    if (m.engines && typeof m.engines === 'object' && !Array.isArray(m.engines))
      attrs.engines = JSON.stringify(m.engines);
    const deps: Dependency[] = [];
    const opt = m.optionalDependencies ?? {};
    for (const [n, s] of Object.entries(m.dependencies ?? {})) if (!(n in opt)) deps.push(npmDependency(n, s, {}));
    for (const [n, s] of Object.entries(opt)) deps.push(npmDependency(n, s, { opt: '' }));
    for (const [n, s] of Object.entries(m.peerDependencies ?? {})) {
      deps.push(
        npmDependency(n, s, m.peerDependenciesMeta?.[n]?.optional ? { scope: 'peer', opt: '' } : { scope: 'peer' }),
      );
    }
    const bundled = Array.isArray(m.bundleDependencies)
      ? m.bundleDependencies
      : m.bundleDependencies === true
        ? Object.keys(m.dependencies ?? {})
        : [];
    for (const n of bundled)
      deps.push({ name: n, requirement: m.dependencies?.[n] ?? opt[n] ?? '*', attrs: { scope: 'bundle' } });
    return { info: { name: p.name, version, attrs }, deps };
  });
}
