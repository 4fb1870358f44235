/**
 * First reads of npm packages with a long history: a loopback registry serves packages whose hundreds of
 * versions all bundle a dependency and many carry attestations, and one version whose tarball holds a
 * file larger than 256 MiB before its bundled manifest. GetPackage reads the packument only (no tarball,
 * no attestations document); GetRequirements of a version reads that version's tarball, once; GetVersion
 * reads that version's attestations, once; the large tarball is read to its end. The other versions'
 * reads are done in the background, through the queue and the delivery function, each once.
 */
import { createServer, type Server } from 'node:http';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import insights from '../../../functions/insights.ts';
import { executionContext, testDb, testEnv, workerClient } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';
import { emptyInsights } from '../../../tools/universes/graphs.ts';
import { buildTar, buildTgz } from '../../../tools/insights-upstream/tar.ts';

const VERSIONS = 300;
const ATTESTED_EVERY = 6; // versions 0, 6, 12, ...: 50 attested
const BIG = `1.0.${VERSIONS}`; // its tarball: a 300 MiB file, then the bundled manifest
const REPO = 'https://github.com/cold/reads';
const hits = new Map<string, number>();
let server: Server;
let url = '';
let bigTgz: Buffer;
let served: Served;
const db = testDb();

const versionsOf = () => [...Array.from({ length: VERSIONS }, (_, i) => `1.0.${i}`), BIG];
const patch = (v: string) => Number(v.split('.')[2]);

function packument(name: string) {
  const versions = Object.fromEntries(
    versionsOf().map((v) => [
      v,
      {
        name,
        version: v,
        dependencies: { dep: '^1.0.0' },
        bundleDependencies: ['dep'],
        dist: {
          tarball: `${url}/${name}/-/${name}-${v}.tgz`,
          ...(patch(v) % ATTESTED_EVERY === 0
            ? { attestations: { url: `${url}/-/npm/v1/attestations/${name}@${v}`, provenance: {} } }
            : {}),
        },
      },
    ]),
  );
  return { name, 'dist-tags': { latest: BIG }, versions };
}

function attestations(v: string) {
  const statement = {
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        externalParameters: { workflow: { repository: REPO } },
        resolvedDependencies: [{ uri: `git+${REPO}@refs/heads/main`, digest: { gitCommit: `c0ffee${patch(v)}` } }],
      },
    },
  };
  const payload = Buffer.from(JSON.stringify(statement)).toString('base64');
  return { attestations: [{ predicateType: statement.predicateType, bundle: { dsseEnvelope: { payload } } }] };
}

const manifest = (v: string) => ({ name: 'dep', version: v });

/** gzip of: a tar header declaring 300 MiB, that many zero bytes, then node_modules/dep/package.json. */
async function buildBigTgz(): Promise<Buffer> {
  const size = 300 * 1024 * 1024;
  const header = buildTar([{ path: 'package/big.bin', content: '' }]).slice(0, 512);
  header.set(new TextEncoder().encode(`${size.toString(8).padStart(11, '0')}\0`), 124);
  header.fill(32, 148, 156);
  const sum = header.reduce((a, b) => a + b, 0);
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
  const after = buildTar([{ path: 'package/node_modules/dep/package.json', content: manifest(BIG) }]);
  const gzip = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((r) => gzip.on('end', r));
  const zeros = Buffer.alloc(1024 * 1024);
  gzip.write(header);
  for (let i = 0; i < size / zeros.length; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r));
  gzip.end(after);
  await ended;
  return Buffer.concat(out);
}

beforeAll(async () => {
  await emptyInsights(db);
  bigTgz = await buildBigTgz();
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const tgz = /^\/([^/]+)\/-\/[^/]+-(1\.0\.\d+)\.tgz$/.exec(path);
    const att = /^\/-\/npm\/v1\/attestations\/([^@]+)@(.+)$/.exec(path);
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/v1/query') return json({});
    if (tgz) {
      const body =
        tgz[2] === BIG
          ? bigTgz
          : buildTgz([{ path: 'package/node_modules/dep/package.json', content: manifest(tgz[2]!) }]);
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    }
    if (att) return json(attestations(att[2]!));
    if (/^\/cr-[a-z]+$/.test(path)) return json(packument(path.slice(1)));
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  served = await serveWorker(delivery, (d) => testEnv({ NPM_REGISTRY_URL: url, OSV_API_URL: url, DELIVERY_URL: d }));
}, 60_000);
afterAll(async () => {
  await served?.close();
  await new Promise<void>((r) => server.close(() => r()));
  await emptyInsights(db);
});

const count = (re: RegExp) => [...hits].filter(([p]) => re.test(p)).reduce((a, [, n]) => a + n, 0);

describe('first reads of a package with hundreds of bundling, attested versions', () => {
  // no delivery function: nothing is read in the background, so every read counted here is the request's own
  const api = () => workerClient(insights, testEnv({ NPM_REGISTRY_URL: url, OSV_API_URL: url }));

  it('GetPackage reads the packument and no tarball or attestations document', async () => {
    const res = await api().get('/v3/systems/npm/packages/cr-one');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { versions: unknown[] }).versions).toHaveLength(VERSIONS + 1);
    expect([hits.get('/cr-one'), count(/^\/cr-one\/-\//), count(/attestations\/cr-one@/)]).toEqual([1, 0, 0]);
  });

  it('a GetVersion sent while the first GetPackage is still storing waits for that store: one packument read', async () => {
    const { ctx, settle } = executionContext();
    const env = testEnv({ NPM_REGISTRY_URL: url, OSV_API_URL: url });
    const get = (path: string) => insights.fetch(new Request(`http://localhost${path}`), env as never, ctx as never);
    const pkg = await get('/v3/systems/npm/packages/cr-three'); // answered from the packument, stored after
    const version = await get('/v3/systems/npm/packages/cr-three/versions/1.0.5');
    expect([pkg.status, version.status]).toEqual([200, 200]);
    expect(((await pkg.json()) as { versions: unknown[] }).versions).toHaveLength(VERSIONS + 1);
    expect(((await version.json()) as { versionKey: { version: string } }).versionKey.version).toBe('1.0.5');
    await settle();
    expect(hits.get('/cr-three')).toBe(1);
  });

  it('GetRequirements of one version reads exactly its tarball, once', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api().get('/v3/systems/npm/packages/cr-one/versions/1.0.7:requirements');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { npm: { bundled: { path: string; name: string; version: string }[] } };
      expect(body.npm.bundled.map((b) => [b.path, b.name, b.version])).toEqual([['node_modules/dep', 'dep', '1.0.7']]);
    }
    expect([count(/^\/cr-one\/-\//), hits.get('/cr-one/-/cr-one-1.0.7.tgz')]).toEqual([1, 1]);
  });

  it('GetVersion of an attested version reads exactly its attestations document, once', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api().get('/v3/systems/npm/packages/cr-one/versions/1.0.12');
      expect(res.status).toBe(200);
      const v = (await res.json()) as { slsaProvenances: unknown[] };
      expect(v.slsaProvenances).toEqual([
        {
          sourceRepository: REPO,
          commit: 'c0ffee12',
          url: `${url}/-/npm/v1/attestations/cr-one@1.0.12`,
          verified: false,
        },
      ]);
    }
    expect(count(/attestations\/cr-one@/)).toBe(1);
  });

  it('reads the bundled manifest after a 300 MiB file', async () => {
    const res = await api().get(`/v3/systems/npm/packages/cr-one/versions/${BIG}:requirements`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { npm: { bundled: { name: string; version: string }[] } };
    expect(body.npm.bundled.map((b) => [b.name, b.version])).toEqual([['dep', BIG]]);
  });
});

describe('the other versions', () => {
  it('are read in the background, each tarball and attestations document once', async () => {
    const api = workerClient(insights, testEnv({ NPM_REGISTRY_URL: url, OSV_API_URL: url, DELIVERY_URL: served.url }));
    const { ctx, settle } = executionContext();
    const first = await insights.fetch(
      new Request('http://localhost/v3/systems/npm/packages/cr-two'),
      api.env as never,
      ctx as never,
    );
    expect(first.status).toBe(200);
    expect(count(/^\/cr-two\/-\//)).toBe(0); // the answer read no tarball; the queue reads them after it
    await settle();
    await waitFor(
      'every pending read of cr-two',
      async () => {
        const left = await db.query(
          "SELECT 1 FROM insights.versions WHERE system = 'NPM' AND name = 'cr-two' AND (meta ? 'npmTarball' OR meta ? 'npmAttestations')",
        );
        return left.length === 0;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const tarballs = [...hits].filter(([p]) => p.startsWith('/cr-two/-/'));
    expect(tarballs).toHaveLength(VERSIONS + 1);
    expect(tarballs.every(([, n]) => n === 1)).toBe(true);
    expect(count(/attestations\/cr-two@/)).toBe(versionsOf().filter((v) => patch(v) % ATTESTED_EVERY === 0).length);
    const res = await api.get('/v3/systems/npm/packages/cr-two/versions/1.0.299:requirements');
    expect(((await res.json()) as { npm: { bundled: { version: string }[] } }).npm.bundled[0]!.version).toBe('1.0.299');
    expect(hits.get('/cr-two/-/cr-two-1.0.299.tgz')).toBe(1);
  }, 180_000);
});
