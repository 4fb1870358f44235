/**
 * One loopback server standing in for every API the pipeline's collectors read, built from the
 * documented example answers in test/fixtures/pipeline/ (see its README). Mount points, one per base
 * URL setting (`envFor()` gives the settings):
 *   /openalex/works                      search, filter=from_/to_publication_date, per_page
 *   /epmc/search                         query (text AND FIRST_PDATE:[a TO b]), pageSize, format=json
 *   /eutils/esearch.fcgi, efetch.fcgi    term, mindate/maxdate (datetype=pdat), retmax; id list
 *   /github/trending[/<language>]        since (echoed in the title), language filter
 *   /hf/api/daily_papers, /hf/api/models limit
 *   /snap/challenge/, /snap/viewer/      X-API-Key and the challenge solution checked
 * Dates are re-based so the newest record of each fixture is today (UTC); older ones keep their
 * distance. Text search keeps a record when any search word occurs in its title or abstract.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startFake, type Fake, type FakeReply } from './http-fake.ts';

const FIXTURE_DAY = Date.UTC(2026, 2, 20);
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/pipeline/${name}`, import.meta.url), 'utf8');

/** Shifts every YYYY-MM-DD in text (and PubMed's Year/Month/Day triples) so FIXTURE_DAY becomes today. */
export function rebase(text: string, today = new Date()): string {
  const shift = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - FIXTURE_DAY;
  const move = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d) + shift);
  const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return text
    .replace(/(\d{4})-(\d{2})-(\d{2})/g, (_m, y, mo, d) => move(+y, +mo, +d).toISOString().slice(0, 10))
    .replace(
      /<Year>(\d{4})<\/Year><Month>(\w+)<\/Month>(?:<Day>(\d+)<\/Day>)?/g,
      (_m, y: string, mo: string, d?: string) => {
        const month = /^\d+$/.test(mo) ? Number(mo) : MON.indexOf(mo) + 1;
        const t = move(+y, month, Number(d ?? 1));
        const mm = /^\d+$/.test(mo) ? String(t.getUTCMonth() + 1).padStart(2, '0') : MON[t.getUTCMonth()];
        return `<Year>${t.getUTCFullYear()}</Year><Month>${mm}</Month>${d ? `<Day>${String(t.getUTCDate()).padStart(2, '0')}</Day>` : ''}`;
      },
    );
}

const json = (body: unknown, status = 200): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function matches(text: string, search: string): boolean {
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w.length > 2 && !['and', 'or', 'not'].includes(w));
  return !words.length || words.some((w) => text.toLowerCase().includes(w));
}

function inRange(date: string | null | undefined, from?: string, to?: string): boolean {
  if (!from && !to) return true;
  if (!date) return false;
  const d = date.slice(0, 10);
  return (!from || d >= from) && (!to || d <= to);
}

function openalex(q: URLSearchParams): FakeReply {
  const doc = JSON.parse(rebase(fixture('openalex-works.json')));
  const filters = new Map(
    (q.get('filter') ?? '')
      .split(',')
      .filter(Boolean)
      .map((f) => [f.slice(0, f.indexOf(':')), f.slice(f.indexOf(':') + 1)]),
  );
  const perPage = Number(q.get('per_page') ?? q.get('per-page') ?? 25);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200)
    return json({ error: 'Invalid query parameters error.', message: 'per-page must be between 1 and 200' }, 400);
  const words = (w: Record<string, number[]> | null) => Object.keys(w ?? {}).join(' ');
  const results = doc.results.filter(
    (w: any) =>
      matches(`${w.title} ${words(w.abstract_inverted_index)}`, q.get('search') ?? '') &&
      inRange(w.publication_date, filters.get('from_publication_date'), filters.get('to_publication_date')),
  );
  return json({
    ...doc,
    meta: { ...doc.meta, count: results.length, per_page: perPage },
    results: results.slice(0, perPage),
  });
}

function epmc(q: URLSearchParams): FakeReply {
  if (q.get('format') !== 'json')
    return { status: 200, headers: { 'content-type': 'application/xml' }, body: '<responseWrapper/>' };
  const doc = JSON.parse(rebase(fixture('europe-pmc-search.json')));
  const query = q.get('query') ?? '';
  const range = /FIRST_PDATE:\[(\S+) TO (\S+)\]/.exec(query);
  const text = query
    .replace(/FIRST_PDATE:\[[^\]]*\]/, '')
    .replace(/[()]/g, ' ')
    .trim();
  const size = Number(q.get('pageSize') ?? 25);
  const results = doc.resultList.result.filter(
    (r: any) =>
      (text === '*' || matches(`${r.title} ${r.abstractText}`, text)) &&
      inRange(r.firstPublicationDate, range?.[1], range?.[2]),
  );
  return json({
    ...doc,
    hitCount: results.length,
    request: { ...doc.request, queryString: query, pageSize: size },
    resultList: { result: results.slice(0, size) },
  });
}

function pubmedArticles(): { pmid: string; date: string; text: string; xml: string }[] {
  const xml = rebase(fixture('pubmed-efetch.xml'));
  return [...xml.matchAll(/<PubmedArticle>[\s\S]*?<\/PubmedArticle>/g)].map((m) => {
    const a = m[0];
    const d =
      /<ArticleDate[^>]*><Year>(\d+)<\/Year><Month>(\d+)<\/Month><Day>(\d+)<\/Day>/.exec(a) ??
      /<PubDate><Year>(\d+)<\/Year><Month>(\w+)<\/Month><Day>(\d+)<\/Day>/.exec(a);
    const month =
      d && /^\d+$/.test(d[2]!)
        ? d[2]!
        : String(
            ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(
              d?.[2] ?? 'Jan',
            ) + 1,
          ).padStart(2, '0');
    return {
      pmid: /<PMID[^>]*>(\d+)<\/PMID>/.exec(a)![1]!,
      date: d ? `${d[1]}-${month}-${d[3]}` : '',
      text: a.replace(/<[^>]+>/g, ' '),
      xml: a,
    };
  });
}

function esearch(q: URLSearchParams): FakeReply {
  const doc = JSON.parse(fixture('pubmed-esearch.json'));
  const term = q.get('term');
  if (!term) return json({ esearchresult: { ERROR: 'Empty term and query_key - nothing todo' } });
  const slash = (s: string | null) => (s ? s.replace(/\//g, '-') : undefined);
  const useDates = q.get('datetype') === 'pdat';
  const found = pubmedArticles().filter(
    (a) => matches(a.text, term) && (!useDates || inRange(a.date, slash(q.get('mindate')), slash(q.get('maxdate')))),
  );
  const max = Number(q.get('retmax') ?? 20);
  const ids = found.map((a) => a.pmid).slice(0, max);
  return json({
    ...doc,
    esearchresult: {
      ...doc.esearchresult,
      count: String(found.length),
      retmax: String(ids.length),
      idlist: ids,
      querytranslation: term,
    },
  });
}

function efetch(q: URLSearchParams): FakeReply {
  const ids = (q.get('id') ?? '').split(',');
  const picked = pubmedArticles()
    .filter((a) => ids.includes(a.pmid))
    .map((a) => a.xml);
  const body = `<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">\n<PubmedArticleSet>\n${picked.join('\n')}\n</PubmedArticleSet>\n`;
  return { status: 200, headers: { 'content-type': 'text/xml; charset=UTF-8' }, body };
}

function trending(path: string, q: URLSearchParams): FakeReply {
  const language = decodeURIComponent(path.split('/')[2] ?? '').toLowerCase();
  const since = q.get('since') ?? 'daily';
  let html = fixture('github-trending.html').replace('today · GitHub', `${since} · GitHub`);
  if (since !== 'daily')
    html = html.replace(/stars today/g, since === 'weekly' ? 'stars this week' : 'stars this month');
  if (language) {
    html = html.replace(/<article class="Box-row">[\s\S]*?<\/article>/g, (row) =>
      new RegExp(`itemprop="programmingLanguage">${language}<`, 'i').test(row) ? row : '',
    );
  }
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
}

function huggingface(path: string, q: URLSearchParams): FakeReply {
  const limit = Number(q.get('limit') ?? 50);
  if (path === '/hf/api/daily_papers') return json(JSON.parse(rebase(fixture('hf-daily-papers.json'))).slice(0, limit));
  if (path === '/hf/api/models') {
    const models = JSON.parse(fixture('hf-models.json')) as { trendingScore: number; likes: number }[];
    const key = q.get('sort') === 'trendingScore' ? 'trendingScore' : 'likes';
    return json([...models].sort((a, b) => b[key] - a[key]).slice(0, limit));
  }
  return json({ error: 'Not Found' }, 404);
}

export const SNAP_KEY = 'snap-test-key';
const challenges = new Map<string, string>();
let challengeCount = 0;

function snaplytics(
  path: string,
  q: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
): FakeReply {
  if (headers['x-api-key'] !== SNAP_KEY) return json({ detail: 'invalid api key' }, 401);
  if (path === '/snap/challenge/') {
    const id = `ch-${++challengeCount}`;
    const timestamp = Date.now();
    const random = `r${challengeCount}x`;
    challenges.set(id, createHash('sha256').update(`${timestamp}${random}`).digest('hex').slice(0, 8));
    return json({ challenge_id: id, timestamp, random_value: random });
  }
  const id = String(headers['x-challenge-id'] ?? '');
  if (!challenges.has(id) || challenges.get(id) !== headers['x-challenge-solution'])
    return json({ detail: 'challenge failed' }, 403);
  challenges.delete(id);
  const user = q.get('data') ?? '';
  const now = Date.now();
  const at = (h: number) =>
    new Date(now - h * 3_600_000).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, '$1 $3 $2 $5 +0000 $4');
  return json({
    profile: { username: user, name: `${user} (test)` },
    tweets: [
      {
        id: `${1900000000000000000n + BigInt(user.length)}`,
        text: `Shipping a new release today\nDetails in thread`,
        created_at: at(1),
        author: { username: user, name: user },
        stats: { likes: 10, retweets: 2, replies: 1, views: 900 },
      },
      {
        id: `${1900000000000000100n + BigInt(user.length)}`,
        text: 'Retweeted: unrelated',
        created_at: at(2),
        is_retweet: true,
        author: { username: 'someone', name: 'Someone' },
      },
    ],
    cursor: null,
  });
}

export interface CollectorApis extends Fake {
  envFor(): Record<string, string>;
}

export async function startCollectorApis(): Promise<CollectorApis> {
  const fake = await startFake((r) => {
    const p = r.path;
    if (p === '/openalex/works') return openalex(r.query);
    if (p === '/epmc/search') return epmc(r.query);
    if (p === '/eutils/esearch.fcgi') return esearch(r.query);
    if (p === '/eutils/efetch.fcgi') return efetch(r.query);
    if (p === '/github/trending' || p.startsWith('/github/trending/'))
      return trending(p.slice('/github'.length), r.query);
    if (p.startsWith('/hf/')) return huggingface(p, r.query);
    if (p.startsWith('/snap/')) return snaplytics(p, r.query, r.headers);
    return json({ error: 'not found' }, 404);
  });
  return Object.assign(fake, {
    envFor: () => ({
      PIPELINE_OPENALEX_URL: `${fake.url}/openalex`,
      PIPELINE_EUROPE_PMC_URL: `${fake.url}/epmc`,
      PIPELINE_PUBMED_URL: `${fake.url}/eutils`,
      PIPELINE_GITHUB_URL: `${fake.url}/github`,
      PIPELINE_HUGGINGFACE_URL: `${fake.url}/hf`,
    }),
  });
}
