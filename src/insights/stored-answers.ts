/**
 * Stored answers of GetVersion and GetPackage (migrations/0175_stored_answers.sql): the v3 and v3alpha
 * response texts, written here when the data they are built from is written, so that a read is one
 * primary-key lookup. Every write in queries-write.ts that changes what an answer shows calls one of
 * these in the same transaction:
 *  - a package stored (its versions, defaults, links, related projects, affected versions all replaced):
 *    `refreshPackageAnswers` (every version answer and the package answer);
 *  - advisories linked or unlinked later (storeAdvisories): `refreshVersionAnswers` for the versions
 *    whose advisoryKeys changed (a Package answer lists no advisories);
 *  - version details filled in later (storeVersionDetails): `refreshPackageAnswers`.
 * Partial packages (fetched_at NULL) are never served, so they get no answers until stored whole.
 *
 * The bodies: insights.version_json (v3) and insights.version_json_alpha (v3alpha) make a Version,
 * insights.package_json / insights.package_json_alpha a Package; `VERSION_ANSWER_COLUMNS` is the one
 * place that names what is stored of a version row `v`. Each builder returns compact text (0193), so the
 * stored text is served as read. A field that depends on the clock (a cooldown)
 * is not stored: it is added to the text where the answer is served.
 */
import type { Queryable } from '../platform/db.ts';

/**
 * What a stored version answer holds, computed from the row `v` of insights.versions: the v3 Version `j.v3`
 * is built once and the v3alpha one is made from it (0176) instead of building the v3 one again inside it.
 */
const VERSION_ANSWER_COLUMNS = 'j.v3, insights.version_json_alpha(v, j.v3)';

const UPSERT_VERSIONS = `INSERT INTO insights.version_answers (system, name, version, v3, alpha)
  SELECT v.system, v.name, v.version, ${VERSION_ANSWER_COLUMNS}
  FROM insights.versions v JOIN insights.packages p ON p.system = v.system AND p.name = v.name
    CROSS JOIN LATERAL (SELECT insights.version_json(v) AS v3 OFFSET 0) j`; // OFFSET 0: built once, not inlined twice
const ON_CONFLICT = 'ON CONFLICT (system, name, version) DO UPDATE SET v3 = EXCLUDED.v3, alpha = EXCLUDED.alpha';

/** Rewrites every version answer of a package and its package answer. */
export async function refreshPackageAnswers(tx: Queryable, system: string, name: string): Promise<void> {
  await tx.query(
    `${UPSERT_VERSIONS}
    WHERE v.system = $1 AND v.name = $2 AND p.fetched_at IS NOT NULL ${ON_CONFLICT}`,
    [system, name],
  );
  await tx.query(
    `UPDATE insights.packages
    SET answer_v3 = CASE WHEN fetched_at IS NOT NULL THEN insights.package_json(system, name) END,
      answer_alpha = CASE WHEN fetched_at IS NOT NULL THEN insights.package_json_alpha(system, name) END
    WHERE system = $1 AND name = $2`,
    [system, name],
  );
}

/** Rewrites the answers of some versions of a package (what changed is in the Version message only). */
export async function refreshVersionAnswers(
  tx: Queryable,
  system: string,
  name: string,
  versions: readonly string[],
): Promise<void> {
  if (versions.length === 0) return;
  await tx.query(
    `${UPSERT_VERSIONS}
    WHERE v.system = $1 AND v.name = $2 AND v.version = ANY($3::text[]) AND p.fetched_at IS NOT NULL ${ON_CONFLICT}`,
    [system, name, versions],
  );
}

/**
 * Writes the answers of every stored package whose answers are missing, set-based (what the migration
 * backfills; also for data loaded by SQL, such as `npm run bench:insights`). Returns the counts written.
 */
export async function backfillAnswers(db: Queryable): Promise<{ versions: number; packages: number }> {
  const v = await db.query<{ n: string }>(`WITH w AS (${UPSERT_VERSIONS}
    WHERE p.fetched_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM insights.version_answers a
        WHERE a.system = v.system AND a.name = v.name AND a.version = v.version)
    RETURNING 1) SELECT count(*) AS n FROM w`);
  const p = await db.query<{ n: string }>(`WITH w AS (UPDATE insights.packages
    SET answer_v3 = insights.package_json(system, name), answer_alpha = insights.package_json_alpha(system, name)
    WHERE fetched_at IS NOT NULL AND answer_v3 IS NULL RETURNING 1) SELECT count(*) AS n FROM w`);
  return { versions: Number(v[0]!.n), packages: Number(p[0]!.n) };
}
