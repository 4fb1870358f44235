-- Who declares a dependency on a package (GetDependents, src/insights/queries-dependents.ts): the runtime
-- dependency edges of a requirements row, one (dependency name, requirement) per declared dependency, in
-- each system's layout (0100_insights.sql): npm dependencies, optionalDependencies and peerDependencies;
-- Cargo non-dev dependencies (the real crate name); Maven dependencies outside test/provided/system
-- scope (`version` as the requirement, '' when managed elsewhere); PyPI requires_dist without an
-- `extra` marker (names PEP 503-normalised); NuGet every group (ids lower-cased); RubyGems runtime
-- dependencies; Go go.mod's direct requirements. Dev/test dependencies are not installed by a
-- dependent's users, so they make no dependent.
-- A member that is not an array (a malformed or foreign row) reads as empty, so no insert can fail here.
CREATE FUNCTION insights.json_list(j json) RETURNS json LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN json_typeof(j) = 'array' THEN j END
$$;

CREATE FUNCTION insights.requirement_edges(p_system text, r json) RETURNS TABLE (dep text, requirement text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'NPM' THEN
      r->'npm'->'dependencies'->'dependencies' END)) e
  UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'NPM' THEN
      r->'npm'->'dependencies'->'optionalDependencies' END)) e
  UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'NPM' THEN
      r->'npm'->'dependencies'->'peerDependencies' END)) e
  UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'CARGO' THEN r->'cargo'->'dependencies' END)) e
    WHERE COALESCE(e->>'kind', '') <> 'dev'
  UNION ALL SELECT e->>'name', COALESCE(e->>'version', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'MAVEN' THEN r->'maven'->'dependencies' END)) e
    WHERE COALESCE(e->>'scope', '') NOT IN ('test', 'provided', 'system')
  UNION ALL SELECT lower(regexp_replace(e->>'projectName', '[-_.]+', '-', 'g')), COALESCE(e->>'versionSpecifier', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'PYPI' THEN r->'pypi'->'dependencies' END)) e
    WHERE COALESCE(e->>'environmentMarker', '') NOT LIKE '%extra%'
  UNION ALL SELECT lower(d->>'name'), COALESCE(d->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'NUGET' THEN r->'nuget'->'dependencyGroups' END)) g
    CROSS JOIN LATERAL json_array_elements(insights.json_list(g->'dependencies')) d
  UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'RUBYGEMS' THEN
      r->'rubygems'->'runtimeDependencies' END)) e
  UNION ALL SELECT e->>'name', COALESCE(e->>'requirement', '')
    FROM json_array_elements(insights.json_list(CASE WHEN p_system = 'GO' THEN r->'go'->'directDependencies' END)) e
$$;

CREATE FUNCTION insights.requirement_names(p_system text, r json) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(DISTINCT e.dep), '{}') FROM insights.requirement_edges(p_system, r) e
$$;

CREATE INDEX requirements_names ON insights.requirements USING gin (insights.requirement_names(system, requirements));
