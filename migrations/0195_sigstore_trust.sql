-- Sigstore trust data refreshed from Sigstore's TUF repository (issue 34; src/insights/attestations/
-- tuf-refresh.ts): the TUF root the next refresh chains from, the metadata versions seen (rollback check),
-- the verified trusted root and npm registry keys (merged with the ones held before: old keys keep their
-- validity windows), and when it was last tried and refreshed. One row per repository; none until the first
-- refresh, and verification uses the data in the repository (attestations/*.json) until then.
CREATE TABLE IF NOT EXISTS insights.sigstore_trust (
  repository text PRIMARY KEY,
  tuf_root json,
  timestamp_version integer NOT NULL DEFAULT 0,
  snapshot_version integer NOT NULL DEFAULT 0,
  targets_version integer NOT NULL DEFAULT 0,
  trusted_root json,
  npm_keys json,
  refreshed_at timestamptz,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  error text NOT NULL DEFAULT ''
);
