-- GetSimilarlyNamedPackages (src/insights/similar-names.ts): typosquat candidates among the stored
-- packages, answered from a btree, not a scan of the names.
--
-- name_skeleton: the name as a reader confuses it: lower-cased; homoglyphs folded (0 -> o, 1 and | -> l,
-- Cyrillic а е о р с х у і ј -> their Latin look-alikes, then rn -> m, vv -> w); separators dropped
-- (- _ . @ / : and spaces). Two names with one skeleton collide (`lo-dash`, `Lodash`, `l0dash`, `lodash`).
-- name_keys: the skeleton and, for skeletons of 4+ characters, each one-character deletion of it
-- (the "symmetric delete" scheme): two skeletons within Damerau distance 1 (one insertion, deletion,
-- substitution or adjacent transposition) always share a key, so the candidates of a name are the rows
-- whose key is one of its keys: a few btree probes. Sharing a key does not imply distance 1 (`xab`,
-- `abx`); the service checks the distance of every candidate before answering it. `ROWS 20` tells the
-- planner a name has about that many keys (not the default 1000), so it probes the btree at any size.
CREATE FUNCTION insights.name_skeleton(p_name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT replace(replace(translate(lower(p_name), '01|аеорсхуіј-_.@/: ', 'ollaeopcxyij'), 'rn', 'm'), 'vv', 'w')
$$;

CREATE FUNCTION insights.name_keys(p_name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 20 AS $$
  SELECT k.s FROM (SELECT insights.name_skeleton(p_name) AS s) k WHERE k.s <> ''
  UNION
  SELECT overlay(k.s PLACING '' FROM i FOR 1) FROM (SELECT insights.name_skeleton(p_name) AS s) k
    CROSS JOIN LATERAL generate_series(1, length(k.s)) i WHERE length(k.s) >= 4
$$;

CREATE TABLE insights.package_name_keys (
  system text NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  PRIMARY KEY (system, key, name),
  FOREIGN KEY (system, name) REFERENCES insights.packages (system, name) ON DELETE CASCADE
);
CREATE INDEX package_name_keys_name ON insights.package_name_keys (system, name);

CREATE FUNCTION insights.index_package_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insights.package_name_keys (system, key, name)
    SELECT a.system, k, a.name FROM added a CROSS JOIN LATERAL insights.name_keys(a.name) k
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER packages_name_keys AFTER INSERT ON insights.packages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION insights.index_package_names();

INSERT INTO insights.package_name_keys (system, key, name)
  SELECT p.system, k, p.name FROM insights.packages p CROSS JOIN LATERAL insights.name_keys(p.name) k
  ON CONFLICT DO NOTHING;
