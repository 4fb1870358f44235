import { describe, expect, test } from 'vitest';
import { resolvePypi } from '../../../src/resolve/pypi.ts';
import { pipClient } from '../../../tools/registries/pip-index.ts';
import type { PipUniverse } from '../../../tools/registries/pip-index.ts';

// pip's _build_result connects a requirement to its parent only when the parent is the candidate
// pinned in the end (resolvelib looks the parent candidate up among the final pins); what an
// earlier pin of the same project asked for stays in the criteria but draws no edge.
const edges = (g: Awaited<ReturnType<typeof resolvePypi>>) =>
  g.edges
    .map((e) => `${g.nodes[e.from]!.name}@${g.nodes[e.from]!.version} -> ${g.nodes[e.to]!.name} '${e.requirement}'`)
    .sort();

describe('PyPI graph edges come from the final pins only', () => {
  test('a re-pinned project keeps no edge of its earlier pin', async () => {
    // a 2.0.0 is pinned first (with its bare `c`), c is pinned, then b asks a<2: a is pinned again at
    // 1.0.0, whose `c>=1` is the only edge pip's graph has from a to c
    const u: PipUniverse = {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '>=1']] }, '2.0.0': { deps: [['c', '']] } },
      b: { '1.0.0': { deps: [['a', '<2']] } },
      c: { '1.0.0': {} },
    };
    const g = await resolvePypi(pipClient(u), 'root', '1.0.0', { resolvelib: '1.0' });
    expect(g.error).toBe('');
    expect(g.nodes.map((n) => `${n.name}@${n.version}`).sort()).toEqual([
      'a@1.0.0',
      'b@1.0.0',
      'c@1.0.0',
      'root@1.0.0',
    ]);
    expect(edges(g)).toEqual(["a@1.0.0 -> c '>=1'", "b@1.0.0 -> a '<2'", "root@1.0.0 -> a ''", "root@1.0.0 -> b ''"]);
  });
});
