/**
 * GetDependencies (`...versions/{version}:dependencies`): the resolved graph of a version for NPM,
 * MAVEN, PYPI, CARGO, GO, RUBYGEMS and NUGET (src/resolve, built by graph-build.ts); other systems answer 404
 * like deps.dev. A first request for an unseen root reads the whole graph through; when the graph needs more
 * upstream fetches than one request may make (INSIGHTS_FETCH_LIMIT), or an upstream fails, the answer is
 * 503 with Retry-After and the graph is finished in the background (`/insights/dependencies` through the
 * queue); a graph built from incomplete data is never cached or served. A build is shared by the requests
 * for the same graph in this isolate until its writes are done, and no request waits for it longer than
 * GRAPH_ANSWER_MS: past that the answer is the same 503 while the build goes on (graph-flight.ts).
 * `?include=advisories,licenses` (beyond deps.dev) adds the nodes' advisories and licences
 * (graph-include.ts); with `advisories` the answer is a security decision, so a node whose package's
 * advisories are unknown makes it a 503.
 */
import { HttpError } from '../platform/errors.ts';
import { GRAPH_SYSTEMS, type ResolveSystem } from '../resolve/index.ts';
import { buildGraph, type GraphKey, type GraphOutcome } from './graph-build.ts';
import { GRAPH_ANSWER_MS, inFlight } from './graph-flight.ts';
import { resolveTarget, targetKey } from './resolve-target.ts';
import { databaseConfig } from '../platform/config/shared.ts';
import { queueAdvisories, queueGraphCompletion, RETRY_AFTER_SECONDS } from './graph-queue.ts';
import { withIncluded, type Include } from './graph-include.ts';
import type { ReadContext } from './read-context.ts';
import { requireAdvisories, type PackageRef } from './advisory-reads.ts';

export interface VersionKeyInput {
  system: string;
  name: string;
  version: string;
}

/** The `include` query parameter (already checked against `dependenciesQuery`) as a list without repeats. */
export function includeOf(include: string | undefined): Include[] {
  return [...new Set((include ?? '').split(',').filter(Boolean))] as Include[];
}

/** The graph's JSON text; 404 for a system without graphs or an unknown version, 503 while it is being completed. */
export async function getDependencies(
  ctx: ReadContext,
  input: VersionKeyInput,
  include: Include[],
  warn: (warning: string) => void = () => {},
): Promise<string> {
  const started = Date.now();
  if (!GRAPH_SYSTEMS.includes(input.system as ResolveSystem)) {
    throw new HttpError(404, `dependency graphs are not available for ${input.system} ${input.name}@${input.version}`);
  }
  const key: GraphKey = { system: input.system as ResolveSystem, name: input.name, version: input.version };
  const env = ctx.env as unknown as Record<string, unknown>;
  const flightKey = [
    databaseConfig(ctx.env).DATABASE_URL,
    targetKey(key.system, resolveTarget(env)),
    ctx.readThrough ? 'rt' : 'store',
    key.name,
    key.version,
  ].join('\u0000');
  const out = await inFlight(
    flightKey,
    (waitUntil) => buildGraph({ env, db: ctx.db, readThrough: ctx.readThrough, waitUntil }, key),
    {
      deadline: started + GRAPH_ANSWER_MS,
      // With `include`, the nodes' licences are read from the stored versions: a graph read through just now
      // is answered once it is stored, so none answers `[]` for want of its row.
      settled: include.length > 0,
      defer: ctx.defer,
      after: (o) => afterBuild(ctx, key, o),
    },
  );
  const what = `the dependency graph of ${key.system} ${key.name}@${key.version}`;
  if (out === null) {
    throw new HttpError(
      503,
      `${what} is being computed in the background (it takes longer than ${GRAPH_ANSWER_MS / 1000} s); retry in ${RETRY_AFTER_SECONDS} seconds`,
      { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
    );
  }
  if (out.kind === 'not-found') throw new HttpError(404, out.message);
  if (out.kind === 'incomplete') {
    throw new HttpError(
      503,
      `${what} is being computed in the background (${out.reason}); retry in ${RETRY_AFTER_SECONDS} seconds`,
      { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
    );
  }
  if (include.includes('advisories')) {
    // a security answer: every node's advisories read (inline when need be), else 503 (advisory-reads.ts)
    const nodes = (JSON.parse(out.body) as { nodes: { versionKey: PackageRef }[] }).nodes;
    const warning = await requireAdvisories(
      ctx,
      nodes.map((n) => n.versionKey),
    );
    if (warning) warn(warning);
  }
  return withIncluded(ctx.db, out.body, include);
}

/** Once per build: the advisories of the packages it stored, and the next round of a graph it could not finish. */
async function afterBuild(ctx: ReadContext, key: GraphKey, out: GraphOutcome): Promise<void> {
  if (out.kind === 'not-found') return;
  if (out.stored.length) await queueAdvisories(ctx.env, key.system, out.stored);
  if (out.kind === 'incomplete') await queueGraphCompletion(ctx.env, key, 1);
}
