-- v3alpha Version fields stored at ingestion, beside insights.versions (whose row and answer functions
-- are left as they are): `licenseDetails` (each licence text as the registry publishes it - npm
-- `license`, PyPI License-Expression / License / trove classifiers, Cargo `license`, Maven POM
-- <licenses>, NuGet licence expression, RubyGems `licenses` - with its SPDX reading) and
-- `upstreamIdentifiers` (npm: the published version spelling; PyPI: the release file names' and the
-- METADATA file's spellings of name and version). NULL upstream_identifiers: none recorded at ingestion
-- (a version stored before this table, or a system deps.dev records none for); the answer then keeps what
-- insights.version_json_alpha gives. Read and added to a Version answer by src/insights/version-alpha.ts.
-- Version.cooldown is not stored: it depends on the time of the request.
CREATE TABLE insights.version_details (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  license_details json NOT NULL DEFAULT '[]',
  upstream_identifiers json,
  PRIMARY KEY (system, name, version),
  FOREIGN KEY (system, name, version) REFERENCES insights.versions (system, name, version) ON DELETE CASCADE
);
