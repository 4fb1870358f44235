/**
 * Go graphs resolved from the isolate's memory of go.mod files (go-mod-memory.ts), before any database
 * round trip: when the root is a listed version whose go.mod this isolate has read, the resolver runs over
 * a client that answers from memory alone; the first go.mod the memory lacks abandons the attempt (the
 * caller resolves the ordinary way: cached graph, stored go.mod files, the proxy). The answer is the
 * graph the ordinary way would give, since it is computed by the same resolver from the same immutable
 * files. The graph is written to the store after the answer unless this isolate knows it is there.
 */
import type { Db } from '../platform/db.ts';
import { resolveGraph, toDependenciesJson } from '../resolve/index.ts';
import type { Client, Dependency, VersionInfo } from '../resolve/types.ts';
import type { GoModMemory } from './go-mod-memory.ts';
import { putCachedGraph } from './queries-dependencies.ts';

class MemoryMiss extends Error {}

/** A Client over the memory: requirements of kept go.mod files, a miss for anything else. */
class GoMemoryClient implements Client {
  readonly touched = new Set<string>();
  private readonly memory: GoModMemory;
  constructor(memory: GoModMemory) {
    this.memory = memory;
  }
  versions(): Promise<readonly VersionInfo[]> {
    return Promise.reject(new MemoryMiss()); // the Go resolver never lists versions
  }
  requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    const mod = this.memory.get(name, version);
    if (!mod) return Promise.reject(new MemoryMiss());
    this.touched.add(name);
    return Promise.resolve(mod.deps);
  }
  spelling(name: string, version: string): string {
    return this.memory.get(name, version)?.spelling ?? version;
  }
}

/** The graph's JSON text from memory, or null when the memory cannot answer it whole. */
export async function goGraphFromMemory(
  memory: GoModMemory,
  db: Db,
  key: { name: string; version: string; target: string },
  waitUntil?: (p: Promise<unknown>) => void,
): Promise<string | null> {
  if (!memory.get(key.name, key.version)?.listed) return null;
  const client = new GoMemoryClient(memory);
  let body: string;
  try {
    const graph = await resolveGraph('GO', client, key.name, key.version, {});
    body = JSON.stringify(toDependenciesJson('GO', graph, (v, n) => client.spelling(n, v)));
  } catch (err) {
    if (err instanceof MemoryMiss) return null;
    throw err;
  }
  const gkey = graphKey(key.name, key.version, key.target);
  if (!memory.graphStored(gkey)) {
    const put = putCachedGraph(db, 'GO', key.name, key.version, key.target, [...client.touched, key.name], body).then(
      () => memory.markGraphStored(gkey),
      (err) => console.warn(`insights: graph of GO ${key.name}@${key.version} not stored: ${(err as Error).message}`),
    );
    if (waitUntil) waitUntil(put);
    else await put;
  }
  return body;
}

export function graphKey(name: string, version: string, target: string): string {
  return `${name}\u0000${version}\u0000${target}`;
}
