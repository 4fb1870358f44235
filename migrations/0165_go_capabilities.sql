-- GetCapabilities (src/insights/capabilities.ts): the answer of a Go module version, computed once from its
-- source zip (a version's source never changes on the Go proxy) and kept with the version.
CREATE TABLE IF NOT EXISTS insights.go_capabilities (
  name text NOT NULL,
  version text NOT NULL,
  body json NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, version)
);
