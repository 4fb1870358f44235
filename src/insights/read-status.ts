/**
 * Unknown is not empty (DESIGN.md convention 14) beyond advisories: the `Warning` header of answers that
 * show data some source could not read (warning-header.ts for the text), and the background reads that
 * rewrite the stored answer as soon as the source answers again.
 *   attestations  a Version's `attestations`/`slsaProvenances` (npm attestations document still pending
 *                 or failed; PyPI integrity API failed: the last good list is kept, a 110)
 *   package data  a stored package whose registry read failed since (a refresh during an outage, a demo
 *                 copy the registry could not replace): served as stored, a 110 with its age
 *   project data  a stored project whose host read failed since (a 110 with its age)
 *   scorecard     a project's Scorecard read failed (199 when none was read, else 110 with the last good one)
 * Advisories (OSV) are advisory-reads.ts'; `versionWarning` joins them in for Version answers. One read is
 * attempted per item per INSIGHTS_SOURCE_RETRY_SECONDS (claimed in insights.source_reads), in the background.
 */
import type { System } from '../versions/index.ts';
import { advisoryWarning } from './advisory-reads.ts';
import { insightsConfig } from './config.ts';
import { isUpstreamFailure, warnUpstream } from './ingest/upstream-log.ts';
import { completeNpmVersion } from './npm-pending.ts';
import { registryFailures, unreadAttestations, projectStatuses, type ProjectStatus } from './queries-read-status.ts';
import { claimAttempt, PROJECT_SYSTEM, type SourceRead } from './queries-source-reads.ts';
import type { ReadContext } from './read-context.ts';
import { ingestPackage, readProject } from './read-through.ts';
import { joinWarnings, warningParts } from './warning-header.ts';

export interface VersionRef {
  system: string;
  name: string;
  version: string;
}

const retrySeconds = (ctx: ReadContext) => insightsConfig(ctx.env).INSIGHTS_SOURCE_RETRY_SECONDS;

/**
 * Runs `work` after the answer. An upstream failure there (recorded by the read itself) is logged through
 * the per-minute log without a stack; anything else is a bug and logged with its stack.
 */
function background(ctx: ReadContext, what: string, work: () => Promise<unknown>): void {
  ctx.defer(
    work().catch((err) =>
      isUpstreamFailure(err) ? warnUpstream(what, err) : console.error(`insights: background ${what} read`, err),
    ),
  );
}

/** The registry part: stored packages served as stored while their registry cannot be read. */
async function registryParts(ctx: ReadContext, keys: readonly { system: string; name: string }[]) {
  const failed = await registryFailures(ctx.db, distinctPackages(keys));
  const asOf = new Map(failed.map((f) => [`${f.system}\u0000${f.name}`, f.fetchedAt]));
  return warningParts({
    what: 'package data',
    source: 'registry',
    missing: [],
    stale: failed,
    asOf: (r) => asOf.get(`${r.system}\u0000${r.name}`) ?? null,
  });
}

function distinctPackages(keys: readonly { system: string; name: string }[]) {
  return [...new Map(keys.map((k) => [`${k.system}\u0000${k.name}`, { system: k.system, name: k.name }])).values()];
}

/** GetPackage (and a purl naming a package): the Warning header, or null. */
export async function packageWarning(ctx: ReadContext, keys: readonly { system: string; name: string }[]) {
  return joinWarnings(await registryParts(ctx, keys));
}

/** The attestations part of Version answers; a read is started for each due version (npm) or package (PyPI). */
async function attestationParts(ctx: ReadContext, keys: readonly VersionRef[]) {
  const unread = await unreadAttestations(ctx.db, keys);
  const retry = retrySeconds(ctx) * 1000;
  const due = unread.filter((r) => !r.attemptedAt || Date.now() - r.attemptedAt.getTime() >= retry);
  const npm = due.filter((r) => r.pendingUrl !== null).slice(0, 20);
  if (npm.length)
    background(ctx, 'npm attestations', async () => {
      for (const r of npm) await completeNpmVersion(ctx.env, ctx.db, r.name, r.version, 'attestations');
    });
  const others = distinctPackages(due.filter((r) => r.pendingUrl === null)).slice(0, 5);
  // the package is read again (PyPI's provenance comes with its releases): claimed per package, not per version
  for (const p of others)
    background(ctx, `${p.system} attestations`, async () => {
      if (await claimAttempt(ctx.db, 'attestations', p.system, p.name, retrySeconds(ctx)))
        await ingestPackage(ctx.env as never, ctx.db, p.system as System, p.name);
    });
  const stale = unread.filter((r) => r.pendingUrl === null && r.readAt !== null);
  const missing = unread.filter((r) => !stale.includes(r));
  const source = (rs: SourceRead[]) => (rs[0]?.system === 'NPM' ? 'npm attestations' : `${rs[0]?.system} attestations`);
  return [
    ...warningParts({ what: 'attestations', source: source(missing), plural: 'versions', missing, stale: [] }),
    ...warningParts({ what: 'attestations', source: source(stale), plural: 'versions', missing: [], stale }),
  ];
}

/**
 * Answers that show Versions (GetVersion, purl lookups, Query, VersionBatch, PurlBatch): the Warning
 * header naming advisories, attestations and package data not read, or null.
 */
export async function versionWarning(ctx: ReadContext, keys: readonly VersionRef[]): Promise<string | null> {
  if (!keys.length) return null;
  const [advisories, attestations, registry] = await Promise.all([
    advisoryWarning(ctx, distinctPackages(keys)),
    attestationParts(ctx, keys),
    registryParts(ctx, keys),
  ]);
  return joinWarnings([advisories, ...attestations, ...registry]);
}

/** A stored project due a read: older than INSIGHTS_REFRESH_AFTER_SECONDS, or its Scorecard not read. */
function projectDue(ctx: ReadContext, s: ProjectStatus): boolean {
  const old = Date.now() - s.fetchedAt.getTime() > ctx.refreshAfterSeconds * 1000;
  return old || (s.scorecard !== null && s.scorecard.failedAt !== null);
}

/** GetProject and ProjectBatch: the Warning header, or null; stale projects are read again in the background. */
export async function projectWarning(ctx: ReadContext, ids: readonly string[]): Promise<string | null> {
  const statuses = await projectStatuses(ctx.db, ids);
  for (const s of statuses.filter((x) => projectDue(ctx, x)).slice(0, 5))
    background(ctx, 'project', async () => {
      if (await claimAttempt(ctx.db, 'project', PROJECT_SYSTEM, s.id, retrySeconds(ctx))) await readProject(ctx, s.id);
    });
  const failedProjects = statuses.filter((s) => s.project?.failedAt);
  const asOf = new Map(statuses.map((s) => [s.id, s.fetchedAt]));
  const scorecards = statuses.map((s) => s.scorecard).filter((r): r is SourceRead => r?.failedAt != null);
  return joinWarnings([
    ...warningParts({
      what: 'project data',
      source: 'host API',
      plural: 'projects',
      missing: [],
      stale: failedProjects.map((s) => s.project!),
      asOf: (r) => asOf.get(r.name) ?? null,
    }),
    ...warningParts({
      what: 'scorecard',
      source: 'Scorecard',
      plural: 'projects',
      missing: scorecards.filter((r) => r.readAt === null),
      stale: scorecards.filter((r) => r.readAt !== null),
    }),
  ]);
}
