/**
 * Rate-limited warnings for expected failures (an upstream down, a timeout): at most one line per kind
 * per window (a minute), without a stack trace. The first failure of a kind prints at once; later ones
 * in the same window are counted, and the first one after the window prints with that count, so an
 * outage of any length costs one line per kind per minute: `<kind> (<n> more in the minute before):
 * <example>`. Kept per isolate (module state): each Worker isolate limits its own lines.
 * A bug (an unexpected exception) is not for this module: onError logs it with its stack.
 */

interface Window {
  start: number;
  /** Failures since the last printed line. */
  count: number;
  example: string;
}

const WINDOW_MS = 60_000;
const MAX_KINDS = 1000;
const windows = new Map<string, Window>();

/** The printer (console.warn); replaceable for a test. */
let sink: (line: string) => void = (line) => console.warn(line);

export function setWarnSink(fn: (line: string) => void): () => void {
  const previous = sink;
  sink = fn;
  return () => {
    sink = previous;
  };
}

/** Forgets every window (tests). */
export function resetWarnWindows(): void {
  windows.clear();
}

/**
 * Warns once per `kind` per minute: `kind` names the failure (`upstream OSV HTTP 503`), `example` one
 * occurrence (the URL and message). Returns whether a line was printed.
 */
export function warnLimited(kind: string, example: string, now = Date.now()): boolean {
  const w = windows.get(kind);
  if (w && now - w.start < WINDOW_MS) {
    if (w.count === 0) w.example = example;
    w.count++;
    return false;
  }
  const earlier = w?.count ? ` (${w.count} more in the minute before)` : '';
  if (!w && windows.size >= MAX_KINDS) windows.delete(windows.keys().next().value!);
  windows.set(kind, { start: now, count: 0, example });
  sink(`${kind}${earlier}: ${oneLine(example)}`);
  return true;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
