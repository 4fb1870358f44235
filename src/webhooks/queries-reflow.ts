/**
 * Current objects of an event category, for reflow. When the category's table exists (checked
 * with to_regclass; the marketplace and pipeline schemas are owned by other services), its rows as
 * JSON with secret-looking columns (password, hash, secret, token, key) removed; otherwise the
 * latest payload the outbox recorded for each object of the category's events.
 */
import type { Queryable } from '../platform/db.ts';
import type { CatalogCategory } from './catalog.ts';

const SECRET_COLUMN = /password|hash|secret|token|api_key|salt/i;
const REFLOW_LIMIT = 10_000;

function scrub(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !SECRET_COLUMN.test(k)));
}

export async function currentObjects(q: Queryable, category: CatalogCategory): Promise<unknown[]> {
  const source = category.reflow;
  if (source && /^[a-z_]+\.[a-z_]+$/.test(source.table) && /^[a-z_]+$/.test(source.idColumn)) {
    const exists = await q.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [source.table]);
    if (exists[0]?.t) {
      const rows = await q.query<{ o: Record<string, unknown> }>(`SELECT to_jsonb(t) AS o FROM ${source.table} t LIMIT ${REFLOW_LIMIT}`);
      const id = (o: Record<string, unknown>) => String(o[source.idColumn] ?? '');
      const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => id(a).localeCompare(id(b), 'en', { numeric: true });
      return rows.map((r) => r.o).sort(byId).map(scrub);
    }
  }
  const rows = await q.query<{ payload: unknown }>(
    `SELECT payload FROM (
       SELECT DISTINCT ON (object_id) object_id, payload, event_id FROM webhooks.outbox
       WHERE event_name = ANY ($1) ORDER BY object_id, event_id DESC
     ) latest ORDER BY event_id LIMIT ${REFLOW_LIMIT}`,
    [category.events.map((e) => e.event_name)],
  );
  return rows.map((r) => r.payload);
}
