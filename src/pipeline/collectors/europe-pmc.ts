/**
 * `europe_pmc`: REST search (`GET {PIPELINE_EUROPE_PMC_URL}/search?format=json&resultType=core`).
 * Config: `search_query` or `keywords[]`, `max_results` (-> `pageSize`, default 20), `start_at` /
 * `end_at` when the run gives no window. The window becomes a `FIRST_PDATE:[from TO to]` clause ANDed
 * to the query (an empty query searches `*`); results come newest first (`sort=P_PDATE_D desc`). The
 * item URL is the DOI's, else the Europe PMC article page; abstracts may hold markup and are flattened.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { arr, baseUrl, cut, day, getJson, isoDay, limitOf, obj, searchText, str, windowOf } from './upstream.ts';
import { textOf } from './html-text.ts';

function record(raw: unknown): CollectedItem | null {
  const r = obj(raw);
  const id = str(r.id);
  const source = str(r.source);
  const doi = str(r.doi);
  const url = doi
    ? `https://doi.org/${doi}`
    : id && source
      ? `https://europepmc.org/article/${source}/${id}`
      : undefined;
  if (!url) return null;
  const listed = arr(obj(r.authorList).author)
    .map((a) => str(obj(a).fullName))
    .filter((n): n is string => !!n);
  const authors = listed.length ? listed : (str(r.authorString) ?? '').replace(/\.$/, '').split(/,\s*/).filter(Boolean);
  const abstract = textOf(str(r.abstractText) ?? '');
  const journal = obj(obj(r.journalInfo).journal);
  return {
    title: textOf(str(r.title) ?? '') || url,
    url,
    summary: cut(abstract),
    published_at: isoDay(r.firstPublicationDate),
    metadata: {
      collector: 'europe_pmc',
      pmid: str(r.pmid) ?? null,
      pmcid: str(r.pmcid) ?? null,
      doi: doi ?? null,
      source: source ?? null,
      authors,
      venue: str(journal.title) ?? str(r.journalTitle) ?? null,
      is_preprint: (str(r.pubType) ?? '').toLowerCase().includes('preprint'),
      abstract: cut(abstract, 10_000),
    },
  };
}

export async function collectEuropePmc(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const limit = limitOf(config, opts, 20);
  const window = windowOf(config, opts);
  const search = searchText(config, opts);
  const clause =
    window.start || window.end
      ? `FIRST_PDATE:[${window.start ? day(window.start) : '1900-01-01'} TO ${window.end ? day(window.end) : '3000-01-01'}]`
      : '';
  const query = [search && (clause ? `(${search})` : search), clause].filter(Boolean).join(' AND ') || '*';
  const q = new URLSearchParams({
    query,
    format: 'json',
    resultType: 'core',
    pageSize: String(limit),
    sort: 'P_PDATE_D desc',
  });
  const body = obj(await getJson(env, `${baseUrl(env, 'PIPELINE_EUROPE_PMC_URL')}/search?${q}`));
  const results = obj(body.resultList).result;
  if (!Array.isArray(results)) throw new Error('Europe PMC answer has no resultList');
  const items = results
    .slice(0, limit)
    .map(record)
    .filter((i): i is CollectedItem => i !== null);
  return { format: 'europe_pmc', title: 'Europe PMC search', items, fetched: items.length };
}
