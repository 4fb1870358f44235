/**
 * GetVersion of a package the store lacks (its first read): answered from the fetched document
 * (version-answer.ts) with the OSV records asked for beside it, and for npm the version's attestations
 * document read now; the package is stored after the answer (read-through.ts ingestShared), and the
 * attestations read here are stored once its rows are (npm-pending.ts keepAttestations).
 *
 * The answer comes from the document only when it is whole: every source it shows was read. Otherwise
 * (a partial package, a version the document does not list under that spelling, OSV, the npm attestations
 * document or PyPI's integrity API failing) the read waits for the rows and is answered from the store as before, which records
 * the failure and names it in the Warning header (read-status.ts).
 */
import { warnLimited } from '../platform/log-limit.ts';
import type { System } from '../versions/index.ts';
import { ATTESTATIONS_ERROR } from './ingest/attestations.ts';
import { NPM_ATTESTATIONS, readAttestations } from './ingest/npm-pending.ts';
import { isUpstreamFailure } from './ingest/upstream-log.ts';
import { keepAttestations } from './npm-pending.ts';
import { prepareVersions } from './queries-write.ts';
import type { ReadContext } from './read-context.ts';
import { ingestShared, type Stored } from './read-through.ts';
import { advisoriesOf } from './stores-in-flight.ts';
import { versionAnswer } from './version-answer.ts';

const NOT_KEPT = 'insights: attestations read by a first read not stored (the version reads them again)';

export interface VersionKey {
  system: System;
  name: string;
  version: string;
}

export interface FirstVersionRead {
  found: Stored<string | null> | null;
  /** `found` is the whole answer (v3alpha fields included, nothing unread): no Warning, nothing to add. */
  whole: boolean;
}

/**
 * The first read of `key`'s package. `stored` reads the answer from the store (the way every later read
 * does), used when the document alone cannot answer.
 */
export async function firstVersionRead(
  ctx: ReadContext,
  key: VersionKey,
  alpha: boolean,
  cooldownDays: number,
  stored: (name: string) => Promise<Stored<string | null> | null>,
): Promise<FirstVersionRead> {
  const { pkg, rows, advisories } = await ingestShared(ctx, key.system, key.name);
  if (pkg === null) return { found: null, whole: false };
  const fromStore = async () => {
    await rows;
    return { found: await stored(pkg.name), whole: false };
  };
  const version = pkg.partial ? undefined : prepareVersions(pkg).find((v) => v.canonical === key.version);
  const records = version && advisories ? await advisoriesOf(advisories) : null;
  // an attestations read the adapter could not make (PyPI's integrity API) is recorded and named by the store path
  if (!version || records === null || ATTESTATIONS_ERROR in version.meta) return fromStore();
  const doc = pkg.system === 'NPM' ? version.meta[NPM_ATTESTATIONS] : undefined;
  let shown = version;
  if (typeof doc === 'string') {
    try {
      const read = await readAttestations(ctx.env, doc);
      shown = { ...version, slsaProvenances: read.slsaProvenances, attestations: read.attestations };
      const keep = rows.then(() => keepAttestations(ctx.env, ctx.db, pkg.name, version.canonical, read));
      ctx.defer(keep.catch((err) => warnLimited(NOT_KEPT, `npm ${pkg.name}@${version.canonical}: ${String(err)}`)));
    } catch (err) {
      if (!isUpstreamFailure(err)) throw err;
      return fromStore(); // read again there, recorded and named in the answer's Warning
    }
  }
  const text = versionAnswer(pkg.system, pkg.name, shown, records, alpha, cooldownDays);
  return { found: { value: text }, whole: true };
}
