/**
 * Replays the disagreements with each ecosystem's own tool that issue 14 fixed, recorded by
 * `npm run conformance:native -- --record` (tools/conformance-native.ts) in
 * test/fixtures/versions-native/<system>.json with the native tool's answer, so they stay fixed
 * without node-semver, packaging, Maven, the semver crate or RubyGems at hand.
 *
 * Questions: `valid` (isValid), `compare` (both valid, then compare; `want: null` when an operand is
 * invalid), `validReq` (parseRequirement().ok), `satisfies` (no includePrerelease; `want: null` when
 * the version or the requirement is invalid).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import * as V from '../../../src/versions/index.ts';
import type { System } from '../../../src/versions/index.ts';

interface NativeVector {
  q: 'valid' | 'compare' | 'validReq' | 'satisfies';
  a: string;
  b?: string;
  want: boolean | number | null;
}

const DIR = new URL('../../fixtures/versions-native/', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

function answer(system: System, v: NativeVector): boolean | number | null {
  switch (v.q) {
    case 'valid':
      return V.isValid(system, v.a);
    case 'validReq':
      return V.parseRequirement(system, v.a).ok;
    case 'compare':
      return V.isValid(system, v.a) && V.isValid(system, v.b!) ? V.compare(system, v.a, v.b!) : null;
    case 'satisfies':
      return V.isValid(system, v.a) && V.parseRequirement(system, v.b!).ok ? V.satisfies(system, v.a, v.b!) : null;
  }
}

describe('native-tool vectors (fixed disagreements)', () => {
  test('fixtures are present for the five systems with a native oracle', () => {
    expect(files.sort()).toEqual(['cargo.json', 'maven.json', 'npm.json', 'pypi.json', 'rubygems.json']);
  });

  test.each(files)('%s', (file) => {
    const d = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as {
      system: System;
      tool: string;
      vectors: NativeVector[];
    };
    expect(d.vectors.length).toBeGreaterThan(100);
    const wrong = d.vectors
      .filter((v) => answer(d.system, v) !== v.want)
      .map(
        (v) =>
          `${v.q} ${JSON.stringify(v.a)}${v.b !== undefined ? ` ${JSON.stringify(v.b)}` : ''}: ${String(answer(d.system, v))}, ${d.tool} says ${String(v.want)}`,
      );
    expect(wrong).toEqual([]);
  });
});
