/**
 * The `Warning` response header of an answer that shows data some source could not read (DESIGN.md
 * convention 14; RFC 9111's form, `code agent "text"`, parts joined by `, `): the body keeps deps.dev's
 * message (no new fields), the header names what is missing or stale.
 *   199  never read successfully: `<what> unknown for <items> (<source>: <failure> at <time>)`, or
 *        `(<source>: not read yet)` before any attempt
 *   110  stale-if-error, the last known good data served: `<what> of <items> as of <last good read>
 *        (<age> s old; <source>: <failure> at <time>)`
 * Several items of one kind are named by their count and the first one.
 */
import type { SourceRead } from './queries-source-reads.ts';
import { PROJECT_SYSTEM } from './queries-source-reads.ts';

/** Header text: ASCII only, inside an HTTP quoted-string. */
export function quoted(text: string): string {
  // whole code points (`u`): a surrogate half alone would make encodeURIComponent throw (one left unpaired
  // in the text becomes U+FFFD's bytes)
  const lone = (ch: string) => ch.length === 1 && ch >= '\ud800' && ch <= '\udfff';
  const ascii = text.replace(/[^\x20-\x7e]/gu, (ch) => encodeURIComponent(lone(ch) ? '\ufffd' : ch));
  return `"${ascii.replace(/["\\]/g, '\\$&')}"`;
}

function itemName(r: SourceRead): string {
  if (r.system === PROJECT_SYSTEM) return r.name;
  return r.version ? `${r.system} ${r.name}@${r.version}` : `${r.system} ${r.name}`;
}

/** `NPM express`, `NPM x@1.0.0`, `github.com/o/r`, or `3 packages (e.g. NPM express)`. */
export function readNames(rs: readonly SourceRead[], plural = 'packages'): string {
  return rs.length === 1 ? itemName(rs[0]!) : `${rs.length} ${plural} (e.g. ${itemName(rs[0]!)})`;
}

export interface Unread {
  /** What the answer shows: `advisories`, `attestations`, `scorecard`, `project data`, `package data`. */
  what: string;
  /** The source in the text: `OSV`, `npm attestations`, `Scorecard`, `github.com`, `NPM registry`. */
  source: string;
  /** How several items are counted: `packages`, `versions`, `projects`. */
  plural?: string;
  missing: SourceRead[];
  stale: SourceRead[];
  /** The time the stale data is as of, when not the last successful read (a package's `fetched_at`). */
  asOf?: (r: SourceRead) => Date | null;
}

/** The header's parts for one kind of data (none when nothing is missing or stale). */
export function warningParts(u: Unread, now = Date.now()): string[] {
  const parts: string[] = [];
  if (u.missing.length) {
    const last = u.missing.find((r) => r.failedAt) ?? u.missing[0]!;
    const why = last.failedAt ? `: ${last.error} at ${last.failedAt.toISOString()}` : ': not read yet';
    parts.push(`199 insights ${quoted(`${u.what} unknown for ${readNames(u.missing, u.plural)} (${u.source}${why})`)}`);
  }
  const asOf = (r: SourceRead) => u.asOf?.(r) ?? r.readAt!;
  if (u.stale.length) {
    const oldest = u.stale.reduce((a, b) => (asOf(a) <= asOf(b) ? a : b));
    const at = asOf(oldest);
    const age = Math.round((now - at.getTime()) / 1000);
    const text = `${u.what} of ${readNames(u.stale, u.plural)} as of ${at.toISOString()} (${age} s old; ${u.source}: ${oldest.error} at ${oldest.failedAt!.toISOString()})`;
    parts.push(`110 insights ${quoted(text)}`);
  }
  return parts;
}

/** The header value of several kinds, or null when nothing is missing or stale. */
export function joinWarnings(parts: readonly (string | null | undefined)[]): string | null {
  const all = parts.filter((p): p is string => !!p);
  return all.length ? all.join(', ') : null;
}
