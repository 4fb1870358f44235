/**
 * One fetch and store of a package per isolate at a time. A read that misses the store (a first GetPackage,
 * answered from the fetched document, or any read through) joins the fetch and store already under way for
 * that package instead of starting its own: concurrent stores of one package were wasted work, and on
 * PostgreSQL two of them could deadlock on its advisory rows. A read of the store waits for the rows of a
 * store under way first (read-through.ts `settled`). Keyed by system and name, the name asked for and the
 * canonical one; an entry lasts until the package's rows are written (a reader then reads the store).
 */
export interface Flight<P> {
  /** The fetched package; null when the registry has none. */
  pkg: P | null;
  /** The package's rows (and its advisories) stored. */
  rows: Promise<void>;
  /** Everything stored, the stored answers included. */
  done: Promise<void>;
}

const inFlight = new Map<string, Promise<Flight<unknown>>>();

const keyOf = (system: string, name: string) => `${system}\u0000${name}`;

/** The flight of this package under way, or `start`'s, registered before it fetches anything. */
export function sharedFlight<P>(
  system: string,
  name: string,
  start: () => Promise<Flight<P>>,
  canonical: (pkg: P) => string,
): Promise<Flight<P>> {
  const key = keyOf(system, name);
  const running = inFlight.get(key);
  if (running) return running as Promise<Flight<P>>;
  const flight = start();
  inFlight.set(key, flight);
  const forget = (keys: string[]) => {
    for (const k of keys) if (inFlight.get(k) === flight) inFlight.delete(k);
  };
  flight.then(
    (f) => {
      const keys = f.pkg === null ? [key] : [key, keyOf(system, canonical(f.pkg))];
      if (keys[1] && !inFlight.has(keys[1])) inFlight.set(keys[1], flight);
      void f.rows.catch(() => {}).then(() => forget(keys)); // then reads find the rows (the rest may take long)
    },
    () => forget([key]),
  );
  return flight;
}

/** Resolves when the rows of this package's store under way in this isolate (if any) are written. */
export function storeInFlight(system: string, name: string): Promise<unknown> | undefined {
  return inFlight.get(keyOf(system, name))?.then(
    (f) => f.rows.catch(() => {}),
    () => {},
  );
}
