-- A package stored for dependency resolution only (src/insights/ingest/types.ts `partial`): all its
-- versions are listed but some lack their metadata (`meta.pending`, PyPI reads it per version on
-- demand). Such a row has a NULL fetched_at: the package routes read it through as if it were unknown,
-- so no answer is built from the missing metadata; Query skips pending versions.
ALTER TABLE insights.packages ALTER COLUMN fetched_at DROP NOT NULL;
