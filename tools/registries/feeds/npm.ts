/** The npm registry with its replication feed (npm-registry.ts) behind the common FeedRegistry face. */
import { startNpmFeedRegistry } from './npm-registry.ts';
import type { FeedRegistry } from './types.ts';

export async function startNpmFeed(): Promise<FeedRegistry> {
  const reg = await startNpmFeedRegistry();
  return {
    registry: 'npm',
    system: 'NPM',
    fake: reg.fake,
    env: { NPM_REGISTRY_URL: reg.url, NPM_REPLICATE_URL: reg.url, OSV_API_URL: reg.url },
    failing: reg.failing,
    publish: (name, version, deps) => void reg.publish(name, version, deps ? { dependencies: deps } : {}),
    remove: (name) => void reg.unpublish(name),
    touch: (name) => void reg.touch(name),
    close: () => reg.close(),
  };
}
