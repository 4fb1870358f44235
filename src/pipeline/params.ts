/** Shared input pieces: UUID path ids (FastAPI answers a malformed one with 422 "Invalid UUID"), paging. */
import type { Context } from 'hono';
import { HttpError } from '../platform/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidParam(c: Context, name: string): string {
  const v = c.req.param(name) ?? '';
  if (!UUID.test(v)) throw new HttpError(422, 'Invalid UUID');
  return v.toLowerCase();
}

export function isUuid(v: string): boolean {
  return UUID.test(v);
}

/** JSON body that may be absent (FastAPI's optional body): {} when empty. */
export async function optionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(422, 'JSON decode error');
  }
}
