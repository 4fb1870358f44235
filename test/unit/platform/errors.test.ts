import { Hono } from 'hono';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { errorHandler, HttpError, notFoundHandler, type Dialect } from '../../../src/platform/errors.ts';
import { validate } from '../../../src/platform/validate.ts';

function app(dialect: Dialect) {
  const a = new Hono();
  a.onError(errorHandler(dialect));
  a.notFound(notFoundHandler(dialect));
  a.get('/conflict', () => {
    throw new HttpError(409, 'already taken', { extra: { taken: ['b1'] } });
  });
  a.get('/boom', () => {
    throw new Error('secret internals');
  });
  a.post('/items', validate('json', z.object({ name: z.string().min(1), price: z.number().positive() })), (c) =>
    c.json(c.req.valid('json')),
  );
  return a;
}

describe('error dialects', () => {
  it.each([
    ['insights', 409, { error: 'already taken', taken: ['b1'] }],
    ['pipeline', 409, { detail: 'already taken', taken: ['b1'] }],
  ] as const)('%s renders HttpError', async (dialect, status, body) => {
    const res = await app(dialect).request('/conflict');
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(body);
  });

  it('marketplace uses {data:{error}, time, method}', async () => {
    const res = await app('marketplace').request('/conflict');
    const body = (await res.json()) as { data: unknown; time: string; method: string };
    expect(res.status).toBe(409);
    expect(body.data).toEqual({ error: 'already taken', taken: ['b1'] });
    expect(body.method).toBe('GET /conflict');
    expect(Number.isNaN(Date.parse(body.time))).toBe(false);
  });

  it('ultracart uses its error object and the UC-REST-ERROR header', async () => {
    const res = await app('ultracart').request('/conflict');
    expect(res.status).toBe(409);
    expect(res.headers.get('UC-REST-ERROR')).toBe('Conflict'); // the status phrase: never text that may quote the request
    expect(await res.json()).toEqual({
      success: false,
      metadata: {},
      error: { developer_message: 'already taken', user_message: 'already taken', error_code: '409', taken: ['b1'] },
    });
  });

  it.each(['insights', 'marketplace', 'pipeline', 'ultracart'] as const)(
    '%s hides unexpected errors behind a generic 500',
    async (dialect) => {
      const original = console.error;
      console.error = () => {};
      try {
        const res = await app(dialect).request('/boom');
        expect(res.status).toBe(500);
        expect(await res.text()).not.toContain('secret internals');
      } finally {
        console.error = original;
      }
    },
  );

  it.each([
    ['insights', 400],
    ['marketplace', 400],
    ['ultracart', 400],
    ['pipeline', 422],
  ] as const)('%s answers invalid input with %i', async (dialect, status) => {
    const res = await app(dialect).request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', price: -1 }),
    });
    expect(res.status).toBe(status);
    const text = await res.text();
    expect(text).toContain('name');
    expect(text).toContain('price');
  });

  it('pipeline validation errors have FastAPI shape', async () => {
    const res = await app('pipeline').request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0]!.loc).toEqual(['body', 'price']);
  });

  it.each(['insights', 'marketplace', 'pipeline', 'ultracart'] as const)(
    '%s answers malformed JSON with 400',
    async (dialect) => {
      const res = await app(dialect).request('/items', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(res.status).toBe(400);
    },
  );

  it('valid input passes through parsed', async () => {
    const res = await app('insights').request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a', price: 2 }),
    });
    expect(await res.json()).toEqual({ name: 'a', price: 2 });
  });
});
