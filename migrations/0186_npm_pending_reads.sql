-- npm versions are stored before their tarball (bundled manifests) and attestations document are read:
-- versions.meta `npmTarball` / `npmAttestations` name what is still to read (src/insights/ingest/npm-pending.ts),
-- and reading it later fills in requirements.npm.bundled (from []) or the attestation columns and drops
-- the key. That changes no cached graph: a graph reads the tarball of every pending version it holds
-- before it is cached, and attestations are no graph input. So these two updates no longer delete the
-- cached graphs of the package (0150); every other change still does.
DROP TRIGGER versions_invalidate_graphs ON insights.versions;
CREATE TRIGGER versions_invalidate_graphs AFTER INSERT OR DELETE ON insights.versions
  FOR EACH ROW EXECUTE FUNCTION insights.invalidate_dependency_graphs();
CREATE TRIGGER versions_update_invalidate_graphs AFTER UPDATE ON insights.versions
  FOR EACH ROW WHEN (
    OLD.system IS DISTINCT FROM NEW.system OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.version IS DISTINCT FROM NEW.version OR OLD.upstream_version IS DISTINCT FROM NEW.upstream_version
    OR OLD.ordinal IS DISTINCT FROM NEW.ordinal OR OLD.published_at IS DISTINCT FROM NEW.published_at
    OR OLD.is_default IS DISTINCT FROM NEW.is_default OR OLD.is_deprecated IS DISTINCT FROM NEW.is_deprecated
    OR (OLD.meta - 'npmTarball' - 'npmAttestations') IS DISTINCT FROM (NEW.meta - 'npmTarball' - 'npmAttestations'))
  EXECUTE FUNCTION insights.invalidate_dependency_graphs();

DROP TRIGGER requirements_invalidate_graphs ON insights.requirements;
CREATE TRIGGER requirements_invalidate_graphs AFTER INSERT OR DELETE ON insights.requirements
  FOR EACH ROW EXECUTE FUNCTION insights.invalidate_dependency_graphs();
CREATE TRIGGER requirements_update_invalidate_graphs AFTER UPDATE ON insights.requirements
  FOR EACH ROW WHEN (NOT (
    OLD.system = 'NPM' AND NEW.system = 'NPM' AND OLD.name = NEW.name AND OLD.version = NEW.version
    AND (OLD.requirements::jsonb #> '{npm,bundled}') = '[]'::jsonb
    AND (OLD.requirements::jsonb #- '{npm,bundled}') = (NEW.requirements::jsonb #- '{npm,bundled}')))
  EXECUTE FUNCTION insights.invalidate_dependency_graphs();
