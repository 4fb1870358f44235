-- Purl lookups match Go module paths case-insensitively (src/insights/purl-target.ts; deps.dev #299, #93):
-- stored GO paths by their lower-cased form, so the fold is an index lookup, not a scan of the GO packages.
CREATE INDEX IF NOT EXISTS packages_go_path_fold ON insights.packages (lower(name)) WHERE system = 'GO';
