/**
 * GetDependents (`/v3alpha/...versions/{version}:dependents`): deps.dev's
 * `{dependentCount, directDependentCount, indirectDependentCount}` over the versions this service has
 * indexed (queries-dependents.ts), not the whole registry. Beyond deps.dev (its issues #3, #95 ask for
 * the list): `?list=true` adds `dependents: [{versionKey, relation}]` (by name, then version order),
 * `pageSize` (1..1000, default 100) at a time, and `nextPageToken` ('' on the last page), taken back as
 * `pageToken`; the counts are always those of the whole set.
 */
import type { Queryable } from '../platform/db.ts';
import type { System } from '../versions/index.ts';
import { pageOf } from './batch-paging.ts';
import { dependentCounts, dependentsOf } from './queries-dependents.ts';

/** The query of GetDependents (schemas.ts `dependentsQuery`, parsed by the route). */
export interface DependentsQuery {
  list?: 'true' | 'false';
  pageSize: number;
  pageToken?: string;
}

export async function getDependents(
  db: Queryable,
  key: { system: System; name: string; version: string },
  q: DependentsQuery,
) {
  const all = await dependentsOf(db, key.system, key.name, key.version);
  const counts = dependentCounts(all);
  if (q.list !== 'true') return counts;
  const page = pageOf(all, q.pageToken, q.pageSize);
  return {
    ...counts,
    dependents: page.items.map((d) => ({
      versionKey: { system: d.system, name: d.name, version: d.version },
      relation: d.relation,
    })),
    nextPageToken: page.nextPageToken,
  };
}
