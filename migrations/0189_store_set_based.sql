-- A package store writes thousands of rows per table in one statement each (queries-write-package.ts); the
-- work per row, not the rows, was its cost: each version row and requirement row ran two trigger functions
-- (0150, 0156: a DELETE on the cached graphs and an UPDATE of the package's resolve document, once per row),
-- and each child row (requirements, artifacts, project relations, details, stored answers) checked its foreign
-- key with a lookup of its version row. @types/node (2,347 versions) took 5.2 s to store on the embedded
-- database, 3.0 s of it in those per-row checks and triggers.
--
-- Now the same rules hold once per statement:
--  - inserting or deleting versions or requirements deletes the cached graphs that hold the package and
--    forgets its resolve document with one statement over the transition table (updates keep their per-row
--    triggers of 0186, which skip the pending-read fills);
--  - a version's rows in the child tables, and a package's versions, are deleted with it by a statement-level
--    trigger (what ON DELETE CASCADE did), and the store, the only writer of these rows, deletes a package's
--    child rows before inserting them again, so no row outlives its version.
DROP TRIGGER versions_invalidate_graphs ON insights.versions;
DROP TRIGGER versions_forget_resolve_doc ON insights.versions;
DROP TRIGGER requirements_invalidate_graphs ON insights.requirements;

-- The forgetting of the resolve document on UPDATE stays per row (an update touches one version).
CREATE TRIGGER versions_update_forget_resolve_doc AFTER UPDATE ON insights.versions
  FOR EACH ROW EXECUTE FUNCTION insights.forget_resolve_doc();

CREATE FUNCTION insights.package_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM insights.dependency_graphs g USING (SELECT DISTINCT system, name FROM changed) c
    WHERE g.system = c.system AND g.packages @> ARRAY[c.name];
  UPDATE insights.packages p SET resolve_doc = NULL FROM (SELECT DISTINCT system, name FROM changed) c
    WHERE TG_TABLE_NAME = 'versions' AND p.system = c.system AND p.name = c.name AND p.resolve_doc IS NOT NULL;
  RETURN NULL;
END $$;

CREATE TRIGGER versions_inserted AFTER INSERT ON insights.versions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION insights.package_rows_changed();
CREATE TRIGGER versions_deleted AFTER DELETE ON insights.versions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION insights.package_rows_changed();
CREATE TRIGGER requirements_inserted AFTER INSERT ON insights.requirements
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION insights.package_rows_changed();
CREATE TRIGGER requirements_deleted AFTER DELETE ON insights.requirements
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION insights.package_rows_changed();

-- The foreign keys to insights.versions (and from versions to packages), replaced by the deletes below.
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
    WHERE contype = 'f' AND confrelid IN ('insights.versions'::regclass, 'insights.packages'::regclass)
      AND conrelid IN ('insights.versions'::regclass, 'insights.requirements'::regclass, 'insights.artifacts'::regclass,
        'insights.project_versions'::regclass, 'insights.version_details'::regclass, 'insights.version_answers'::regclass)
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.conname);
  END LOOP;
END $$;

CREATE FUNCTION insights.delete_version_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM insights.requirements x USING gone g WHERE x.system = g.system AND x.name = g.name AND x.version = g.version;
  DELETE FROM insights.artifacts x USING gone g WHERE x.system = g.system AND x.name = g.name AND x.version = g.version;
  DELETE FROM insights.project_versions x USING gone g WHERE x.system = g.system AND x.name = g.name AND x.version = g.version;
  DELETE FROM insights.version_details x USING gone g WHERE x.system = g.system AND x.name = g.name AND x.version = g.version;
  DELETE FROM insights.version_answers x USING gone g WHERE x.system = g.system AND x.name = g.name AND x.version = g.version;
  RETURN NULL;
END $$;
CREATE TRIGGER versions_delete_rows AFTER DELETE ON insights.versions
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION insights.delete_version_rows();

CREATE FUNCTION insights.delete_package_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM insights.versions v USING gone g WHERE v.system = g.system AND v.name = g.name;
  RETURN NULL;
END $$;
CREATE TRIGGER packages_delete_versions AFTER DELETE ON insights.packages
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION insights.delete_package_versions();

-- Every child row of a package, orphans included (a version's details written while its package was being
-- replaced): the store calls this after deleting the package's versions, before inserting them again.
CREATE FUNCTION insights.delete_package_rows(s text, n text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM insights.requirements WHERE system = s AND name = n;
  DELETE FROM insights.artifacts WHERE system = s AND name = n;
  DELETE FROM insights.project_versions WHERE system = s AND name = n;
  DELETE FROM insights.version_details WHERE system = s AND name = n;
  DELETE FROM insights.version_answers WHERE system = s AND name = n;
$$;

-- The dependents index (0161) computes each requirements row's dependency names when the row is written. Its
-- functions read the row as `json`, which parses the text again at every `->`: at 893 webpack versions that
-- was 1.4 s of the store. The same edges, read from one `jsonb` conversion per row; the index is rebuilt.
DROP INDEX insights.requirements_names;
CREATE FUNCTION insights.jsonb_list(j jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN j END
$$;
CREATE OR REPLACE FUNCTION insights.requirement_edges(p_system text, r json) RETURNS TABLE (dep text, requirement text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT x.dep, x.requirement FROM (SELECT r::jsonb AS b) j CROSS JOIN LATERAL (
    SELECT e->>'name' AS dep, COALESCE(e->>'requirement', '') AS requirement
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'NPM' THEN
        j.b->'npm'->'dependencies'->'dependencies' END)) e
    UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'NPM' THEN
        j.b->'npm'->'dependencies'->'optionalDependencies' END)) e
    UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'NPM' THEN
        j.b->'npm'->'dependencies'->'peerDependencies' END)) e
    UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'CARGO' THEN j.b->'cargo'->'dependencies' END)) e
      WHERE COALESCE(e->>'kind', '') <> 'dev'
    UNION ALL SELECT e->>'name', COALESCE(e->>'version', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'MAVEN' THEN j.b->'maven'->'dependencies' END)) e
      WHERE COALESCE(e->>'scope', '') NOT IN ('test', 'provided', 'system')
    UNION ALL SELECT lower(regexp_replace(e->>'projectName', '[-_.]+', '-', 'g')), COALESCE(e->>'versionSpecifier', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'PYPI' THEN j.b->'pypi'->'dependencies' END)) e
      WHERE COALESCE(e->>'environmentMarker', '') NOT LIKE '%extra%'
    UNION ALL SELECT lower(d->>'name'), COALESCE(d->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'NUGET' THEN j.b->'nuget'->'dependencyGroups' END)) g
      CROSS JOIN LATERAL jsonb_array_elements(insights.jsonb_list(g->'dependencies')) d
    UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'RUBYGEMS' THEN
        j.b->'rubygems'->'runtimeDependencies' END)) e
    UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
      FROM jsonb_array_elements(insights.jsonb_list(CASE WHEN p_system = 'GO' THEN j.b->'go'->'directDependencies' END)) e
  ) x
$$;
CREATE INDEX requirements_names ON insights.requirements USING gin (insights.requirement_names(system, requirements));
