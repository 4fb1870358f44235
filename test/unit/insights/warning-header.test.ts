/** The Warning header's text (src/insights/warning-header.ts): RFC 9111's `code agent "quoted-string"`. */
import { describe, expect, it } from 'vitest';
import type { SourceRead } from '../../../src/insights/queries-source-reads.ts';
import { joinWarnings, quoted, readNames, warningParts } from '../../../src/insights/warning-header.ts';

const NOW = Date.parse('2026-11-27T18:00:00.000Z');
const read = (over: Partial<SourceRead>): SourceRead => ({
  system: 'NPM',
  name: 'express',
  version: '',
  readAt: null,
  attemptedAt: null,
  failedAt: null,
  error: '',
  ...over,
});

describe('warning header', () => {
  it('quotes: ASCII only, quotes and backslashes escaped, anything else percent-encoded', () => {
    expect(quoted('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(quoted('😀 é\nx')).toBe('"%F0%9F%98%80 %C3%A9%0Ax"');
    expect(quoted('a\ud83d')).toBe('"a%EF%BF%BD"'); // an unpaired surrogate does not throw
  });
  it('names one item, a version, a project, or several by count and the first', () => {
    expect(readNames([read({})])).toBe('NPM express');
    expect(readNames([read({ version: '1.0.0' })])).toBe('NPM express@1.0.0');
    expect(readNames([read({ system: 'PROJECT', name: 'github.com/a/b' })])).toBe('github.com/a/b');
    expect(readNames([read({ version: '1.0.0' }), read({ version: '2.0.0' }), read({})], 'versions')).toBe(
      '3 versions (e.g. NPM express@1.0.0)',
    );
  });
  it('199 for data never read (the failure, or "not read yet"), 110 for the oldest stale item with its age', () => {
    const failedAt = new Date(NOW - 60_000);
    const parts = warningParts(
      {
        what: 'attestations',
        source: 'npm attestations',
        plural: 'versions',
        missing: [read({ version: '1.0.0' }), read({ version: '2.0.0', failedAt, error: 'HTTP 503' })],
        stale: [
          read({ name: 'a', readAt: new Date(NOW - 3_600_000), failedAt, error: 'timeout' }),
          read({ name: 'b', readAt: new Date(NOW - 7_200_000), failedAt, error: 'unreachable' }),
        ],
      },
      NOW,
    );
    expect(parts).toEqual([
      '199 insights "attestations unknown for 2 versions (e.g. NPM express@1.0.0) (npm attestations: HTTP 503 at 2026-11-27T17:59:00.000Z)"',
      '110 insights "attestations of 2 versions (e.g. NPM a) as of 2026-11-27T16:00:00.000Z (7200 s old; npm attestations: unreachable at 2026-11-27T17:59:00.000Z)"',
    ]);
    expect(warningParts({ what: 'scorecard', source: 'Scorecard', missing: [read({})], stale: [] }, NOW)).toEqual([
      '199 insights "scorecard unknown for NPM express (Scorecard: not read yet)"',
    ]);
  });
  it('a stale item as of another time (a stored copy) and the joined header', () => {
    const failedAt = new Date(NOW - 1000);
    const [part] = warningParts(
      {
        what: 'package data',
        source: 'registry',
        missing: [],
        stale: [read({ failedAt, error: 'HTTP 503' })],
        asOf: () => new Date(0),
      },
      NOW,
    );
    expect(part).toBe(
      `110 insights "package data of NPM express as of 1970-01-01T00:00:00.000Z (${NOW / 1000} s old; registry: HTTP 503 at 2026-11-27T17:59:59.000Z)"`,
    );
    expect(joinWarnings([null, part, undefined, 'x'])).toBe(`${part}, x`);
    expect(joinWarnings([null])).toBeNull();
  });
});
