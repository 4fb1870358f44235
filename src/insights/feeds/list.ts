/** Every change feed the service can follow, by registry name (INSIGHTS_FEEDS picks among them). */
import { cargoFeed } from './cargo.ts';
import { goFeed } from './go.ts';
import { mavenSchedule } from './maven.ts';
import { npmFeed } from './npm.ts';
import { nugetFeed } from './nuget.ts';
import { pypiFeed } from './pypi.ts';
import { rubygemsFeed } from './rubygems.ts';
import type { Feed } from './types.ts';

export const FEED_LIST: readonly Feed[] = [
  npmFeed,
  pypiFeed,
  cargoFeed,
  rubygemsFeed,
  goFeed,
  nugetFeed,
  mavenSchedule,
];
