/** JSON text built by Postgres is sent as is (no parse/stringify round trip in the worker). */
import type { Context } from 'hono';

export function jsonText(c: Context, body: string, status: 200 = 200): Response {
  return c.body(body, status, { 'content-type': 'application/json; charset=UTF-8' });
}
