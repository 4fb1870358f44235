/**
 * GetSimilarlyNamedPackages (`/v3alpha/systems/{s}/packages/{name}:similarlyNamedPackages`): typosquat
 * candidates among the stored packages of the same system. One statement reads the package and probes the
 * btree of name keys
 * (migrations/0162_package_name_keys.sql: skeleton = lower-cased, homoglyphs folded, separators dropped;
 * keys = the skeleton and its one-character deletions) with the keys of the requested name; every
 * candidate is then checked here and ranked:
 *   0 same skeleton (a separator, case or homoglyph variant: `lo-dash`, `l0dash`),
 *   1 skeletons one edit apart (insertion, deletion, substitution, adjacent transposition: `lodsah`);
 * candidates sharing a key at a greater distance are dropped. Within a rank: the smaller edit distance
 * between the lower-cased names as written, then byte order. At most MAX_SIMILAR packages. deps.dev
 * ranks by popularity too, which this service does not know.
 */
import type { Queryable } from '../platform/db.ts';
import type { Found } from './queries.ts';

export const MAX_SIMILAR = 100;
/** Candidates read before ranking: a bound on the work, far above what one name's keys hit in practice. */
const MAX_CANDIDATES = 2000;

/**
 * The answer for a package, in the shape of the other reads (queries.ts `Found`): one statement reads the
 * package row (null `fetched`: unknown, the route reads it through) and its candidates together. The keys
 * come from `name_keys` called in FROM, where the planner inlines its body into the statement; called in
 * the select list it ran as a function whose body was planned again by every statement (at 1M versions:
 * 0.48 ms of planning and execution against 0.31).
 */
export async function similarlyNamed(db: Queryable, system: string, name: string): Promise<Found> {
  const rows = await db.query<{ fetched_at: Date | string | null; own: string; candidates: [string, string][] | null }>(
    `SELECT p.fetched_at, insights.name_skeleton(p.name) AS own, (SELECT json_agg(json_build_array(c.name,
        insights.name_skeleton(c.name))) FROM (SELECT DISTINCT k.name FROM insights.package_name_keys k
          WHERE k.system = p.system AND k.key = ANY (ARRAY(SELECT nk FROM insights.name_keys(p.name) AS nk)) AND k.name <> p.name
          LIMIT ${MAX_CANDIDATES}) c) AS candidates
    FROM insights.packages p WHERE p.system = $1 AND p.name = $2`,
    [system, name],
  );
  const r = rows[0];
  if (!r || r.fetched_at === null) return { body: null, fetched: null };
  const ranked = (r.candidates ?? []).flatMap(([candidate, skeleton]) => {
    const d = osaDistance(r.own, skeleton);
    if (d > 1) return [];
    return [{ name: candidate, rank: d, spelled: osaDistance(name.toLowerCase(), candidate.toLowerCase()) }];
  });
  ranked.sort((a, b) => a.rank - b.rank || a.spelled - b.spelled || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const body = {
    packageKey: { system, name },
    packages: ranked.slice(0, MAX_SIMILAR).map((c) => ({ packageKey: { system, name: c.name } })),
  };
  return { body: JSON.stringify(body), fetched: r.fetched_at instanceof Date ? r.fetched_at : new Date(r.fetched_at) };
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), over UTF-16 units. */
export function osaDistance(a: string, b: string): number {
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n]!;
}
