/**
 * Relocation and conflict groups in the Maven resolver, on POMs read through `Client.pom` (the way
 * the insights worker resolves): a package relocated nearer the root shares its conflict group with
 * the relocation target (maven-resolver's ConflictMarker keys a node by its relocations too), so a
 * range met deeper for the old coordinates is a constraint on the target's version. Found by the
 * Maven differential (seed 9436) and checked there against Maven 3.8.7.
 */
import { describe, expect, test } from 'vitest';
import { resolveMaven } from '../../../src/resolve/maven.ts';
import type { RawPom } from '../../../src/resolve/maven-model.ts';
import { dep, pom } from './maven-poms.ts';
import type { Client, Graph } from '../../../src/resolve/types.ts';

function client(...poms: RawPom[]): Client {
  const byKey = new Map(poms.map((p) => [`${p.name}:${p.version}`, p]));
  return {
    versions: async (name) => poms.filter((p) => p.name === name).map((p) => ({ name, version: p.version, attrs: {} })),
    requirements: async () => null,
    pom: async (n, v) => byKey.get(`${n}:${v}`) ?? null,
  };
}

const nodes = (g: Graph) => g.nodes.map((n) => `${n.name}:${n.version}`).sort();
const errors = (g: Graph) => [g.error, ...g.nodes.flatMap((n) => n.errors.map((e) => e.message))].filter(Boolean);

describe('maven relocation conflict groups', () => {
  const moved = (v: string) => pom('g:lib', v, { relocation: { groupId: 'h', artifactId: 'lib-moved', version: '' } });

  test('a deeper range the relocated target does not satisfy picks the range version of the old coordinates', async () => {
    const c = client(
      pom('g:root', '1', { dependencies: [dep('g:a', '1.0'), dep('g:lib', '4.0')] }),
      pom('g:a', '1.0', { dependencies: [dep('g:b', '1.0')] }),
      pom('g:b', '1.0', { dependencies: [dep('g:lib', '[1.0,3.0)')] }),
      pom('g:lib', '1.2'),
      moved('3.0'),
      moved('4.0'),
      pom('h:lib-moved', '3.0'),
      pom('h:lib-moved', '4.0'),
    );
    const g = await resolveMaven(c, 'g:root', '1');
    expect(errors(g)).toEqual([]);
    expect(nodes(g)).toEqual(['g:a:1.0', 'g:b:1.0', 'g:lib:1.2', 'g:root:1']);
  });

  test('a deeper range the target satisfies keeps the relocated target', async () => {
    const c = client(
      pom('g:root', '1', { dependencies: [dep('g:a', '1.0'), dep('g:lib', '4.0')] }),
      pom('g:a', '1.0', { dependencies: [dep('g:lib', '[1.0,5.0)')] }),
      pom('g:lib', '1.2'),
      moved('4.0'),
      pom('h:lib-moved', '4.0'),
    );
    const g = await resolveMaven(c, 'g:root', '1');
    expect(errors(g)).toEqual([]);
    expect(nodes(g)).toEqual(['g:a:1.0', 'g:root:1', 'h:lib-moved:4.0']);
  });

  test('a deeper range no version of the old coordinates satisfies is an error, not the target', async () => {
    const c = client(
      pom('g:root', '1', { dependencies: [dep('g:a', '1.0'), dep('g:lib', '4.0')] }),
      pom('g:a', '1.0', { dependencies: [dep('g:lib', '[7.0,8.0)')] }),
      moved('4.0'),
      pom('h:lib-moved', '4.0'),
    );
    const g = await resolveMaven(c, 'g:root', '1');
    expect(errors(g).length).toBeGreaterThan(0);
  });
});
