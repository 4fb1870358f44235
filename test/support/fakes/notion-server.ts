/**
 * A Notion-API-compatible server: `GET /v1/databases/{id}` and `POST /v1/pages` with `Authorization:
 * Bearer <token>` and `Notion-Version` required (Notion answers 401 `unauthorized` / 400
 * `missing_version` otherwise); pages must have `parent.database_id` of a known database, else 404
 * `object_not_found`. Created pages are kept in `pages` and answered as Notion page objects.
 */
import { json, startFake, type Fake } from './http-fake.ts';

export interface NotionServer extends Fake {
  token: string;
  databaseId: string;
  pages: { id: string; parent: Record<string, string>; properties: Record<string, unknown>; children: unknown[] }[];
}

const err = (status: number, code: string, message: string) => json(status, { object: 'error', status, code, message });

export async function startNotionServer(
  token = 'secret_notion_token_abcd',
  databaseId = '0123456789abcdef0123456789abcdef',
): Promise<NotionServer> {
  const dashed = `${databaseId.slice(0, 8)}-${databaseId.slice(8, 12)}-${databaseId.slice(12, 16)}-${databaseId.slice(16, 20)}-${databaseId.slice(20)}`;
  const pages: NotionServer['pages'] = [];
  const fake = await startFake((r) => {
    if (r.headers.authorization !== `Bearer ${token}`) return err(401, 'unauthorized', 'API token is invalid.');
    if (!r.headers['notion-version']) return err(400, 'missing_version', 'Notion-Version header failed validation');
    const known = (id: string | undefined) => id !== undefined && id.replace(/-/g, '') === databaseId;
    const db = /^\/v1\/databases\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && db)
      return known(db[1])
        ? json(200, { object: 'database', id: dashed, title: [{ plain_text: 'Reports' }] })
        : err(404, 'object_not_found', 'Could not find database');
    if (r.method === 'POST' && r.path === '/v1/pages') {
      const body = JSON.parse(r.body) as {
        parent?: Record<string, string>;
        properties?: Record<string, unknown>;
        children?: unknown[];
      };
      if (!known(body.parent?.database_id)) return err(404, 'object_not_found', 'Could not find database');
      const id = crypto.randomUUID();
      pages.push({ id, parent: body.parent!, properties: body.properties ?? {}, children: body.children ?? [] });
      return json(200, {
        object: 'page',
        id,
        url: `https://www.notion.so/${id.replace(/-/g, '')}`,
        parent: body.parent,
        properties: body.properties,
      });
    }
    return err(400, 'invalid_request_url', 'Invalid request URL.');
  });
  return Object.assign(fake, { token, databaseId, pages });
}
