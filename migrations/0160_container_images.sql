-- QueryContainerImages (v3alpha): image repositories that hold a given OCI layer chain. An image whose
-- config lists diff ids L0..Ln has the chain ids C0 = L0, Ck = sha256(C(k-1) + ' ' + Lk) (OCI image-spec
-- config.md "Layer ChainID"); one row per (chain id of every prefix, repository), so a query by any
-- prefix chain is one index lookup. Nothing in this service fills the table yet: the data would come
-- from crawling a registry (Docker Hub's `/v2/repositories/{namespace}` listing for repositories and
-- their star/pull counts, then each tag's manifest and config blob through the Distribution API for
-- the diff ids), written by an importer such as `npm run import`. Until then every chain id answers
-- an empty result list.
CREATE TABLE insights.container_images (
  chain_id text NOT NULL,
  repository text NOT NULL,
  registry text NOT NULL DEFAULT '',
  date_registered timestamptz,
  last_updated timestamptz,
  star_count bigint,
  pull_count bigint,
  is_official boolean,
  PRIMARY KEY (chain_id, repository)
);
