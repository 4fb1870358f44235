/**
 * Writes of ingested documents. Each store is one transaction of set-based statements
 * (json_to_recordset over one JSON parameter per table), so a package is replaced wholly or not
 * at all and re-ingesting is idempotent. A package store's steps, table by table, are in
 * queries-write-package.ts.
 *
 * Invariants kept here: versions are stored canonical (`canon()`, duplicates after
 * canonicalisation keep the first), `ordinal` is the position in the system's order, exactly one
 * default per package when any version qualifies (upstream's explicit default, else the greatest
 * non-prerelease version not yanked/unlisted), and `advisory_versions` is recomputed for every
 * (advisory, package) pair whose versions or record changed. The stored GetVersion/GetPackage answers
 * (stored-answers.ts) are rewritten for whatever each write changed: in the same transaction, except for a
 * package store, which clears the package's answers with its rows and writes them again in a second
 * transaction (at 2,347 versions they were a third of the store); a read in between builds its answer from
 * the rows with the same SQL functions (queries.ts), so it answers the same text, only slower. A read-through
 * answers before they are written (read-through.ts).
 *
 * What stays in SQL triggers, because every writer of these tables (this module, the bench's and the
 * importer's set-based loads, a hand-run SQL fix) must keep it true in the same transaction:
 *  - 0150/0189: a cached dependency graph is deleted when a version, requirement or dist-tag of any
 *    package it read changes (tested: stored-graphs.test.ts, "serves the cached graph, and recomputes
 *    after the data changes"), once per statement for inserts and deletes;
 *  - 0156/0189: a package's resolve document is cleared when its versions change (rebuilt by the
 *    `UPDATE ... resolve_doc` statements here);
 *  - 0189: a version's rows in the child tables go with it (in place of foreign keys, whose per-row
 *    checks were most of a large package's store);
 *  - 0162 `packages_name_keys`: a new package's similar-name keys (tested: similar-names.test.ts).
 */
import { retryDeadlock, type Db, type Queryable } from '../platform/db.ts';
import { warnLimited } from '../platform/log-limit.ts';
import { canon, isPrerelease, sort, type System } from '../versions/index.ts';
import { advisoryFromOsv, isAffected, osvPackages, type Osv } from './ingest/osv.ts';
import type { IngestedProject } from './ingest/projects.ts';
import type { IngestedPackage, IngestedVersion } from './ingest/types.ts';
import { storeVersionDetailRows, type DetailsRow } from './queries-version-details.ts';
import { restoreGoLicences } from './go-licenses.ts';
import {
  claimPackage,
  replaceVersionRows,
  storeArtifactRows,
  storeProjectRelations,
  storeRequirementRows,
  type Prepared,
} from './queries-write-package.ts';
import { refreshPackageAnswers, refreshVersionAnswers } from './stored-answers.ts';
import { recordAttestationReads } from './queries-read-status.ts';

export function prepareVersions(pkg: IngestedPackage): Prepared[] {
  const seen = new Map<string, IngestedVersion>();
  for (const v of pkg.versions) {
    const c = canon(pkg.system, v.version) ?? v.version;
    if (!seen.has(c)) seen.set(c, v);
  }
  const ordered = sort(pkg.system, [...seen.keys()]);
  const explicit = pkg.defaultVersion ? (canon(pkg.system, pkg.defaultVersion) ?? pkg.defaultVersion) : undefined;
  let def = explicit && seen.has(explicit) ? explicit : undefined;
  if (!def) {
    for (let i = ordered.length - 1; i >= 0; i--) {
      const c = ordered[i]!;
      if (!isPrerelease(pkg.system, c) && !seen.get(c)!.excludeFromDefault) {
        def = c;
        break;
      }
    }
  }
  return ordered.map((c, ordinal) => ({ ...seen.get(c)!, canonical: c, ordinal, isDefault: c === def }));
}

/** Stores a package, then its stored answers (second transaction). */
export async function storePackage(db: Db, pkg: IngestedPackage): Promise<void> {
  await storePackageRows(db, pkg);
  await writePackageAnswers(db, pkg.system, pkg.name);
}

/**
 * Stores a package's rows with its answers cleared: reads build them from the rows until
 * `writePackageAnswers` has run (a read-through answers first and writes them after the answer).
 */
export async function storePackageRows(db: Db, pkg: IngestedPackage): Promise<void> {
  await retryDeadlock(() => db.transaction((tx) => storeInTransaction(tx, pkg)));
}

/** Writes a package's stored answers from its rows (until then reads build them from the rows). */
export function writePackageAnswers(db: Db, system: string, name: string): Promise<void> {
  return retryDeadlock(() =>
    db.transaction(async (tx) => {
      // the package row first, as a store takes it (claimPackage): the two cannot deadlock on the answer rows
      await tx.query('SELECT 1 FROM insights.packages WHERE system = $1 AND name = $2 FOR UPDATE', [system, name]);
      await refreshPackageAnswers(tx, system, name);
    }),
  );
}

/** `writePackageAnswers` after an answer was sent: a failure is logged (reads keep building the answers). */
export function writePackageAnswersLater(db: Db, system: string, name: string): Promise<void> {
  return writePackageAnswers(db, system, name).catch((err) => {
    warnLimited('insights: stored answers not written', `${system} ${name}: ${(err as Error).message}`);
  });
}

/**
 * Stores several packages in one transaction (one connection): the batched write of a read-through.
 * A package stored meanwhile by another request is left as it is (rewriting it would only drop the
 * cached graphs that read it).
 */
export async function storeNewPackages(db: Db, pkgs: readonly IngestedPackage[]): Promise<void> {
  if (pkgs.length === 0) return;
  const stored: IngestedPackage[] = [];
  await db.transaction(async (tx) => {
    stored.length = 0; // a retried transaction starts again
    for (const pkg of pkgs) if (await storeInTransaction(tx, pkg, true)) stored.push(pkg);
  });
  for (const pkg of stored) await writePackageAnswers(db, pkg.system, pkg.name);
}

/** One package's store (see header and queries-write-package.ts for the steps' rows). */
async function storeInTransaction(tx: Queryable, pkg: IngestedPackage, onlyNew = false): Promise<boolean> {
  const { system, name } = pkg;
  const record = (vs: Prepared[]) => recordAttestationReads(tx, system, name, vs);
  // a failed attestation read keeps the stored copy's attestations, read before the rows are replaced
  let versions = onlyNew ? prepareVersions(pkg) : await record(prepareVersions(pkg));
  if (!(await claimPackage(tx, pkg, onlyNew))) return false;
  if (onlyNew) versions = await record(versions);
  await replaceVersionRows(tx, system, name, versions);
  await storeVersionDetailRows(tx, system, name, detailRows(versions.map((v) => ({ ...v, version: v.canonical }))));
  if (system === 'GO') await restoreGoLicences(tx, name); // read from source, kept apart (go-licenses.ts)
  await storeRequirementRows(tx, system, name, versions);
  await storeArtifactRows(tx, system, name, versions);
  await storeProjectRelations(tx, system, name, versions);
  await rebuildResolveDoc(tx, system, name);
  await replaceAffected(
    tx,
    system,
    name,
    versions.map((v) => v.canonical),
    await packageAdvisories(tx, system, name),
  );
  return true; // the answers: cleared by claimPackage and the version rows' replacement, written by the caller
}

/** The package's resolve document, rebuilt from its stored rows (0156 clears it when versions change). */
export async function rebuildResolveDoc(tx: Queryable, system: System, name: string): Promise<void> {
  await tx.query(
    'UPDATE insights.packages SET resolve_doc = insights.resolve_doc(system, name) WHERE system = $1 AND name = $2',
    [system, name],
  );
}

/** The stored advisories that name the package. */
async function packageAdvisories(tx: Queryable, system: System, name: string): Promise<{ id: string; osv: Osv }[]> {
  return tx.query<{ id: string; osv: Osv }>(
    `SELECT a.id, a.osv FROM insights.advisory_packages p JOIN insights.advisories a ON a.id = p.advisory_id
     WHERE p.system = $1 AND p.name = $2`,
    [system, name],
  );
}

/** Recomputes the affected versions of a package for some advisories; returns those whose set may have changed. */
async function replaceAffected(
  tx: Queryable,
  system: System,
  name: string,
  versions: string[],
  advisories: { id: string; osv: Osv }[],
): Promise<string[]> {
  if (!advisories.length) return [];
  const rows = advisories.flatMap((a) =>
    versions.filter((v) => isAffected(a.osv, system, name, v)).map((version) => ({ advisory_id: a.id, version })),
  );
  const before = await tx.query<{ version: string }>(
    `DELETE FROM insights.advisory_versions
    WHERE system = $1 AND name = $2 AND advisory_id = ANY($3::text[]) RETURNING version`,
    [system, name, advisories.map((a) => a.id)],
  );
  const touched = [...new Set([...before.map((r) => r.version), ...rows.map((r) => r.version)])];
  if (rows.length) {
    await tx.query(
      `INSERT INTO insights.advisory_versions (advisory_id, system, name, version)
      SELECT x.advisory_id, $2::text, $3::text, x.version FROM json_to_recordset($1::json) AS x(advisory_id text, version text)
      ON CONFLICT DO NOTHING`,
      [JSON.stringify(rows), system, name],
    );
  }
  return touched;
}

/** Upserts OSV records and recomputes their affected versions for every stored package they name. */
export async function storeAdvisories(db: Db, records: Osv[]): Promise<void> {
  if (!records.length) return;
  const rows = records.map(advisoryFromOsv);
  await retryDeadlock(() =>
    db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO insights.advisories (id, url, title, aliases, cvss3_score, cvss3_vector, modified, osv, fetched_at)
      SELECT x.id, x.url, x.title, x.aliases, x."cvss3Score", x."cvss3Vector", x.modified, x.osv, now()
      FROM json_to_recordset($1::json) AS x(id text, url text, title text, aliases json, "cvss3Score" float8, "cvss3Vector" text, modified timestamptz, osv jsonb)
      ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, title = EXCLUDED.title, aliases = EXCLUDED.aliases,
        cvss3_score = EXCLUDED.cvss3_score, cvss3_vector = EXCLUDED.cvss3_vector, modified = EXCLUDED.modified, osv = EXCLUDED.osv, fetched_at = now()`,
        [JSON.stringify(rows)],
      );
      const links = records.flatMap((r) =>
        osvPackages(r).map((p) => ({ advisory_id: String(r.id), system: p.system, name: p.name })),
      );
      await tx.query('DELETE FROM insights.advisory_packages WHERE advisory_id = ANY($1::text[])', [
        rows.map((r) => r.id),
      ]);
      if (links.length) {
        await tx.query(
          `INSERT INTO insights.advisory_packages (advisory_id, system, name)
        SELECT x.advisory_id, x.system, x.name FROM json_to_recordset($1::json) AS x(advisory_id text, system text, name text)
        ON CONFLICT DO NOTHING`,
          [JSON.stringify(links)],
        );
      }
      const pkgs = new Map<string, { system: System; name: string; recs: { id: string; osv: Osv }[] }>();
      for (const r of records)
        for (const p of osvPackages(r)) {
          const k = `${p.system}\u0000${p.name}`;
          const e = pkgs.get(k) ?? { ...p, recs: [] };
          e.recs.push({ id: String(r.id), osv: r });
          pkgs.set(k, e);
        }
      for (const p of pkgs.values()) {
        const vs = await tx.query<{ version: string }>(
          'SELECT version FROM insights.versions WHERE system = $1 AND name = $2',
          [p.system, p.name],
        );
        if (!vs.length) continue;
        const touched = await replaceAffected(
          tx,
          p.system,
          p.name,
          vs.map((v) => v.version),
          p.recs,
        );
        await refreshVersionAnswers(tx, p.system, p.name, touched); // their advisoryKeys
      }
    }),
  );
}

export async function storeProject(db: Db, p: IngestedProject): Promise<void> {
  await db.query(
    `INSERT INTO insights.projects (id, open_issues_count, stars_count, forks_count, license, description, homepage, scorecard,
      oss_fuzz, fetched_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json, $9::json, now())
    ON CONFLICT (id) DO UPDATE SET open_issues_count = EXCLUDED.open_issues_count, stars_count = EXCLUDED.stars_count,
      forks_count = EXCLUDED.forks_count, license = EXCLUDED.license, description = EXCLUDED.description,
      homepage = EXCLUDED.homepage, oss_fuzz = EXCLUDED.oss_fuzz, fetched_at = now(),
      scorecard = CASE WHEN $10::boolean THEN insights.projects.scorecard ELSE EXCLUDED.scorecard END`,
    [
      p.id,
      p.openIssuesCount,
      p.starsCount,
      p.forksCount,
      p.license,
      p.description,
      p.homepage,
      p.scorecard ? JSON.stringify(p.scorecard) : null,
      p.ossFuzz ? JSON.stringify(p.ossFuzz) : null,
      p.scorecardError !== undefined, // a failed Scorecard read keeps the last good scorecard (stale-if-error)
    ],
  );
}

/**
 * Fills in versions of a partially stored package (their metadata read on demand by a resolution):
 * the version row's metadata and its requirements. The package stays partial (other versions may still
 * be pending). Go: the go.mod of a version the module's list does not show (a pseudo-version) is kept in
 * `unlisted_requirements`, so a graph recomputed later does not read it from the proxy again.
 */
export async function storeVersionDetails(
  db: Db,
  system: System,
  name: string,
  versions: readonly IngestedVersion[],
): Promise<void> {
  if (versions.length === 0) return;
  const rows = versions.map((v) => ({
    version: canon(system, v.version) ?? v.version,
    published_at: v.publishedAt,
    licenses: v.licenses,
    links: v.links,
    slsa_provenances: v.slsaProvenances,
    attestations: v.attestations,
    registries: v.registries,
    project_status: v.projectStatus ?? null,
    meta: v.meta,
    requirements: v.requirements,
  }));
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE insights.versions v SET published_at = x.published_at, licenses = x.licenses, links = x.links,
        slsa_provenances = x.slsa_provenances, attestations = x.attestations, registries = x.registries, project_status = x.project_status, meta = x.meta
      FROM json_to_recordset($1::json) AS x(version text, published_at timestamptz, licenses json, links json, slsa_provenances json,
        attestations json, registries json, project_status json, meta jsonb)
      WHERE v.system = $2 AND v.name = $3 AND v.version = x.version AND v.meta ? 'pending'`,
      [JSON.stringify(rows), system, name],
    );
    await tx.query(
      `INSERT INTO insights.requirements (system, name, version, requirements)
      SELECT $2::text, $3::text, x.version, x.requirements FROM json_to_recordset($1::json) AS x(version text, requirements json)
      WHERE x.requirements IS NOT NULL
        AND EXISTS (SELECT 1 FROM insights.versions v WHERE v.system = $2 AND v.name = $3 AND v.version = x.version)
      ON CONFLICT DO NOTHING`,
      [JSON.stringify(rows), system, name],
    );
    // versions read but not listed (Go pseudo-versions): not versions of the package, their go.mod kept apart (0185)
    if (system === 'GO')
      await tx.query(
        `INSERT INTO insights.unlisted_requirements (system, name, version, requirements)
      SELECT $2::text, $3::text, x.version, x.requirements
        FROM json_to_recordset($1::json) AS x(version text, requirements json)
       WHERE x.requirements IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM insights.versions v WHERE v.system = $2 AND v.name = $3 AND v.version = x.version)
        AND EXISTS (SELECT 1 FROM insights.packages p WHERE p.system = $2 AND p.name = $3)
      ON CONFLICT DO NOTHING`,
        [JSON.stringify(rows), system, name],
      );
    const canonical = versions.map((v) => ({ ...v, version: canon(system, v.version) ?? v.version }));
    await recordAttestationReads(
      tx,
      system,
      name,
      canonical.map((v) => ({ ...v, canonical: v.version })),
    );
    await storeVersionDetailRows(tx, system, name, detailRows(canonical));
    if (system === 'GO') await restoreGoLicences(tx, name);
    await rebuildResolveDoc(tx, system, name);
    await refreshPackageAnswers(tx, system, name); // publishedAt is in the Package answer too (none while partial)
  });
}

/** The v3alpha details an adapter recorded (none for a version whose adapter records neither field). */
function detailRows(versions: readonly IngestedVersion[]): DetailsRow[] {
  return versions
    .filter((v) => v.licenseDetails !== undefined || v.upstreamIdentifiers !== undefined)
    .map((v) => ({ version: v.version, licenseDetails: v.licenseDetails, upstreamIdentifiers: v.upstreamIdentifiers }));
}
