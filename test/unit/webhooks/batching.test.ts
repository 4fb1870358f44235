import { describe, expect, it } from 'vitest';
import { retryDelaySeconds, retryPolicy, shouldDisable } from '../../../src/webhooks/backoff.ts';
import { itemSize } from '../../../src/platform/events.ts';
import { buildBody, readBody, takeBatch } from '../../../src/webhooks/payload.ts';
import type { Env } from '../../../src/platform/env.ts';

const ev = (size: number) => ({ size });

describe('takeBatch', () => {
  it.each([
    ['count limit', [10, 10, 10, 10], 3, 1000, 3],
    ['size limit: envelope 13 + 10 + 1 + 10 = 34', [10, 10, 10], 10, 34, 2],
    ['size limit exact fit of three', [10, 10, 10], 10, 45, 3],
    ['first event always goes even when oversized', [5000, 10], 10, 1000, 1],
    ['stops at the first event that does not fit (FIFO, no skipping)', [10, 900, 10], 10, 100, 1],
    ['empty queue', [], 10, 1000, 0],
  ])('%s', (_n, sizes, maxEvents, maxSize, expected) => {
    expect(takeBatch(sizes.map(ev), maxEvents, maxSize)).toHaveLength(expected);
  });

  it('the size it counts is the size of the body it builds', async () => {
    const events = [
      { event_name: 'book_posted', payload: { id: 1, t: 'é' } },
      { event_name: 'task_finished', payload: { id: 'x' } },
    ];
    const body = await buildBody(events, false);
    const counted = 13 + events.reduce((n, e) => n + itemSize(e.event_name, e.payload), 0) + events.length - 1;
    expect(new TextEncoder().encode(body).length).toBe(counted);
  });
});

describe('bodies', () => {
  const events = [
    { event_name: 'book_posted', payload: { book_id: 'b1', title: 'Dune' } },
    { event_name: 'book_unlisted', payload: { book_id: 'b0' } },
  ];
  it('plain body is {"events":[{"<name>": {...}}]}', async () => {
    expect(await buildBody(events, false)).toBe(
      '{"events":[{"book_posted":{"book_id":"b1","title":"Dune"}},{"book_unlisted":{"book_id":"b0"}}]}',
    );
  });
  it('compressed body carries the gzip+base64 of the same array', async () => {
    const body = JSON.parse(await buildBody(events, true));
    expect(typeof body.events).toBe('string');
    expect(Buffer.from(body.events, 'base64').subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(await readBody(JSON.stringify(body))).toEqual([
      { book_posted: { book_id: 'b1', title: 'Dune' } },
      { book_unlisted: { book_id: 'b0' } },
    ]);
  });
});

describe('backoff', () => {
  const policy = retryPolicy({} as Env);
  it('defaults', () => expect(policy).toEqual({ baseSeconds: 5, maxSeconds: 3600, disableAfter: 48 }));
  it('reads env overrides and refuses a malformed value, naming the variable', () => {
    const env: Env = {
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WEBHOOK_RETRY_MAX_SECONDS: '10',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
    };
    expect(retryPolicy(env)).toEqual({ baseSeconds: 1, maxSeconds: 10, disableAfter: 3 });
    expect(() => retryPolicy({ WEBHOOK_RETRY_BASE_SECONDS: 'x' })).toThrow(
      /^WEBHOOK_RETRY_BASE_SECONDS: must be a number/,
    );
    expect(() => retryPolicy({ WEBHOOK_RETRY_MAX_SECONDS: '-1' })).toThrow(
      /^WEBHOOK_RETRY_MAX_SECONDS: must be a number/,
    );
  });
  it.each([
    [1, 0, 3],
    [1, 1, 5],
    [2, 0, 5],
    [2, 1, 10],
    [3, 0.5, 15],
    [11, 0, 1800],
    [11, 1, 3600],
    [60, 1, 3600],
  ])('failure %i with draw %f waits %i s', (failures, draw, seconds) => {
    expect(retryDelaySeconds(failures, policy, () => draw)).toBe(seconds);
  });
  it.each([
    [410, 1, true],
    [500, 47, false],
    [500, 48, true],
    [0, 48, true],
    [429, 2, false],
  ])('status %i after %i failures disables: %s', (status, failures, disable) => {
    expect(shouldDisable(status, failures, policy)).toBe(disable);
  });
});
