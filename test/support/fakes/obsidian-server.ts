/**
 * An Obsidian Local REST API-compatible server: `GET /` answers the plugin's status object
 * (`{status: 'OK', service: 'Obsidian Local REST API', authenticated}`), `PUT /vault/{path}` stores the
 * body as the note at that path (204), `GET /vault/{path}` reads it back (404 `{errorCode: 40400}`
 * otherwise). Vault routes require `Authorization: Bearer <api key>` (401 `{errorCode: 40101}`).
 */
import { json, startFake, type Fake } from './http-fake.ts';

export interface ObsidianServer extends Fake {
  apiKey: string;
  files: Map<string, string>;
}

export async function startObsidianServer(apiKey = 'obsidian-key-5678'): Promise<ObsidianServer> {
  const files = new Map<string, string>();
  const fake = await startFake((r) => {
    const authed = r.headers.authorization === `Bearer ${apiKey}`;
    if (r.method === 'GET' && r.path === '/')
      return json(200, {
        status: 'OK',
        service: 'Obsidian Local REST API',
        authenticated: authed,
        versions: { obsidian: '1.7.7', self: '3.0.1' },
      });
    if (!authed) return json(401, { errorCode: 40101, message: 'Authorization required.' });
    if (r.path.startsWith('/vault/')) {
      const path = r.path.slice('/vault/'.length);
      if (r.method === 'PUT') {
        files.set(path, r.body);
        return { status: 204 };
      }
      if (r.method === 'GET')
        return files.has(path)
          ? { status: 200, headers: { 'content-type': 'text/markdown' }, body: files.get(path) }
          : json(404, { errorCode: 40400, message: 'File not found.' });
    }
    return json(404, { errorCode: 40400, message: 'Not found.' });
  });
  return Object.assign(fake, { apiKey, files });
}
