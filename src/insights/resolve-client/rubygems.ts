/**
 * RubyGems rows in the resolver vocabulary: meta {platforms, requiredRuby, linuxRuntimeDependencies} + the
 * published spelling -> platforms, requiredruby, linuxdependencies, spelling; runtimeDependencies ->
 * dependencies (a versions batch also reads the requirements rows: Bundler's possibility sets compare the
 * dependencies of every candidate).
 */
import type { Attrs, Dependency } from '../../resolve/types.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type Json, list, type SystemReads, yankedAttrs } from './system.ts';

function rubygemsAttrs(row: VersionRow): Attrs {
  const meta: Json = row.meta ?? {};
  const a = yankedAttrs(meta);
  if (Array.isArray(meta.platforms) && meta.platforms.length) a.platforms = meta.platforms.map(String).join(',');
  else if (typeof meta.platform === 'string' && meta.platform) a.platforms = meta.platform;
  if (typeof meta.requiredRuby === 'string' && meta.requiredRuby.trim()) a.requiredruby = meta.requiredRuby.trim();
  if (Array.isArray(meta.linuxRuntimeDependencies)) a.linuxdependencies = JSON.stringify(meta.linuxRuntimeDependencies);
  a.spelling = row.upstream_version || row.version; // gem order reads the published form
  return a;
}

function rubygemsDependencies(req: Json): Dependency[] {
  return list(req.rubygems?.runtimeDependencies).map((x) => ({
    name: String(x.name),
    requirement: String(x.requirement ?? ''),
    attrs: {},
  }));
}

export const rubygemsReads: SystemReads = {
  versionsWithRequirements: true,
  attrs: rubygemsAttrs,
  dependencies: (_name, _version, req) => rubygemsDependencies(req),
};
