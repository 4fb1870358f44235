-- The target environment a cached graph was resolved for (src/insights/resolve-target.ts: `node X` for
-- npm, `python X` for PyPI, '' otherwise). A graph cached for another target is a miss and is
-- recomputed, so changing RESOLVE_NODE_VERSION / RESOLVE_PYTHON_VERSION never serves a stale graph.
ALTER TABLE insights.dependency_graphs ADD COLUMN target text NOT NULL DEFAULT '';
