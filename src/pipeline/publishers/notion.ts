/**
 * Notion publisher: creates one page per report in a database (`POST {api_url}/v1/pages`,
 * `Notion-Version: 2022-06-28`, Bearer integration token), the title in `title_property`, the TL;DR
 * in `summary_property` (rich text), and the Markdown as paragraph/heading/bulleted/quote blocks (Notion
 * caps a request at 100 blocks and a rich-text run at 2,000 characters; both are respected).
 * Database and page ids are accepted as bare ids or Notion URLs (the trailing 32 hex digits), like the
 * original's normalisation. `testNotion` reads the database (`GET /v1/databases/{id}`).
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import type { PublishInput, PublishOutcome } from './types.ts';

export const NOTION_VERSION = '2022-06-28';

export function notionId(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const hex = raw
    .split(/[?#]/)[0]!
    .replace(/-/g, '')
    .match(/[0-9a-f]{32}(?=[^0-9a-f]*$)/i)?.[0];
  if (!hex) return raw.trim();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toLowerCase();
}

const text = (s: string) => [{ type: 'text', text: { content: s.slice(0, 2000) } }];

function blocksOf(markdown: string): unknown[] {
  const out: unknown[] = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = /^(#{1,3})\s+(.*)$/.exec(line);
    const li = /^[-*]\s+(.*)$/.exec(line);
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      out.push({ object: 'block', type: 'quote', quote: { rich_text: text(quote[1]!) } });
    } else if (h) {
      const type = `heading_${h[1]!.length}`;
      out.push({ object: 'block', type, [type]: { rich_text: text(h[2]!) } });
    } else if (li)
      out.push({ object: 'block', type: 'bulleted_list_item', bulleted_list_item: { rich_text: text(li[1]!) } });
    else out.push({ object: 'block', type: 'paragraph', paragraph: { rich_text: text(line) } });
    if (out.length === 100) break;
  }
  return out;
}

function headers(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'notion-version': NOTION_VERSION, 'content-type': 'application/json' };
}

function apiUrl(config: Record<string, unknown>): string {
  return (typeof config.api_url === 'string' && config.api_url ? config.api_url : 'https://api.notion.com').replace(
    /\/+$/,
    '',
  );
}

export async function publishNotion(
  env: Env,
  config: Record<string, unknown>,
  token: string | null,
  input: PublishInput,
): Promise<PublishOutcome> {
  if (!token) throw new Error('Notion token is not configured');
  const databaseId = notionId(config.database_id);
  const pageId = notionId(config.parent_page_id);
  if (!databaseId && !pageId) throw new Error('Notion database_id or parent_page_id is required');
  const titleProp = typeof config.title_property === 'string' && config.title_property ? config.title_property : 'Name';
  const summaryProp = typeof config.summary_property === 'string' ? config.summary_property : '';
  const properties: Record<string, unknown> = databaseId
    ? {
        [titleProp]: { title: text(input.title) },
        ...(summaryProp && input.tldr ? { [summaryProp]: { rich_text: text(input.tldr) } } : {}),
      }
    : { title: { title: text(input.title) } };
  const body = {
    parent: databaseId ? { database_id: databaseId } : { page_id: pageId },
    properties,
    children: blocksOf(input.markdown),
  };
  const res = await guardedFetch(
    env,
    `${apiUrl(config)}/v1/pages`,
    { method: 'POST', headers: headers(token), body: JSON.stringify(body) },
    { timeoutMs: 20_000, maxRedirects: 0 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`Destination returned HTTP ${res.status}`);
  const page = JSON.parse(res.text()) as { id?: string; url?: string };
  return { url: page.url ?? null, external_id: page.id ?? null };
}

export async function testNotion(env: Env, config: Record<string, unknown>, token: string | null): Promise<string> {
  if (!token) throw new Error('Notion token is required');
  const databaseId = notionId(config.database_id);
  const pageId = notionId(config.parent_page_id);
  if (!databaseId && !pageId) throw new Error('Notion database_id or parent_page_id is required');
  const path = databaseId ? `/v1/databases/${databaseId}` : `/v1/pages/${pageId}`;
  const res = await guardedFetch(
    env,
    `${apiUrl(config)}${path}`,
    { headers: headers(token) },
    { timeoutMs: 10_000, maxRedirects: 0 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`Destination returned HTTP ${res.status}`);
  return databaseId ? `Notion database ${databaseId} reachable` : `Notion page ${pageId} reachable`;
}
