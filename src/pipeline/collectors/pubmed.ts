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
import { descendants, find, parseXml, textContent, type XmlNode } from '../../platform/xml.ts';
import { textOf } from './html-text.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Plain text of the first element called `name` under `node`. */
const text = (node: XmlNode | undefined, name: string) => textOf(textContent(find(node, name)));

function xmlDate(node: XmlNode | undefined): string | null {
  if (!node) return null;
  const year = Number(text(node, 'Year'));
  if (!year) return null;
  const rawMonth = text(node, 'Month') || '1';
  const month = /^\d+$/.test(rawMonth) ? Number(rawMonth) : MONTHS.indexOf(rawMonth.slice(0, 3).toLowerCase()) + 1 || 1;
  const dayOf = Number(text(node, 'Day')) || 1;
  return new Date(Date.UTC(year, month - 1, dayOf)).toISOString();
}

/** One `<PubmedArticle>` of an efetch answer (its element, or its markup). */
export function pubmedArticle(article: XmlNode | string): CollectedItem | null {
  const a = typeof article === 'string' ? parseXml(article) : article;
  const pmid = text(a, 'PMID');
  if (!/^\d+$/.test(pmid)) return null;
  const parts = descendants(a, 'AbstractText').map((p) => {
    const label = p.attrs.Label;
    const body = textOf(textContent(p));
    return label ? `${label}: ${body}` : body;
  });
  const abstract = parts.join('\n\n');
  const authors = descendants(find(a, 'AuthorList'), 'Author')
    .map((au) => text(au, 'CollectiveName') || [text(au, 'ForeName'), text(au, 'LastName')].filter(Boolean).join(' '))
    .filter(Boolean);
  // the article's own ELocationID first, then PubmedData's ArticleIdList (both carry the same DOI when both do)
  const doi = [...descendants(a, 'ELocationID'), ...descendants(a, 'ArticleId')].find(
    (n) => n.attrs.IdType === 'doi' || n.attrs.EIdType === 'doi',
  );
  const journal = find(a, 'Journal');
  return {
    title: text(a, 'ArticleTitle') || `PubMed ${pmid}`,
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    summary: cut(abstract),
    published_at: xmlDate(find(a, 'ArticleDate')) ?? xmlDate(find(journal, 'PubDate')),
    metadata: {
      collector: 'pubmed',
      pmid,
      doi: doi ? textOf(textContent(doi)) : null,
      authors,
      venue: text(journal, 'Title') || null,
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
  let doc: XmlNode;
  try {
    doc = parseXml(xml);
  } catch (e) {
    throw new Error(`efetch answer is not well-formed XML: ${(e as Error).message}`);
  }
  const byId = new Map(
    descendants(doc, 'PubmedArticle')
      .map(pubmedArticle)
      .filter((i): i is CollectedItem => i !== null)
      .map((i) => [String(i.metadata?.pmid), i]),
  );
  const items = ids.map((id) => byId.get(id)).filter((i): i is CollectedItem => !!i);
  return { format: 'pubmed', title: 'PubMed search', items, fetched: items.length };
}
