/**
 * `pubmed`: NCBI E-utilities, `esearch.fcgi` (JSON id list) then one `efetch.fcgi` (PubMed XML) for
 * those ids, under PIPELINE_PUBMED_URL. Config: `search_query` or `keywords[]` (-> `term`),
 * `max_results` (-> `retmax`, default 20), `start_at` / `end_at` when the run gives no window. The
 * window becomes `datetype=pdat&mindate&maxdate`; results come newest first (`sort=pub_date`). Every
 * call carries `tool=insight-pipeline`, `email` (PIPELINE_NCBI_EMAIL) and `api_key`
 * (PIPELINE_NCBI_API_KEY) when set, as NCBI asks; two calls per collection stay under its 3 requests/s.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { arr, baseUrl, cut, getJson, getText, limitOf, obj, searchText, setting, str, windowOf } from './upstream.ts';
import { attributes, blocks, first, textOf } from './xml-text.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function xmlDate(block: string | undefined): string | null {
  if (!block) return null;
  const year = Number(textOf(first(block, 'Year') ?? ''));
  if (!year) return null;
  const rawMonth = textOf(first(block, 'Month') ?? '1');
  const month = /^\d+$/.test(rawMonth) ? Number(rawMonth) : MONTHS.indexOf(rawMonth.slice(0, 3).toLowerCase()) + 1 || 1;
  const dayOf = Number(textOf(first(block, 'Day') ?? '1')) || 1;
  return new Date(Date.UTC(year, month - 1, dayOf)).toISOString();
}

/** One `<PubmedArticle>` of an efetch answer. */
export function pubmedArticle(xml: string): CollectedItem | null {
  const pmid = textOf(first(xml, 'PMID') ?? '');
  if (!/^\d+$/.test(pmid)) return null;
  const parts = [...xml.matchAll(/<AbstractText(\s[^>]*)?>([\s\S]*?)<\/AbstractText>/gi)].map((m) => {
    const label = attributes(m[1] ?? '').label;
    const text = textOf(m[2] ?? '');
    return label ? `${label}: ${text}` : text;
  });
  const abstract = parts.join('\n\n');
  const authors = blocks(first(xml, 'AuthorList') ?? '', 'Author')
    .map((a) => {
      const collective = textOf(first(a, 'CollectiveName') ?? '');
      return (
        collective || [textOf(first(a, 'ForeName') ?? ''), textOf(first(a, 'LastName') ?? '')].filter(Boolean).join(' ')
      );
    })
    .filter(Boolean);
  const doi = [...xml.matchAll(/<(?:ArticleId|ELocationID)(\s[^>]*)>([\s\S]*?)<\/(?:ArticleId|ELocationID)>/gi)].find(
    (m) => {
      const a = attributes(m[1] ?? '');
      return a.idtype === 'doi' || a.eidtype === 'doi';
    },
  );
  const journal = first(xml, 'Journal') ?? '';
  return {
    title: textOf(first(xml, 'ArticleTitle') ?? '') || `PubMed ${pmid}`,
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    summary: cut(abstract),
    published_at: xmlDate(first(xml, 'ArticleDate')) ?? xmlDate(first(journal, 'PubDate')),
    metadata: {
      collector: 'pubmed',
      pmid,
      doi: doi ? textOf(doi[2] ?? '') : null,
      authors,
      venue: textOf(first(journal, 'Title') ?? '') || null,
      abstract: cut(abstract, 10_000),
    },
  };
}

const slashDay = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '/');

export async function collectPubmed(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const base = baseUrl(env, 'PIPELINE_PUBMED_URL');
  const limit = limitOf(config, opts, 20);
  const window = windowOf(config, opts);
  const shared = new URLSearchParams({ db: 'pubmed', tool: 'insight-pipeline' });
  const email = setting(env, 'PIPELINE_NCBI_EMAIL');
  if (email) shared.set('email', email);
  const key = setting(env, 'PIPELINE_NCBI_API_KEY');
  if (key) shared.set('api_key', key);
  const term = searchText(config, opts);
  if (!term) throw new Error('pubmed sources need config.search_query or config.keywords');
  const search = new URLSearchParams(shared);
  search.set('term', term);
  search.set('retmode', 'json');
  search.set('retmax', String(limit));
  search.set('sort', 'pub_date');
  if (window.start || window.end) {
    search.set('datetype', 'pdat');
    search.set('mindate', window.start ? slashDay(window.start) : '1900/01/01');
    search.set('maxdate', window.end ? slashDay(window.end) : '3000/12/31');
  }
  const found = obj(obj(await getJson(env, `${base}/esearch.fcgi?${search}`)).esearchresult);
  if (!('idlist' in found)) throw new Error(str(found.ERROR) ?? 'esearch answer has no idlist');
  const ids = arr(found.idlist)
    .map(str)
    .filter((i): i is string => !!i && /^\d+$/.test(i))
    .slice(0, limit);
  if (!ids.length) return { format: 'pubmed', title: 'PubMed search', items: [], fetched: 0 };
  const fetch = new URLSearchParams(shared);
  fetch.set('id', ids.join(','));
  fetch.set('retmode', 'xml');
  const xml = await getText(env, `${base}/efetch.fcgi?${fetch}`, 'application/xml, text/xml');
  const byId = new Map(
    blocks(xml, 'PubmedArticle')
      .map(pubmedArticle)
      .filter((i): i is CollectedItem => i !== null)
      .map((i) => [String(i.metadata?.pmid), i]),
  );
  const items = ids.map((id) => byId.get(id)).filter((i): i is CollectedItem => !!i);
  return { format: 'pubmed', title: 'PubMed search', items, fetched: items.length };
}
