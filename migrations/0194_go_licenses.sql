-- Go licences detected from a module version's source zip (issue 34; src/insights/go-licenses.ts): kept per
-- version apart from the version row, which a re-ingestion of the module replaces; the package write copies
-- them back into insights.versions.licenses and insights.version_details (queries-write-package.ts).
CREATE TABLE IF NOT EXISTS insights.go_licenses (
  name text NOT NULL,
  version text NOT NULL,
  licenses json NOT NULL,
  license_details json NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, version)
);
