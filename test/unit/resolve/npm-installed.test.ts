import { describe, expect, test } from 'vitest';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import { packumentRows } from '../../../src/resolve/npm-packument.ts';
import { DEFAULT_NPM_ENV } from '../../../src/resolve/npm-pick.ts';
import { nodePath, type TreeNode } from '../../../src/resolve/npm-tree.ts';
import { buildNpmTree, resolveNpm } from '../../../src/resolve/npm.ts';
import { randomNpmUniverse } from '../../../tools/universes/npm-random.ts';

// The root installed as a dependency (`npm install root@1.0.0` in an empty project): generated universes
// (tools/universes/npm-random.ts, by seed) whose lockfile from npm 11.19.1 (`npm install
// --package-lock-only` over a loopback registry, tools/registries/npm-oracle.ts) is written out below,
// every folder with its version. 4013 and 4041 failed before ("placement does not converge"): the root's
// folder was the project's, so a root dependency could not nest in `node_modules/<root>` when another
// version held the top, and a peer-set member that was overridden while its set was loaded conflicted
// with the same version already placed (arborist keeps it: CanPlaceDep's edgeOverride). 4388 holds
// PlaceDep.pruneDedupable's second pass: a copy the replacing version adopted goes when one above serves.
// 30136, 30301 and 30443 did not converge before PlaceDep.replaceOldDep's prunePeerSets: a replacement
// that leaves a peer set at its level unmet removes that set (npm-peer-entry-sets.ts) and evaluates its
// dependents again, instead of letting the set put the old version back (p1@2 peering on p0@2, p0@1 in).
// 50156 and 50493 hold Node.canReplaceWith: edges into a copy from what only that copy brings in (its peer
// p0@2.0.0 depending back on p3 >=2.1.0) do not keep an older peer from replacing it. 50178 holds
// pruneForReplacement removing the replacing copy itself: the replaced p1@3.0.0 peered on the installed
// root, so its set was the whole tree and only edges into the new p1@2.1.0 were left to hold it.
// 70200 and 70446 hold #loadPeerSet replacing a loaded member: p1@1.0.0's optional peer `p3 1.2.0` meets
// the p3@3.0.0 that p0's `p3 *` loaded, and 1.2.0 takes its place in the set (npm-virtual-root.ts).
const NPM: Record<number, Record<string, string>> = {
  4013: {
    'u4013-p0': '3.0.0',
    'u4013-p1': '1.1.0',
    'u4013-p2': '2.0.0',
    'u4013-p3': '1.2.0',
    'u4013-root': '1.0.0',
    'u4013-root/u4013-p0': '1.0.0',
  },
  4041: {
    'u4041-p1': '1.1.0',
    'u4041-p2': '3.0.0',
    'u4041-p3': '1.1.0',
    'u4041-p4': '3.0.0',
    'u4041-root': '1.0.0',
    'u4041-root/u4041-p2': '2.1.0',
  },
  4388: {
    'u4388-p0': '1.1.0',
    'u4388-p0/u4388-p1': '1.1.0',
    'u4388-p0/u4388-p1/u4388-p3': '1.1.0',
    'u4388-p1': '2.1.0',
    'u4388-p2': '1.2.0',
    'u4388-p2/u4388-p5': '1.0.0',
    'u4388-p3': '2.0.0',
    'u4388-p4': '1.2.0',
    'u4388-p5': '3.0.0',
    'u4388-p6': '2.0.0',
    'u4388-root': '1.0.0',
  },
  30136: {
    'u30136-p0': '1.0.0',
    'u30136-p1': '1.0.0',
    'u30136-p2': '1.1.0',
    'u30136-root': '1.0.0',
    'u30136-root/u30136-p0': '2.0.0',
  },
  30301: {
    'u30301-p0': '1.2.0',
    'u30301-p0/u30301-p2': '1.1.0',
    'u30301-p1': '3.0.0',
    'u30301-p2': '1.2.0',
    'u30301-root': '1.0.0',
    'u30301-root/u30301-p0': '3.0.0',
    'u30301-root/u30301-p1': '1.2.0',
  },
  30443: {
    'u30443-p1': '1.0.0',
    'u30443-p2': '1.2.0',
    'u30443-p2/u30443-p6': '1.1.0',
    'u30443-p3': '2.1.0',
    'u30443-p4': '3.0.0',
    'u30443-p5': '2.0.0',
    'u30443-p5/u30443-p6': '1.1.0',
    'u30443-p6': '3.0.0',
    'u30443-root': '1.0.0',
    'u30443-root/u30443-p0': '3.0.0',
    'u30443-root/u30443-p0/u30443-p6': '1.1.0',
    'u30443-root/u30443-p2': '1.1.0',
    'u30443-root/u30443-p2/u30443-p3': '2.1.0',
    'u30443-root/u30443-p3': '1.0.0',
    'u30443-root/u30443-p3/u30443-p6': '1.0.0',
    'u30443-root/u30443-p4': '1.0.0',
  },
  50156: {
    'u50156-p0': '1.1.0',
    'u50156-p2': '1.2.0',
    'u50156-p2/u50156-p3': '1.1.0',
    'u50156-p3': '2.0.0',
    'u50156-p4': '2.0.0',
    'u50156-root': '1.0.0',
  },
  50178: {
    'u50178-p0': '2.1.0',
    'u50178-p0/u50178-p1': '1.2.0',
    'u50178-p0/u50178-p6': '1.1.0',
    'u50178-p2': '1.2.0',
    'u50178-p3': '3.0.0',
    'u50178-p4': '3.0.0',
    'u50178-p5': '1.2.0',
    'u50178-p6': '2.1.0',
    'u50178-root': '1.0.0',
  },
  50493: {
    'u50493-p0': '2.0.0',
    'u50493-p0/u50493-p0': '1.2.0',
    'u50493-p0/u50493-p2': '2.0.0',
    'u50493-p0/u50493-p3': '2.1.0',
    'u50493-p1': '2.1.0',
    'u50493-p2': '1.0.0',
    'u50493-p3': '1.1.0',
    'u50493-p4': '1.2.0',
    'u50493-p5': '2.0.0',
    'u50493-root': '1.0.0',
    'u50493-root/u50493-p2': '2.0.0',
  },
  70200: {
    'u70200-p0': '1.0.0',
    'u70200-p0/u70200-p5': '1.1.0',
    'u70200-p1': '3.0.0',
    'u70200-p2': '2.0.0',
    'u70200-p2/u70200-p5': '1.1.0',
    'u70200-p3': '1.1.0',
    'u70200-p3/u70200-p4': '1.0.0',
    'u70200-p4': '1.1.0',
    'u70200-p5': '2.1.0',
    'u70200-root': '1.0.0',
  },
  70446: {
    'u70446-p0': '1.2.0',
    'u70446-p0/u70446-p3': '3.0.0',
    'u70446-p1': '1.0.0',
    'u70446-p2': '2.0.0',
    'u70446-p2/u70446-p3': '3.0.0',
    'u70446-p3': '1.2.0',
    'u70446-root': '1.0.0',
  },
  30163: {
    'u30163-p0': '2.0.0',
    'u30163-p1': '2.1.0',
    'u30163-p1/u30163-p1': '1.1.0',
    'u30163-p1/u30163-p1/u30163-p1': '-> u30163-p1',
    'u30163-p1/u30163-p1/u30163-p2': '2.1.0',
    'u30163-p1/u30163-p1/u30163-p2/u30163-p5': '1.0.0',
    'u30163-p1/u30163-p2': '3.0.0',
    'u30163-p1/u30163-p2/u30163-p5': '1.0.0',
    'u30163-p2': '1.0.0',
    'u30163-p3': '1.0.0',
    'u30163-p4': '1.1.0',
    'u30163-p5': '2.1.0',
    'u30163-root': '1.0.0',
    'u30163-root/u30163-p2': '2.1.0',
    'u30163-root/u30163-p2/u30163-p5': '1.0.0',
  },
};

/** Every folder of the tree by its short path (`a/b` for node_modules/a/node_modules/b): a version, or `-> path` for a link. */
function folders(project: TreeNode): Record<string, string> {
  const short = (n: TreeNode) =>
    nodePath(n)
      .replace(/^node_modules\//, '')
      .replaceAll('/node_modules/', '/');
  const out: Record<string, string> = {};
  const walk = (n: TreeNode) => {
    for (const c of n.children.values()) {
      if (c.removed) continue;
      out[short(c)] = c.link ? `-> ${short(c.link)}` : c.version;
      walk(c);
    }
  };
  walk(project);
  return out;
}

function universe(seed: number) {
  const u = randomNpmUniverse(seed);
  const client = new MemoryClient();
  for (const p of Object.values(u.packuments)) for (const r of packumentRows(p)) client.addVersion(r.info, r.deps);
  return { u, client };
}

describe('npm: the root installed in an empty project gives the tree npm 11 locks', () => {
  test.each(Object.keys(NPM).map((s) => [Number(s)] as const))('universe %i', async (seed) => {
    const { u, client } = universe(seed);
    const project = await buildNpmTree(client, u.root, u.version, DEFAULT_NPM_ENV, 20_000, true);
    expect(folders(project!)).toEqual(NPM[seed]);
  });

  test('the graph has the root as its first node and every installed copy once, with no error', async () => {
    const { u, client } = universe(4013);
    const g = await resolveNpm(client, u.root, u.version);
    expect(g.error).toBe('');
    expect(g.nodes.map((n) => `${n.name}@${n.version}`).sort()).toEqual([
      'u4013-p0@1.0.0',
      'u4013-p0@3.0.0',
      'u4013-p1@1.1.0',
      'u4013-p2@2.0.0',
      'u4013-p3@1.2.0',
      'u4013-root@1.0.0',
    ]);
    expect(`${g.nodes[0]!.name}@${g.nodes[0]!.version}`).toBe('u4013-root@1.0.0');
    const edge = (from: string, to: string) =>
      g.edges.some(
        (e) =>
          `${g.nodes[e.from]!.name}@${g.nodes[e.from]!.version}` === from &&
          `${g.nodes[e.to]!.name}@${g.nodes[e.to]!.version}` === to,
      );
    // the root reaches its nested 1.0.0, the top 3.0.0's dependents reach that one
    expect(edge('u4013-root@1.0.0', 'u4013-p0@1.0.0')).toBe(true);
    expect(edge('u4013-p1@1.1.0', 'u4013-p0@3.0.0')).toBe(true);
    expect(edge('u4013-root@1.0.0', 'u4013-p0@3.0.0')).toBe(false);
  });
});

describe('npm: a nesting loop ends in a link, as npm places it', () => {
  // differential seed 30163: p1@1.1.0 nested under p1@2.1.0 needs p2@2.1.0, whose peer is p1@2.1.0,
  // whose p2 ^3.0.0 brings p1@1.1.0 again, and so on. PlaceDep links the third p1 to the folder above
  // that holds p1@2.1.0 (npm's lockfile: `link: true`), where the service nested copies until its
  // depth bound. The link is no installed copy: the graph has one node per real copy, and the nested
  // p2@2.1.0's peer edge reaches the top p1@2.1.0.
  test('seed 30163: the graph of the linked tree', async () => {
    const { u, client } = universe(30163);
    const g = await resolveNpm(client, u.root, u.version);
    expect(g.error).toBe('');
    const ids = g.nodes.map((n) => `${n.name}@${n.version}`);
    expect(ids.filter((x) => x === 'u30163-p1@2.1.0')).toHaveLength(1);
    expect(ids).toHaveLength(Object.values(NPM[30163]!).filter((v) => !v.startsWith('->')).length);
    // both copies of p2@2.1.0 (in the root's folder and under the nested p1) peer on the one top p1@2.1.0
    const peerTargets = g.edges
      .filter((e) => ids[e.from] === 'u30163-p2@2.1.0' && g.nodes[e.to]!.name === 'u30163-p1')
      .map((e) => e.to);
    expect(peerTargets).toEqual([ids.indexOf('u30163-p1@2.1.0'), ids.indexOf('u30163-p1@2.1.0')]);
  });
});
