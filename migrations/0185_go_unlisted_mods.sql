-- Go: go.mod files of module versions the proxy's `@v/list` does not show (pseudo-versions) that a
-- dependency resolution read on demand. They are not versions of the package (GetPackage lists what the
-- proxy lists), but a pseudo-version names one commit, so its go.mod never changes: kept here, a graph
-- recomputed from stored modules needs no proxy request for them. Deleted with their package.
CREATE TABLE insights.unlisted_requirements (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  requirements json NOT NULL,
  PRIMARY KEY (system, name, version),
  FOREIGN KEY (system, name) REFERENCES insights.packages (system, name) ON DELETE CASCADE
);
