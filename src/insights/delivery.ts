/**
 * Queue callbacks of the insights service, mounted by functions/delivery.ts under /insights (behind
 * verifyQstash). `POST /insights/refresh {system, name}` re-ingests one package from its upstream
 * (idempotent: a store replaces the package wholly). A package gone upstream is left as stored.
 * 5xx on upstream failure makes QStash retry.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { verifiedJson } from '../platform/queue.ts';
import { HttpError } from '../platform/errors.ts';
import { SYSTEMS, type System } from '../versions/index.ts';
import { ingestPackage } from './read-through.ts';

export const insightsDelivery = new Hono<AppEnv>();

insightsDelivery.post('/refresh', async (c) => {
  const body = verifiedJson<{ system?: unknown; name?: unknown }>(c);
  const system = String(body?.system ?? '').toUpperCase() as System;
  if (!SYSTEMS.includes(system) || typeof body.name !== 'string' || !body.name) throw new HttpError(400, 'body must be {system, name}');
  try {
    const name = await ingestPackage(c.env, c.get('db'), system, body.name);
    return c.json({ refreshed: name !== null, system, name: name ?? body.name });
  } catch (err) {
    console.warn(`insights refresh ${system} ${body.name} failed: ${(err as Error).message}`);
    return c.json({ error: 'upstream failed; retry' }, 503);
  }
});
