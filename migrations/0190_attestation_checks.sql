-- Sigstore verification of attestations (src/insights/attestation-checks.ts): one row per attestation
-- document (npm's `/-/npm/v1/attestations/...`, PyPI's integrity API provenance of one file) once it has
-- been verified, off the request path. Until then there is no row and the answer says `verified: false`.
-- A row outlives re-ingestion of the package (a document never changes), so verification runs once.
CREATE TABLE insights.attestation_checks (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  url text NOT NULL,
  verified boolean NOT NULL,
  reason text NOT NULL DEFAULT '',
  checked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name, version, url)
);

-- npm attestation documents as read, kept until their check has run (so the check does not fetch them again).
CREATE TABLE insights.attestation_documents (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  url text NOT NULL,
  document json NOT NULL,
  PRIMARY KEY (system, name, version, url)
);

-- A stored slsaProvenances/attestations list with each entry's `verified` taken from its document's
-- check (false when unchecked); every other member, and the members' order, as stored.
CREATE FUNCTION insights.checked_attestations(s text, n text, ver text, list json) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN json_array_length(list) = 0 THEN list ELSE (
    SELECT json_agg((
      SELECT json_object_agg(f.key, CASE WHEN f.key = 'verified' THEN to_json(COALESCE(c.verified, false)) ELSE f.value END
        ORDER BY f.ord)
      FROM json_each(e.value) WITH ORDINALITY f(key, value, ord)) ORDER BY e.ord)
    FROM json_array_elements(list) WITH ORDINALITY e(value, ord)
    LEFT JOIN insights.attestation_checks c
      ON c.system = s AND c.name = n AND c.version = ver AND c.url = e.value->>'url')
  END
$$;

-- 0100's Version message, with slsaProvenances and attestations through their checks.
CREATE OR REPLACE FUNCTION insights.version_json(v insights.versions) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_strip_nulls(json_build_object(
    'versionKey', json_build_object('system', v.system, 'name', v.name, 'version', v.version),
    'publishedAt', insights.rfc3339(v.published_at),
    'isDefault', v.is_default,
    'isDeprecated', v.is_deprecated,
    'deprecatedReason', v.deprecated_reason,
    'licenses', v.licenses,
    'advisoryKeys', COALESCE((
      SELECT json_agg(json_build_object('id', a.advisory_id) ORDER BY a.advisory_id COLLATE "C")
      FROM insights.advisory_versions a
      WHERE a.system = v.system AND a.name = v.name AND a.version = v.version), '[]'::json),
    'links', v.links,
    'slsaProvenances', insights.checked_attestations(v.system, v.name, v.version, v.slsa_provenances),
    'attestations', insights.checked_attestations(v.system, v.name, v.version, v.attestations),
    'registries', v.registries,
    'relatedProjects', COALESCE((
      SELECT json_agg(json_build_object('projectKey', json_build_object('id', p.project_id),
        'relationProvenance', p.relation_provenance, 'relationType', p.relation_type)
        ORDER BY p.relation_type COLLATE "C", p.project_id COLLATE "C")
      FROM insights.project_versions p
      WHERE p.system = v.system AND p.name = v.name AND p.version = v.version), '[]'::json),
    'projectStatus', v.project_status
  ))
$$;
