/**
 * Builds the resolved graph of one version (GetDependencies), for the endpoint and for its background
 * completion (`/insights/dependencies` on the delivery function). Steps:
 *  1. Go: a graph whose go.mod files this isolate has all read is resolved from memory, with no round trip
 *     (graph-from-memory.ts); otherwise the cached graph, when it was computed for the same target
 *     environment, is the answer (read in the same round trip as whether the root version is stored);
 *  2. the root version is read from the database, or read through from the upstream (an unseen
 *     package; a stored package without that version is a 404 like GetVersion);
 *  3. the resolver runs over the Postgres client; every package it asks for that the database lacks is
 *     fetched within the fetch budget and answered from memory (graph-read-through.ts);
 *  4. versions are answered in their published spelling (PyPI `2.1`, not the canonical `2.1.0`);
 *  5. complete: the fetched packages are written in one transaction, then the graph is cached with
 *     the names of every package it read (the 0150 triggers drop it when one of them changes), unless a
 *     change feed refreshed one of them after the resolution began (it may have read the old data);
 *     incomplete (fetch limit, upstream failure): what was fetched is written, nothing is cached, and
 *     the caller answers 503 and queues the next round, which starts from what is now stored.
 */
import type { Db } from '../platform/db.ts';
import { resolveGraph, toDependenciesJson, type ResolveSystem } from '../resolve/index.ts';
import { withFetchBudget } from './ingest/http.ts';
import { GraphIncomplete, GraphReadThrough } from './graph-read-through.ts';
import { goGraphFromMemory, graphKey } from './graph-from-memory.ts';
import { goModMemory } from './go-mod-memory.ts';
import { cachedGraphOrVersion, packageStored, putCachedGraph } from './queries-dependencies.ts';
import { PgResolveClient } from './resolve-client/index.ts';
import { resolveOptions, resolveTarget, targetKey } from './resolve-target.ts';

export interface GraphKey {
  system: ResolveSystem;
  name: string;
  version: string;
}

export type GraphOutcome =
  | { kind: 'graph'; body: string; cached: boolean; stored: string[] }
  | { kind: 'not-found'; message: string }
  | { kind: 'incomplete'; reason: string; stored: string[] };

export interface GraphContext {
  env: Record<string, unknown>;
  db: Db;
  readThrough: boolean;
  /** Work that may finish after the answer (the batched write and the cache entry). */
  waitUntil?: (p: Promise<unknown>) => void;
}

export async function buildGraph(ctx: GraphContext, key: GraphKey): Promise<GraphOutcome> {
  const { db, env } = ctx;
  const { system, name, version } = key;
  const target = resolveTarget(env);
  const tkey = targetKey(system, target);
  const memory = system === 'GO' ? goModMemory(env) : undefined;
  if (memory) {
    const body = await goGraphFromMemory(memory, db, { name, version, target: tkey }, ctx.waitUntil);
    if (body !== null) return { kind: 'graph', body, cached: true, stored: [] };
  }
  const first = await cachedGraphOrVersion(db, system, name, version, tkey);
  if (first.body !== null) {
    memory?.markGraphStored(graphKey(name, version, tkey));
    return { kind: 'graph', body: first.body, cached: true, stored: [] };
  }

  const startedAt = new Date(); // a package a change feed refreshes after this makes the graph unfit to cache
  const rt = ctx.readThrough ? new GraphReadThrough(env, system) : null;
  const run = <T>(fn: () => Promise<T>): Promise<T> => (rt ? withFetchBudget(rt.budget, fn) : fn());
  return run(async () => {
    const client = new PgResolveClient(db, system, {
      ...(rt
        ? {
            fetchMissing: (n: string) => rt.fetch(n),
            fetchVersion: (n: string, v: string) => rt.fetchVersion(n, v),
            fetchBundled: (n: string, v: string, tarball: string) => rt.fetchBundled(n, v, tarball),
          }
        : {}),
      goMemory: memory,
    });
    if (!first.stored) {
      const missing = await rootMissing(ctx, rt, client, key);
      if (missing) return missing;
    }
    let graph: Awaited<ReturnType<typeof resolveGraph>> | undefined;
    let incomplete = '';
    try {
      graph = await resolveGraph(system, client, name, version, resolveOptions(target));
    } catch (err) {
      if (!(err instanceof GraphIncomplete)) throw err;
      incomplete = err.message;
    } finally {
      client.stopLookahead();
    }
    if (!graph) {
      await rt?.settle();
      const stored = rt ? await rt.persist(db) : [];
      return { kind: 'incomplete', reason: incomplete || 'incomplete data', stored };
    }
    // The resolver finished: every answer it used was complete (a failed fetch it needed would have
    // thrown). Lookahead fetches still in flight are waited for and stored with the rest.
    const body = JSON.stringify(toDependenciesJson(system, graph, (v, n) => client.spelling(n, v)));
    const finish = (async () => {
      if (rt) {
        await rt.settle();
        await rt.persist(db);
      }
      await putCachedGraph(db, system, name, version, tkey, [...client.touched, name], body, startedAt);
      memory?.markGraphStored(graphKey(name, version, tkey));
    })();
    if (ctx.waitUntil)
      ctx.waitUntil(
        finish.catch((err) =>
          console.warn(`insights: graph of ${system} ${name}@${version} not stored: ${(err as Error).message}`),
        ),
      );
    else await finish;
    return { kind: 'graph', body, cached: false, stored: rt ? [...rt.fetched.keys()] : [] };
  });
}

/** The root version is not stored: read its package through (when allowed) or say what is missing. */
async function rootMissing(
  ctx: GraphContext,
  rt: GraphReadThrough | null,
  client: PgResolveClient,
  key: GraphKey,
): Promise<GraphOutcome | null> {
  const notFound = {
    kind: 'not-found',
    message: `version ${key.system} ${key.name}@${key.version} not found`,
  } as const;
  if (!rt || (await packageStored(ctx.db, key.system, key.name))) return notFound;
  let versions: Awaited<ReturnType<typeof client.versions>>;
  try {
    versions = await client.versions(key.name);
  } catch (err) {
    if (!(err instanceof GraphIncomplete)) throw err;
    return { kind: 'incomplete', reason: err.message, stored: [] };
  }
  if (versions.length === 0) return { kind: 'not-found', message: `package ${key.system} ${key.name} not found` };
  if (versions.some((v) => v.version === key.version)) return null;
  await rt.persist(ctx.db); // the package is real: keep it for the package routes
  return notFound;
}
