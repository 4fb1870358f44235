/**
 * GetDependencies end to end for Maven: generated universes (tools/registries/maven-repo.ts: hand cases and
 * seeded random ones with parent chains, properties, imported BOMs, management, ranges, scopes,
 * optional, exclusions and relocations) served as one Maven repository on loopback, the insights
 * worker on an emptied schema reading every POM through (MAVEN_REPO_URL), and each root's graph
 * compared with the dependency tree real Maven (3.8.7) builds for a copy of the root's POM over the
 * same repository (tools/registries/maven-trees.ts, one mvn run for all roots):
 *  - the answer's nodes (`group:artifact:version`, the version as published: `1.0`, `4.0.0`,
 *    `2.0-beta-1`) are exactly Maven's, root included;
 *  - every parent -> child edge of Maven's tree is an edge of the answer (the answer is a graph: it
 *    may also link other parents to a chosen version);
 *  - where Maven fails (a range nothing satisfies, a missing imported BOM) the answer carries a graph
 *    or node error; where Maven resolves, it carries none.
 * Runs where `mvn` works; Maven's plugin comes from ~/.m2/repository through the same loopback server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { differentialSeeds } from '../../../../tools/universes/differential-seeds.ts';
import { canon } from '../../../../src/versions/index.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights } from '../../../../tools/universes/graphs.ts';
import {
  mavenLayout,
  MAVEN_HAND,
  randomMavenUniverse,
  ROOT_VERSION,
  startMavenRepo,
  type MavenRepoServer,
} from '../../../../tools/registries/maven-repo.ts';
import { HAS_MVN, mavenTrees, MVN_VERSION, type MavenRun } from '../../../../tools/registries/maven-trees.ts';

const { seeds, withHand } = differentialSeeds(7000, 44);
const UNIVERSES = [...(withHand ? MAVEN_HAND : []), ...seeds.map((seed) => randomMavenUniverse(seed))];
let repo: MavenRepoServer;
let oracle: MavenRun;

if (!HAS_MVN) console.warn(`maven end to end SKIPPED: no usable mvn (${MVN_VERSION})`);

interface Body {
  error: string;
  nodes: { versionKey: { name: string; version: string }; errors: string[] }[];
  edges: { fromNode: number; toNode: number }[];
}

const nodeId = (b: Body, i: number) => `${b.nodes[i]!.versionKey.name}:${b.nodes[i]!.versionKey.version}`;
/** `g:a:v` with the version canonicalised (the spelling the service stores today), for diagnostics only. */
const canonId = (id: string) => {
  const at = id.lastIndexOf(':');
  return `${id.slice(0, at)}:${canon('MAVEN', id.slice(at + 1)) ?? id.slice(at + 1)}`;
};

function diagnostics(body: Body): string {
  const nodeErrors = body.nodes.flatMap((n) =>
    n.errors.map((e) => `${n.versionKey.name}@${n.versionKey.version}: ${e}`),
  );
  return `graph error: ${JSON.stringify(body.error)}; node errors: ${JSON.stringify(nodeErrors.slice(0, 5))}${nodeErrors.length > 5 ? ` (+${nodeErrors.length - 5})` : ''}`;
}

describe.runIf(HAS_MVN)(
  'maven graphs through the endpoint on a cold service equal the dependency tree of real Maven',
  () => {
    beforeAll(async () => {
      repo = await startMavenRepo(mavenLayout(UNIVERSES), { extra: (p) => (p.startsWith('/v1/') ? '{}' : undefined) });
      console.log(
        `maven end to end: ${MVN_VERSION}; ${UNIVERSES.length} universes (${UNIVERSES.filter((u) => u.expectFailure).length} where Maven must fail)`,
      );
      oracle = await mavenTrees(UNIVERSES, { repoUrl: repo.url });
      const failed = oracle.outcomes.filter((o) => !o.ok).length;
      console.log(
        `maven end to end: Maven's trees in ${(oracle.millis / 1000).toFixed(1)}s (${oracle.invocations.map((x) => `mvn over ${x.modules} roots ${(x.millis / 1000).toFixed(1)}s`).join(', ')}); ${failed} roots failed`,
      );
    }, 300_000);
    afterAll(async () => {
      await repo?.close();
      await emptyInsights(testDb()); // generated artifacts: leave no trace for other suites
    });

    test('Maven resolves exactly the hand universes meant to resolve, and nearly every random one', () => {
      const hand = UNIVERSES.flatMap((u, i) => {
        const o = oracle.outcomes[i]!;
        if (!u.label.startsWith('hand ')) return [];
        return o.ok === !u.expectFailure ? [] : [`${u.label}: ${o.ok ? 'resolved' : o.error}`];
      });
      expect(hand).toEqual([]);
      // A random universe can hold two ranges on one artifact that no version meets together (Maven:
      // "Could not resolve version conflict"); the answer must then fail too (the universe's own test).
      // More than 5% of them failing would mean the generator no longer makes universes worth comparing.
      const random = UNIVERSES.flatMap((u, i) => (u.label.startsWith('hand ') ? [] : [oracle.outcomes[i]!]));
      const failing = random.filter((o) => !o.ok).length;
      if (failing) console.log(`maven end to end: Maven failed on ${failing} of ${random.length} random universes`);
      expect(failing).toBeLessThanOrEqual(Math.max(1, Math.floor(random.length * 0.05)));
    });

    test.each(UNIVERSES.map((u, i) => [u.label, i] as const))('%s', async (_l, i) => {
      const u = UNIVERSES[i]!;
      const want = oracle.outcomes[i]!;
      await emptyInsights(testDb());
      const api = workerClient(insights, testEnv({ MAVEN_REPO_URL: repo.url, OSV_API_URL: repo.url }));
      const res = await api.get(
        `/v3/systems/maven/packages/${encodeURIComponent(u.root)}/versions/${ROOT_VERSION}:dependencies`,
      );
      const text = await res.text();
      expect(res.status, text.slice(0, 400)).toBe(200);
      const body = JSON.parse(text) as Body;
      const failed = body.error !== '' || body.nodes.some((n) => n.errors.length > 0);
      if (!want.ok) {
        expect(failed, `Maven failed (${want.error.slice(0, 300)}); ours: ${JSON.stringify(body).slice(0, 400)}`).toBe(
          true,
        );
        return;
      }
      const nodes = [...new Set(body.nodes.map((_, j) => nodeId(body, j)))].sort();
      const edges = new Set(body.edges.map((e) => `${nodeId(body, e.fromNode)} -> ${nodeId(body, e.toNode)}`));
      const missing = want.nodes.filter((n) => !nodes.includes(n));
      const extra = nodes.filter((n) => !want.nodes.includes(n));
      const sameUpToSpelling =
        JSON.stringify([...new Set(nodes.map(canonId))].sort()) ===
        JSON.stringify([...new Set(want.nodes.map(canonId))].sort());
      const context =
        `\nMaven's tree:\n${want.text}\nmissing: ${JSON.stringify(missing)}\nextra: ${JSON.stringify(extra)}\n` +
        `equal once versions are canonicalised: ${sameUpToSpelling}\n${diagnostics(body)}`;
      expect(nodes, context).toEqual(want.nodes);
      const missingEdges = want.edges.filter((e) => !edges.has(e));
      expect(missingEdges, `tree edges missing from the answer${context}`).toEqual([]);
      expect(failed, diagnostics(body)).toBe(false);
    });
  },
);
