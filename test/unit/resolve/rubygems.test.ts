/**
 * The RubyGems resolver in memory on small gem universes (the comparison with Bundler itself is
 * test/http/insights/dependencies/e2e-rubygems.test.ts, which serves the same universes).
 */
import { describe, expect, test } from 'vitest';
import { resolveRubygems } from '../../../src/resolve/rubygems.ts';
import { gemClient, randomGemUniverse, type GemUniverse } from '../../../tools/registries/gem-source.ts';
import { LINUX_ONLY_ORDER } from './rubygems-cases.ts';

async function nodes(u: GemUniverse): Promise<string[]> {
  const g = await resolveRubygems(gemClient(u), 'root', '1.0.0');
  expect(g.error).toBe('');
  return g.nodes.map((n) => `${n.name}@${n.version}`).sort();
}

describe('rubygems resolution order', () => {
  test('a linux-only version counts as two spec groups, so the gem it constrains less is resolved later', async () => {
    // lin: 3 versions, 3 specs -> 6 groups - 3 = 3; rb: 2 versions -> 4 - 2 = 2: rb first, then lin 3.0 conflicts
    expect(await nodes(LINUX_ONLY_ORDER)).toEqual(['c@2.0', 'lin@2.0', 'rb@2.0', 'root@1.0.0']);
  });

  test('differential seed 30038 gives the lockfile Bundler 2.3.15 wrote', async () => {
    expect(await nodes(randomGemUniverse(30038))).toEqual([
      'g0@3.0.0',
      'g1@2.1',
      'g2@2.1',
      'g3@3.0.0',
      'g4@1.0.0',
      'g5@2.1',
      'root@1.0.0',
    ]);
  });
});
