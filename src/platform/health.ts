/**
 * `GET /healthz` for every function: one database round trip through the same driver the routes use,
 * reporting the function name and the database's clock (so a check proves the database answers).
 */
import { Hono } from 'hono';
import type { AppEnv } from './env.ts';

export function healthRoutes(name: string): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/healthz', async (c) => {
    const [row] = await c.get('db').query<{ now: Date }>('SELECT now() AS now');
    return c.json({ function: name, ok: true, databaseTime: new Date(row!.now).toISOString() });
  });
  return r;
}
