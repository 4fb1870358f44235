/**
 * One build of a graph at a time per isolate, and an answer within GRAPH_ANSWER_MS of the request.
 *
 * A cold graph is answered from memory while its packages and the cache entry are written after the
 * answer. A request for the same graph arriving meanwhile used to find no cache entry and build the
 * graph again, reading packages the batched write was still holding and fetching again those not yet
 * written: 10-36 s for a graph answered in under a second the first time. Here the build is a
 * *flight*, kept in the isolate until its after-answer work is done: a request that finds it answers
 * its outcome (the same text, byte for byte), and only once the cache entry is written does the next
 * request read the cache.
 *
 * A request waits for the outcome at most until its deadline (GRAPH_ANSWER_MS after it began): past
 * it, the route answers 503 with Retry-After and the build goes on in the background (the owner's
 * waitUntil); a later request joins it. `after(outcome)` runs once per build (queuing advisories, or
 * the next round when the fetch limit was hit), whoever asked.
 *
 * Joiners poll the flight's plain fields rather than awaiting another request's promise (a Worker
 * must not carry I/O from one request's context into another's).
 */
import type { GraphOutcome } from './graph-build.ts';

/** How long a request waits for a graph before answering 503 (the build continues). */
export const GRAPH_ANSWER_MS = 4000;
const POLL_MS = 5;

interface Flight {
  outcome?: GraphOutcome;
  failed?: { error: unknown };
  /** The build and its after-answer work (writes, cache entry, queuing) are done. */
  settled: boolean;
}

const flights = new Map<string, Flight>();

export interface FlightOptions {
  /** Epoch ms after which the caller answers without the graph. */
  deadline: number;
  /** Wait until the after-answer writes are done too (an answer that reads the stored rows). */
  settled: boolean;
  /** Keeps the build running after the answer (the owner request's waitUntil). */
  defer(work: Promise<unknown>): void;
  /** Runs once per build, when its outcome is known. */
  after(outcome: GraphOutcome): Promise<unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Starts the flight for `key` (or joins the one under way); its outcome, or null past the deadline. */
export async function inFlight(
  key: string,
  build: (waitUntil: (p: Promise<unknown>) => void) => Promise<GraphOutcome>,
  opts: FlightOptions,
): Promise<GraphOutcome | null> {
  const found = flights.get(key);
  if (found) return poll(found, opts);
  const f: Flight = { settled: false };
  flights.set(key, f);
  const background: Promise<unknown>[] = [];
  const outcome = build((p) => background.push(p)).then(
    (o) => {
      f.outcome = o;
      return o;
    },
    (error: unknown) => {
      f.failed = { error };
      throw error;
    },
  );
  const done = outcome
    .then((o) => opts.after(o))
    .then(() => Promise.allSettled(background))
    .catch(() => {})
    .finally(() => {
      f.settled = true;
      if (flights.get(key) === f) flights.delete(key);
    });
  opts.defer(done);
  let handle: ReturnType<typeof setTimeout> | undefined;
  const timer = new Promise<null>((r) => {
    handle = setTimeout(() => r(null), Math.max(0, opts.deadline - Date.now()));
  });
  try {
    return await Promise.race([opts.settled ? done.then(() => outcome) : outcome, timer]);
  } finally {
    clearTimeout(handle);
  }
}

async function poll(f: Flight, opts: FlightOptions): Promise<GraphOutcome | null> {
  for (;;) {
    if (f.failed) throw f.failed.error;
    if (f.outcome && (f.settled || !opts.settled)) return f.outcome;
    if (f.settled) return null; // settled without an outcome: only after a failure, thrown above
    const left = opts.deadline - Date.now();
    if (left <= 0) return null;
    await sleep(Math.min(POLL_MS, left));
  }
}

/** Flights under way in this isolate (tests). */
export function flightsUnderWay(): number {
  return flights.size;
}
