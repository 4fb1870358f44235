/**
 * The Go resolver on hand universes (in memory): graph pruning at go 1.17, transitive reading below an
 * unpruned go.mod, MVS keeping a path only an unselected version requires, `+incompatible` and prerelease
 * order, a missing go.mod, a cycle back to the root; and the go.mod parser's go directive and retractions.
 * The same resolver is compared with the real `go` end to end in test/http/insights/dependencies/e2e-go.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { parseGoMod } from '../../../src/insights/ingest/go.ts';
import { goDependencies } from '../../../src/insights/resolve-client/go.ts';
import { prunes, resolveGo } from '../../../src/resolve/go.ts';
import { canon } from '../../../src/resolve/graph.ts';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import type { Graph } from '../../../src/resolve/types.ts';

type U = Record<string, Record<string, { go?: string; req?: [string, string, 'indirect'?][] }>>;

function client(u: U): MemoryClient {
  const c = new MemoryClient();
  for (const [name, versions] of Object.entries(u)) {
    for (const [version, s] of Object.entries(versions)) {
      const reqs = (s.req ?? []).map(([p, v, ind]) => `require ${p} ${v}${ind ? ' // indirect' : ''}`);
      const mod = [`module ${name}`, s.go ? `go ${s.go}` : '', ...reqs];
      c.addVersion({ name, version, attrs: {} }, goDependencies({ go: parseGoMod(mod.join('\n')) }));
    }
  }
  return c;
}

function lines(g: Graph): string[] {
  const c = canon(g);
  const id = (i: number) => `${c.nodes[i]!.name}@${c.nodes[i]!.version}`;
  return [
    ...c.nodes.map((n, i) => id(i) + (n.errors.length ? ` errors: ${n.errors.map((e) => e.message).join('; ')}` : '')),
    ...c.edges.map((e) => `${id(e.from)} -> ${id(e.to)} (${e.requirement}${'indirect' in e.attrs ? ', ind.' : ''})`),
    ...(c.error ? [`error ${c.error}`] : []),
  ];
}

const CHAIN: U = {
  root: { 'v1.0.0': {} },
  a: { 'v1.0.0': { go: '1.16', req: [['c', 'v1.0.0']] }, 'v1.1.0': { go: '1.16', req: [['c', 'v1.2.0']] } },
  b: { 'v1.0.0': { go: '1.17', req: [['a', 'v1.1.0']] } },
  c: { 'v1.0.0': {}, 'v1.2.0': { req: [['d', 'v0.1.0']] } },
  d: { 'v0.1.0': {} },
};

describe('go resolver', () => {
  test('a pruned root (go 1.17): its requirements are nodes, nothing below them is read', async () => {
    const root: U[string] = {
      'v1.0.0': {
        go: '1.17',
        req: [
          ['a', 'v1.0.0'],
          ['b', 'v1.0.0', 'indirect'],
        ],
      },
    };
    const u: U = { ...CHAIN, root };
    expect(lines(await resolveGo(client(u), 'root', 'v1.0.0'))).toEqual([
      'root@v1.0.0',
      'a@v1.0.0',
      'b@v1.0.0',
      'root@v1.0.0 -> a@v1.0.0 (v1.0.0)',
      'root@v1.0.0 -> b@v1.0.0 (v1.0.0, ind.)',
    ]);
  });

  test('an unpruned root: all below is read, pruned go.mod files too; MVS keeps paths', async () => {
    const u = {
      ...CHAIN,
      root: {
        'v1.0.0': {
          go: '1.16',
          req: [
            ['a', 'v1.0.0'],
            ['b', 'v1.0.0'],
          ],
        },
      },
    } as U;
    expect(lines(await resolveGo(client(u), 'root', 'v1.0.0'))).toEqual([
      'root@v1.0.0',
      'a@v1.1.0',
      'b@v1.0.0',
      'c@v1.2.0',
      'd@v0.1.0',
      'root@v1.0.0 -> a@v1.1.0 (v1.0.0)',
      'root@v1.0.0 -> b@v1.0.0 (v1.0.0)',
      'a@v1.1.0 -> c@v1.2.0 (v1.2.0)',
      'b@v1.0.0 -> a@v1.1.0 (v1.1.0)',
      'c@v1.2.0 -> d@v0.1.0 (v0.1.0)',
    ]);
    const keeps: U = {
      root: {
        'v1.0.0': {
          req: [
            ['a', 'v1.0.0'],
            ['b', 'v1.0.0'],
          ],
        },
      },
      a: { 'v1.0.0': { req: [['x', 'v1.0.0']] }, 'v1.1.0': {} },
      b: { 'v1.0.0': { req: [['a', 'v1.1.0']] } },
      x: { 'v1.0.0': {} },
    };
    expect(lines(await resolveGo(client(keeps), 'root', 'v1.0.0'))).toContain('x@v1.0.0');
  });

  test('+incompatible and prereleases in semver order; a missing go.mod is an error where it is needed', async () => {
    const u: U = {
      root: {
        'v1.0.0': {
          req: [
            ['old', 'v2.0.0+incompatible'],
            ['p', 'v1.3.0-rc.1'],
            ['m', 'v1.0.0'],
          ],
        },
      },
      old: { 'v2.0.0+incompatible': {}, 'v2.1.0+incompatible': {} },
      p: { 'v1.2.0': {}, 'v1.3.0-rc.1': {} },
      m: {
        'v1.0.0': {
          req: [
            ['old', 'v2.1.0+incompatible'],
            ['p', 'v1.2.0'],
            ['gone', 'v1.0.0'],
          ],
        },
      },
    };
    const got = lines(await resolveGo(client(u), 'root', 'v1.0.0'));
    expect(got).toContain('old@v2.1.0+incompatible');
    expect(got).toContain('p@v1.3.0-rc.1');
    expect(got).toContain('m@v1.0.0 errors: gone@v1.0.0: go.mod not found');
    expect(got).toContain('error gone@v1.0.0: go.mod not found');
  });

  test('a cycle back to the root at a higher version selects that version as a node of its own', async () => {
    const u: U = {
      root: { 'v1.0.0': { req: [['a', 'v1.0.0']] }, 'v1.1.0': {} },
      a: { 'v1.0.0': { req: [['root', 'v1.1.0']] } },
    };
    expect(lines(await resolveGo(client(u), 'root', 'v1.0.0'))).toEqual([
      'root@v1.0.0',
      'a@v1.0.0',
      'root@v1.1.0',
      'root@v1.0.0 -> a@v1.0.0 (v1.0.0)',
      'a@v1.0.0 -> root@v1.1.0 (v1.1.0)',
    ]);
  });

  test('go directives that prune', () => {
    expect(['', '1.16', '1.17', '1.21.0', '1.9', '2.0'].map(prunes)).toEqual([false, false, true, true, false, true]);
  });

  test('go.mod parsing keeps the go directive and retractions', () => {
    const text =
      'module x\n\ngo 1.19\n\nrequire (\n\ty v1.0.0 // indirect\n)\n' +
      'retract (\n\tv1.0.1 // broken\n\t[v1.1.0, v1.2.0]\n)\n';
    const m = parseGoMod(text);
    expect([m.goVersion, m.retracts, m.indirectDependencies]).toEqual([
      '1.19',
      ['v1.0.1', '[v1.1.0, v1.2.0]'],
      [{ name: 'y', requirement: 'v1.0.0' }],
    ]);
  });
});
