-- What the resolvers read of a package, in one value: `resolve_doc` is a JSON array, in version order,
-- of [version, upstream spelling or null, meta without empty members] (src/insights/queries-dependencies.ts
-- versionsOf). One row per package instead of one per version, and a fraction of the bytes (a graph
-- such as jest's reads ~22k versions). Written by the store after a package's versions; set to NULL by
-- any change to its versions (trigger below) and computed on read until it is written again.
ALTER TABLE insights.packages ADD COLUMN resolve_doc json;

CREATE FUNCTION insights.resolve_doc(p_system text, p_name text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_agg(json_build_array(v.version, NULLIF(v.upstream_version, v.version),
      (SELECT COALESCE(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(v.meta) AS e
        WHERE e.value NOT IN ('[]'::jsonb, '{}'::jsonb, 'null'::jsonb, 'false'::jsonb))) ORDER BY v.ordinal)
  FROM insights.versions v WHERE v.system = p_system AND v.name = p_name
$$;

CREATE FUNCTION insights.forget_resolve_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE insights.packages SET resolve_doc = NULL WHERE system = OLD.system AND name = OLD.name AND resolve_doc IS NOT NULL;
    RETURN OLD;
  END IF;
  UPDATE insights.packages SET resolve_doc = NULL WHERE system = NEW.system AND name = NEW.name AND resolve_doc IS NOT NULL;
  RETURN NEW;
END $$;

CREATE TRIGGER versions_forget_resolve_doc AFTER INSERT OR UPDATE OR DELETE ON insights.versions
  FOR EACH ROW EXECUTE FUNCTION insights.forget_resolve_doc();
