-- Whether a package's data from a source that may fail has been read, and when (DESIGN.md convention 14:
-- unknown is not empty). One row per package and source; `source` is `osv` (the package's advisories,
-- `POST /v1/query`) or `registry` (attempts at replacing seeded demo data only). src/insights/queries-source-reads.ts writes it, src/insights/advisory-reads.ts
-- decides from it:
--   read_at       the last successful read (NULL: never read, so "no advisories" is unknown, not clean)
--   attempted_at  the last attempt's start (one attempt per INSIGHTS_SOURCE_RETRY_SECONDS is claimed)
--   failed_at     the last failed attempt, NULL once a later read succeeded
--   error         what that failure was (status or network error), for the Warning header and logs
-- No foreign key: a package is replaced wholly when it is stored again, and its last good read must
-- outlive that (stale-if-error). A package stored before this table existed has no row: unknown.
CREATE TABLE insights.source_reads (
  system text NOT NULL,
  name text NOT NULL,
  source text NOT NULL,
  read_at timestamptz,
  attempted_at timestamptz,
  failed_at timestamptz,
  error text NOT NULL DEFAULT '',
  PRIMARY KEY (system, name, source)
);
