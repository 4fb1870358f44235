/**
 * The observer of `npm run bench:freshness`: every second, GetPackage of each library with a release not
 * yet seen, and GetDependencies of its app while a release is not yet in its graph; records when each
 * publication became visible and when a graph first picked it (or a later release), and counts stale
 * answers (a listed release gone again; a graph asked after a release was visible that picks an older one).
 */
import { graphPath, packagePath, type BenchLibrary, type Call } from './setup.ts';

export interface Publication {
  lib: BenchLibrary;
  patch: number;
  version: string;
  publishedAt: number;
  visibleAt?: number;
  graphAt?: number;
}

const patchOf = (v: string) => Number(/(\d+)$/.exec(v)?.[1] ?? 'NaN');

async function lookPackage(call: Call, lib: BenchLibrary, mine: Publication[]): Promise<number> {
  const res = await call(packagePath(lib.registry, lib.name));
  if (res.status !== 200) return 0;
  const listed = new Set(
    (res.body as { versions: { versionKey: { version: string } }[] }).versions.map((v) => v.versionKey.version),
  );
  const now = Date.now();
  let stale = 0;
  for (const p of mine) {
    if (p.visibleAt === undefined && listed.has(p.version)) p.visibleAt = now;
    else if (p.visibleAt !== undefined && !listed.has(p.version)) stale++;
  }
  return stale;
}

async function lookGraph(call: Call, lib: BenchLibrary, mine: Publication[]): Promise<number> {
  const asked = Date.now();
  const res = await call(graphPath(lib.registry, lib.app!, lib.version(0)));
  if (res.status !== 200) return 0; // a 503 (being built) is no answer, stale or fresh
  const nodes = (res.body as { nodes: { versionKey: { name: string; version: string } }[] }).nodes;
  const picked = patchOf(nodes.find((n) => n.versionKey.name === lib.name)?.versionKey.version ?? '');
  const now = Date.now();
  let stale = 0;
  for (const p of mine) {
    if (p.graphAt === undefined && p.patch <= picked) p.graphAt = now;
    if (p.visibleAt !== undefined && p.visibleAt < asked && p.patch > picked) stale = 1;
  }
  return stale;
}

export async function observe(
  call: Call,
  pubs: Publication[],
  publishing: Promise<void>,
  deadline: number,
): Promise<{ stale: number; staleListings: number; staleGraphs: number }> {
  let published = false;
  void publishing.then(() => {
    published = true;
  });
  let staleListings = 0;
  let staleGraphs = 0;
  for (;;) {
    const tick = Date.now();
    const libs = new Set(
      pubs.filter((p) => p.visibleAt === undefined || (p.lib.app && p.graphAt === undefined)).map((p) => p.lib),
    );
    for (const lib of libs) {
      const mine = pubs.filter((p) => p.lib === lib);
      if (mine.some((p) => p.visibleAt === undefined)) staleListings += await lookPackage(call, lib, mine);
      if (lib.app && mine.some((p) => p.graphAt === undefined)) staleGraphs += await lookGraph(call, lib, mine);
    }
    if ((published && libs.size === 0) || Date.now() > deadline)
      return { stale: staleListings + staleGraphs, staleListings, staleGraphs };
    await new Promise((r) => setTimeout(r, Math.max(0, tick + 1000 - Date.now())));
  }
}
