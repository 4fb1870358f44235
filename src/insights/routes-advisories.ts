/** GetAdvisory (`/v3/advisories/{id}`): stored OSV record, read through from OSV when unknown. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { decodeSegment, rawSegments } from './paths.ts';
import { getAdvisory } from './queries.ts';
import { advisories, readThrough, storedIf } from './read-through.ts';
import { jsonText } from './views.ts';
import { readContext } from './route-context.ts';
import { advisoryIdParam, check } from './schemas.ts';

export const advisoryRoutes = new Hono<AppEnv>();

advisoryRoutes.get('/:api{v3|v3alpha}/advisories/:id', async (c) => {
  const id = decodeSegment(rawSegments(c.req.url)[2] ?? '');
  check(advisoryIdParam, id, `invalid advisory id "${id}"`);
  const ctx = readContext(c);
  const found = await readThrough(ctx, advisories, id, async (k) => storedIf(await getAdvisory(ctx.db, k)));
  if (found === null) throw new HttpError(404, `advisory ${id} not found`);
  return jsonText(c, found.value);
});
