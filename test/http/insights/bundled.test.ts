/**
 * npm `bundled` requirements: GetRequirements of a version that declares bundleDependencies lists
 * the manifests found in its tarball's node_modules (nested and scoped, each with its own
 * dependencies), read through the fixture server (the tarball is built there from
 * upstream/npm/bundle-demo/-/bundle-demo-1.0.0.tgz.entries.json). Only the tarball of the version
 * asked for is read, once; versions that bundle nothing cost no tarball request; a missing tarball is a
 * 502 naming it, never an empty list.
 */
import { describe, expect, it } from 'vitest';
import { json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

const none = {
  dependencies: [],
  devDependencies: [],
  optionalDependencies: [],
  peerDependencies: [],
  bundleDependencies: [],
  peerDependencyMetadata: [],
};

describe('npm bundled requirements', () => {
  it('lists the manifests in the tarball node_modules, nested ones included', async () => {
    const body = await json('/v3/systems/npm/packages/bundle-demo/versions/1.0.0:requirements');
    expect(body).toEqual({
      npm: {
        dependencies: {
          ...none,
          dependencies: [
            { name: '@scope/dep-c', requirement: '0.0.1' },
            { name: 'dep-a', requirement: '^2.0.0' },
            { name: 'left-pad', requirement: '^1.3.0' },
          ],
          bundleDependencies: ['dep-a', '@scope/dep-c'],
        },
        bundled: [
          {
            path: 'node_modules/@scope/dep-c',
            name: '@scope/dep-c',
            version: '0.0.1',
            dependencies: { ...none, optionalDependencies: [{ name: 'fsevents', requirement: '^2.3.2' }] },
          },
          {
            path: 'node_modules/dep-a',
            name: 'dep-a',
            version: '2.0.3',
            dependencies: {
              ...none,
              dependencies: [
                { name: 'dep-b', requirement: '^1.0.0' },
                { name: 'ms', requirement: '^2.1.0' },
              ],
              devDependencies: [{ name: 'tap', requirement: '^16.0.0' }],
            },
          },
          {
            path: 'node_modules/dep-a/node_modules/dep-b',
            name: 'dep-b',
            version: '1.4.0',
            dependencies: {
              ...none,
              peerDependencies: [{ name: 'dep-a', requirement: '2' }],
              peerDependencyMetadata: [{ name: 'dep-a', optional: true }],
            },
          },
        ],
        os: [],
        cpu: [],
      },
    });
    expect(Object.keys(body.npm.bundled[0])).toEqual(['path', 'name', 'version', 'dependencies']);
  });

  it('reads only the tarball of the version asked for, once (the package read reads none)', async () => {
    await json('/v3/systems/npm/packages/bundle-demo');
    await json('/v3/systems/npm/packages/bundle-demo/versions/1.0.0:requirements');
    expect([
      upstream.hits.get('/npm/bundle-demo'),
      upstream.hits.get('/npm/bundle-demo/-/bundle-demo-1.0.0.tgz'),
      upstream.hits.get('/npm/bundle-demo/-/bundle-demo-1.1.0.tgz'),
      upstream.hits.get('/npm/bundle-demo/-/bundle-demo-1.2.0.tgz'),
    ]).toEqual([1, 1, undefined, undefined]);
  });

  it('says so when the tarball is missing; an empty list only when nothing is bundled', async () => {
    expect(await json('/v3/systems/npm/packages/bundle-demo/versions/1.2.0:requirements', 502)).toEqual({
      error: expect.stringMatching(
        /^the bundled manifests \(tarball\) of npm bundle-demo@1\.2\.0 could not be read: .*bundle-demo-1\.2\.0\.tgz/,
      ),
    });
    expect(upstream.hits.get('/npm/bundle-demo/-/bundle-demo-1.2.0.tgz')).toBe(1);
    expect((await json('/v3/systems/npm/packages/bundle-demo/versions/1.1.0:requirements')).npm.bundled).toEqual([]);
    // the service knows which tarballs it read and when, and which failed (insights.source_reads)
    const reads = await testDb().query<{ version: string; read: boolean; error: string }>(
      `SELECT version, read_at IS NOT NULL AS read, error FROM insights.source_reads
      WHERE system = 'NPM' AND name = 'bundle-demo' AND source = 'tarball' ORDER BY version`,
    );
    expect(reads).toEqual([
      { version: '1.0.0', read: true, error: '' },
      { version: '1.2.0', read: false, error: 'not found (404)' },
    ]);
  });
});
