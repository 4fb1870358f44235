-- Registry change feeds (src/insights/feeds/): one cursor per registry, advanced in the same transaction
-- that records the names it read into the backlog, so a run that dies after reading loses nothing (the
-- next run reads again from the stored cursor) and a change is never skipped. `lease_until` keeps two
-- runs (a slow one and the next minute's) off the same registry. `last_change_at` is when the newest
-- change was read (the visible lag); `last_error` the last failed read, cleared by the next good one.
CREATE TABLE insights.feed_cursors (
  registry text PRIMARY KEY,
  cursor text,
  last_read_at timestamptz,
  last_change_at timestamptz,
  changes_read bigint NOT NULL DEFAULT 0,
  refreshed bigint NOT NULL DEFAULT 0,
  deleted bigint NOT NULL DEFAULT 0,
  last_error text,
  lease_until timestamptz
);

-- Stored packages a feed named and that are not refreshed yet: the backlog carried from run to run.
-- One row per package (a second change before the refresh is the same work); `deleted` when the feed
-- said the package is gone (npm `deleted`, NuGet `PackageDelete`), `changes` counts the changes read for it
-- (a refresh removes the row only when no change arrived while it ran), `attempts` counts failed refreshes.
CREATE TABLE insights.feed_backlog (
  system text NOT NULL,
  name text NOT NULL,
  registry text NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  changes integer NOT NULL DEFAULT 1,
  seen_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name)
);
CREATE INDEX feed_backlog_due ON insights.feed_backlog (registry, next_try_at);

-- When a stored package was last replaced or removed (a feed's refresh, the age refresh through the queue): a
-- graph whose resolution began before that is not cached (queries-dependencies.ts putCachedGraph), since it may
-- have read the package's old rows and 0150's trigger, which drops the cached graphs of a changed package, ran
-- before it was stored. Written by the triggers below, in the writing transaction (`now()`: its start), so no
-- graph can be cached between the change and its mark. A first store (INSERT, or a read-through's
-- ON CONFLICT DO NOTHING) is no replacement and is not marked. Rows older than an hour are pruned by the feeds cron.
CREATE TABLE insights.feed_refreshes (
  system text NOT NULL,
  name text NOT NULL,
  refreshed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name)
);

CREATE FUNCTION insights.mark_package_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insights.feed_refreshes (system, name) VALUES (OLD.system, OLD.name)
    ON CONFLICT (system, name) DO UPDATE SET refreshed_at = now();
  RETURN NULL;
END $$;

CREATE TRIGGER packages_mark_replaced AFTER UPDATE OF fetched_at ON insights.packages
  FOR EACH ROW WHEN (OLD.fetched_at IS NOT NULL) EXECUTE FUNCTION insights.mark_package_replaced();
CREATE TRIGGER packages_mark_removed AFTER DELETE ON insights.packages
  FOR EACH ROW EXECUTE FUNCTION insights.mark_package_replaced();
