/**
 * `openalex`: works search (`GET {PIPELINE_OPENALEX_URL}/works`). Config: `search_query` or
 * `keywords[]` (-> `search`), `filter` (extra OpenAlex filters, e.g. `type:article,is_oa:true`),
 * `max_results` (-> `per_page`, default 20), `mailto` (else PIPELINE_OPENALEX_MAILTO; the polite pool),
 * `start_at` / `end_at` when the run gives no window. The window becomes `from_publication_date` /
 * `to_publication_date`; results come newest first. The abstract is rebuilt from
 * `abstract_inverted_index`; the item URL is the landing page, else the DOI, else the OpenAlex id.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import {
  arr,
  baseUrl,
  cut,
  day,
  getJson,
  isoDay,
  limitOf,
  obj,
  searchText,
  setting,
  str,
  windowOf,
} from './upstream.ts';

export function abstractText(index: unknown): string {
  const words: [number, string][] = [];
  for (const [word, positions] of Object.entries(obj(index))) {
    for (const p of arr(positions)) if (typeof p === 'number') words.push([p, word]);
  }
  return words
    .sort((a, b) => a[0] - b[0])
    .map((w) => w[1])
    .join(' ');
}

function work(raw: unknown): CollectedItem | null {
  const w = obj(raw);
  const id = str(w.id);
  const loc = obj(w.primary_location);
  const doiUrl = str(w.doi);
  const url = str(loc.landing_page_url) ?? doiUrl ?? id;
  if (!url || !/^https?:\/\//.test(url)) return null;
  const abstract = abstractText(w.abstract_inverted_index);
  const authors = arr(w.authorships)
    .map((a) => str(obj(obj(a).author).display_name))
    .filter((n): n is string => !!n);
  return {
    title: str(w.title) ?? str(w.display_name) ?? url,
    url,
    summary: cut(abstract),
    published_at: isoDay(w.publication_date),
    metadata: {
      collector: 'openalex',
      openalex_id: id ?? null,
      doi: doiUrl ? doiUrl.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') : null,
      authors,
      venue: str(obj(loc.source).display_name) ?? null,
      publication_year: typeof w.publication_year === 'number' ? w.publication_year : null,
      type: str(w.type) ?? null,
      cited_by_count: typeof w.cited_by_count === 'number' ? w.cited_by_count : null,
      abstract: cut(abstract, 10_000),
    },
  };
}

export async function collectOpenAlex(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const limit = limitOf(config, opts, 20);
  const window = windowOf(config, opts);
  const filters = [
    str(config.filter),
    window.start && `from_publication_date:${day(window.start)}`,
    window.end && `to_publication_date:${day(window.end)}`,
  ].filter(Boolean);
  const q = new URLSearchParams();
  const search = searchText(config, opts);
  if (search) q.set('search', search);
  if (filters.length) q.set('filter', filters.join(','));
  q.set('sort', 'publication_date:desc');
  q.set('per_page', String(limit));
  const mailto = str(config.mailto) ?? setting(env, 'PIPELINE_OPENALEX_MAILTO');
  if (mailto) q.set('mailto', mailto);
  const key = setting(env, 'PIPELINE_OPENALEX_API_KEY');
  if (key) q.set('api_key', key);
  const body = obj(await getJson(env, `${baseUrl(env, 'PIPELINE_OPENALEX_URL')}/works?${q}`));
  if (!Array.isArray(body.results)) throw new Error('OpenAlex answer has no results list');
  const items = body.results
    .slice(0, limit)
    .map(work)
    .filter((i): i is CollectedItem => i !== null);
  return { format: 'openalex', title: 'OpenAlex works', items, fetched: items.length };
}
