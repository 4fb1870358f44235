/**
 * GetDependencies (`...versions/{version}:dependencies`): the resolved graph of a version for NPM,
 * MAVEN, PYPI, CARGO, GO, RUBYGEMS and NUGET (src/resolve, built by graph-build.ts); other systems answer 404
 * like deps.dev. A first request for an unseen root reads the whole graph through; when the graph needs more
 * upstream fetches than one request may make (INSIGHTS_FETCH_LIMIT), or an upstream fails, the answer is
 * 503 with Retry-After and the graph is finished in the background (`/insights/dependencies` through the
 * queue); a graph built from incomplete data is never cached or served. `?include=advisories,licenses`
 * (beyond deps.dev) adds the nodes' advisories and licences (graph-include.ts).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith } from '../platform/validate.ts';
import { GRAPH_SYSTEMS, type ResolveSystem } from '../resolve/index.ts';
import { buildGraph, type GraphKey } from './graph-build.ts';
import { queueAdvisories, queueGraphCompletion, RETRY_AFTER_SECONDS } from './graph-queue.ts';
import { readThroughEnabled } from './read-through.ts';
import { withIncluded, type Include } from './graph-include.ts';
import { jsonText } from './views.ts';
import { dependenciesQuery } from './schemas.ts';

export interface VersionKeyInput {
  system: string;
  name: string;
  version: string;
}

export async function getDependencies(c: Context<AppEnv>, input: VersionKeyInput): Promise<Response> {
  const query = parseWith(dependenciesQuery, c.req.query(), 'query');
  const include = [...new Set((query.include ?? '').split(',').filter(Boolean))] as Include[];
  if (!GRAPH_SYSTEMS.includes(input.system as ResolveSystem)) {
    throw new HttpError(404, `dependency graphs are not available for ${input.system} ${input.name}@${input.version}`);
  }
  const key: GraphKey = { system: input.system as ResolveSystem, name: input.name, version: input.version };
  const waitUntil = (p: Promise<unknown>) => {
    try {
      c.executionCtx.waitUntil(p);
    } catch {
      void p; // no execution context (plain app.request): the work still runs
    }
  };
  const env = c.env as unknown as Record<string, unknown>;
  const out = await buildGraph({ env, db: c.get('db'), readThrough: readThroughEnabled(c.env), waitUntil }, key);
  if (out.kind === 'not-found') throw new HttpError(404, out.message);
  if (out.kind === 'incomplete') {
    waitUntil(queueAdvisories(c.env, key.system, out.stored));
    await queueGraphCompletion(c.env, key, 1);
    throw new HttpError(503, `the dependency graph of ${key.system} ${key.name}@${key.version} is being computed in the background `
      + `(${out.reason}); retry in ${RETRY_AFTER_SECONDS} seconds`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
  }
  if (out.stored.length) waitUntil(queueAdvisories(c.env, key.system, out.stored));
  return jsonText(c, await withIncluded(c.get('db'), out.body, include));
}
