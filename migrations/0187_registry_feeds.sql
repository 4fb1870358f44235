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

-- When a feed last refreshed a package: a graph whose resolution began before that is not cached
-- (queries-dependencies.ts putCachedGraph), since it may have read the package's old rows. Rows older than
-- an hour are pruned by the feeds cron.
CREATE TABLE insights.feed_refreshes (
  system text NOT NULL,
  name text NOT NULL,
  refreshed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, name)
);
