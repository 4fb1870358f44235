/**
 * A Maven repository layout for the Maven re-read schedule: `/<group path>/<artifact>/maven-metadata.xml`
 * (the versions in publication order, `<release>` the last) and each version's POM (`Last-Modified`:
 * its publication time). Maven has no feed, so `touch` changes nothing and `remove` drops the package.
 */
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

export async function startMavenRepository(): Promise<FeedRegistry> {
  const store: Store = new Map();
  const failing = new Set<string>();
  const dir = (name: string) => {
    const [g, a] = name.split(':');
    return `/${g!.split('.').join('/')}/${a}`;
  };
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    for (const [name, versions] of store) {
      const base = dir(name);
      if (!req.path.startsWith(`${base}/`)) continue;
      if (failing.has(name)) return { status: 500, body: 'error' };
      const [g, a] = name.split(':');
      const list = [...versions.keys()];
      if (req.path === `${base}/maven-metadata.xml`)
        return {
          status: 200,
          headers: { 'content-type': 'application/xml' },
          body: `<?xml version="1.0" encoding="UTF-8"?><metadata><groupId>${g}</groupId><artifactId>${a}</artifactId><versioning><latest>${list.at(-1)}</latest><release>${list.at(-1)}</release><versions>${list.map((v) => `<version>${v}</version>`).join('')}</versions></versioning></metadata>`,
        };
      const v = /^\/([^/]+)\/[^/]+\.pom$/.exec(req.path.slice(base.length))?.[1];
      const entry = v ? versions.get(v) : undefined;
      if (!entry) break;
      return {
        status: 200,
        headers: { 'content-type': 'application/xml', 'last-modified': new Date(entry.time).toUTCString() },
        body: `<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></project>`,
      };
    }
    return { status: 404, body: 'not found' };
  });
  return {
    registry: 'maven',
    system: 'MAVEN',
    fake,
    env: { MAVEN_REPO_URL: fake.url, OSV_API_URL: fake.url },
    failing,
    publish: (name, version, deps) => addVersion(store, name, version, deps),
    remove: (name) => void store.delete(name),
    touch: () => {},
    close: () => fake.close(),
  };
}
