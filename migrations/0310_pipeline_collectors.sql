-- Pipeline collectors beyond feeds and pages: academic and open-source items keep their structured
-- fields (authors, venue, DOI, abstract, repository facts) next to the plain-text summary, and a
-- monitor may override a bound source's collection settings (the original's `source_overrides`).
ALTER TABLE pipeline.articles ADD COLUMN IF NOT EXISTS metadata jsonb NOT NULL DEFAULT '{}';
ALTER TABLE pipeline.monitors ADD COLUMN IF NOT EXISTS source_overrides jsonb NOT NULL DEFAULT '{}';
