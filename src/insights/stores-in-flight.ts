/**
 * One fetch and store of a package per isolate at a time. A read that misses the store (a first GetPackage,
 * answered from the fetched document, or any read through) joins the fetch and store already under way for
 * that package instead of starting its own: concurrent stores of one package were wasted work, and on
 * PostgreSQL two of them could deadlock on its advisory rows. A read of the store waits for the rows of a
 * store under way first (read-through.ts `settled`). Keyed by system and name, the name asked for and the
 * canonical one; an entry lasts until the package's rows are written (a reader then reads the store).
 *
 * As in graph-flight.ts, joiners poll the flight's plain fields rather than awaiting the owner's promises
 * (a Worker must not carry I/O from one request's context into another's).
 */
import type { Osv } from './ingest/osv.ts';

export interface Flight<P> {
  /** The fetched package; null when the registry has none. */
  pkg: P | null;
  /** The package's rows (and its advisories) stored. */
  rows: Promise<void>;
  /** The package's OSV records, fetched beside the package: plain fields, filled when OSV has answered. */
  advisories?: AdvisoryRead;
}

/** An OSV read under way, as plain fields a joiner may poll (`records` or `failed` once it has ended). */
export interface AdvisoryRead {
  records?: readonly Osv[];
  failed?: boolean;
}

interface Shared<P> {
  fetched?: { pkg: P | null; advisories?: AdvisoryRead };
  rowsStored: boolean;
  failed?: { error: unknown };
}

const POLL_MS = 5;
const inFlight = new Map<string, Shared<unknown>>();
const keyOf = (system: string, name: string) => `${system}\u0000${name}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The flight of this package under way, or `start`'s, registered before it fetches anything. */
export async function sharedFlight<P>(
  system: string,
  name: string,
  start: () => Promise<Flight<P>>,
  canonical: (pkg: P) => string,
): Promise<Flight<P>> {
  const key = keyOf(system, name);
  const running = inFlight.get(key) as Shared<P> | undefined;
  if (running) return join(running);
  const shared: Shared<P> = { rowsStored: false };
  inFlight.set(key, shared);
  const keys = [key];
  const end = (failed?: { error: unknown }) => {
    shared.failed = failed;
    shared.rowsStored = !failed;
    for (const k of keys) if (inFlight.get(k) === shared) inFlight.delete(k);
  };
  let flight: Flight<P>;
  try {
    flight = await start();
  } catch (error) {
    end({ error });
    throw error;
  }
  shared.fetched = { pkg: flight.pkg, advisories: flight.advisories };
  const alias = flight.pkg === null ? null : keyOf(system, canonical(flight.pkg));
  if (alias && !inFlight.has(alias)) {
    inFlight.set(alias, shared);
    keys.push(alias);
  }
  flight.rows.then(
    () => end(),
    (error: unknown) => end({ error }),
  );
  return flight;
}

/** A joiner's view of a flight: its package once fetched, and its rows as a promise of this request's own. */
async function join<P>(shared: Shared<P>): Promise<Flight<P>> {
  while (!shared.fetched && !shared.failed) await sleep(POLL_MS);
  if (!shared.fetched) throw shared.failed!.error;
  return { pkg: shared.fetched.pkg, rows: rowsOf(shared), advisories: shared.fetched.advisories };
}

async function rowsOf(shared: Shared<unknown>): Promise<void> {
  while (!shared.rowsStored && !shared.failed) await sleep(POLL_MS);
  if (shared.failed) throw shared.failed.error;
}

/** The records of an OSV read once it has ended; null when it failed. */
export async function advisoriesOf(read: AdvisoryRead): Promise<readonly Osv[] | null> {
  while (!read.records && !read.failed) await sleep(POLL_MS);
  return read.records ?? null;
}

/** Resolves when the rows of this package's store under way in this isolate (if any) are written (or failed). */
export function storeInFlight(system: string, name: string): Promise<unknown> | undefined {
  const shared = inFlight.get(keyOf(system, name));
  return shared && rowsOf(shared).catch(() => {});
}
