/**
 * `github_trending`: the trending page (`GET {PIPELINE_GITHUB_URL}/trending[/<language>]?since=`),
 * one item per `<article class="Box-row">`: `owner/repo` from the heading link, the description
 * paragraph, `itemprop="programmingLanguage"`, total stars (the stargazers link) and "N stars today|this
 * week|this month". Config: `language` (e.g. `python`), `since` (daily | weekly | monthly, default
 * daily), `spoken_language_code`, `limit` / `max_results` (default 25; the page lists 25). Items point at
 * https://github.com/<owner>/<repo> and carry no date (trending is a snapshot): the collection time counts.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { baseUrl, byKeywords, cut, getText, limitOf, str } from './upstream.ts';
import { attributes, first, textOf } from './html-text.ts';

export const SINCE = ['daily', 'weekly', 'monthly'] as const;

const count = (s: string | undefined) => (s ? Number(s.replace(/,/g, '')) : null);

export function parseTrending(html: string): CollectedItem[] {
  const rows = [...html.matchAll(/<article(\s[^>]*)?>([\s\S]*?)<\/article\s*>/gi)]
    .filter((m) => (attributes(m[1] ?? '').class ?? '').split(/\s+/).includes('Box-row'))
    .map((m) => m[2] ?? '');
  const items: CollectedItem[] = [];
  for (const row of rows) {
    const heading = /<h[12](?:\s[^>]*)?>([\s\S]*?)<\/h[12]\s*>/i.exec(row)?.[1] ?? '';
    const href = attributes(/<a(\s[^>]*)>/i.exec(heading)?.[1] ?? '').href ?? '';
    const name = href
      .replace(/^https?:\/\/[^/]+/, '')
      .replace(/^\/+|\/+$/g, '')
      .replace(/\s+/g, '');
    if (!/^[\w.-]+\/[\w.-]+$/.test(name)) continue;
    const description = textOf(/<p(?:\s[^>]*)?>([\s\S]*?)<\/p\s*>/i.exec(row)?.[1] ?? '');
    const language =
      textOf(/<span[^>]*itemprop="programmingLanguage"[^>]*>([\s\S]*?)<\/span>/i.exec(row)?.[1] ?? '') || null;
    const stars = count(
      textOf(
        new RegExp(
          `<a[^>]*href="/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/stargazers"[^>]*>([\\s\\S]*?)</a>`,
          'i',
        ).exec(row)?.[1] ?? '',
      ).match(/[\d,]+/)?.[0],
    );
    const period = /([\d,]+)\s+stars?\s+(today|this week|this month)/i.exec(textOf(row));
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
  const all = parseTrending(html);
  if (!all.length && !/Box-row|trending/i.test(html)) throw new Error('the answer is not a GitHub trending page');
  const title = textOf(first(html, 'title') ?? '') || 'GitHub trending';
  return {
    format: 'github_trending',
    title,
    items: byKeywords(all, opts.keywords).slice(0, limitOf(config, opts, 25)),
    fetched: all.length,
  };
}
