import { describe, expect, test } from 'vitest';
import { resolveMaven } from '../../../src/resolve/maven.ts';
import { loadCases, render } from './resolvetest.ts';

// Harness rules from deps.dev's maven/resolve_test.go: keep only selector edges and blank their
// requirement and type; `loose_errors` only requires some error somewhere.
const FILES = [
  ['resolve_test.data', 'resolve_test.want'],
  ['version_selection_test.data', 'version_selection_test.want'],
  ['multiverse_test.data', 'multiverse_test.want'],
  ['exclusions_test.data', 'exclusions_test.want'],
].map((p) => p.map((f) => `maven/${f}`));

const cases = FILES.flatMap((f) => loadCases(...f));

describe('maven conformance vectors', () => {
  test('all 38 cases are loaded', () => expect(cases.length).toBe(38));
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const got = await resolveMaven(c.client, c.root.name, c.root.version);
    if (c.flags.has('loose_errors')) {
      expect(got.error !== '' || got.nodes.some((n) => n.errors.length > 0)).toBe(true);
      return;
    }
    expect(render(got, { selectorsOnly: true, blankEdges: true })).toEqual(
      render(c.want, { selectorsOnly: true, blankEdges: true }),
    );
  });
});
