/** SQL of the two fixed-id settings tables: providers (llm_alpha, llm_beta) and destinations (notion, obsidian, rss). */
import type { Queryable } from '../platform/db.ts';

export interface ProviderRow {
  id: string;
  name: string;
  enabled: boolean;
  base_url: string;
  model: string;
  api_key_enc: string | null;
  timeout_sec: number;
  max_retry: number;
  temperature: number;
  max_output_tokens: number;
  updated_at: Date;
}

export async function listProviders(db: Queryable): Promise<ProviderRow[]> {
  return db.query<ProviderRow>(`SELECT * FROM pipeline.providers ORDER BY id`);
}

export async function getProvider(db: Queryable, id: string): Promise<ProviderRow | undefined> {
  return (await db.query<ProviderRow>(`SELECT * FROM pipeline.providers WHERE id = $1`, [id]))[0];
}

export async function saveProvider(db: Queryable, p: ProviderRow): Promise<ProviderRow> {
  const [row] = await db.query<ProviderRow>(
    `UPDATE pipeline.providers SET enabled = $2, base_url = $3, model = $4, api_key_enc = $5, timeout_sec = $6, max_retry = $7, temperature = $8, max_output_tokens = $9, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      p.id,
      p.enabled,
      p.base_url,
      p.model,
      p.api_key_enc,
      p.timeout_sec,
      p.max_retry,
      p.temperature,
      p.max_output_tokens,
    ],
  );
  return row!;
}

export interface DestinationRow {
  id: 'notion' | 'obsidian' | 'rss';
  name: string;
  description: string;
  enabled: boolean;
  config: Record<string, unknown>;
  secret_enc: string | null;
  updated_at: Date;
}

export async function listDestinations(db: Queryable): Promise<DestinationRow[]> {
  return db.query<DestinationRow>(
    `SELECT * FROM pipeline.destinations ORDER BY CASE id WHEN 'notion' THEN 1 WHEN 'obsidian' THEN 2 ELSE 3 END`,
  );
}

export async function getDestination(db: Queryable, id: string): Promise<DestinationRow | undefined> {
  return (await db.query<DestinationRow>(`SELECT * FROM pipeline.destinations WHERE id = $1`, [id]))[0];
}

export async function saveDestination(
  db: Queryable,
  d: Pick<DestinationRow, 'id' | 'name' | 'enabled' | 'config' | 'secret_enc'>,
): Promise<DestinationRow> {
  const [row] = await db.query<DestinationRow>(
    `UPDATE pipeline.destinations SET name = $2, enabled = $3, config = $4::jsonb, secret_enc = $5, updated_at = now() WHERE id = $1 RETURNING *`,
    [d.id, d.name, d.enabled, JSON.stringify(d.config), d.secret_enc],
  );
  return row!;
}
