/** Gem universes shared by the in-memory RubyGems tests and the end-to-end comparison with Bundler. */
import type { GemUniverse } from '../../../tools/registries/gem-source.ts';

/**
 * `lin` has a ruby gem and two linux-only versions: 3 versions and 3 specs give amount constrained
 * 6 - 3 = 3 (two spec groups per version, Bundler 2.3), `rb` 4 - 2 = 2, so `rb` is resolved first and
 * `lin@3.0`, which wants the other `c`, gives way to `lin@2.0` (counting one group per linux-only
 * version made it 4 - 3 = 1: `lin` first, and `rb@1.0`).
 */
export const LINUX_ONLY_ORDER: GemUniverse = {
  root: {
    '1.0.0': {
      deps: [
        ['lin', '>= 0'],
        ['rb', '>= 0'],
      ],
    },
  },
  lin: { '1.0': { deps: [] }, '2.0': { linux: [] }, '3.0': { linux: [['c', '= 1.0']] } },
  rb: { '1.0': { deps: [] }, '2.0': { deps: [['c', '= 2.0']] } },
  c: { '1.0': { deps: [] }, '2.0': { deps: [] } },
};
