-- Insights service (deps.dev v3 compatible). Schema `insights`.
--
-- Names and versions are stored canonical: `name` is the canonical package name (PyPI PEP 503,
-- Maven `group:artifact`, others as the registry spells them) and `version` is `canon()` from
-- src/versions (falling back to the upstream text when that cannot parse it); `upstream_version`
-- keeps the registry's own spelling.
--
-- Columns that are returned verbatim in API responses are `json` (not `jsonb`): json keeps key
-- order, and deps.dev clients see keys in proto field order.
--
-- versions.meta (jsonb) holds per-system attributes a resolver needs beyond the requirements:
--   NPM      {distTags?, os[], cpu[], engines{}, deprecated?}          (distTags on the package row)
--   CARGO    {yanked, links?, rustVersion?}
--   MAVEN    {packaging?, relocation?{groupId, artifactId, version, message}}
--   PYPI     {yanked, yankedReason?, requiresPython}
--   NUGET    {listed}
--   RUBYGEMS {platform}
--   GO       {}
-- requirements.requirements (json) is exactly the deps.dev `Requirements` message for the version
-- (one of {"npm"|"cargo"|"maven"|"pypi"|"nuget"|"rubygems"|"go": ...}):
--   npm      dependencies{dependencies, devDependencies, optionalDependencies, peerDependencies,
--            bundleDependencies, peerDependencyMetadata}, bundled[], os[], cpu[]
--   cargo    dependencies[{name (real crate), requirement, kind normal|dev|build, optional,
--            packageAlias (local name when renamed), usesDefaultFeatures, features[], target}],
--            features[{name, implies[]}]
--   maven    the POM as declared (no parent merge, no interpolation): parent, dependencies,
--            dependencyManagement (with exclusions), properties, repositories, profiles, registry
--   pypi     dependencies[{projectName, extras, versionSpecifier, environmentMarker}] from
--            requires_dist, providedExtras, externalDependencies, requiredPythonVersion
--   nuget    dependencyGroups[{targetFramework, dependencies[{name, requirement}]}]
--   rubygems runtimeDependencies, devDependencies, platform, requiredRubyVersion, requiredRubygemsVersion
--   go       directDependencies, indirectDependencies (from go.mod), replaces, excludes
-- Requirement lists are sorted by name (deps.dev order).

CREATE SCHEMA IF NOT EXISTS insights;

CREATE TABLE insights.packages (
  system text NOT NULL,
  name text NOT NULL,
  dist_tags jsonb NOT NULL DEFAULT '{}',
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name)
);

CREATE TABLE insights.versions (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  upstream_version text NOT NULL,
  -- position in the system's version order (ascending), set at ingestion
  ordinal integer NOT NULL,
  published_at timestamptz,
  is_default boolean NOT NULL DEFAULT false,
  is_deprecated boolean NOT NULL DEFAULT false,
  deprecated_reason text NOT NULL DEFAULT '',
  licenses json NOT NULL DEFAULT '[]',
  links json NOT NULL DEFAULT '[]',
  slsa_provenances json NOT NULL DEFAULT '[]',
  attestations json NOT NULL DEFAULT '[]',
  registries json NOT NULL DEFAULT '[]',
  project_status json,
  meta jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (system, name, version),
  FOREIGN KEY (system, name) REFERENCES insights.packages (system, name) ON DELETE CASCADE
);
CREATE INDEX versions_order ON insights.versions (system, name, ordinal);

CREATE TABLE insights.requirements (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  requirements json NOT NULL,
  PRIMARY KEY (system, name, version),
  FOREIGN KEY (system, name, version) REFERENCES insights.versions (system, name, version) ON DELETE CASCADE
);

-- Release artifacts (tarballs, wheels, jars, ...) and their hashes, for Query by hash.
CREATE TABLE insights.artifacts (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  url text NOT NULL DEFAULT '',
  hash_type text NOT NULL,
  hash_value bytea NOT NULL,
  FOREIGN KEY (system, name, version) REFERENCES insights.versions (system, name, version) ON DELETE CASCADE
);
CREATE INDEX artifacts_hash ON insights.artifacts (hash_type, hash_value);
CREATE INDEX artifacts_version ON insights.artifacts (system, name, version);

-- OSV records. cvss3_score is the CVSS v3.x base score computed from cvss3_vector.
CREATE TABLE insights.advisories (
  id text PRIMARY KEY,
  url text NOT NULL,
  title text NOT NULL DEFAULT '',
  aliases json NOT NULL DEFAULT '[]',
  cvss3_score double precision NOT NULL DEFAULT 0,
  cvss3_vector text NOT NULL DEFAULT '',
  modified timestamptz,
  osv jsonb NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now()
);

-- Which stored package of an advisory's affected[] entries (for recomputation when versions change).
CREATE TABLE insights.advisory_packages (
  advisory_id text NOT NULL REFERENCES insights.advisories (id) ON DELETE CASCADE,
  system text NOT NULL,
  name text NOT NULL,
  PRIMARY KEY (advisory_id, system, name)
);
CREATE INDEX advisory_packages_pkg ON insights.advisory_packages (system, name);

-- Computed: versions affected by an advisory (OSV ranges evaluated with src/versions).
CREATE TABLE insights.advisory_versions (
  advisory_id text NOT NULL REFERENCES insights.advisories (id) ON DELETE CASCADE,
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  PRIMARY KEY (system, name, version, advisory_id)
);
CREATE INDEX advisory_versions_adv ON insights.advisory_versions (advisory_id);

CREATE TABLE insights.projects (
  id text PRIMARY KEY,
  open_issues_count integer NOT NULL DEFAULT 0,
  stars_count integer NOT NULL DEFAULT 0,
  forks_count integer NOT NULL DEFAULT 0,
  license text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  homepage text NOT NULL DEFAULT '',
  scorecard json,
  oss_fuzz json,
  fetched_at timestamptz NOT NULL DEFAULT now()
);

-- Project <-> package version mappings: the source of Version.relatedProjects and of
-- GetProjectPackageVersions. relation_provenance SLSA_ATTESTATION / *_PUBLISH_ATTESTATION rows
-- come from attestations and are served first.
CREATE TABLE insights.project_versions (
  project_id text NOT NULL,
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  relation_type text NOT NULL,
  relation_provenance text NOT NULL,
  from_attestation boolean NOT NULL DEFAULT false,
  slsa_provenances json NOT NULL DEFAULT '[]',
  attestations json NOT NULL DEFAULT '[]',
  PRIMARY KEY (system, name, version, relation_type, project_id),
  FOREIGN KEY (system, name, version) REFERENCES insights.versions (system, name, version) ON DELETE CASCADE
);
CREATE INDEX project_versions_project ON insights.project_versions (project_id, from_attestation DESC);

-- RFC 3339 in UTC, whole seconds (what deps.dev serves).
CREATE FUNCTION insights.rfc3339(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
$$;

-- The deps.dev v3 `Version` message of one row, keys in proto order, defaults emitted,
-- publishedAt/projectStatus omitted when unset.
CREATE FUNCTION insights.version_json(v insights.versions) RETURNS json LANGUAGE sql STABLE AS $$
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
    'slsaProvenances', v.slsa_provenances,
    'attestations', v.attestations,
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
