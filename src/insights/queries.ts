/**
 * Reads. Each API read is ONE statement that builds the response JSON in Postgres (json, not
 * jsonb, so keys keep proto order) and returns it as text, compact (a builder's outermost call is
 * json_strip_nulls, which re-emits without json_build_object's spaces: migrations/0191), together with the package's
 * `fetched_at` so the caller can decide on read-through and background refresh without a second
 * round trip. A null `fetched` means the package has never been ingested.
 */
import type { Queryable } from '../platform/db.ts';
import { NPM_ATTESTATIONS, NPM_TARBALL } from './ingest/npm-pending.ts';

export interface Found {
  /** JSON text of the response, null when the package exists but the item does not. */
  body: string | null;
  /** When the package was last ingested; null when it is unknown. */
  fetched: Date | null;
  /** npm GetVersion/GetRequirements: what the answer shows that is not read yet (ingest/npm-pending.ts). */
  pending?: string | null;
}

/** npm: the version's pending read an answer shows (a meta key of ingest/npm-pending.ts), as a `pending` column. */
const pendingColumn = (system: string, key: string) =>
  system === 'NPM'
    ? `, (SELECT v.meta->>'${key}' FROM insights.versions v WHERE v.system = p.system AND v.name = p.name AND v.version = $3) AS pending`
    : '';

async function one(db: Queryable, sql: string, params: unknown[]): Promise<Found> {
  const rows = await db.query<{ body: string | null; fetched_at: Date | string | null; pending?: string | null }>(
    sql,
    params,
  );
  const r = rows[0];
  if (!r || r.fetched_at === null) return { body: null, fetched: null }; // NULL: stored for resolution only (0157)
  const fetched = r.fetched_at instanceof Date ? r.fetched_at : new Date(r.fetched_at);
  return r.pending ? { body: r.body, fetched, pending: r.pending } : { body: r.body, fetched };
}

const versionJson = (alpha: boolean) => (alpha ? 'insights.version_json_alpha' : 'insights.version_json');

/**
 * GetPackage and GetVersion serve the answer stored when the package was written (stored-answers.ts,
 * migrations/0175_stored_answers.sql): one primary-key lookup. A package not written through
 * queries-write.ts (rows inserted by SQL) has none; its answer is built here by the same functions.
 * A field that depends on the request or the clock is added by the route to the text returned here.
 */
export function getPackage(db: Queryable, system: string, name: string, alpha = false): Promise<Found> {
  const [stored, build] = alpha
    ? ['answer_alpha', 'insights.package_json_alpha']
    : ['answer_v3', 'insights.package_json'];
  return one(
    db,
    `SELECT p.fetched_at, COALESCE(p.${stored}, ${build}(p.system, p.name))::text AS body
    FROM insights.packages p WHERE p.system = $1 AND p.name = $2`,
    [system, name],
  );
}

export function getVersion(
  db: Queryable,
  system: string,
  name: string,
  version: string,
  alpha = false,
): Promise<Found> {
  return one(
    db,
    `SELECT p.fetched_at, COALESCE(
      (SELECT a.${alpha ? 'alpha' : 'v3'}::text FROM insights.version_answers a
        WHERE a.system = p.system AND a.name = p.name AND a.version = $3),
      (SELECT ${versionJson(alpha)}(v)::text FROM insights.versions v
        WHERE v.system = p.system AND v.name = p.name AND v.version = $3)) AS body${pendingColumn(system, NPM_ATTESTATIONS)}
    FROM insights.packages p WHERE p.system = $1 AND p.name = $2`,
    [system, name, version],
  );
}

/** A go.mod `path version` pair (or a bare path) as deps.dev's `Requirements.Go.Dependency`. */
const goDependency = (text: string) =>
  `json_build_object('name', split_part(${text}, ' ', 1), 'requirement', split_part(${text}, ' ', 2))`;

/**
 * The stored requirements as deps.dev's `Requirements` message. GO rows also keep the go directive and
 * retractions (resolution inputs) and hold replaces and excludes as go.mod text: the answer is deps.dev's
 * four fields, with `src`, `replacement` and each exclude a `{name, requirement}` Dependency (no
 * `replacement` for a local-path replace). MAVEN rows also keep the repository they were read from
 * (`registry`), which the message does not have.
 */
const REQUIREMENTS_TEXT = `CASE WHEN r.system = 'GO' AND r.requirements->'go' IS NOT NULL
    THEN json_strip_nulls(json_build_object('go', json_build_object('directDependencies', r.requirements->'go'->'directDependencies',
      'indirectDependencies', r.requirements->'go'->'indirectDependencies',
      'replaces', (SELECT COALESCE(json_agg(json_strip_nulls(json_build_object('src', ${goDependency("x->>'src'")},
          'replacement', CASE WHEN x->>'replacement' <> '' THEN ${goDependency("x->>'replacement'")} END,
          'localPath', COALESCE(x->>'localPath', ''))) ORDER BY n), '[]'::json)
        FROM json_array_elements(COALESCE(r.requirements->'go'->'replaces', '[]'::json)) WITH ORDINALITY AS e(x, n)),
      'excludes', (SELECT COALESCE(json_agg(${goDependency('x')} ORDER BY n), '[]'::json)
        FROM json_array_elements_text(COALESCE(r.requirements->'go'->'excludes', '[]'::json)) WITH ORDINALITY AS e(x, n))
    )))::text
    WHEN r.system = 'MAVEN' AND r.requirements->'maven' IS NOT NULL
    THEN (SELECT json_strip_nulls(json_build_object('maven', json_object_agg(k, v ORDER BY n)))::text
      FROM json_each(r.requirements->'maven') WITH ORDINALITY AS e(k, v, n) WHERE k <> 'registry')
    ELSE r.requirements::text END`;

export function getRequirements(db: Queryable, system: string, name: string, version: string): Promise<Found> {
  return one(
    db,
    `SELECT p.fetched_at, (SELECT ${REQUIREMENTS_TEXT} FROM insights.requirements r
      WHERE r.system = p.system AND r.name = p.name AND r.version = $3) AS body${pendingColumn(system, NPM_TARBALL)}
    FROM insights.packages p WHERE p.system = $1 AND p.name = $2`,
    [system, name, version],
  );
}

export async function getAdvisory(db: Queryable, id: string): Promise<string | null> {
  const rows = await db.query<{ body: string }>(
    `SELECT json_strip_nulls(json_build_object('advisoryKey', json_build_object('id', a.id),
      'url', a.url, 'title', a.title, 'aliases', a.aliases, 'cvss3Score', a.cvss3_score, 'cvss3Vector', a.cvss3_vector))::text AS body
    FROM insights.advisories a WHERE a.id = $1`,
    [id],
  );
  return rows[0]?.body ?? null;
}

/** The `Project` message of the row `p` of insights.projects. */
export const PROJECT_JSON = `json_strip_nulls(json_build_object(
      'projectKey', json_build_object('id', p.id), 'openIssuesCount', p.open_issues_count, 'starsCount', p.stars_count,
      'forksCount', p.forks_count, 'license', p.license, 'description', p.description, 'homepage', p.homepage,
      'scorecard', p.scorecard, 'ossFuzz', p.oss_fuzz))`;

export async function getProject(db: Queryable, id: string): Promise<string | null> {
  const rows = await db.query<{ body: string }>(
    `SELECT ${PROJECT_JSON}::text AS body
    FROM insights.projects p WHERE p.id = $1`,
    [id],
  );
  return rows[0]?.body ?? null;
}

export const MAX_PROJECT_VERSIONS = 1500;

/** Mappings of a project (attestation-derived first); null when neither the project nor any mapping is known. */
export async function getProjectPackageVersions(db: Queryable, id: string): Promise<string | null> {
  const rows = await db.query<{ body: string | null }>(
    `SELECT CASE WHEN EXISTS (SELECT 1 FROM insights.projects WHERE id = $1) OR count(m.*) > 0
      THEN json_strip_nulls(json_build_object('versions', COALESCE(json_agg(json_build_object(
        'versionKey', json_build_object('system', m.system, 'name', m.name, 'version', m.version),
        'relationType', m.relation_type, 'relationProvenance', m.relation_provenance,
        'slsaProvenances', insights.checked_attestations(m.system, m.name, m.version, m.slsa_provenances),
        'attestations', insights.checked_attestations(m.system, m.name, m.version, m.attestations))
        ORDER BY m.from_attestation DESC, m.system, m.name COLLATE "C", m.ordinal, m.relation_type COLLATE "C") FILTER (WHERE m.project_id IS NOT NULL), '[]'::json)))::text END AS body
    FROM (SELECT pv.*, v.ordinal FROM insights.project_versions pv JOIN insights.versions v USING (system, name, version)
          WHERE pv.project_id = $1 ORDER BY pv.from_attestation DESC, pv.system, pv.name COLLATE "C", v.ordinal LIMIT ${MAX_PROJECT_VERSIONS}) m`,
    [id],
  );
  return rows[0]?.body ?? null;
}

export const MAX_QUERY_RESULTS = 1000;

export interface QueryArgs {
  hashType?: string;
  /** base64 */
  hashValue?: string;
  system?: string;
  name?: string;
  version?: string;
  /** The version as the request spelled it: a version matches by its published spelling too. */
  spelled?: string;
}

/** Query: versions matching a hash and/or a (partial) version key, at most 1000. */
/**
 * v3alpha (`alpha`): each result also carries `artifacts: [{url}]`, the artifacts whose hash matched
 * (empty when the query named no hash), and the v3alpha Version.
 */
export async function queryVersions(db: Queryable, a: QueryArgs, alpha = false): Promise<string> {
  const params = [a.system ?? null, a.name ?? null, a.version ?? null, a.spelled ?? a.version ?? null];
  const byHash = a.hashType !== undefined && a.hashValue !== undefined;
  if (byHash) params.push(a.hashType!, a.hashValue!);
  const source = byHash
    ? `SELECT v.* FROM insights.versions v WHERE (v.system, v.name, v.version) IN (
         SELECT h.system, h.name, h.version FROM insights.artifacts h WHERE h.hash_type = $5 AND h.hash_value = decode($6, 'base64'))`
    : 'SELECT v.* FROM insights.versions v WHERE true';
  const rows = await db.query<{ body: string }>(
    `SELECT json_strip_nulls(json_build_object('results', COALESCE(json_agg(
      ${
        alpha
          ? `json_build_object('version', insights.version_json_alpha(q), 'artifacts', ${artifactsJson(byHash)})`
          : "json_build_object('version', insights.version_json(q))"
      }
      ORDER BY q.system, q.name COLLATE "C", q.ordinal), '[]'::json)))::text AS body
    FROM (SELECT * FROM (${source}
      AND ($1::text IS NULL OR v.system = $1) AND ($2::text IS NULL OR v.name = $2) AND ($3::text IS NULL OR v.version = $3 OR v.upstream_version = $4)
      AND NOT (v.meta ? 'pending')) s
      ORDER BY s.system, s.name COLLATE "C", s.ordinal LIMIT ${MAX_QUERY_RESULTS}) q`,
    params,
  );
  return rows[0]!.body;
}

export async function packageExists(db: Queryable, system: string, name: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM insights.packages WHERE system = $1 AND name = $2', [system, name])).length > 0;
}

/** versionbatch: Version JSON (or null) for each key, in request order. */
/** The matching artifacts of a result row `q` (v3alpha Query); params $5/$6 are the hash. */
function artifactsJson(byHash: boolean): string {
  if (!byHash) return "'[]'::json";
  return `COALESCE((SELECT json_agg(json_build_object('url', h.url) ORDER BY h.url COLLATE "C")
    FROM insights.artifacts h
    WHERE h.system = q.system AND h.name = q.name AND h.version = q.version
      AND h.hash_type = $5 AND h.hash_value = decode($6, 'base64')), '[]'::json)`;
}

export async function batchVersions(
  db: Queryable,
  keys: { system: string; name: string; version: string }[],
  alpha = false,
): Promise<(unknown | null)[]> {
  const rows = await db.query<{ body: string }>(
    `SELECT COALESCE(json_agg(
      CASE WHEN v.system IS NULL THEN NULL ELSE ${versionJson(alpha)}(v) END ORDER BY k.i), '[]'::json)::text AS body
    FROM json_to_recordset($1::json) AS k(system text, name text, version text, i int)
    LEFT JOIN insights.versions v ON v.system = k.system AND v.name = k.name AND v.version = k.version`,
    [JSON.stringify(keys.map((k, i) => ({ ...k, i })))],
  );
  return JSON.parse(rows[0]!.body) as (unknown | null)[];
}
