/**
 * Cargo rows in the resolver vocabulary: meta {yanked, links} -> blocked, links; requirements.cargo.features
 * -> the `features` version attr (so a versions batch also reads the requirements rows of those versions, one
 * more query, and primes the requirements cache with them); cargo dependencies -> real crate name, scope
 * build|dev, opt, knownas (packageAlias), features, nodefault, environment (target).
 */
import type { Attrs, Dependency } from '../../resolve/types.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type Json, type SystemReads, yankedAttrs } from './system.ts';

/** requirements.cargo.features ([{name, implies}]) as the resolver's `features` attr (JSON object), or ''. */
function cargoFeatures(req: Json): string {
  const list = req.cargo?.features;
  if (!Array.isArray(list) || list.length === 0) return '';
  const o: Record<string, string[]> = {};
  for (const f of list)
    if (f && typeof f.name === 'string') o[f.name] = Array.isArray(f.implies) ? f.implies.map(String) : [];
  return JSON.stringify(o);
}

function cargoDependencies(req: Json): Dependency[] {
  return (req.cargo?.dependencies ?? []).map((x: Json) => {
    const attrs: Attrs = {};
    if (x.kind === 'build' || x.kind === 'dev') attrs.scope = x.kind;
    if (x.optional === true) attrs.opt = '';
    if (x.packageAlias) attrs.knownas = String(x.packageAlias);
    if (Array.isArray(x.features) && x.features.length) attrs.features = x.features.map(String).join(',');
    if (x.usesDefaultFeatures === false) attrs.nodefault = '';
    if (x.target) attrs.environment = String(x.target);
    return { name: String(x.name), requirement: String(x.requirement ?? ''), attrs };
  });
}

export const cargoReads: SystemReads = {
  versionsWithRequirements: true,
  attrs(row: VersionRow, req: Json | undefined): Attrs {
    const meta: Json = row.meta ?? {};
    const a = yankedAttrs(meta);
    if (typeof meta.links === 'string' && meta.links) a.links = meta.links;
    const features = req ? cargoFeatures(req) : '';
    if (features) a.features = features;
    return a;
  },
  dependencies: (_name, _version, req) => cargoDependencies(req),
};
