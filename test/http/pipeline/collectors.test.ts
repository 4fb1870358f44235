/**
 * The API collectors against wire-compatible fakes on loopback (test/support/fakes/collector-apis.ts,
 * fixtures in test/fixtures/pipeline/): source test (with the academic counts), a triggered task
 * storing the items once, a monitor run whose report lists them, and the refused methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollectorApis, SNAP_KEY, type CollectorApis } from '../../support/fakes/collector-apis.ts';
import { testDb, testEnv } from '../../support/env.ts';
import type { Served } from '../../support/serve.ts';
import { adminClient, resetPipeline, waitForTask, withQueue } from './helpers.ts';

let apis: CollectorApis;
let served: Served;
let api: ReturnType<typeof adminClient>;
const NCBI = {
  PIPELINE_NCBI_API_KEY: 'ncbi-test-key',
  PIPELINE_NCBI_EMAIL: 'ops@example.org',
  PIPELINE_OPENALEX_MAILTO: 'ops@example.org',
};

beforeAll(async () => {
  await resetPipeline();
  apis = await startCollectorApis();
  const snap = { PIPELINE_SNAPLYTICS_URL: `${apis.url}/snap`, PIPELINE_SNAPLYTICS_KEY: SNAP_KEY };
  ({ served, api } = await withQueue({ ...apis.envFor(), ...NCBI, ...snap }));
});
afterAll(async () => {
  await served.close();
  await apis.close();
});

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function source(body: Record<string, unknown>, client = api): Promise<string> {
  const res = await client.post('/api/v1/sources', {
    name: String(body.collect_method),
    category: 'academic',
    ...body,
  });
  const json = (await res.json()) as Record<string, any>;
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.id;
}

async function test(id: string, body?: Record<string, unknown>, client = api): Promise<Record<string, any>> {
  const res = await client.post(`/api/v1/sources/${id}/test`, body);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

function lastRequest(pathPrefix: string) {
  const r = [...apis.requests].reverse().find((x) => x.path.startsWith(pathPrefix));
  if (!r) throw new Error(`no request to ${pathPrefix}`);
  return r;
}

describe('source test of the academic collectors', () => {
  it('openalex: search, date filter, mailto and page size on the wire; fetched vs matched in the exact window', async () => {
    const id = await source({
      collect_method: 'openalex',
      config: { keywords: ['language models'], filter: 'type:article|review' },
    });
    const all = await test(id);
    expect(all).toMatchObject({
      success: true,
      format: 'openalex',
      fetched_count: 2,
      matched_count: 2,
      window_start: null,
      window_end: null,
      effective_keywords: ['language models'],
      effective_max_results: 30,
    });
    expect(all.sample_articles.map((a: any) => a.title)).toEqual([
      'Scaling laws for protein language models',
      'A survey of language agents in biomedicine',
    ]);
    expect(all.sample_articles[0]).toEqual({
      title: 'Scaling laws for protein language models',
      url: 'https://www.nature.com/articles/s41586-026-01234-5',
      published_at: `${day(-1)}T00:00:00.000Z`,
    });
    const q = lastRequest('/openalex/works').query;
    expect(Object.fromEntries(q)).toEqual({
      search: 'language models',
      filter: 'type:article|review',
      sort: 'publication_date:desc',
      per_page: '30',
      mailto: 'ops@example.org',
    });

    const start = hoursAgo(24);
    const windowed = await test(id, { start_at: start, end_at: new Date().toISOString(), max_results: 5 });
    // The API filters by day (yesterday's paper comes back); the exact 24 h window drops it, as the original counts.
    expect(windowed).toMatchObject({
      success: true,
      fetched_count: 1,
      matched_count: 0,
      window_start: start,
      effective_max_results: 5,
      sample_articles: [],
    });
    expect(windowed.message).toBe('Fetched 1 items, matched 0 items in the requested window.');
    expect(lastRequest('/openalex/works').query.get('filter')).toBe(
      `type:article|review,from_publication_date:${day(-1)},to_publication_date:${day(0)}`,
    );
    expect(lastRequest('/openalex/works').query.get('per_page')).toBe('5');
  });

  it('europe_pmc: the window becomes a FIRST_PDATE clause; keywords given to the test replace the configured ones', async () => {
    const id = await source({ collect_method: 'europe_pmc', config: { search_query: 'radiology' } });
    const res = await test(id, { keywords: ['language models'], start_at: hoursAgo(24) });
    expect(res).toMatchObject({
      success: true,
      format: 'europe_pmc',
      fetched_count: 2,
      matched_count: 1,
      effective_keywords: ['language models'],
    });
    expect(res.sample_articles).toEqual([
      {
        title: 'Large language models for clinical text de-identification.',
        url: 'https://doi.org/10.1093/bioinformatics/btag101',
        published_at: `${day(0)}T00:00:00.000Z`,
      },
    ]);
    const q = lastRequest('/epmc/search').query;
    expect(q.get('query')).toBe(`(language models) AND FIRST_PDATE:[${day(-1)} TO 3000-01-01]`);
    expect([q.get('format'), q.get('resultType'), q.get('sort')]).toEqual(['json', 'core', 'P_PDATE_D desc']);
    const plain = await test(id);
    expect(plain).toMatchObject({
      fetched_count: 1,
      matched_count: 1,
      sample_articles: [{ title: 'Language models in radiology reporting: a review.' }],
    });
    expect(plain.sample_articles[0].url).toBe('https://europepmc.org/article/MED/40111222');
  });

  it('pubmed: esearch then efetch, with tool, email and the NCBI API key on both calls', async () => {
    const id = await source({ collect_method: 'pubmed', config: { keywords: ['crispr'], max_results: 10 } });
    const res = await test(id, { start_at: hoursAgo(24) });
    expect(res).toMatchObject({ success: true, format: 'pubmed', fetched_count: 2, matched_count: 1 });
    expect(res.sample_articles).toEqual([
      {
        title: 'Prime editing with engineered CRISPR Cas9 variants in primary T cells.',
        url: 'https://pubmed.ncbi.nlm.nih.gov/41900001/',
        published_at: `${day(0)}T00:00:00.000Z`,
      },
    ]);
    const search = lastRequest('/eutils/esearch.fcgi').query;
    expect(Object.fromEntries(search)).toMatchObject({
      db: 'pubmed',
      term: 'crispr',
      retmode: 'json',
      retmax: '10',
      datetype: 'pdat',
      mindate: day(-1).replace(/-/g, '/'),
      tool: 'insight-pipeline',
      email: 'ops@example.org',
      api_key: 'ncbi-test-key',
    });
    const fetch = lastRequest('/eutils/efetch.fcgi').query;
    expect(Object.fromEntries(fetch)).toMatchObject({
      db: 'pubmed',
      id: '41900001,41900002',
      retmode: 'xml',
      api_key: 'ncbi-test-key',
    });
    expect(await test(id, { keywords: ['zebrafish'] })).toMatchObject({
      success: true,
      fetched_count: 0,
      matched_count: 0,
      sample_articles: [],
    });
  });

  it('refuses a window that ends before it starts', async () => {
    const id = await source({ collect_method: 'openalex', config: { search_query: 'agents' } });
    const res = await api.post(`/api/v1/sources/${id}/test`, { start_at: hoursAgo(1), end_at: hoursAgo(2) });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: 'start_at must not be after end_at' });
    expect((await api.post(`/api/v1/sources/${id}/test`, { start_at: 'yesterday' })).status).toBe(422);
  });

  it('reports an upstream failure as a failed test, not an error', async () => {
    const id = await source({ collect_method: 'openalex', config: { search_query: 'agents' } });
    apis.failNext(1, 503);
    expect(await test(id)).toEqual({
      success: false,
      message: 'Test failed: /openalex/works returned HTTP 503',
      sample_articles: [],
    });
  });
});

describe('source test of the open-source collectors', () => {
  it('github_trending: language path and period; repos with stars', async () => {
    const id = await source({
      category: 'open_source',
      collect_method: 'github_trending',
      config: { language: 'Python', since: 'weekly' },
    });
    const res = await test(id);
    expect(res).toMatchObject({
      success: true,
      format: 'github_trending',
      message: 'Connection successful. Retrieved 2 items.',
    });
    expect(res.fetched_count).toBeUndefined();
    expect(res.sample_articles).toEqual([
      { title: 'huggingface/transformers', url: 'https://github.com/huggingface/transformers', published_at: null },
      { title: 'microsoft/markitdown', url: 'https://github.com/microsoft/markitdown', published_at: null },
    ]);
    const r = lastRequest('/github/trending');
    expect([r.path, r.query.get('since')]).toEqual(['/github/trending/python', 'weekly']);
  });

  it('huggingface: daily papers and trending models', async () => {
    const papers = await test(await source({ category: 'open_source', collect_method: 'huggingface', config: {} }), {
      max_results: 2,
    });
    expect(papers).toMatchObject({
      success: true,
      format: 'huggingface_daily_papers',
      message: 'Connection successful. Retrieved 2 items.',
    });
    expect(papers.sample_articles.map((a: any) => a.url)).toEqual([
      'https://huggingface.co/papers/2603.11021',
      'https://huggingface.co/papers/2603.10877',
    ]);
    const models = await test(
      await source({ category: 'open_source', collect_method: 'huggingface', config: { feed: 'trending_models' } }),
    );
    expect(models.sample_articles.map((a: any) => a.title)).toEqual([
      'Qwen/Qwen3-Coder-30B-A3B-Instruct',
      'black-forest-labs/FLUX.2-dev',
      'openai/whisper-large-v3-turbo',
    ]);
    expect(Object.fromEntries(lastRequest('/hf/api/models').query)).toEqual({
      limit: '30',
      sort: 'trendingScore',
      direction: '-1',
    });
  });
});

describe('methods and configs that are refused', () => {
  it.each([
    [
      'twitter_snaplytics without its settings',
      { collect_method: 'twitter_snaplytics', config: { username: 'openai' } },
      /PIPELINE_SNAPLYTICS_URL and PIPELINE_SNAPLYTICS_KEY/,
    ],
    [
      'deepbrowse',
      { collect_method: 'deepbrowse', config: { url: 'https://example.org/' } },
      /deepbrowse needs a browser: the BROWSER binding \(Cloudflare Browser Rendering\), or PIPELINE_BROWSER_RENDERING_URL and PIPELINE_BROWSER_RENDERING_TOKEN, or PIPELINE_BROWSER_CDP_URL locally/,
    ],
    [
      'browser_use without a browser',
      { collect_method: 'browser_use', config: { url: 'https://example.org/' } },
      /browser_use drives a browser with a model: it needs the BROWSER binding \(Cloudflare Browser Rendering\), or PIPELINE_BROWSER_CDP_URL locally/,
    ],
    [
      'codex_playwright without a browser',
      { collect_method: 'codex_playwright', config: { url: 'https://example.org/' } },
      /codex_playwright drives a browser with a model/,
    ],
    [
      'pubmed without a search',
      { collect_method: 'pubmed', config: {} },
      /config.search_query or config.keywords is required for pubmed/,
    ],
    [
      'a trending period GitHub has not',
      { collect_method: 'github_trending', config: { since: 'hourly' } },
      /^config.since: /,
    ],
    [
      'a huggingface feed that does not exist',
      { collect_method: 'huggingface', config: { feed: 'spaces' } },
      /^config.feed: /,
    ],
    [
      'an OpenAlex filter with a query string in it',
      { collect_method: 'openalex', config: { filter: 'type:article&api_key=x' } },
      /^config.filter: /,
    ],
  ])('refuses %s with a 422 that says why', async (_n, body, why) => {
    const unconfigured = adminClient(testEnv(apis.envFor()));
    const res = await unconfigured.post('/api/v1/sources', { name: 'x', category: 'social', ...body });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(why);
  });

  it('twitter_snaplytics runs once its base URL and key are configured', async () => {
    const snap = adminClient(
      testEnv({ PIPELINE_SNAPLYTICS_URL: `${apis.url}/snap`, PIPELINE_SNAPLYTICS_KEY: SNAP_KEY }),
    );
    const id = await source(
      {
        category: 'social',
        collect_method: 'twitter_snaplytics',
        config: { usernames: ['@openai', 'https://x.com/anthropicai'], include_retweets: false },
      },
      snap,
    );
    const res = await test(id, undefined, snap);
    expect(res).toMatchObject({
      success: true,
      format: 'twitter_snaplytics',
      message: 'Connection successful. Retrieved 2 items.',
    });
    expect(res.sample_articles.map((a: any) => a.title)).toEqual([
      'Shipping a new release today',
      'Shipping a new release today',
    ]);
    expect(res.sample_articles.map((a: any) => a.url).sort()).toEqual([
      'https://x.com/anthropicai/status/1900000000000000011',
      'https://x.com/openai/status/1900000000000000006',
    ]);
    const wrongKey = adminClient(
      testEnv({ PIPELINE_SNAPLYTICS_URL: `${apis.url}/snap`, PIPELINE_SNAPLYTICS_KEY: 'wrong' }),
    );
    expect(await test(id, undefined, wrongKey)).toMatchObject({
      success: false,
      message: 'Test failed: /snap/challenge/ returned HTTP 401',
    });
  });
});

describe('collected items through the worker', () => {
  it("a monitor's usernames override replaces a twitter_snaplytics source's", async () => {
    const id = await source({
      category: 'social',
      collect_method: 'twitter_snaplytics',
      config: { username: 'openai' },
    });
    const created = await api.post('/api/v1/monitors', {
      name: 'Social',
      source_ids: [id],
      source_overrides: { [id]: { usernames: ['huggingface'], max_items: 1 } },
    });
    const m = (await created.json()) as any;
    const before = apis.requests.length;
    const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as any;
    expect((await waitForTask(api, started.run_id)).status).toBe('success');
    const viewer = apis.requests
      .slice(before)
      .filter((r) => r.path === '/snap/viewer/')
      .map((r) => r.query.get('data'));
    expect(viewer).toEqual(['huggingface']);
    const rows = await testDb().query<{ url: string }>(`SELECT url FROM pipeline.articles WHERE source_id = $1`, [id]);
    expect(rows.map((r) => r.url)).toEqual(['https://x.com/huggingface/status/1900000000000000011']);
  });

  it('a triggered openalex task stores the works with authors, venue, DOI and abstract, once across runs', async () => {
    const id = await source({ collect_method: 'openalex', config: { search_query: 'agents' } });
    const created = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    const done = await waitForTask(api, created.id);
    expect(done).toMatchObject({ status: 'success', articles_count: 2 });
    expect(done.stage_trace).toEqual([
      { stage: 'collect', provider: 'openalex', status: 'success', articles: 2, new_articles: 2, format: 'openalex' },
    ]);
    const rows = await testDb().query<{ url: string; summary: string; metadata: any }>(
      `SELECT url, summary, metadata FROM pipeline.articles WHERE source_id = $1 ORDER BY published_at DESC`,
      [id],
    );
    expect(rows.map((r) => r.url)).toEqual(['https://arxiv.org/abs/2603.11021', 'https://openalex.org/W4392011003']);
    expect(rows[0]!.summary).toBe('We present retrieval-augmented agents that screen papers for systematic reviews.');
    expect(rows[0]!.metadata).toMatchObject({
      collector: 'openalex',
      doi: '10.48550/arxiv.2603.11021',
      authors: ['Mei Lin', 'Jonas Weber'],
      venue: 'arXiv (Cornell University)',
      publication_year: 2026,
    });

    const again = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    expect((await waitForTask(api, again.id)).stage_trace[0]).toMatchObject({ articles: 2, new_articles: 0 });
    const [{ n }] = await testDb().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pipeline.articles WHERE url LIKE 'https://arxiv.org/abs/2603.11021'`,
    );
    expect(n).toBe(1);
  });

  it('a triggered task of a failing upstream fails with the reason', async () => {
    const id = await source({ category: 'open_source', collect_method: 'huggingface', config: {} });
    apis.down = true;
    try {
      const created = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
      expect(await waitForTask(api, created.id)).toMatchObject({
        status: 'failed',
        error_message: '/hf/api/daily_papers returned HTTP 503',
      });
    } finally {
      apis.down = false;
    }
  });

  it('a source that fails once in a monitor run is retried inside the run, and its items still reach the report', async () => {
    await resetPipeline();
    const hf = await source({ category: 'open_source', collect_method: 'huggingface', config: {} });
    const github = await source({
      category: 'open_source',
      collect_method: 'github_trending',
      config: { language: 'rust' },
    });
    const created = await api.post('/api/v1/monitors', {
      name: 'Flaky radar',
      time_period: 'custom',
      source_ids: [hf, github],
      window_hours: 24,
    });
    const m = (await created.json()) as any;
    expect(created.status).toBe(201);
    apis.failNext(1); // the first request of the run (the sources are read at once) answers 503
    const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as any;
    expect((await waitForTask(api, started.run_id)).status).toBe('success');
    const detail = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${started.run_id}`)).json()) as any;
    const collect = detail.steps.find((s: any) => s.step === 'collect');
    expect(collect.result.sources.map((s: any) => [s.name, s.status])).toEqual([
      ['huggingface', 'success'],
      ['github_trending', 'success'],
    ]);
    // One delivery of the step; the source that met the 503 took a second attempt inside it.
    expect(collect.attempts).toBe(1);
    expect(collect.result.sources.map((s: any) => s.attempts).sort()).toEqual([1, 2]);
    expect(collect.result.failed_sources).toEqual([]);
    const [report] = (await (await api.get(`/api/v1/reports?monitor_id=${m.id}`)).json()) as any[];
    const full = (await (await api.get(`/api/v1/reports/${report.id}`)).json()) as any;
    expect(full.content).toContain('https://huggingface.co/papers/2603.11021');
    expect(full.content.split('https://github.com/astral-sh/uv').length - 1).toBeGreaterThanOrEqual(1);
    const stored = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pipeline.articles WHERE url = 'https://github.com/astral-sh/uv'",
    );
    expect(stored[0]!.n).toBe(1);
  });

  it('a monitor run collects every API source with its overrides and the run window, and reports the items', async () => {
    await resetPipeline();
    const openalex = await source({ collect_method: 'openalex', config: { search_query: 'protein', max_results: 20 } });
    const pubmed = await source({ collect_method: 'pubmed', config: { keywords: ['crispr'] } });
    const github = await source({
      category: 'open_source',
      collect_method: 'github_trending',
      config: { language: 'rust' },
    });
    const hf = await source({ category: 'open_source', collect_method: 'huggingface', config: {} });
    const created = await api.post('/api/v1/monitors', {
      name: 'Research radar',
      time_period: 'custom',
      source_ids: [openalex, pubmed, github, hf],
      window_hours: 24,
      source_overrides: { [openalex]: { keywords: ['agents'], max_results: 5 }, [hf]: { max_items: 1 } },
    });
    const m = (await created.json()) as any;
    expect(created.status).toBe(201);
    expect(m).toMatchObject({
      report_type: 'research',
      source_overrides: { [openalex]: { keywords: ['agents'], max_results: 5 }, [hf]: { max_items: 1 } },
    });
    const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as any;
    const task = await waitForTask(api, started.run_id);
    expect(task.status).toBe('success');
    const q = lastRequest('/openalex/works').query;
    expect([q.get('search'), q.get('per_page'), q.get('filter')]).toEqual([
      'agents',
      '5',
      `from_publication_date:${day(-1)},to_publication_date:${day(0)}`,
    ]);
    const detail = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${started.run_id}`)).json()) as any;
    const collect = detail.steps.find((s: any) => s.step === 'collect');
    expect(collect.result.sources.map((s: any) => [s.name, s.status, s.articles])).toEqual([
      ['openalex', 'success', 1],
      ['pubmed', 'success', 2],
      ['github_trending', 'success', 1],
      ['huggingface', 'success', 1],
    ]);
    const [report] = (await (await api.get(`/api/v1/reports?monitor_id=${m.id}`)).json()) as any[];
    const full = (await (await api.get(`/api/v1/reports/${report.id}`)).json()) as any;
    expect(full.report_type).toBe('research');
    // In the 24 h window: today's OpenAlex work and PubMed article, the trending repo and today's HF paper (not yesterday's PubMed one).
    expect(full.article_count).toBe(4);
    for (const line of [
      'Retrieval-Augmented Agents for Systematic Literature Review',
      'https://pubmed.ncbi.nlm.nih.gov/41900001/',
      'https://github.com/astral-sh/uv',
      'https://huggingface.co/papers/2603.11021',
    ]) {
      expect(full.content).toContain(line);
    }
    expect(full.content).not.toContain('41900002');
    expect(full.categories).toEqual(['academic', 'open_source']);
  });
});
