/**
 * Upstream documents are parsed at the boundary: each adapter declares a zod schema of the parts it
 * reads (loose objects: registries add fields freely; optional or nullable where real documents
 * omit a field or send null), and a document that does not fit fails here, as an UpstreamError that
 * names the document (its URL) and the field, e.g. `.../pypi/x/json: malformed document: releases.1.0[0].yanked:
 * expected boolean, received string`. read-through.ts answers it as a 502 naming the upstream.
 */
import type * as z from 'zod';
import { fetchJson, fetchText } from './http.ts';
import { UpstreamError } from './types.ts';

/** `a.b[0].c` for a zod issue path. */
function fieldPath(path: readonly PropertyKey[]): string {
  if (!path.length) return '(the document)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** `doc` as `schema` reads it, or an UpstreamError naming `where` and the first field that does not fit. */
export function parseUpstream<S extends z.ZodType>(schema: S, doc: unknown, where: string): z.output<S> {
  const r = schema.safeParse(doc);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new UpstreamError(`${where}: malformed document: ${fieldPath(issue.path)}: ${issue.message}`);
}

/** A JSON document fetched from `url` and parsed with `schema`. */
export async function fetchDoc<S extends z.ZodType>(url: string, schema: S, init?: RequestInit): Promise<z.output<S>> {
  return parseUpstream(schema, await fetchJson<unknown>(url, init), url);
}

/** JSON Lines (one document per non-empty line, as the crates.io index), each parsed with `schema`. */
export async function fetchJsonLines<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>[]> {
  const lines = (await fetchText(url)).split('\n').filter((l) => l.trim());
  return lines.map((line, i) => {
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      throw new UpstreamError(`${url}: malformed document: line ${i + 1} is not JSON`);
    }
    return parseUpstream(schema, doc, `${url} line ${i + 1}`);
  });
}
