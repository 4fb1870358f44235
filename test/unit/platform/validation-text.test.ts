/** Validation failures in words: the field by name, and what is wrong with it. */
import { Hono } from 'hono';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { errorHandler, type Dialect } from '../../../src/platform/errors.ts';
import { validate } from '../../../src/platform/validate.ts';

const BOOK = z.object({
  title: z.string().min(2).max(5),
  edition: z.coerce.number().int(),
  include: z.enum(['a', 'b', 'c']).optional(),
  tags: z.array(z.string()).max(1).optional(),
  isbn: z
    .string()
    .refine((v) => v.length === 10, { message: 'not a valid ISBN-10' })
    .optional(),
  email: z.email().optional(),
  code: z
    .string()
    .regex(/^[a-z]+$/)
    .optional(),
});

function app(dialect: Dialect) {
  const a = new Hono();
  a.onError(errorHandler(dialect));
  a.post('/books', validate('json', BOOK), (c) => c.json(c.req.valid('json')));
  a.post('/optional', validate('json', z.object({ note: z.string().optional() })), (c) => c.json(c.req.valid('json')));
  return a;
}

async function errorOf(body: unknown): Promise<string> {
  const res = await app('insights').request('/books', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: string }).error;
}

describe('validation messages', () => {
  it.each([
    [{ edition: 1 }, '`title` is required'],
    [{ title: 'abc' }, '`edition` is required'],
    [{ title: 'abc', edition: 'three' }, '`edition` must be a number'],
    [{ title: 7, edition: 1 }, '`title` must be a string'],
    [{ title: 'a', edition: 1 }, '`title` must be at least 2 characters long'],
    [{ title: 'abcdef', edition: 1 }, '`title` must be at most 5 characters long'],
    [{ title: 'abc', edition: 1.5 }, '`edition` must be an integer'],
    [{ title: 'abc', edition: 1, include: 'foo' }, '`include` must be one of: a, b, c'],
    [{ title: 'abc', edition: 1, tags: ['x', 'y'] }, '`tags` must have at most 1 item'],
    [{ title: 'abc', edition: 1, isbn: '123' }, 'isbn: not a valid ISBN-10'],
    [{ title: 'abc', edition: 1, email: 'nope' }, '`email` must be a valid email'],
    [{ title: 'abc', edition: 1, code: 'A1' }, '`code` is not in the expected format'],
  ])('%j -> %s', async (body, text) => {
    expect(await errorOf(body)).toBe(text);
  });

  it('names every failing field, joined', async () => {
    expect(await errorOf({})).toBe('`title` is required; `edition` is required');
  });

  it('the pipeline dialect lists them FastAPI-style, a missing field typed `missing`', async () => {
    const res = await app('pipeline').request('/books', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'abc' }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'edition'], msg: '`edition` is required' }],
    });
  });
});

describe('a JSON body under another content type', () => {
  it.each(['insights', 'marketplace', 'pipeline', 'ultracart'] as const)(
    '%s answers 415 naming the type',
    async (d) => {
      const types: Record<string, string>[] = [
        {},
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
      ];
      for (const headers of types) {
        const res = await app(d).request('/books', { method: 'POST', headers, body: '{"title":"abc","edition":1}' });
        expect(res.status).toBe(415);
        expect(await res.text()).toContain('application/json');
      }
    },
  );

  it('a body-less request to an endpoint whose body is optional is served', async () => {
    const res = await app('insights').request('/optional', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  });

  it('JSON under a +json or parameterised type is read', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const res = await app('insights').request('/books', {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"title":"abc","edition":1}',
      });
      expect(res.status).toBe(200);
    }
  });
});
