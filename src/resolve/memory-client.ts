/** In-memory Client (tests, fixtures, and the per-request cache of the Postgres-backed client). */
import type { Client, Dependency, VersionInfo } from './types.ts';

export class MemoryClient implements Client {
  readonly packages = new Map<string, VersionInfo[]>();
  readonly deps = new Map<string, Dependency[]>();

  addVersion(v: VersionInfo, deps: readonly Dependency[]): void {
    const list = this.packages.get(v.name) ?? [];
    this.packages.set(v.name, list);
    const i = list.findIndex((x) => x.version === v.version);
    if (i >= 0) list[i] = v;
    else list.push(v);
    this.deps.set(`${v.name}\u0000${v.version}`, [...deps]);
  }

  async versions(name: string): Promise<readonly VersionInfo[]> {
    return this.packages.get(name) ?? [];
  }

  async requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    return this.deps.get(`${name}\u0000${version}`) ?? null;
  }
}
