/**
 * npm bundled dependencies in GetDependencies, end to end: rzb-app is ingested through the
 * insights fixture server (its tarballs are built from upstream/npm/rzb-app/-/*.tgz.entries.json),
 * so `npm.bundled` comes from the tarball reader and the Postgres client turns it into the
 * mangled `rzb-app>1.0.0>rzb-a>rzb-b` copies; what the bundle lacks (rzb-d, and rzb-c@^2 for the
 * root) is read through from the registry. 1.1.0's tarball holds a folder nothing uses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, upstream, useFixtureUpstream } from '../../../fixtures/insights/harness.ts';

useFixtureUpstream();
beforeAll(async () => {
  expect((await api.get('/v3/systems/npm/packages/rzb-app')).status).toBe(200);
});

const node = (name: string, version: string, relation: string, bundled = false) => ({
  versionKey: { system: 'NPM', name, version },
  bundled,
  relation,
  errors: [],
});

describe('GetDependencies with npm bundled dependencies', () => {
  it.each([
    [
      '1.0.0',
      {
        nodes: [
          node('rzb-app', '1.0.0', 'SELF'),
          node('rzb-app>1.0.0>rzb-a', '1.0.0', 'DIRECT', true),
          node('rzb-app>1.0.0>rzb-a>rzb-b', '1.0.0', 'INDIRECT', true),
          node('rzb-app>1.0.0>rzb-a>rzb-c', '1.2.0', 'INDIRECT', true),
          node('rzb-c', '2.0.0', 'DIRECT'),
          node('rzb-d', '1.0.0', 'INDIRECT'),
        ],
        edges: [
          { fromNode: 0, toNode: 1, requirement: '^1.0.0' },
          { fromNode: 0, toNode: 4, requirement: '^2.0.0' },
          { fromNode: 1, toNode: 2, requirement: '^1.0.0' },
          { fromNode: 1, toNode: 3, requirement: '^1.0.0' },
          { fromNode: 1, toNode: 5, requirement: '^1.0.0' },
          { fromNode: 2, toNode: 3, requirement: '^1.0.0' },
          { fromNode: 5, toNode: 4, requirement: '^2.0.0' },
        ],
        error: '',
      },
    ],
    [
      '1.1.0',
      {
        nodes: [
          node('rzb-app', '1.1.0', 'SELF'),
          node('rzb-app>1.1.0>rzb-a', '1.0.0', 'DIRECT', true),
          node('rzb-c', '2.0.0', 'INDIRECT'),
          node('rzb-d', '1.0.0', 'INDIRECT'),
        ],
        edges: [
          { fromNode: 0, toNode: 1, requirement: '^1.0.0' },
          { fromNode: 1, toNode: 3, requirement: '^1.0.0' },
          { fromNode: 3, toNode: 2, requirement: '^2.0.0' },
        ],
        error: 'unused bundled version rzb-x 1.0.0',
      },
    ],
  ])('rzb-app@%s', async (version, want) => {
    const res = await api.get(`/v3/systems/npm/packages/rzb-app/versions/${version}:dependencies`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(want);
  });

  it('read the registry only for what the bundles lack', () => {
    expect([
      upstream.hits.get('/npm/rzb-app/-/rzb-app-1.0.0.tgz'),
      upstream.hits.get('/npm/rzb-app/-/rzb-app-1.1.0.tgz'),
      upstream.hits.get('/npm/rzb-c'),
      upstream.hits.get('/npm/rzb-d'),
      upstream.hits.get('/npm/rzb-a'),
      upstream.hits.get('/npm/rzb-b'),
      upstream.hits.get('/npm/rzb-x'),
    ]).toEqual([1, 1, 1, 1, undefined, undefined, undefined]);
  });
});
