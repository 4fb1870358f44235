/**
 * Go: the go.mod files an isolate has read, kept in its memory, so that a Go graph whose go.mod files
 * were all read before is resolved with no database round trip (as `go mod graph` reads a filled module
 * cache from local disk instead of the proxy).
 *
 * Why this is safe: a Go module version's go.mod never changes (the proxy serves it immutably and the
 * checksum database pins it), and a Go graph is a function of go.mod files alone (resolve/go.ts: no
 * version lists, retractions do not change selection, `exclude`/`replace` apply only in the synthetic
 * main module). So only complete go.mod files are kept (one whose go directive is known, read from the
 * store or the proxy); a go.mod that could not be read is never kept, and a graph that needs one the
 * memory lacks is resolved the ordinary way (graph-build.ts).
 *
 * Scope: one memory per `env` object. Workers hand the same `env` to every request of an isolate (checked
 * under workerd), so this is the isolate's memory; a test or bench that builds a new `env` gets an empty
 * one. Bounded by INSIGHTS_GO_MEMORY_BYTES (an estimate of the kept strings' size; least recently used
 * first out; 0 turns it off). The memory also remembers which graphs this isolate knows to be stored, so
 * that answering one from memory does not write it again.
 */
import type { Dependency } from '../resolve/types.ts';
import { insightsConfig } from './config.ts';

export interface GoMod {
  /** Requirements as the resolver reads them (`modulego` on each, `indirect` marked). */
  readonly deps: readonly Dependency[];
  /** The version as the proxy spells it, when it differs from the stored form. */
  readonly spelling?: string;
  /** Listed by the proxy's `@v/list` (a stored version); a pseudo-version is not. */
  readonly listed: boolean;
}

const OVERHEAD = 64; // per entry and per dependency: map slots and object headers, roughly

function sizeOf(key: string, mod: GoMod): number {
  let n = OVERHEAD + key.length * 2 + (mod.spelling?.length ?? 0) * 2;
  for (const d of mod.deps) {
    n += OVERHEAD + (d.name.length + d.requirement.length) * 2;
    for (const [k, v] of Object.entries(d.attrs)) n += (k.length + v.length) * 2;
  }
  return n;
}

export class GoModMemory {
  private readonly mods = new Map<string, { mod: GoMod; size: number }>();
  private readonly graphs = new Set<string>();
  private bytes = 0;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get size(): number {
    return this.bytes;
  }

  get(name: string, version: string): GoMod | undefined {
    const k = `${name}\u0000${version}`;
    const hit = this.mods.get(k);
    if (!hit) return undefined;
    this.mods.delete(k); // most recently used last
    this.mods.set(k, hit);
    return hit.mod;
  }

  /** Keeps a complete go.mod (every dependency carries `modulego`, or it has none). */
  put(name: string, version: string, mod: GoMod): void {
    if (this.limit === 0) return;
    if (mod.deps.length > 0 && mod.deps[0]!.attrs.modulego === undefined) return;
    const k = `${name}\u0000${version}`;
    const old = this.mods.get(k);
    if (old) {
      this.bytes -= old.size;
      this.mods.delete(k);
    }
    const size = sizeOf(k, mod);
    if (size > this.limit) return;
    this.mods.set(k, { mod: old?.mod.listed && !mod.listed ? { ...mod, listed: true } : mod, size });
    this.bytes += size;
    for (const [oldest, e] of this.mods) {
      if (this.bytes <= this.limit) break;
      this.mods.delete(oldest);
      this.bytes -= e.size;
    }
  }

  /** Whether this isolate knows the graph under `key` to be in the store (written or read by it). */
  graphStored(key: string): boolean {
    return this.graphs.has(key);
  }

  markGraphStored(key: string): void {
    if (this.limit === 0) return;
    if (this.graphs.size >= 10_000) this.graphs.clear(); // a hint only: forgetting costs one more write
    this.graphs.add(key);
  }
}

const memories = new WeakMap<object, GoModMemory>();

/** The memory of the isolate `env` belongs to. */
export function goModMemory(env: object): GoModMemory {
  let m = memories.get(env);
  if (!m) {
    m = new GoModMemory(insightsConfig(env as never).INSIGHTS_GO_MEMORY_BYTES);
    memories.set(env, m);
  }
  return m;
}
