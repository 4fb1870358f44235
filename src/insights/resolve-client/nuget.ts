/**
 * NuGet rows in the resolver vocabulary: meta.listed false -> unlisted, yanked -> blocked; dependencyGroups
 * -> dependencies with attr framework (an empty group as one nameless entry).
 */
import type { Attrs, Dependency } from '../../resolve/types.ts';
import { normalizeNugetId } from '../../versions/names/index.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type Json, list, type SystemReads, yankedAttrs } from './system.ts';

function nugetAttrs(row: VersionRow): Attrs {
  const meta: Json = row.meta ?? {};
  const a = yankedAttrs(meta);
  if (meta.listed === false) a.unlisted = '';
  return a;
}

/** a group without dependencies still counts when its framework is the nearest: it is kept as a nameless entry */
function nugetDependencies(req: Json): Dependency[] {
  return (req.nuget?.dependencyGroups ?? []).flatMap((g: Json) => {
    const attrs = { framework: String(g?.targetFramework ?? '') };
    const deps = list(g?.dependencies);
    return deps.length
      ? deps.map((x) => ({
          name: normalizeNugetId(String(x.name)),
          requirement: String(x.requirement ?? ''),
          attrs: { ...attrs },
        }))
      : [{ name: '', requirement: '', attrs }];
  });
}

export const nugetReads: SystemReads = {
  attrs: nugetAttrs,
  dependencies: (_name, _version, req) => nugetDependencies(req),
};
