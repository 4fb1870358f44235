/**
 * GetDependencies (`...versions/{version}:dependencies`): the resolved graph of a version for NPM,
 * MAVEN, PYPI and CARGO (src/resolve; Cargo graphs are for x86_64-unknown-linux-gnu); GO, NUGET and
 * RUBYGEMS answer 404 like deps.dev. A computed graph is cached in insights.dependency_graphs with
 * the packages it read; the 0150 triggers drop it when any of them changes, so a cached graph is
 * served with one database read.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { canon as canonVersion } from '../versions/index.ts';
import { GRAPH_SYSTEMS, resolveGraph, toDependenciesJson, type ResolveSystem } from '../resolve/index.ts';
import { getCachedGraph, putCachedGraph, versionExists } from './queries-dependencies.ts';
import { ingestPackage, readThroughEnabled } from './read-through.ts';
import { jsonText } from './respond.ts';
import { PgResolveClient } from './resolve-client.ts';

export interface VersionKeyInput {
  system: string;
  name: string;
  version: string;
}

export async function getDependencies(c: Context<AppEnv>, key: VersionKeyInput): Promise<Response> {
  const system = key.system as ResolveSystem;
  if (!GRAPH_SYSTEMS.includes(system)) {
    throw new HttpError(404, `dependency graphs are not available for ${key.system} ${key.name}@${key.version}`);
  }
  const db = c.get('db');
  const cached = await getCachedGraph(db, system, key.name, key.version);
  if (cached !== null) return jsonText(c, cached);
  if (!(await versionExists(db, system, key.name, key.version))) {
    throw new HttpError(404, `version ${key.system} ${key.name}@${key.version} not found`);
  }
  const env = c.env as unknown as Record<string, unknown>;
  const client = new PgResolveClient(db, system, {
    fetchMissing: readThroughEnabled(c.env) ? (name) => ingestPackage(env, db, system, name).catch(() => null) : undefined,
  });
  const graph = await resolveGraph(system, client, key.name, key.version);
  const body = JSON.stringify(toDependenciesJson(system, graph, (v) => canonVersion(system, v) ?? v));
  await putCachedGraph(db, system, key.name, key.version, [...client.touched, key.name], body);
  return jsonText(c, body);
}
