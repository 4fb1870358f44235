-- v3alpha-only fields (deps.dev api/v3alpha): `purl` on Package, Package.Version and Version, and
-- Version.upstreamIdentifiers, in proto declaration order (versionKey, purl, publishedAt, ...,
-- relatedProjects, upstreamIdentifiers). Served by the /v3alpha routes only; /v3 answers are unchanged.
--
-- purl: `pkg:<type>/<namespace>/<name>@<version>` (purl spec; types npm, pypi, cargo, maven, nuget, gem,
-- golang): npm scopes and Go module paths keep their `/` as namespace separators, a Maven name is
-- `group/artifact`; `%`, `@`, `?`, `#` and spaces in a segment are percent-encoded (`@colors/colors` ->
-- `pkg:npm/%40colors/colors`). The purl is built from the canonical name and version, as deps.dev's
-- ("may differ from the names in the request, due to canonicalization"); GET /v3alpha/purl takes it back.
-- upstreamIdentifiers: what the registry called the version before canonicalisation. Only npm's is
-- known here ({packageName, versionString: the published spelling, source: NPM_NPMJS_ORG}); PyPI's
-- sources (release file name, METADATA) carry the un-normalised project name, which is not stored, so
-- other systems answer [].
CREATE FUNCTION insights.purl_segment(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT replace(replace(replace(replace(replace(s, '%', '%25'), '@', '%40'), '?', '%3F'), '#', '%23'), ' ', '%20')
$$;

CREATE FUNCTION insights.purl(p_system text, p_name text, p_version text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'pkg:' || CASE p_system WHEN 'NPM' THEN 'npm' WHEN 'PYPI' THEN 'pypi' WHEN 'CARGO' THEN 'cargo'
      WHEN 'MAVEN' THEN 'maven' WHEN 'NUGET' THEN 'nuget' WHEN 'RUBYGEMS' THEN 'gem' WHEN 'GO' THEN 'golang' END
    || '/' || (SELECT string_agg(insights.purl_segment(u.part), '/' ORDER BY u.i)
      FROM unnest(CASE WHEN p_system = 'MAVEN' THEN string_to_array(p_name, ':')
        WHEN p_system IN ('NPM', 'GO') THEN string_to_array(p_name, '/') ELSE ARRAY[p_name] END)
        WITH ORDINALITY AS u(part, i))
    || CASE WHEN p_version IS NULL THEN '' ELSE '@' || insights.purl_segment(p_version) END
$$;

CREATE FUNCTION insights.version_json_alpha(v insights.versions) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_object_agg(e.key, e.value ORDER BY array_position(ARRAY['versionKey', 'purl', 'publishedAt',
      'isDefault', 'isDeprecated', 'deprecatedReason', 'licenses', 'advisoryKeys', 'links', 'slsaProvenances',
      'attestations', 'registries', 'relatedProjects', 'upstreamIdentifiers', 'projectStatus'], e.key))
  FROM (
    SELECT j.key, j.value FROM json_each(insights.version_json(v)) j
    UNION ALL SELECT 'purl', to_json(insights.purl(v.system, v.name, v.version))
    UNION ALL SELECT 'upstreamIdentifiers', CASE WHEN v.system = 'NPM' THEN json_build_array(json_build_object(
      'packageName', v.name, 'versionString', v.upstream_version, 'source', 'NPM_NPMJS_ORG')) ELSE '[]'::json END
  ) e
$$;
