/**
 * Sigstore verification of attestations (issue 34), through the insights and delivery functions on a
 * fresh database: a loopback npm registry serves sigstore@1.0.0 and tuf-js@1.0.0 with their real
 * attestation documents (../shared/reference/attestations/), a loopback PyPI the real PEP 740
 * provenance of gcb_attestation_test 0.0.0, and a loopback GitHub API the move of `github/tuf-js` to
 * `theupdateframework/tuf-js`. GetVersion answers `verified: false` until the delivery function has
 * verified the document (queued when it was stored), `true` after; a flipped payload byte, another
 * tarball digest and a certificate of another repository than the declared one answer `false` once
 * checked (that the check adds no fetch of an npm document is held by npm-cold-reads.test.ts). Every answer is parsed strictly into deps.dev's Version message.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import insights from '../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';
import { emptyInsights } from '../../../tools/universes/graphs.ts';
import { protoChecked } from '../../fixtures/insights/depsdev-proto.ts';

const REF = new URL('../../../../shared/reference/attestations/', import.meta.url);
const doc = (f: string) => JSON.parse(readFileSync(new URL(f, REF), 'utf8'));
const NPM_DOCS: Record<string, any> = {
  sigstore: doc('sigstore-1.0.0.att.json'),
  'tuf-js': doc('tuf-js-1.0.0.att.json'),
};
const GCB = doc('gcb.provenance.json');
const GCB_FILE = 'gcb_attestation_test-0.0.0.tar.gz';
const GCB_SHA256 = '461317362419124b6012e855423a9078d6de8aed3e74fa78cc74d669b23dc6cf';
const DECLARED: Record<string, string> = {
  sigstore: 'git+https://github.com/sigstore/sigstore-js.git',
  'tuf-js': 'git+https://github.com/github/tuf-js.git',
};

type Mode = 'real' | 'flipped-payload' | 'other-digest' | 'other-repository';
let mode: Mode = 'real';
let server: Server;
let url = '';
let served: Served;
const db = testDb();

const subjectSha512 = (name: string) =>
  JSON.parse(Buffer.from(NPM_DOCS[name].attestations[0].bundle.dsseEnvelope.payload, 'base64').toString()).subject[0]
    .digest.sha512 as string;

function packument(name: string) {
  const hex = mode === 'other-digest' ? 'ab'.repeat(64) : subjectSha512(name);
  const repository = mode === 'other-repository' ? 'git+https://github.com/someone/else.git' : DECLARED[name];
  const m = {
    name,
    version: '1.0.0',
    repository: { type: 'git', url: repository },
    dist: {
      tarball: `${url}/${name}/-/${name}-1.0.0.tgz`,
      integrity: `sha512-${Buffer.from(hex, 'hex').toString('base64')}`,
      attestations: { url: `${url}/-/npm/v1/attestations/${name}@1.0.0`, provenance: { predicateType: 'x' } },
    },
  };
  return {
    name,
    'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': m },
    time: { '1.0.0': '2023-02-09T18:00:00Z' },
  };
}

function attestationDoc(name: string) {
  const d = structuredClone(NPM_DOCS[name]);
  if (mode === 'flipped-payload') {
    const env = d.attestations[0].bundle.dsseEnvelope;
    const bytes = Buffer.from(env.payload, 'base64');
    const at = bytes.indexOf('"GITHUB_RUN_ATTEMPT":"1"') + '"GITHUB_RUN_ATTEMPT":"'.length;
    bytes[at]! ^= 0x01; // '1' -> '0': one bit of the signed statement, still a statement that reads
    env.payload = bytes.toString('base64');
  }
  return d;
}

const GCB_JSON_FILE = {
  filename: GCB_FILE,
  url: `https://files.example/${GCB_FILE}`,
  digests: { sha256: GCB_SHA256 },
  upload_time_iso_8601: '2025-04-21T15:02:27Z',
  packagetype: 'sdist',
};

function route(path: string): unknown {
  if (path === '/v1/query' || path === '/v1/querybatch') return {};
  const att = /^\/-\/npm\/v1\/attestations\/([^@]+)@1\.0\.0$/.exec(path);
  if (att && NPM_DOCS[att[1]!]) return attestationDoc(att[1]!);
  if (NPM_DOCS[path.slice(1)]) return packument(path.slice(1));
  if (path === '/repos/github/tuf-js') return { id: 529431007, full_name: 'theupdateframework/tuf-js' };
  if (path === '/pypi/gcb-attestation-test/json')
    return { info: { name: 'gcb_attestation_test', version: '0.0.0' }, releases: { '0.0.0': [GCB_JSON_FILE] } };
  if (path === '/pypi/gcb-attestation-test/0.0.0/json')
    return { info: { name: 'gcb_attestation_test', version: '0.0.0', license: 'MIT' }, urls: [GCB_JSON_FILE] };
  if (path === `/integrity/gcb-attestation-test/0.0.0/${GCB_FILE}/provenance`) return GCB;
  return undefined;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const body = route(path);
    if (body === undefined) return res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const upstreams = { NPM_REGISTRY_URL: url, PYPI_URL: url, GITHUB_API_URL: url, OSV_API_URL: url };
  served = await serveWorker(delivery, (d) => testEnv({ ...upstreams, DELIVERY_URL: d }));
  api = protoChecked(workerClient(insights, testEnv({ ...upstreams, DELIVERY_URL: served.url })));
}, 60_000);
afterAll(async () => {
  await served?.close();
  await new Promise<void>((r) => server.close(() => r()));
  await emptyInsights(db);
});
let api: ReturnType<typeof workerClient>;

async function version(path: string) {
  const res = await api.get(path);
  expect(res.status).toBe(200);
  return (await res.json()) as { attestations: any[]; slsaProvenances: any[] };
}

/** The check of the version's document once the delivery function has made it. */
function checked(system: string, name: string) {
  return waitFor(
    `the attestation check of ${system} ${name}`,
    async () => {
      const rows = await db.query<{ verified: boolean; reason: string }>(
        'SELECT verified, reason FROM insights.attestation_checks WHERE system = $1 AND name = $2',
        [system, name],
      );
      return rows[0];
    },
    { timeoutMs: 30_000 },
  );
}

const verifiedFlags = (v: { attestations: any[]; slsaProvenances: any[] }) => [
  v.slsaProvenances.map((p) => p.verified),
  v.attestations.map((a) => a.verified),
];

describe('the real bundles verify', () => {
  beforeAll(async () => {
    mode = 'real';
    await emptyInsights(db);
  });

  it.each(['sigstore', 'tuf-js'])('npm %s@1.0.0: false until checked, then true', async (name) => {
    const path = `/v3/systems/npm/packages/${name}/versions/1.0.0`;
    const first = await version(path);
    expect(verifiedFlags(first)).toEqual([[false], [false]]);
    expect(await checked('NPM', name)).toEqual({ verified: true, reason: '' });
    const after = await version(path);
    expect(verifiedFlags(after)).toEqual([[true], [true]]);
    expect(after.attestations[0].type).toBe('https://slsa.dev/provenance/v0.2');
    const projects = await api.get(
      `/v3/projects/${encodeURIComponent(after.attestations[0].sourceRepository.replace('https://', ''))}:packageversions`,
    );
    const mapped = ((await projects.json()) as { versions: any[] }).versions;
    expect(mapped.map((m) => [m.versionKey.name, m.attestations.map((a: any) => a.verified)])).toEqual([
      [name, [true]],
    ]);
  });

  it('PyPI gcb_attestation_test 0.0.0 (Google Cloud Build publisher): true once checked', async () => {
    const path = '/v3/systems/pypi/packages/gcb-attestation-test/versions/0.0.0';
    const first = await version(path);
    expect(verifiedFlags(first)).toEqual([[], [false]]);
    expect(await checked('PYPI', 'gcb-attestation-test')).toEqual({ verified: true, reason: '' });
    expect(verifiedFlags(await version(path))).toEqual([[], [true]]);
  });
});

describe('altered bundles and artifacts do not verify', () => {
  it.each([
    ['flipped-payload', /^provenance: .*(TLOG_BODY_ERROR|SIGNATURE_ERROR)/],
    ['other-digest', /^provenance: no subject names the artifact with its sha512 digest$/],
    ['other-repository', /^provenance: signed by github\.com\/sigstore\/sigstore-js, which is not the declared/],
  ] as const)('%s: false once checked', async (m, reason) => {
    mode = m;
    await emptyInsights(db);
    const path = '/v3/systems/npm/packages/sigstore/versions/1.0.0';
    await version(path);
    const check = await checked('NPM', 'sigstore');
    expect(check.verified).toBe(false);
    expect(check.reason).toMatch(reason);
    expect(verifiedFlags(await version(path))).toEqual([[false], [false]]);
  });
});
