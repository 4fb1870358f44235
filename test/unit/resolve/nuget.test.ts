/**
 * NuGet resolution over the examples of NuGet's documentation ("NuGet Package Dependency Resolution",
 * learn.microsoft.com/nuget/concepts/dependency-resolution: lowest applicable version, floating versions,
 * direct dependency wins, cousin dependencies) turned into fixtures, plus dependency groups chosen by
 * framework. The .NET SDK cannot be installed on this machine, so these are not compared with a real
 * `dotnet restore`: the expected graphs are the documentation's.
 * A fixture's project is the root package `app` 1.0.0 (its dependencies are the project's references).
 */
import { describe, expect, it } from 'vitest';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import { resolveNuget } from '../../../src/resolve/nuget.ts';
import { nearestFramework } from '../../../src/resolve/nuget-frameworks.ts';
import { canon } from '../../../src/resolve/graph.ts';
import type { Graph } from '../../../src/resolve/types.ts';

type Deps = readonly (readonly [string, string, string?])[]; // name, range, framework group ('' = any)
type Universe = Record<string, Record<string, Deps>>;

function client(u: Universe): MemoryClient {
  const c = new MemoryClient();
  for (const [name, vs] of Object.entries(u)) {
    for (const [version, deps] of Object.entries(vs)) {
      c.addVersion(
        { name, version, attrs: {} },
        deps.map(([d, r, f = '']) => ({ name: d, requirement: r, attrs: { framework: f } })),
      );
    }
  }
  return c;
}

function show(g: Graph): { nodes: string[]; edges: string[]; errors: string[]; error: string } {
  const c = canon(g);
  const id = (i: number) => `${c.nodes[i]!.name}@${c.nodes[i]!.version}`;
  return {
    nodes: c.nodes.map((_, i) => id(i)),
    edges: c.edges.map((e) => `${id(e.from)} -> ${id(e.to)} ${e.requirement}`),
    errors: c.nodes.flatMap((n, i) => n.errors.map((e) => `${id(i)}: ${e.name} ${e.requirement}`)),
    error: c.error,
  };
}

const resolve = async (u: Universe, framework?: string) =>
  show(await resolveNuget(client(u), 'app', '1.0.0', framework ? { framework } : {}));

describe('NuGet documentation examples', () => {
  it('lowest applicable version: 1.0-beta is lower than 1.0, so >= 1.0 takes 1.0', async () => {
    const g = await resolve({ app: { '1.0.0': [['b', '1.0']] }, b: { '1.0.0-beta': [], '1.0.0': [], '2.0.0': [] } });
    expect(g.nodes).toEqual(['app@1.0.0', 'b@1.0.0']);
  });

  it('lowest applicable version: >= 2.1 with 2.1 missing takes the next lowest, 2.2', async () => {
    const g = await resolve({
      app: { '1.0.0': [['b', '[2.1, )']] },
      b: { '1.0.0': [], '2.0.0': [], '2.2.0': [], '3.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'b@2.2.0']);
  });

  it('an exact version the feed lacks is an error', async () => {
    const g = await resolve({ app: { '1.0.0': [['b', '[1.2]']] }, b: { '1.0.0': [], '1.3.0': [] } });
    expect(g.errors).toEqual(['app@1.0.0: b [1.2]']);
    expect(g.nodes).toEqual(['app@1.0.0']);
  });

  it('floating versions: 6.0.* takes the highest 6.0.x; prereleases only with a prerelease float', async () => {
    const u: Universe = { b: { '6.0.0': [], '6.0.1': [], '6.0.2-beta': [], '6.1.0': [], '7.0.0': [] } };
    expect((await resolve({ ...u, app: { '1.0.0': [['b', '6.0.*']] } })).nodes).toEqual(['app@1.0.0', 'b@6.0.1']);
    expect((await resolve({ ...u, app: { '1.0.0': [['b', '6.*']] } })).nodes).toEqual(['app@1.0.0', 'b@6.1.0']);
    expect((await resolve({ ...u, app: { '1.0.0': [['b', '*']] } })).nodes).toEqual(['app@1.0.0', 'b@7.0.0']);
    expect((await resolve({ ...u, app: { '1.0.0': [['b', '6.0.2-*']] } })).nodes).toEqual([
      'app@1.0.0',
      'b@6.0.2-beta',
    ]);
  });

  it("direct dependency wins: the application's B >= 2.0 beats A's B >= 1.0", async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['a', '1.0'],
          ['b', '2.0'],
        ],
      },
      a: { '1.0.0': [['b', '1.0']] },
      b: { '1.0.0': [], '2.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'a@1.0.0', 'b@2.0.0']);
    expect(g.edges).toContain('a@1.0.0 -> b@2.0.0 1.0');
  });

  it("direct dependency wins even when it downgrades (NU1605): the nearer B 1.0 wins over C's B >= 2.0", async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['b', '1.0'],
          ['c', '1.0'],
        ],
      },
      c: { '1.0.0': [['b', '2.0']] },
      b: { '1.0.0': [], '2.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'b@1.0.0', 'c@1.0.0']);
    expect(g.errors).toEqual([]);
  });

  it('direct dependency wins prunes the subtree of the eclipsed version', async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['a', '1.0'],
          ['b', '1.0'],
        ],
      },
      a: { '1.0.0': [['b', '2.0']] },
      b: { '1.0.0': [], '2.0.0': [['d', '1.0']] },
      d: { '1.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'a@1.0.0', 'b@1.0.0']);
  });

  it('cousin dependencies: B >= 1.0 and B >= 2.0 in different subgraphs resolve to 2.0 (the highest lower bound)', async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['a', '1.0'],
          ['c', '1.0'],
        ],
      },
      a: { '1.0.0': [['b', '1.0']] },
      c: { '1.0.0': [['b', '2.0']] },
      b: { '1.0.0': [], '2.0.0': [], '3.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'a@1.0.0', 'b@2.0.0', 'c@1.0.0']);
    expect(g.edges).toEqual([
      'app@1.0.0 -> a@1.0.0 1.0',
      'app@1.0.0 -> c@1.0.0 1.0',
      'a@1.0.0 -> b@2.0.0 1.0',
      'c@1.0.0 -> b@2.0.0 2.0',
    ]);
    expect(g.errors).toEqual([]);
  });

  it('cousin dependencies that cannot both hold (B [1.0] and B >= 2.0) are a version conflict', async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['a', '1.0'],
          ['c', '1.0'],
        ],
      },
      a: { '1.0.0': [['b', '[1.0]']] },
      c: { '1.0.0': [['b', '2.0']] },
      b: { '1.0.0': [], '2.0.0': [] },
    });
    expect(g.nodes).toContain('b@2.0.0');
    expect(g.errors).toEqual(['a@1.0.0: b [1.0]']);
  });

  it('a cousin that loses drops its own dependencies', async () => {
    const g = await resolve({
      app: {
        '1.0.0': [
          ['a', '1.0'],
          ['c', '1.0'],
        ],
      },
      a: { '1.0.0': [['b', '1.0']] },
      c: { '1.0.0': [['b', '2.0']] },
      b: { '1.0.0': [['x', '1.0']], '2.0.0': [] },
      x: { '1.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'a@1.0.0', 'b@2.0.0', 'c@1.0.0']);
  });

  it('a cycle is a graph error', async () => {
    const g = await resolve({ app: { '1.0.0': [['a', '1.0']] }, a: { '1.0.0': [['app', '1.0']] } });
    expect(g.error).toMatch(/cycle/);
  });
});

describe('dependency groups by framework', () => {
  const u: Universe = {
    app: { '1.0.0': [['lib', '1.0']] },
    lib: {
      '1.0.0': [
        ['std', '1.0', '.NETStandard2.0'],
        ['core', '1.0', 'net6.0'],
        ['fx', '1.0', '.NETFramework4.7.2'],
        ['new', '1.0', 'net9.0'],
      ],
    },
    std: { '1.0.0': [] },
    core: { '1.0.0': [] },
    fx: { '1.0.0': [] },
    new: { '1.0.0': [] },
  };

  it('net8.0 takes the nearest group (net6.0 over netstandard2.0; never net9.0 or .NET Framework)', async () => {
    expect((await resolve(u)).nodes).toEqual(['app@1.0.0', 'core@1.0.0', 'lib@1.0.0']);
  });

  it('net9.0 takes its own group; netcoreapp3.1 falls back to netstandard2.0; net472 to its .NET Framework group', async () => {
    expect((await resolve(u, 'net9.0')).nodes).toEqual(['app@1.0.0', 'lib@1.0.0', 'new@1.0.0']);
    expect((await resolve(u, 'netcoreapp3.1')).nodes).toEqual(['app@1.0.0', 'lib@1.0.0', 'std@1.0.0']);
    expect(nearestFramework('net472', ['.NETStandard2.0', '.NETFramework4.7.2', 'net6.0'])).toBe('.NETFramework4.7.2');
  });

  it('an empty group for the nearest framework means no dependencies; no compatible group neither', async () => {
    expect(nearestFramework('net8.0', ['', 'netstandard2.0'])).toBe('netstandard2.0');
    expect(nearestFramework('net8.0', ['net472', 'net9.0'])).toBeNull();
    const g = await resolve({
      app: { '1.0.0': [['lib', '1.0']] },
      lib: {
        '1.0.0': [
          ['', '', 'net8.0'],
          ['x', '1.0', 'netstandard2.0'],
        ],
      },
      x: { '1.0.0': [] },
    });
    expect(g.nodes).toEqual(['app@1.0.0', 'lib@1.0.0']);
  });
});
