/**
 * Batches and bodies. A batch is the longest prefix of a webhook's pending events (in queue order)
 * with at most `maximum_events` events whose body stays within `maximum_size` bytes; the first event
 * always goes, even alone over the limit, so one oversized event cannot block the queue forever.
 * Body: `{"events":[{"<event_name>":{...}}, ...]}`; with compress_events the array is
 * JSON-serialised, gzipped and base64-encoded: `{"events":"<base64>"}`.
 */
import { fromBase64, toBase64 } from '../platform/crypto.ts';

export interface QueuedEvent {
  queue_id: string;
  event_name: string;
  payload: unknown;
  size: number;
}

/** Bytes `{"events":[` + items joined by commas + `]}`. */
const ENVELOPE = '{"events":[]}'.length;

export function takeBatch<T extends { size: number }>(events: T[], maximumEvents: number, maximumSize: number): T[] {
  const out: T[] = [];
  let total = ENVELOPE;
  for (const e of events) {
    if (out.length >= maximumEvents) break;
    const next = total + e.size + (out.length ? 1 : 0);
    if (out.length && next > maximumSize) break;
    out.push(e);
    total = next;
  }
  return out;
}

export async function gzipBase64(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return toBase64(new Uint8Array(await new Response(stream).arrayBuffer()));
}

export async function gunzipBase64(b64: string): Promise<string> {
  const stream = new Blob([fromBase64(b64) as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

export async function buildBody(
  events: { event_name: string; payload: unknown }[],
  compress: boolean,
): Promise<string> {
  const items = events.map((e) => ({ [e.event_name]: e.payload }));
  if (!compress) return JSON.stringify({ events: items });
  return JSON.stringify({ events: await gzipBase64(JSON.stringify(items)) });
}

/** Inverse of buildBody (for receivers and tests). */
export async function readBody(body: string): Promise<Record<string, unknown>[]> {
  const parsed = JSON.parse(body) as { events: string | Record<string, unknown>[] };
  return typeof parsed.events === 'string' ? JSON.parse(await gunzipBase64(parsed.events)) : parsed.events;
}
