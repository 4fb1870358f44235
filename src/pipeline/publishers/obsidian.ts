/**
 * Obsidian publisher through the Local REST API plugin (`rest` mode): `PUT {api_url}/vault/<folder>/<file>.md`
 * with the Markdown as `text/markdown` and `Authorization: Bearer <api_key>` (the plugin answers 204);
 * `testObsidian` reads `GET {api_url}/` and succeeds only on the plugin's status document with
 * `authenticated: true` (any other 200 is some other server). `file` mode (writing into a vault directory)
 * needs a file system, which Workers do not have: it is validated and refused with a clear message.
 * File names: `<report_date> <title>.md` with path separators and control characters replaced.
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import type { PublishInput, PublishOutcome } from './types.ts';

export const FILE_MODE_REFUSED =
  'file mode needs a local file system, which this deployment (Cloudflare Workers) does not have; use mode "rest" with the Obsidian Local REST API plugin';

export function obsidianMode(config: Record<string, unknown>): 'rest' | 'file' {
  if (config.mode === 'rest' || config.mode === 'file') return config.mode;
  return config.vault_path && !config.api_url ? 'file' : 'rest';
}

export function noteFileName(input: Pick<PublishInput, 'title' | 'report_date'>): string {
  const clean = input.title
    .replace(/[\\/:*?"<>|#^[\]\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${input.report_date} ${clean || 'Report'}.md`;
}

function folder(config: Record<string, unknown>): string {
  const f = typeof config.target_folder === 'string' ? config.target_folder : '';
  return f
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..')
    .join('/');
}

function base(config: Record<string, unknown>): string {
  if (typeof config.api_url !== 'string' || !config.api_url)
    throw new Error('Obsidian api_url is required in rest mode');
  return config.api_url.replace(/\/+$/, '');
}

export async function publishObsidian(
  env: Env,
  config: Record<string, unknown>,
  apiKey: string | null,
  input: PublishInput,
): Promise<PublishOutcome> {
  if (obsidianMode(config) === 'file') throw new Error(FILE_MODE_REFUSED);
  if (!apiKey) throw new Error('Obsidian api_key is required in rest mode');
  const path = [folder(config), noteFileName(input)].filter(Boolean).join('/');
  const url = `${base(config)}/vault/${path.split('/').map(encodeURIComponent).join('/')}`;
  const res = await guardedFetch(
    env,
    url,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/markdown' },
      body: `# ${input.title}\n\n${input.markdown}\n`,
    },
    { timeoutMs: 15_000, maxRedirects: 0 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`Destination returned HTTP ${res.status}`);
  return { url: null, external_id: path };
}

export async function testObsidian(env: Env, config: Record<string, unknown>, apiKey: string | null): Promise<string> {
  if (obsidianMode(config) === 'file') throw new Error(FILE_MODE_REFUSED);
  if (!apiKey) throw new Error('Obsidian api_key is required in rest mode');
  const res = await guardedFetch(
    env,
    `${base(config)}/`,
    { headers: { authorization: `Bearer ${apiKey}` } },
    { timeoutMs: 10_000, maxRedirects: 0 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`Destination returned HTTP ${res.status}`);
  const status = statusDocument(res.text());
  if (!status)
    throw new Error(
      `Destination answered HTTP ${res.status}, but not with the Obsidian Local REST API status document: is api_url the plugin's address?`,
    );
  if (!status.authenticated) throw new Error('Obsidian REST API reachable, but the api_key was not accepted');
  return 'Obsidian REST API reachable';
}

/**
 * The plugin's status document (`GET /`): `{status: "OK", service: "Obsidian Local REST API",
 * authenticated: boolean, versions: {obsidian, self}, ...}`; undefined for any other answer, so a
 * 200 from some other server is not taken for the plugin.
 */
function statusDocument(text: string): { authenticated: boolean } | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object') return undefined;
  const d = doc as Record<string, unknown>;
  const versions = d.versions as Record<string, unknown> | undefined;
  const ok =
    d.status === 'OK' &&
    d.service === 'Obsidian Local REST API' &&
    typeof d.authenticated === 'boolean' &&
    typeof versions?.self === 'string';
  return ok ? { authenticated: d.authenticated as boolean } : undefined;
}
