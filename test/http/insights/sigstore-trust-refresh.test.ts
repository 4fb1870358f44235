/**
 * issue 34: the Sigstore trust data refreshed from a TUF repository (src/insights/attestations/
 * tuf-refresh.ts), against a loopback TUF repository signed with keys made here: the root rotated (2 of 2
 * old root keys and 2 of 2 new ones), timestamp, snapshot and targets checked, the two targets downloaded
 * by their hashes; the new data merged with the held one (a key the new data leaves out still verifies an
 * old bundle). A bad signature, a target that is not what targets.json says, a rolled-back timestamp and an
 * unreachable repository change nothing; a run within the interval is skipped.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Metadata, MetadataKind, Signature } from '@tufjs/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TRUST } from '../../../src/insights/attestations/trust.ts';
import { currentTrust, refreshSigstoreTrust } from '../../../src/insights/attestations/tuf-refresh.ts';
import { verifyNpmDocument } from '../../../src/insights/attestations/verify-npm.ts';
import { testDb, testEnv } from '../../support/env.ts';
import delivery from '../../../functions/delivery.ts';
import sigstoreDoc from '../../fixtures/attestations/sigstore-1.0.0.att.json' with { type: 'json' };

interface TestKey {
  id: string;
  json: { keytype: string; scheme: string; keyval: { public: string } };
  privateKey: KeyObject;
}

function newKey(): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const json = {
    keytype: 'ecdsa',
    scheme: 'ecdsa-sha2-nistp256',
    keyval: { public: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  };
  return { id: createHash('sha256').update(JSON.stringify(json)).digest('hex'), json, privateKey };
}

const EXPIRES = '2099-01-01T00:00:00Z';

/** Signed metadata as JSON text; `signers` sign it (a key not in the role signs nothing that counts). */
function signed(kind: MetadataKind, body: Record<string, unknown>, signers: TestKey[]): string {
  const m = Metadata.fromJSON(kind as MetadataKind.Root, {
    signed: { _type: kind, spec_version: '1.0.31', expires: EXPIRES, ...body },
    signatures: [],
  });
  for (const k of signers)
    m.sign((data) => new Signature({ keyID: k.id, sig: sign('sha256', data, k.privateKey).toString('hex') }), true);
  return JSON.stringify(m.toJSON());
}

function rootBody(version: number, rootKeys: TestKey[], online: TestKey) {
  const keys = Object.fromEntries([...rootKeys, online].map((k) => [k.id, k.json]));
  const ids = rootKeys.map((k) => k.id);
  return {
    version,
    consistent_snapshot: true,
    keys,
    roles: {
      root: { keyids: ids, threshold: 2 },
      targets: { keyids: ids, threshold: 2 },
      snapshot: { keyids: [online.id], threshold: 1 },
      timestamp: { keyids: [online.id], threshold: 1 },
    },
  };
}

const sha = (alg: string, text: string) => createHash(alg).update(text).digest('hex');
const fileMeta = (text: string) => ({
  length: Buffer.byteLength(text),
  hashes: { sha256: sha('sha256', text), sha512: sha('sha512', text) },
});

const oldRoot = [newKey(), newKey()];
const newRoot = [newKey(), newKey()];
const online = newKey();
const stranger = newKey();

/** The refreshed targets: a new Rekor log and npm key; the Rekor key and npm keys the old bundle needs left out. */
const held = BUILTIN_TRUST.trustedRoot as any;
const NEW_LOG = { ...held.tlogs[0], logId: { keyId: Buffer.from('a new rekor log for this test').toString('base64') } };
const TRUSTED_ROOT = JSON.stringify({ ...held, tlogs: [NEW_LOG] });
const NEW_NPM_KEY = { ...BUILTIN_TRUST.npmKeys.keys[0]!, keyId: 'SHA256:a-new-npm-key-for-this-test' };
const NPM_KEYS = JSON.stringify({ keys: [NEW_NPM_KEY] });

let files = new Map<string, string>();
let server: Server;
let base = '';

/** The repository at timestamp version `ts`, its targets as given, targets.json signed by `targetSigners`. */
function publish(
  opts: { ts?: number; trustedRoot?: string; served?: string; targetSigners?: TestKey[]; root3?: TestKey[] } = {},
) {
  const ts = opts.ts ?? 5;
  const trustedRoot = opts.trustedRoot ?? TRUSTED_ROOT;
  const targets = signed(
    MetadataKind.Targets,
    {
      version: 3,
      targets: { 'trusted_root.json': fileMeta(trustedRoot), 'registry.npmjs.org/keys.json': fileMeta(NPM_KEYS) },
    },
    opts.targetSigners ?? newRoot,
  );
  const snapshot = signed(MetadataKind.Snapshot, { version: 4, meta: { 'targets.json': { version: 3 } } }, [online]);
  files = new Map([
    ['/2.root.json', signed(MetadataKind.Root, rootBody(2, newRoot, online), [...oldRoot, ...newRoot])],
    [
      '/timestamp.json',
      signed(
        MetadataKind.Timestamp,
        { version: ts, meta: { 'snapshot.json': { version: 4, ...fileMeta(snapshot) } } },
        [online],
      ),
    ],
    ['/4.snapshot.json', snapshot],
    ['/3.targets.json', targets],
    [`/targets/${sha('sha256', trustedRoot)}.trusted_root.json`, opts.served ?? trustedRoot],
    [`/targets/registry.npmjs.org/${sha('sha256', NPM_KEYS)}.keys.json`, NPM_KEYS],
  ]);
  if (opts.root3)
    files.set('/3.root.json', signed(MetadataKind.Root, rootBody(3, [stranger, online], online), opts.root3));
}

const sha512Of = (doc: any): string =>
  JSON.parse(Buffer.from(doc.attestations[0].bundle.dsseEnvelope.payload, 'base64').toString('utf8')).subject[0].digest
    .sha512;

async function row() {
  const [r] = await testDb().query<any>(
    `SELECT tuf_root->'signed'->>'version' AS root, timestamp_version, trusted_root, npm_keys, error
    FROM insights.sigstore_trust WHERE repository = 'public-good'`,
  );
  return r;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await testDb().query('DELETE FROM insights.sigstore_trust');
  // the root this repository started from, as a previous refresh would have left it
  await testDb().query(
    `INSERT INTO insights.sigstore_trust (repository, tuf_root, attempted_at) VALUES ('public-good', $1::json, now() - interval '2 days')`,
    [signed(MetadataKind.Root, rootBody(1, oldRoot, online), oldRoot)],
  );
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await testDb().query('DELETE FROM insights.sigstore_trust');
});

describe('Sigstore trust refresh from a TUF repository', () => {
  it('before any refresh, verification uses the data in the repository', async () => {
    expect(await currentTrust(testDb())).toBe(BUILTIN_TRUST);
  });

  it('a repository that verifies: the root rotated, the targets merged with the held data and stored', async () => {
    publish();
    const r = await refreshSigstoreTrust(testDb(), base, 0);
    expect(r).toEqual({ status: 'updated', detail: 'root 2, targets 3' });
    const stored = await row();
    expect(stored.root).toBe('2');
    expect(stored.timestamp_version).toBe(5);
    expect(stored.error).toBe('');
    expect(stored.trusted_root.tlogs.map((t: any) => t.logId.keyId)).toEqual([
      NEW_LOG.logId.keyId,
      ...held.tlogs.map((t: any) => t.logId.keyId),
    ]);
    expect(stored.npm_keys.keys.map((k: any) => k.keyId)).toEqual([
      NEW_NPM_KEY.keyId,
      ...BUILTIN_TRUST.npmKeys.keys.map((k) => k.keyId),
    ]);
  });

  it('verification prefers the refreshed data, and an old bundle still verifies with the keys it kept', async () => {
    const trust = await currentTrust(testDb());
    expect(trust).not.toBe(BUILTIN_TRUST);
    expect((trust.trustedRoot as any).tlogs).toHaveLength(held.tlogs.length + 1);
    const artifact = {
      name: 'sigstore',
      version: '1.0.0',
      sha512Hex: sha512Of(sigstoreDoc),
      declaredRepository: 'git+https://github.com/sigstore/sigstore-js.git',
    };
    expect(await verifyNpmDocument(sigstoreDoc, artifact, async () => false, trust)).toEqual({
      verified: true,
      reason: '',
    });
  });

  it('a run within the interval is skipped', async () => {
    expect((await refreshSigstoreTrust(testDb(), base, 3600)).status).toBe('skipped');
  });

  it.each([
    [
      'targets.json signed by a key of no role',
      { targetSigners: [newRoot[0]!, stranger] },
      /3\.targets\.json: targets was signed by 1\/2 keys/,
    ],
    [
      'a target that is not what targets.json says',
      { served: TRUSTED_ROOT.replace('"tlogs"', '"tlogs" ') },
      /target trusted_root\.json: length/,
    ],
    [
      'a root rotation signed by its new keys only',
      { root3: [stranger, online] },
      /3\.root\.json \(by root 2\): root was signed by 0\/2 keys/,
    ],
    ['a timestamp older than the one seen', { ts: 4 }, /timestamp\.json is older than the one seen before/],
  ])('%s: not accepted, the held data kept', async (_, opts, reason) => {
    const before = await row();
    publish(opts);
    const r = await refreshSigstoreTrust(testDb(), base, 0);
    expect(r.status).toBe('failed');
    expect(r.detail).toMatch(reason);
    const after = await row();
    expect(after.trusted_root).toEqual(before.trusted_root);
    expect(after.npm_keys).toEqual(before.npm_keys);
    expect(after.error).toMatch(reason);
  });

  it('an unreachable repository: logged, the held data kept', async () => {
    const before = await row();
    const r = await refreshSigstoreTrust(testDb(), 'http://127.0.0.1:9', 0);
    expect(r.status).toBe('unreachable');
    const after = await row();
    expect(after.trusted_root).toEqual(before.trusted_root);
    expect(after.root).toBe('2');
  });

  it("the delivery function's cron runs it with SIGSTORE_TUF_URL, once per INSIGHTS_TRUST_REFRESH_SECONDS", async () => {
    publish({ ts: 6 });
    const env = testEnv({ SIGSTORE_TUF_URL: base, INSIGHTS_TRUST_REFRESH_SECONDS: '3600' });
    await testDb().query(
      `UPDATE insights.sigstore_trust SET attempted_at = now() - interval '2 hours' WHERE repository = 'public-good'`,
    );
    const cron = async () => {
      const work: Promise<unknown>[] = [];
      await delivery.scheduled({ cron: '* * * * *' }, env, { waitUntil: (p) => void work.push(p) });
      await Promise.all(work);
    };
    await cron();
    expect((await row()).timestamp_version).toBe(6);
    publish({ ts: 7 });
    await cron(); // within the hour: not read
    expect((await row()).timestamp_version).toBe(6);
  });
});
