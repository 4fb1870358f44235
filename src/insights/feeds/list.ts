/** Every change feed the service can follow, by registry name (INSIGHTS_FEEDS picks among them). */
import { npmFeed } from './npm.ts';
import type { Feed } from './types.ts';

export const FEED_LIST: readonly Feed[] = [npmFeed];
