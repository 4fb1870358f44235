/**
 * GetDependencies is never slower the second time: for an npm, a PyPI and a Maven graph read through
 * cold from a loopback registry, the request sent right after the first answer (while the read-through's
 * writes and the cache entry are still under way) and one sent after them answer the same bytes, each
 * in at most the first's time, and no upstream document is read twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { pypiJsonRoute } from '../../../../tools/registries/pypi-json.ts';
import { mavenLayout, type MavenUniverse } from '../../../../tools/registries/maven-repo.ts';
import { callEarly } from './call-early.ts';

const NPM: Record<string, Record<string, Record<string, string>>> = {
  'sr-root': { '1.0.0': { 'sr-a': '^1.0.0', 'sr-b': '^2.0.0' } },
  'sr-a': { '1.0.0': { 'sr-c': '*' }, '1.4.0': { 'sr-c': '^1.0.0' } },
  'sr-b': { '2.0.0': { 'sr-c': '^2.0.0' } },
  'sr-c': { '1.0.0': {}, '2.1.0': {} },
};
const packument = (name: string) => {
  const versions = NPM[name];
  if (!versions) return undefined;
  const entries = Object.entries(versions);
  return {
    name,
    'dist-tags': { latest: entries.at(-1)![0] },
    versions: Object.fromEntries(entries.map(([v, dependencies]) => [v, { name, version: v, dependencies }])),
  };
};
const PYPI = pypiJsonRoute({
  'sr-root': {
    '1.0.0': {
      deps: [
        ['sr-a', '>=1'],
        ['sr-b', '<3'],
      ],
    },
  },
  'sr-a': { '1.0': { deps: [['sr-b', '>=2']] }, '1.5': { deps: [['sr-b', '>=2']] } },
  'sr-b': { '1.0': {}, '2.0': {}, '3.0': {} },
});
const MAVEN_U: MavenUniverse = {
  label: 'second request',
  prefix: 'sr.maven',
  root: 'sr.maven:root',
  features: [],
  poms: [
    {
      g: 'sr.maven',
      a: 'root',
      v: '1.0.0',
      deps: [
        { g: 'sr.maven', a: 'a', v: '1.0' },
        { g: 'sr.maven', a: 'b', v: '[1.0,2.0)' },
      ],
    },
    { g: 'sr.maven', a: 'a', v: '1.0', deps: [{ g: 'sr.maven', a: 'c', v: '2.0' }] },
    { g: 'sr.maven', a: 'b', v: '1.0' },
    { g: 'sr.maven', a: 'b', v: '1.5', deps: [{ g: 'sr.maven', a: 'c', v: '1.0' }] },
    { g: 'sr.maven', a: 'c', v: '1.0' },
    { g: 'sr.maven', a: 'c', v: '2.0' },
  ],
};
const MAVEN = mavenLayout([MAVEN_U]);

let registry: RegistryServer;
const db = testDb();

beforeAll(async () => {
  await emptyInsights(db);
  registry = await startRegistry((p) => {
    if (p === '/v1/query') return {};
    if (p.startsWith('/npm/')) return packument(p.slice(5));
    if (p.startsWith('/pypi/')) return PYPI(p);
    return MAVEN.get(p.replace(/^\/maven/, ''));
  });
});
afterAll(async () => {
  await registry?.close();
  await emptyInsights(db);
});

const CASES = [
  { system: 'npm', path: '/v3/systems/npm/packages/sr-root/versions/1.0.0:dependencies', nodes: 5 },
  { system: 'pypi', path: '/v3/systems/pypi/packages/sr-root/versions/1.0.0:dependencies', nodes: 3 },
  { system: 'maven', path: '/v3/systems/maven/packages/sr.maven:root/versions/1.0.0:dependencies', nodes: 4 },
];

describe('the request after a cold graph', () => {
  it.each(CASES)('$system: the second and third answers are the first one, each no slower', async ({ path, nodes }) => {
    const env = testEnv({
      NPM_REGISTRY_URL: `${registry.url}/npm`,
      PYPI_URL: registry.url,
      MAVEN_REPO_URL: `${registry.url}/maven`,
      OSV_API_URL: registry.url,
    });
    const first = await callEarly(insights, env, path);
    const second = await callEarly(insights, env, path); // the first one's writes are still under way
    await Promise.all([first.settled(), second.settled()]);
    const third = await callEarly(insights, env, path);
    await third.settled();
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(graphSets(JSON.parse(first.text)).nodes).toHaveLength(nodes);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    expect(second.ms).toBeLessThanOrEqual(first.ms);
    expect(third.ms).toBeLessThanOrEqual(first.ms);
    const twice = [...registry.hits].filter(([p, n]) => n > 1 && p !== '/v1/query');
    expect(twice).toEqual([]);
  });
});
