/**
 * The registries of `npm run bench:freshness`: the six loopback feeds with their registries, and the
 * packages the service has indexed before the clock starts (libraries, and apps depending on them where
 * a new patch release of the library changes the app's graph).
 */
import { startCargoFeed } from '../registries/feeds/cargo.ts';
import { startGoFeed } from '../registries/feeds/go.ts';
import { startNpmFeed } from '../registries/feeds/npm.ts';
import { startNugetFeed } from '../registries/feeds/nuget.ts';
import { startPypiFeed } from '../registries/feeds/pypi.ts';
import { startRubygemsFeed } from '../registries/feeds/rubygems.ts';
import type { FeedRegistry } from '../registries/feeds/types.ts';

export type Call = (path: string) => Promise<{ status: number; body: unknown }>;

export interface BenchLibrary {
  registry: FeedRegistry;
  name: string;
  /** The dependent whose graph picks the library's newest patch release (none where a patch does not move it). */
  app?: string;
  patch: number;
  version(patch: number): string;
}

interface Naming {
  lib(i: number): string;
  app?: (i: number) => string;
  version(patch: number): string;
  requirement?: string;
}

const NAMING: Record<string, Naming> = {
  npm: { lib: (i) => `fb-lib-${i}`, app: (i) => `fb-app-${i}`, version: (p) => `1.0.${p}`, requirement: '^1.0.0' },
  pypi: { lib: (i) => `fb-lib-${i}`, app: (i) => `fb-app-${i}`, version: (p) => `1.0.${p}`, requirement: '>=1.0' },
  cargo: { lib: (i) => `fb-lib-${i}`, app: (i) => `fb-app-${i}`, version: (p) => `1.0.${p}`, requirement: '^1.0.0' },
  rubygems: { lib: (i) => `fb-lib-${i}`, app: (i) => `fb-app-${i}`, version: (p) => `1.0.${p}`, requirement: '>= 1.0' },
  go: { lib: (i) => `example.com/fb/lib-${i}`, version: (p) => `v1.0.${p}` },
  nuget: { lib: (i) => `fb.lib.${i}`, version: (p) => `1.0.${p}` },
};

export const packagePath = (r: FeedRegistry, name: string) =>
  `/v3/systems/${r.system.toLowerCase()}/packages/${encodeURIComponent(name)}`;
export const graphPath = (r: FeedRegistry, app: string, version: string) =>
  `${packagePath(r, app)}/versions/${encodeURIComponent(version)}:dependencies`;

export async function startFeedRegistries() {
  const list = await Promise.all([
    startNpmFeed(),
    startPypiFeed(),
    startCargoFeed(),
    startRubygemsFeed(),
    startGoFeed(),
    startNugetFeed(),
  ]);
  const env: Record<string, string> = Object.assign({}, ...list.map((r) => r.env));
  return {
    list,
    env,
    /** Publishes and reads through `k` libraries per registry (and their apps, graphs cached). */
    async index(k: number, call: Call): Promise<BenchLibrary[]> {
      const libs: BenchLibrary[] = [];
      for (const r of list) {
        const n = NAMING[r.registry]!;
        for (let i = 0; i < k; i++) {
          const lib: BenchLibrary = { registry: r, name: n.lib(i), patch: 0, version: n.version };
          r.publish(lib.name, n.version(0));
          if (n.app) {
            lib.app = n.app(i);
            r.publish(lib.app, n.version(0), { [lib.name]: n.requirement! });
          }
          for (const name of [lib.name, ...(lib.app ? [lib.app] : [])]) {
            const res = await call(packagePath(r, name));
            if (res.status !== 200) throw new Error(`indexing ${r.registry} ${name}: ${res.status} ${res.body}`);
          }
          if (lib.app) {
            const g = await call(graphPath(r, lib.app, n.version(0)));
            if (g.status !== 200) throw new Error(`graph of ${r.registry} ${lib.app}: ${g.status} ${String(g.body)}`);
          }
          libs.push(lib);
        }
      }
      return libs;
    },
    close: () => Promise.all(list.map((r) => r.close())),
  };
}
