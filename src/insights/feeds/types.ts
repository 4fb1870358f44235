/**
 * A registry's public feed of changes, read from a cursor. `start` answers the cursor of "now" (a feed
 * followed for the first time starts there: the service refreshes what changes from then on, it does not
 * replay history); `read` answers the changes after `cursor`, in the feed's order, and the cursor after
 * the last of them. A change names a package as the registry spells it in the feed; `key` maps it to the
 * name the store keeps (PEP 503 for PyPI). Feeds never write: feeds/run.ts keeps the cursor and backlog.
 */
import type { Db } from '../../platform/db.ts';
import type { System } from '../../versions/index.ts';
import type { UpstreamEnv } from '../ingest/http.ts';

export interface FeedChange {
  name: string;
  /**
   * The registry may no longer have the package (npm `deleted`, PyPI `remove project`, NuGet `PackageDelete`,
   * a gem yanked): the refresh removes the stored package when the registry has none of it left.
   */
  deleted?: boolean;
}

export interface FeedPage {
  changes: FeedChange[];
  /** The cursor after the last change read (unchanged when there were none). */
  cursor: string;
  /** True when the feed has more after `cursor` right now (read again without waiting). */
  more: boolean;
}

export interface Feed {
  /** The name in INSIGHTS_FEEDS and in the status (`npm`). */
  registry: string;
  system: System;
  start(env: UpstreamEnv): Promise<string>;
  read(env: UpstreamEnv, cursor: string, limit: number): Promise<FeedPage>;
  /** A registry without a feed (Maven) puts its due packages into the backlog itself; answers how many. */
  due?(db: Db, limit: number): Promise<number>;
}
