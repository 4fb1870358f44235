-- The v3alpha Version built from an already built v3 Version. Storing both answers of a version
-- (src/insights/stored-answers.ts) called insights.version_json twice per row, once directly and once
-- inside version_json_alpha(v); the two-argument form takes the v3 text that was just built.
-- Same keys, same order, same bytes as version_json_alpha(v) of 0163, which now delegates to it.
CREATE FUNCTION insights.version_json_alpha(v insights.versions, v3 json) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_object_agg(e.key, e.value ORDER BY array_position(ARRAY['versionKey', 'purl', 'publishedAt',
      'isDefault', 'isDeprecated', 'deprecatedReason', 'licenses', 'advisoryKeys', 'links', 'slsaProvenances',
      'attestations', 'registries', 'relatedProjects', 'upstreamIdentifiers', 'projectStatus'], e.key))
  FROM (
    SELECT j.key, j.value FROM json_each(v3) j
    UNION ALL SELECT 'purl', to_json(insights.purl(v.system, v.name, v.version))
    UNION ALL SELECT 'upstreamIdentifiers', CASE WHEN v.system = 'NPM' THEN json_build_array(json_build_object(
      'packageName', v.name, 'versionString', v.upstream_version, 'source', 'NPM_NPMJS_ORG')) ELSE '[]'::json END
  ) e
$$;

CREATE OR REPLACE FUNCTION insights.version_json_alpha(v insights.versions) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT insights.version_json_alpha(v, insights.version_json(v))
$$;
