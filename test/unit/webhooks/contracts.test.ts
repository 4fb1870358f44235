/**
 * The services' event contracts (src/marketplace/events.ts, src/pipeline/events.ts) against the
 * catalogue the webhook resource shows (registered by functions/event-catalog.ts) and the one function
 * that makes payloads (platform/events.ts's makeEvent): every catalogued event has a contract and no
 * contract is uncatalogued; an event supports reflow exactly when it names a reflow query; a payload
 * becomes its wire JSON (Dates as ISO strings) and a payload that breaks its schema is refused.
 */
import { describe, expect, it } from 'vitest';
import '../../../functions/event-catalog.ts';
import { MARKETPLACE_EVENTS } from '../../../src/marketplace/events.ts';
import { PIPELINE_EVENTS } from '../../../src/pipeline/events.ts';
import { itemSize, makeEvent } from '../../../src/platform/events.ts';
import { catalog, findEvent } from '../../../src/webhooks/catalog.ts';

const EVENT_CONTRACTS = { ...MARKETPLACE_EVENTS, ...PIPELINE_EVENTS };

const BOOK = {
  _id: '7',
  name: 'Algorithms',
  edition: 3,
  course: 'CSC 282',
  price: 50,
  condition: 'Good',
  comments: '',
  ISBN: '9780262033848',
  date: 1_700_000_000_000,
  status: 0,
  owner: '3',
  buyer: '',
};

describe('event contracts', () => {
  const catalogued = catalog().flatMap((c) => c.events);

  it('the catalogue and the contracts name the same events', () => {
    expect(catalogued.map((e) => e.event_name).sort()).toEqual(Object.keys(EVENT_CONTRACTS).sort());
    expect(catalog().map((c) => c.event_category)).toEqual(['user', 'book', 'request', 'checkout', 'pipeline']);
    expect(findEvent('book_posted')?.category.event_category).toBe('book');
    expect(findEvent('toString')).toBeUndefined();
  });

  it('an event supports reflow exactly when it names its reflow query', () => {
    const reflowing = catalogued.filter((e) => e.supports_reflow).map((e) => e.event_name);
    expect(reflowing).toEqual(['user_signup', 'book_posted', 'report_published']);
    for (const e of catalogued) expect(typeof e.reflow === 'function').toBe(e.supports_reflow);
  });

  it('makeEvent makes the wire JSON and takes the object id from the payload', () => {
    const moved = makeEvent(MARKETPLACE_EVENTS, 'book_status_changed', { book: BOOK, from: 0, to: 1 });
    expect(moved).toEqual({ name: 'book_status_changed', objectId: '7', payload: { book: BOOK, from: 0, to: 1 } });
    const created = new Date('2026-01-02T03:04:05.000Z');
    const task = makeEvent(PIPELINE_EVENTS, 'task_finished', {
      id: 't1',
      run_id: 't1',
      monitor_id: null,
      source_id: 's1',
      trigger_type: 'manual',
      status: 'success',
      started_at: created,
      finished_at: null,
      articles_count: 2,
      error_message: null,
      stage_trace: [],
      created_at: created,
    });
    expect(task.payload.started_at).toBe('2026-01-02T03:04:05.000Z');
    expect(task.objectId).toBe('t1');
    expect(itemSize(task.name, task.payload)).toBe(JSON.stringify({ task_finished: task.payload }).length);
  });

  it.each([
    ['a missing field', { ...BOOK, owner: undefined }, /owner/],
    ['a field the schema does not know', { ...BOOK, password_hash: 'x' }, /password_hash/],
    ['a wrong type', { ...BOOK, price: '50' }, /price/],
  ])('refuses a payload with %s', (_n, book, message) => {
    expect(() => makeEvent(MARKETPLACE_EVENTS, 'book_posted', book as typeof BOOK)).toThrow(message);
  });
});
