/**
 * Property tests (fast-check): compare is antisymmetric and transitive, canon is idempotent and
 * order-preserving where the spelling is the native one, and predicates never throw, for every system.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as V from '../../../src/versions/index.ts';
import type { System } from '../../../src/versions/index.ts';

const num = fc.integer({ min: 0, max: 12 }).map(String);
const word = fc.constantFrom(
  'alpha',
  'beta',
  'rc',
  'a',
  'b',
  'dev',
  'post',
  'pre',
  'sp',
  'ga',
  'final',
  'snapshot',
  'x',
  'foo',
);
const ident = fc.oneof(
  num,
  word,
  fc.tuple(word, num).map(([w, n]) => w + n),
);
const dotted = (n: number) => fc.array(num, { minLength: 1, maxLength: n }).map((a) => a.join('.'));
const triple = fc.tuple(num, num, num).map((a) => a.join('.')); // npm and Cargo versions have all three
const pre = fc.array(ident, { minLength: 1, maxLength: 3 }).map((a) => a.join('.'));

const GEN: Record<System, fc.Arbitrary<string>> = {
  NPM: fc
    .tuple(triple, fc.option(pre), fc.option(ident))
    .map(([c, p, b]) => c + (p ? `-${p}` : '') + (b ? `+${b}` : '')),
  CARGO: fc.tuple(triple, fc.option(pre)).map(([c, p]) => c + (p ? `-${p}` : '')),
  GO: fc
    .tuple(num, num, num, fc.option(pre), fc.boolean())
    .map(([a, b, c, p, inc]) => `v${a}.${b}.${c}${p ? `-${p}` : ''}${inc ? '+incompatible' : ''}`),
  NUGET: fc.tuple(dotted(4), fc.option(pre)).map(([c, p]) => c + (p ? `-${p}` : '')),
  // Maven versions start with a number: ComparableVersion is not transitive on some exotic
  // letter-first strings (e.g. `post`, `post0.alpha`, `post.x0`), a property of Maven itself.
  MAVEN: fc
    .tuple(num, fc.array(fc.tuple(fc.constantFrom('.', '-'), ident), { maxLength: 4 }))
    .map(([n, a]) => n + a.map(([s, i]) => s + i).join('')),
  PYPI: fc
    .tuple(
      fc.option(fc.constantFrom('1!')),
      dotted(4),
      fc.option(fc.tuple(fc.constantFrom('a', 'b', 'rc', 'alpha', '-beta', '.pre'), num)),
      fc.option(num),
      fc.option(num),
      fc.option(ident),
    )
    .map(
      ([e, r, p, post, dev, loc]) =>
        `${e ?? ''}${r}${p ? p[0] + p[1] : ''}${post ? `.post${post}` : ''}${dev ? `.dev${dev}` : ''}${loc ? `+${loc}` : ''}`,
    ),
  RUBYGEMS: fc
    .tuple(dotted(5), fc.option(fc.array(ident, { minLength: 1, maxLength: 3 })))
    .map(([c, p]) => c + (p ? `.${p.join('.')}` : '')),
};

const anyText = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '*', '||', '[', '(,1.0]', '~>', '^', '==', '1.0 - ', '>=1,<2', '1.*.*'),
);

const RUNS = { numRuns: 300 };

describe.each(V.SYSTEMS.map((s) => [s]))('%s properties', (system: System) => {
  const gen = GEN[system];

  test('generated versions are valid', () => {
    fc.assert(
      fc.property(gen, (v) => V.isValid(system, v)),
      RUNS,
    );
  });

  test('compare is antisymmetric and reflexive', () => {
    fc.assert(
      fc.property(gen, gen, (a, b) => {
        expect(V.compare(system, a, b)).toBe(-V.compare(system, b, a) || 0);
        expect(V.compare(system, a, a)).toBe(0);
      }),
      RUNS,
    );
  });

  // Maven's own ComparableVersion is not transitive where a string item meets a list item: Maven 3.8.7
  // (`java -cp /usr/share/maven/lib/maven-artifact-3.x.jar org.apache.maven.artifact.versioning.ComparableVersion
  // 2 2.x 2-final.alpha0 2`) answers 2 < 2.x < 2-final.alpha0 < 2. The service answers as Maven does, so for
  // MAVEN the property is that cycle, pinned; every other system's order is transitive.
  test(
    system === 'MAVEN' ? "compare answers Maven's own cycle 2 < 2.x < 2-final.alpha0 < 2" : 'compare is transitive',
    () => {
      if (system === 'MAVEN') {
        expect(V.compare(system, '2', '2.x')).toBe(-1);
        expect(V.compare(system, '2.x', '2-final.alpha0')).toBe(-1);
        expect(V.compare(system, '2-final.alpha0', '2')).toBe(-1);
        return;
      }
      fc.assert(
        fc.property(fc.array(gen, { minLength: 3, maxLength: 3 }), (vs) => {
          const [a, b, c] = V.sort(system, vs) as [string, string, string];
          expect(V.compare(system, a, b)).toBeLessThanOrEqual(0);
          expect(V.compare(system, b, c)).toBeLessThanOrEqual(0);
          expect(V.compare(system, a, c)).toBeLessThanOrEqual(0);
          if (V.compare(system, a, b) < 0 || V.compare(system, b, c) < 0) expect(V.compare(system, a, c)).toBe(-1);
        }),
        RUNS,
      );
    },
  );

  test('canon is idempotent', () => {
    fc.assert(
      fc.property(gen, (v) => {
        const c = V.canon(system, v);
        expect(c).not.toBeNull();
        expect(V.canon(system, c!)).toBe(c);
      }),
      RUNS,
    );
  });

  test('predicates never throw, on any input', () => {
    fc.assert(
      fc.property(fc.oneof(gen, anyText), fc.oneof(gen, anyText), fc.boolean(), (v, r, inc) => {
        expect(typeof V.satisfies(system, v, r, { includePrerelease: inc })).toBe('boolean');
        expect(typeof V.isValid(system, v)).toBe('boolean');
        expect([-1, 0, 1]).toContain(V.compare(system, v, r));
        const p = V.parseRequirement(system, r);
        if (!p.ok) expect(p.error.length).toBeGreaterThan(0);
        V.maxSatisfying(system, [v, r], r);
        V.isPrerelease(system, v);
      }),
      RUNS,
    );
  });

  // Every string is a Maven version (the empty one too, which ComparableVersion reads as `0`), so for MAVEN this
  // is the transitivity above again, which Maven itself does not have: fast-check found
  // `"" > 0-0.alpha0 > 0.a > ""`, and Maven 3.8.7 answers the same (`java -cp
  // /usr/share/maven/lib/maven-artifact-3.x.jar org.apache.maven.artifact.versioning.ComparableVersion 0-0.alpha0
  // 0.a ""`, then `"" 0-0.alpha0`): that cycle is pinned instead.
  test(
    system === 'MAVEN'
      ? 'compare answers Maven\'s own cycle "" > 0-0.alpha0 > 0.a > ""'
      : 'compare totally orders mixed valid and invalid input',
    () => {
      if (system === 'MAVEN') {
        expect(V.isValid(system, '')).toBe(true);
        expect(V.compare(system, '', '0-0.alpha0')).toBe(1);
        expect(V.compare(system, '0-0.alpha0', '0.a')).toBe(1);
        expect(V.compare(system, '0.a', '')).toBe(1);
        return;
      }
      fc.assert(
        fc.property(fc.array(fc.oneof(gen, anyText), { minLength: 3, maxLength: 3 }), (vs) => {
          const [a, b, c] = V.sort(system, vs) as [string, string, string];
          expect(V.compare(system, a, b)).toBeLessThanOrEqual(0);
          expect(V.compare(system, b, c)).toBeLessThanOrEqual(0);
          expect(V.compare(system, a, c)).toBeLessThanOrEqual(0);
        }),
        RUNS,
      );
    },
  );
});

describe('API examples', () => {
  test.each([
    ['PYPI', '3.0', '3.0.0'],
    ['PYPI', '1.0.0-alpha', '1.0.0a0'],
    ['NPM', 'v6.0.0-beta1', '6.0.0-beta1'],
    ['NUGET', '1.0.0-AlPhA.1+x', '1.0.0-alpha.1'],
    ['MAVEN', '1.0.0-alpha', '1-alpha'],
    ['GO', 'v1', 'v1.0.0'],
    ['RUBYGEMS', '6.0.0.beta1', '6.0.0-beta.1'],
  ] as [System, string, string][])('canon(%s, %s) = %s', (s, v, c) => {
    expect(V.canon(s, v)).toBe(c);
  });

  test.each([
    ['NPM', ['1.2.3', '1.3.0', '2.0.0', '1.4.0-rc.1'], '^1.2', '1.3.0'],
    ['CARGO', ['0.2.1', '0.2.9', '0.3.0'], '0.2', '0.2.9'],
    ['MAVEN', ['1.0', '1.5', '2.0'], '[1.0,2.0)', '1.5'],
    ['PYPI', ['1.0', '2.0b1'], '>=1.5', '2.0b1'],
    ['PYPI', ['1.0', '1.4', '2.0b1'], '~=1.0', '1.4'],
    ['NUGET', ['1.0.0', '1.5.0', '2.0.0-beta'], '1.*', '1.5.0'],
    ['RUBYGEMS', ['1.2.0', '1.9.9', '2.0.0'], '~> 1.2', '1.9.9'],
    ['GO', ['v1.2.0', 'v1.9.0', 'v2.0.0+incompatible'], 'v1.2.0', 'v1.9.0'],
  ] as [System, string[], string, string][])('maxSatisfying(%s, %j, %s) = %s', (s, vs, r, want) => {
    expect(V.maxSatisfying(s, vs, r)).toBe(want);
  });

  test('sort is ascending and stable; invalid versions first', () => {
    expect(V.sort('NPM', ['2.0.0', 'latest', '1.0.0+b', '1.0.0+a', '1.0.0-rc.1'])).toEqual([
      'latest',
      '1.0.0-rc.1',
      '1.0.0+b',
      '1.0.0+a',
      '2.0.0',
    ]);
    expect(V.sort('MAVEN', ['1.0', '1.0-sp', '1.0-alpha', '1.0-SNAPSHOT'])).toEqual([
      '1.0-alpha',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0-sp',
    ]);
  });

  test('invalid requirements give a clear error; tags are not versions', () => {
    const r = V.parseRequirement('NPM', 'latest');
    expect(r.ok).toBe(false);
    expect(V.satisfies('NPM', '1.0.0', 'latest')).toBe(false);
    expect(V.parseRequirement('CARGO', '1.0 2.0').ok).toBe(false);
  });
});
