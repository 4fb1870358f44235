-- Insights answers in one JSON spelling: compact, as JSON.stringify prints (issue 38). PostgreSQL's `json`
-- text keeps the spacing of the function that built it: json_build_object writes `{"a" : 1, "b" : 2}`,
-- json_agg `[1, 2]`, json_object_agg `{ "a" : 1 }`, while row_to_json and json_strip_nulls write compact
-- text. json_strip_nulls re-emits its argument compactly (strings re-escaped as JSON.stringify does; numbers
-- as written, which for the integer and double columns served here is already JavaScript's spelling), and
-- it drops null object members, which deps.dev's proto3 JSON never carries (absent is omitted), so it is
-- the normaliser: applied where an answer is BUILT, never on the read of a stored answer.
--
-- Here: the builders of the stored answers (0175, 0176) return compact text, and the answers already stored
-- are rewritten once. The answers built on read (advisory, project versions, requirements of Go and Maven,
-- query, container images) apply it in their queries (src/insights/queries*.ts). Version (v3) answers were
-- compact already (insights.version_json ends in json_strip_nulls); graphs and capabilities are stored from
-- JSON.stringify text.

CREATE OR REPLACE FUNCTION insights.package_json(p_system text, p_name text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_strip_nulls(json_build_object(
    'packageKey', json_build_object('system', p_system, 'name', p_name),
    'versions', COALESCE((SELECT json_agg(json_build_object(
        'versionKey', json_build_object('system', v.system, 'name', v.name, 'version', v.version),
        'publishedAt', insights.rfc3339(v.published_at), 'isDefault', v.is_default,
        'isDeprecated', v.is_deprecated, 'deprecatedReason', v.deprecated_reason) ORDER BY v.ordinal)
      FROM insights.versions v WHERE v.system = p_system AND v.name = p_name), '[]'::json)))
$$;

CREATE OR REPLACE FUNCTION insights.package_json_alpha(p_system text, p_name text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_strip_nulls(json_build_object(
    'packageKey', json_build_object('system', p_system, 'name', p_name),
    'purl', insights.purl(p_system, p_name, NULL),
    'versions', COALESCE((SELECT json_agg(json_build_object(
        'versionKey', json_build_object('system', v.system, 'name', v.name, 'version', v.version),
        'purl', insights.purl(v.system, v.name, v.version),
        'publishedAt', insights.rfc3339(v.published_at), 'isDefault', v.is_default,
        'isDeprecated', v.is_deprecated, 'deprecatedReason', v.deprecated_reason) ORDER BY v.ordinal)
      FROM insights.versions v WHERE v.system = p_system AND v.name = p_name), '[]'::json)))
$$;

CREATE OR REPLACE FUNCTION insights.version_json_alpha(v insights.versions, v3 json) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_strip_nulls(json_object_agg(e.key, e.value ORDER BY array_position(ARRAY['versionKey', 'purl',
      'publishedAt', 'isDefault', 'isDeprecated', 'deprecatedReason', 'licenses', 'advisoryKeys', 'links',
      'slsaProvenances', 'attestations', 'registries', 'relatedProjects', 'upstreamIdentifiers', 'projectStatus'],
      e.key)))
  FROM (
    SELECT j.key, j.value FROM json_each(v3) j
    UNION ALL SELECT 'purl', to_json(insights.purl(v.system, v.name, v.version))
    UNION ALL SELECT 'upstreamIdentifiers', CASE WHEN v.system = 'NPM' THEN json_build_array(json_build_object(
      'packageName', v.name, 'versionString', v.upstream_version, 'source', 'NPM_NPMJS_ORG')) ELSE '[]'::json END
  ) e
$$;

-- The answers stored before: the same documents, compact.
UPDATE insights.version_answers SET v3 = json_strip_nulls(v3), alpha = json_strip_nulls(alpha);
UPDATE insights.packages SET answer_v3 = json_strip_nulls(answer_v3), answer_alpha = json_strip_nulls(answer_alpha)
WHERE answer_v3 IS NOT NULL OR answer_alpha IS NOT NULL;
