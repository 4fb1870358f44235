-- Stored answers of GetVersion and GetPackage (v3 and v3alpha): the response text, built once when a
-- package's data is written instead of on every read. A read is then one primary-key lookup of a stored
-- document (src/insights/queries.ts); an answer that is not stored (a package never written through
-- src/insights/queries-write.ts, or a partial one) is built on read by the same functions, so the bytes
-- served are the same either way.
--
-- Kept current by src/insights/stored-answers.ts, called explicitly from every write in
-- src/insights/queries-write.ts (no trigger): a package's store rewrites its version answers and its
-- package answer; advisories linked or unlinked later rewrite the answers of the versions they touched;
-- version details filled in later rewrite both. Rows go with their version (FOREIGN KEY ... CASCADE).
--
-- Bodies: insights.version_json / insights.version_json_alpha (0100, 0163) for a Version, and
-- insights.package_json / insights.package_json_alpha below for a Package. Clock-dependent fields are
-- not stored; they are added where the answer is served.

CREATE TABLE insights.version_answers (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  v3 json NOT NULL,
  alpha json NOT NULL,
  PRIMARY KEY (system, name, version),
  FOREIGN KEY (system, name, version) REFERENCES insights.versions (system, name, version) ON DELETE CASCADE
);

ALTER TABLE insights.packages ADD COLUMN answer_v3 json, ADD COLUMN answer_alpha json;

-- The deps.dev `Package` message: key, and every version (key, publishedAt, isDefault, isDeprecated,
-- deprecatedReason) in version order. The v3alpha one adds `purl` to the package and to each version.
CREATE FUNCTION insights.package_json(p_system text, p_name text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'packageKey', json_build_object('system', p_system, 'name', p_name),
    'versions', COALESCE((SELECT json_agg(json_strip_nulls(json_build_object(
        'versionKey', json_build_object('system', v.system, 'name', v.name, 'version', v.version),
        'publishedAt', insights.rfc3339(v.published_at), 'isDefault', v.is_default,
        'isDeprecated', v.is_deprecated, 'deprecatedReason', v.deprecated_reason)) ORDER BY v.ordinal)
      FROM insights.versions v WHERE v.system = p_system AND v.name = p_name), '[]'::json))
$$;

CREATE FUNCTION insights.package_json_alpha(p_system text, p_name text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'packageKey', json_build_object('system', p_system, 'name', p_name),
    'purl', insights.purl(p_system, p_name, NULL),
    'versions', COALESCE((SELECT json_agg(json_strip_nulls(json_build_object(
        'versionKey', json_build_object('system', v.system, 'name', v.name, 'version', v.version),
        'purl', insights.purl(v.system, v.name, v.version),
        'publishedAt', insights.rfc3339(v.published_at), 'isDefault', v.is_default,
        'isDeprecated', v.is_deprecated, 'deprecatedReason', v.deprecated_reason)) ORDER BY v.ordinal)
      FROM insights.versions v WHERE v.system = p_system AND v.name = p_name), '[]'::json))
$$;

-- Backfill: every fully stored package (partial ones, fetched_at NULL, are never served).
INSERT INTO insights.version_answers (system, name, version, v3, alpha)
SELECT v.system, v.name, v.version, insights.version_json(v), insights.version_json_alpha(v)
FROM insights.versions v JOIN insights.packages p ON p.system = v.system AND p.name = v.name
WHERE p.fetched_at IS NOT NULL;

UPDATE insights.packages SET answer_v3 = insights.package_json(system, name),
  answer_alpha = insights.package_json_alpha(system, name)
WHERE fetched_at IS NOT NULL;
