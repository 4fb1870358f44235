/**
 * `github_trending`: the trending page (`GET {PIPELINE_GITHUB_URL}/trending[/<language>]?since=`),
 * one item per `<article class="Box-row">`: `owner/repo` from the heading link, the description
 * paragraph, `itemprop="programmingLanguage"`, total stars (the stargazers link) and "N stars today|this
 * week|this month". Config: `language` (e.g. `python`), `since` (daily | weekly | monthly, default
 * daily), `spoken_language_code`, `limit` / `max_results` (default 25; the page lists 25). Items point at
 * https://github.com/<owner>/<repo> and carry no date (trending is a snapshot): the collection time counts.
 * The page is read as a tree by html-dom.ts (htmlparser2), like the other page collectors.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { baseUrl, byKeywords, cut, getText, limitOf, str } from './upstream.ts';
import { all, find, named, parsePage, text } from './html-dom.ts';

export const SINCE = ['daily', 'weekly', 'monthly'] as const;

const count = (s: string | undefined) => (s ? Number(s.replace(/,/g, '')) : null);

function parseRows(doc: ReturnType<typeof parsePage>): CollectedItem[] {
  const rows = all(doc, (e) => e.name === 'article' && (e.attribs.class ?? '').split(/\s+/).includes('Box-row'));
  const items: CollectedItem[] = [];
  for (const row of rows) {
    const heading = find(row.children, named('h1', 'h2'));
    const link = heading && find(heading.children, (e) => e.name === 'a' && e.attribs.href !== undefined);
    const href = link?.attribs.href ?? '';
    const name = href
      .replace(/^https?:\/\/[^/]+/, '')
      .replace(/^\/+|\/+$/g, '')
      .replace(/\s+/g, '');
    if (!/^[\w.-]+\/[\w.-]+$/.test(name)) continue;
    const description = text(find(row.children, named('p'))?.children);
    const lang = find(row.children, (e) => e.name === 'span' && e.attribs.itemprop === 'programmingLanguage');
    const language = text(lang?.children) || null;
    const starsLink = find(row.children, (e) => e.name === 'a' && e.attribs.href === `/${name}/stargazers`);
    const stars = count(text(starsLink?.children).match(/[\d,]+/)?.[0]);
    const period = /([\d,]+)\s+stars?\s+(today|this week|this month)/i.exec(text(row.children));
    items.push({
      title: name,
      url: `https://github.com/${name}`,
      summary: cut(description),
      published_at: null,
      metadata: {
        collector: 'github_trending',
        repo_full_name: name,
        description: description || null,
        language,
        stars_total: stars,
        stars_period: count(period?.[1]),
        period: period?.[2]?.toLowerCase() ?? null,
      },
    });
  }
  return items;
}

export function parseTrending(html: string): CollectedItem[] {
  return parseRows(parsePage(html));
}

export async function collectGithubTrending(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const language = str(config.language);
  const since = str(config.since) ?? 'daily';
  const q = new URLSearchParams({ since });
  const spoken = str(config.spoken_language_code);
  if (spoken) q.set('spoken_language_code', spoken);
  const path = language ? `/trending/${encodeURIComponent(language.toLowerCase())}` : '/trending';
  const html = await getText(env, `${baseUrl(env, 'PIPELINE_GITHUB_URL')}${path}?${q}`, 'text/html');
  const doc = parsePage(html);
  const rows = parseRows(doc);
  if (!rows.length && !/Box-row|trending/i.test(html)) throw new Error('the answer is not a GitHub trending page');
  const title = text(find(doc, named('title'))?.children) || 'GitHub trending';
  return {
    format: 'github_trending',
    title,
    items: byKeywords(rows, opts.keywords).slice(0, limitOf(config, opts, 25)),
    fetched: rows.length,
  };
}
