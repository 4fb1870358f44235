/**
 * The package stores this isolate has under way after answering (a first read answers from the fetched
 * document, package-first-read.ts): a read of the same package waits for its store instead of fetching
 * and storing it a second time. Keyed by system and name, the name asked for and the canonical one.
 */
const inFlight = new Map<string, Promise<unknown>>();

const keyOf = (system: string, name: string) => `${system}\u0000${name}`;

/** Records `store` under each name until it settles. */
export function trackStore(system: string, names: readonly string[], store: Promise<unknown>): void {
  const keys = [...new Set(names)].map((n) => keyOf(system, n));
  const settled = store.catch(() => {}); // the store logs its own failure; a waiting read then reads through
  for (const k of keys) inFlight.set(k, settled);
  void settled.then(() => {
    for (const k of keys) if (inFlight.get(k) === settled) inFlight.delete(k);
  });
}

/** The store of this package under way in this isolate, if any. */
export function storeInFlight(system: string, name: string): Promise<unknown> | undefined {
  return inFlight.get(keyOf(system, name));
}
