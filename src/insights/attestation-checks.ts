/**
 * Sigstore verification of stored attestations, off the request path: storing attestations (npm's
 * document read after the packument, PyPI's provenance read with the release) queues
 * `/insights/attestations {system, name}` on the delivery function, which takes each unchecked document
 * (npm: the copy kept when it was read, so npm's first-read budget is unchanged; PyPI: fetched again from
 * PYPI_URL's integrity API, one file's provenance at a time), verifies it (attestations/verify-npm.ts,
 * verify-pypi.ts) against the artifact digests and the declared repository the store holds, and records
 * the verdict (queries-attestation-checks.ts); answers show `verified` from then on, false until then.
 * The trust data is the one the delivery cron last refreshed from Sigstore's TUF repository, else the
 * repository's (attestations/tuf-refresh.ts).
 * A document is checked once; an upstream failure leaves it unchecked and the message is retried.
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { fetchJson, upstreamUrl, type UpstreamEnv } from './ingest/http.ts';
import { tarballUrl } from './ingest/npm-tarball.ts';
import { githubMoves } from './attestations/moved-repository.ts';
import { verifyNpmDocument, type Verdict } from './attestations/verify-npm.ts';
import { verifyPypiProvenance } from './attestations/verify-pypi.ts';
import { BUILTIN_TRUST, type TrustData } from './attestations/trust.ts';
import { currentTrust } from './attestations/tuf-refresh.ts';
import {
  artifactDigests,
  keptAttestationDocument,
  storeAttestationCheck,
  uncheckedAttestations,
  type Unchecked,
} from './queries-attestation-checks.ts';

export const CHECKS_PER_MESSAGE = 16;
const PYPI_PUBLIC = 'https://pypi.org';

async function checkNpm(env: UpstreamEnv, db: Db, name: string, u: Unchecked, trust: TrustData): Promise<Verdict> {
  const digests = await artifactDigests(db, 'NPM', name, u.version);
  const sha512 = digests.find((d) => d.hash_type === 'SHA512')?.hex ?? '';
  const key = { system: 'NPM', name, version: u.version, url: u.url };
  const doc = (await keptAttestationDocument(db, key)) ?? (await fetchJson(tarballUrl(env, u.url)));
  const artifact = { name, version: u.version, sha512Hex: sha512, declaredRepository: u.repository };
  return verifyNpmDocument(doc, artifact, githubMoves(env), trust);
}

async function checkPypi(env: UpstreamEnv, db: Db, name: string, u: Unchecked, trust: TrustData): Promise<Verdict> {
  const m = /^https:\/\/pypi\.org\/integrity\/[^/]+\/[^/]+\/([^/]+)\/provenance$/.exec(u.url);
  if (!m) return { verified: false, reason: `not a PyPI integrity API URL: ${u.url}` };
  const filename = decodeURIComponent(m[1]!);
  const digests = await artifactDigests(db, 'PYPI', name, u.version);
  const file = digests.find((d) => d.hash_type === 'SHA256' && d.url.split('/').pop() === filename);
  const doc = await fetchJson(upstreamUrl(env, 'PYPI_URL') + u.url.slice(PYPI_PUBLIC.length));
  return verifyPypiProvenance(doc, { filename, sha256Hex: file?.hex ?? '' }, trust);
}

/** Checks up to CHECKS_PER_MESSAGE unchecked documents of a package; whether some are left. */
export async function checkAttestations(env: Env, db: Db, system: string, name: string): Promise<boolean> {
  if (system !== 'NPM' && system !== 'PYPI') return false;
  const todo = await uncheckedAttestations(db, system, name, CHECKS_PER_MESSAGE);
  const uenv = env as unknown as UpstreamEnv;
  const trust = todo.length ? await currentTrust(db) : BUILTIN_TRUST; // refreshed from TUF when it was (tuf-refresh.ts)
  for (const u of todo) {
    const verdict =
      system === 'NPM' ? await checkNpm(uenv, db, name, u, trust) : await checkPypi(uenv, db, name, u, trust);
    await storeAttestationCheck(db, { system, name, version: u.version, url: u.url }, verdict);
  }
  return todo.length === CHECKS_PER_MESSAGE;
}
