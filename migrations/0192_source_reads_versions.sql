-- Read status per version and per project (issue 31: unknown is not empty for every source that may fail).
-- insights.source_reads (0186) gains `version`: '' for what is read per package (`osv`, `registry`) or per
-- project (`project`: the host API, `scorecard`: the OpenSSF Scorecard API; system 'PROJECT', name the
-- project id), the version for what is read per version (`attestations`: an npm attestations document or
-- PyPI's integrity API). A version's attestations still to read are also marked in its `meta`
-- (`npmAttestations` pending, `attestationsError` a failed PyPI read); this table says when.
ALTER TABLE insights.source_reads ADD COLUMN version text NOT NULL DEFAULT '';
ALTER TABLE insights.source_reads DROP CONSTRAINT source_reads_pkey;
ALTER TABLE insights.source_reads ADD PRIMARY KEY (system, name, source, version);
