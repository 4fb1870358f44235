import { describe, expect, test } from 'vitest';
import { resolveNpm } from '../../../src/resolve/npm.ts';
import { canon } from '../../../src/resolve/graph.ts';
import type { Graph, GraphNode } from '../../../src/resolve/types.ts';
import { loadCases } from './resolvetest.ts';

const cases = [
  ...loadCases('npm/resolve_test.data', 'npm/resolve_test.want'),
  ...loadCases('npm/alias.data', 'npm/alias.want'),
  ...loadCases('npm/derivedfrom_test.data', 'npm/derivedfrom_test.want'),
  ...loadCases('npm/deleted_test.data', 'npm/deleted_test.want'),
];

// Cases where npm 6 (which recorded these vectors) and npm 7+ (what src/resolve/npm.ts emulates,
// checked against real npm lockfiles in npm-corpus.test.ts) build different trees. Each must fail; one that starts passing must be removed from here.
const NPM6_ORDER =
  "npm 6 resolves a reused or freshly installed node's dependencies depth-first, npm 7 places breadth-first " +
  '(arborist queue by depth), so a different version is hoisted first and the other one nests';
const NPM6_EXTRANEOUS =
  'npm 6 cannot install a package inside a copy of itself and reports extraneous/unreachable; ' +
  'npm 7 nests it (node_modules/bob/node_modules/.../bob) and installs a valid tree';
const EXCLUDED: Record<string, string> = {
  deduplicate2: NPM6_ORDER, // npm 7: dave@2.0.0 at the root for chuck@1's dave@*, dave@1.0.0 nested under bob
  deduplicate3: NPM6_ORDER, // npm 7: eve@2.0.0 for chuck's eve@* at the root, eve@1.0.0 nested under dave
  // npm 7: george@1.0.0 cannot go to bob/node_modules (it would shadow dave@2's george@2.0.0 edge, arborist's
  // checkCanPlaceNoCurrent), so it nests under chuck@2 and both 2.0.0 dependents reuse the hoisted george@2.0.0
  deduplicate4: NPM6_ORDER,
  extraneous1: NPM6_EXTRANEOUS,
  extraneousError: NPM6_EXTRANEOUS,
  extraneous2: NPM6_EXTRANEOUS,
  extraneous2Error: NPM6_EXTRANEOUS,
  // george (depth 1) is processed before chuck's nested dave@2 hoists its `eve: npm:franck@1` folder to the root,
  // so george's eve@1.0.0 finds no folder and only eve@2.0.0 exists: npm 7 fails (ETARGET), here a node error;
  // npm 6 went depth-first and reused the franck folder
  aliasDepth1: NPM6_ORDER,
  // the root is installed as `npm install alice@1.0.0` installs it (node_modules/alice), so bob's
  // alice@1.0.0 is met by the root itself (npm 11.19.1); deps.dev's npm 6 vector installs a copy
  cycleOnRoot1: 'npm 7+ meets an edge on the root by the root, which `npm install root@version` puts at the top',
};

// Compared: nodes (name, version, bundled, errors), edges (from, to, requirement) and the graph
// error, i.e. what the `:dependencies` endpoint shows; the `selector` edge mark is npm-6
// bookkeeping deps.dev's API does not expose. `Flag loose_errors`: only "some error exists".
// Wanted graphs name bundled copies by their mangled path (`bob>1.0.0>chuck`), which is what
// makes a node `bundled` in deps.dev's API; `Flag demangle_names` compares bundled copies by the
// package they derive from (the `derivedfrom` attr of the mangled version), as deps.dev's harness.
async function view(
  g: Graph,
  looseErrors: boolean,
  demangle: ((n: GraphNode) => Promise<string>) | null,
): Promise<string[]> {
  const c = canon(g);
  if (looseErrors) return [c.error !== '' || c.nodes.some((n) => n.errors.length > 0) ? 'has an error' : 'no error'];
  const named = demangle
    ? canon({
        ...c,
        nodes: await Promise.all(c.nodes.map(async (n) => ({ ...n, name: await demangle(n), bundled: false }))),
      })
    : c;
  const out = named.nodes.map(
    (n, i) =>
      `node ${i} ${n.name}@${n.version}${n.bundled ? ' bundled' : ''}${n.errors.map((e) => ` ERR(${e.name}@${e.requirement}: ${e.message})`).join('')}`,
  );
  for (const e of named.edges) out.push(`edge ${e.from} -> ${e.to} ${JSON.stringify(e.requirement)}`);
  if (named.error) out.push(`error ${named.error}`);
  return out;
}

function markBundled(g: Graph): Graph {
  return { ...g, nodes: g.nodes.map((n) => ({ ...n, bundled: n.name.includes('>') })) };
}

describe('npm conformance vectors (deps.dev, recorded with npm 6)', () => {
  test('all 49 cases are loaded; 41 run for equality, 8 are listed exclusions', () => {
    expect(cases.length).toBe(49);
    expect(Object.keys(EXCLUDED).filter((n) => cases.some((c) => c.name === n)).length).toBe(9);
  });
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const got = await resolveNpm(c.client, c.root.name, c.root.version);
    const loose = c.flags.has('loose_errors');
    const demangle = c.flags.has('demangle_names')
      ? async (n: GraphNode) =>
          n.bundled
            ? (await c.client.versions(n.name)).find((v) => v.version === n.version)!.attrs.derivedfrom!
            : n.name
      : null;
    const mine = await view(got, loose, demangle);
    const want = await view(markBundled(c.want), loose, null);
    if (EXCLUDED[name] !== undefined)
      expect(
        JSON.stringify(mine) === JSON.stringify(want),
        `${name} is listed as excluded but now passes: remove it from EXCLUDED`,
      ).toBe(false);
    else expect(mine).toEqual(want);
  });
});
