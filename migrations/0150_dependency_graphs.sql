-- Resolved dependency graphs (GetDependencies), cached per root version. `packages` lists every
-- package the resolution read, so a change to any of them (new version, new requirements) deletes
-- the cached graphs that depend on it (triggers below). `body` is the response as served.
CREATE TABLE insights.dependency_graphs (
  system text NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  packages text[] NOT NULL,
  body json NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name, version)
);
CREATE INDEX dependency_graphs_packages ON insights.dependency_graphs USING gin (packages);

CREATE FUNCTION insights.invalidate_dependency_graphs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM insights.dependency_graphs WHERE system = OLD.system AND packages @> ARRAY[OLD.name];
    RETURN OLD;
  END IF;
  DELETE FROM insights.dependency_graphs WHERE system = NEW.system AND packages @> ARRAY[NEW.name];
  RETURN NEW;
END $$;

CREATE TRIGGER versions_invalidate_graphs AFTER INSERT OR UPDATE OR DELETE ON insights.versions
  FOR EACH ROW EXECUTE FUNCTION insights.invalidate_dependency_graphs();
CREATE TRIGGER requirements_invalidate_graphs AFTER INSERT OR UPDATE OR DELETE ON insights.requirements
  FOR EACH ROW EXECUTE FUNCTION insights.invalidate_dependency_graphs();
CREATE TRIGGER packages_invalidate_graphs AFTER UPDATE OF dist_tags ON insights.packages
  FOR EACH ROW EXECUTE FUNCTION insights.invalidate_dependency_graphs();
