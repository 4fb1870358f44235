/**
 * Research reports on academic items: paper cards (authors, venue, date, DOI, abstract) on the report,
 * its page and the RSS feed, and the paper_review / paper_note stages through the real queue against
 * the fake OpenAI-compatible server; the collectors read the loopback API fakes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../support/fakes/chat-server.ts';
import { startCollectorApis, type CollectorApis } from '../../support/fakes/collector-apis.ts';
import { startNotionServer, type NotionServer } from '../../support/fakes/notion-server.ts';
import type { Served } from '../../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from './helpers.ts';

let apis: CollectorApis;
let llm: ChatServer;
let notion: NotionServer;
let served: Served;
let api: ReturnType<typeof adminClient>;
let sourceIds: string[];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await resetPipeline();
  [apis, llm, notion] = await Promise.all([startCollectorApis(), startChatServer(), startNotionServer()]);
  ({ served, api } = await withQueue(apis.envFor()));
  sourceIds = [];
  for (const body of [
    { name: 'OpenAlex', category: 'academic', collect_method: 'openalex', config: { search_query: 'language models' } },
    { name: 'PubMed', category: 'academic', collect_method: 'pubmed', config: { keywords: ['crispr'] } },
    { name: 'Trending', category: 'open_source', collect_method: 'github_trending', config: { language: 'rust' } },
  ]) {
    const res = await api.post('/api/v1/sources', body);
    expect(res.status).toBe(201);
    sourceIds.push(((await res.json()) as { id: string }).id);
  }
  await api.patch('/api/v1/destinations/notion', {
    enabled: true,
    config: { api_url: notion.url, token: notion.token, database_id: notion.databaseId },
  });
  await api.patch('/api/v1/providers/llm_alpha', {
    enabled: true,
    config: { base_url: `${llm.url}/v1`, api_key: llm.key, model: 'paper-model', max_retry: 0 },
  });
});
afterAll(async () => {
  await served.close();
  await Promise.all([apis.close(), llm.close(), notion.close()]);
});

async function runMonitor(body: Record<string, unknown>) {
  const created = await api.post('/api/v1/monitors', {
    name: 'Paper radar',
    source_ids: sourceIds,
    window_hours: 48,
    ...body,
  });
  expect(created.status).toBe(201);
  const m = (await created.json()) as any;
  const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as any;
  const task = await waitForTask(api, started.run_id);
  const detail = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${started.run_id}`)).json()) as any;
  const [listed] = (await (await api.get(`/api/v1/reports?monitor_id=${m.id}`)).json()) as any[];
  const report = (await (await api.get(`/api/v1/reports/${listed.id}`)).json()) as any;
  return { task, steps: detail.steps as any[], report };
}

describe('research reports on academic items', () => {
  it('without a provider: paper cards with authors, venue, date, DOI and abstract; other items stay bullets', async () => {
    llm.calls.length = 0;
    const { task, steps, report } = await runMonitor({ time_period: 'custom', destination_ids: ['notion'] });
    expect(task.status).toBe('success');
    expect(steps.map((s) => s.step)).toEqual(['collect', 'report', 'publish:notion']);
    expect(llm.calls).toEqual([]);
    expect(report.report_type).toBe('research');
    expect(report.content).toContain(
      [
        '### [Scaling laws for protein language models](https://www.nature.com/articles/s41586-026-01234-5)',
        '',
        `*Ana Souza* · Nature · ${day(-1)} · DOI [10.1038/s41586-026-01234-5](https://doi.org/10.1038/s41586-026-01234-5)`,
        '',
        '> Protein language models follow predictable scaling laws.',
      ].join('\n'),
    );
    expect(report.content).toContain(
      `*Sami Haddad, Ji-woo Kim* · Nature biotechnology · ${day(0)} · DOI [10.1038/s41587-026-00001-1](https://doi.org/10.1038/s41587-026-00001-1)`,
    );
    expect(report.content).toContain(
      '> BACKGROUND: Prime editing in primary cells is inefficient. RESULTS: Engineered CRISPR variants raise editing to 60%.',
    );
    expect(report.content).toContain(
      '- [astral-sh/uv](https://github.com/astral-sh/uv) — An extremely fast Python package and project manager, written in Rust.',
    );

    const html = await (await api.raw.get(`/reports/${report.id}`)).text();
    expect(html).toContain('<em>Ana Souza</em>');
    expect(html).toContain('href="https://doi.org/10.1038/s41586-026-01234-5"');
    const feed = await (await api.raw.get('/api/v1/feed.xml')).text();
    expect(feed).toContain(report.title);
    // the RSS item carries the whole report as its page renders it: the paper cards too, escaped once
    const encoded =
      /<content:encoded>([\s\S]*?)<\/content:encoded>/.exec(feed.slice(feed.indexOf(report.title)))?.[1] ?? '';
    expect(encoded).toContain('&lt;em&gt;Ana Souza&lt;/em&gt;');
    expect(encoded).toContain('href=&quot;https://doi.org/10.1038/s41586-026-01234-5&quot;');
    expect(encoded).not.toContain('<em>');
    const page = notion.pages.at(-1)!;
    const blocks = page.children as { type: string; [k: string]: any }[];
    const card = blocks.findIndex(
      (b) => b.type === 'heading_3' && b.heading_3.rich_text[0].text.content.startsWith('[Scaling laws'),
    );
    expect(card).toBeGreaterThan(0);
    expect(blocks.slice(card + 1, card + 3).map((b) => [b.type, b[b.type].rich_text[0].text.content])).toEqual([
      [
        'paragraph',
        `*Ana Souza* · Nature · ${day(-1)} · DOI [10.1038/s41586-026-01234-5](https://doi.org/10.1038/s41586-026-01234-5)`,
      ],
      ['quote', 'Protein language models follow predictable scaling laws.'],
    ]);
  });

  it('a daily report keeps the plain list and does not run paper stages even when they are bound', async () => {
    llm.calls.length = 0;
    const { steps, report } = await runMonitor({
      time_period: 'daily',
      ai_routing: { stages: { paper_review: { primary: 'llm_alpha' } } },
    });
    expect(steps.map((s) => s.step)).toEqual(['collect', 'report']);
    expect(llm.calls).toEqual([]);
    expect(report.content).not.toContain('### [');
    expect(report.content).toContain(
      '- [Scaling laws for protein language models](https://www.nature.com/articles/s41586-026-01234-5) — Protein language models follow predictable scaling laws.',
    );
  });

  it('paper_review and paper_note add verdicts and a reading note to the cards', async () => {
    llm.calls.length = 0;
    const { task, steps, report } = await runMonitor({
      time_period: 'custom',
      report_type: 'paper',
      ai_routing: { stages: { paper_review: { primary: 'llm_alpha' }, paper_note: { primary: 'llm_alpha' } } },
    });
    expect(task.status).toBe('success');
    expect(steps.map((s) => [s.step, s.status])).toEqual([
      ['collect', 'success'],
      ['paper_review', 'success'],
      ['paper_note', 'success'],
      ['report', 'success'],
    ]);
    expect(llm.calls).toEqual(['paper_review', 'paper_note']);
    const review = steps.find((s) => s.step === 'paper_review').result;
    expect(review).toMatchObject({
      papers: 3,
      reviewed: 3,
      provider: 'llm_alpha',
      fallback: null,
      digest_summary:
        'Review of 3 papers, led by Prime editing with engineered CRISPR Cas9 variants in primary T cells.',
    });
    expect(steps.find((s) => s.step === 'paper_note').result).toMatchObject({ papers: 1, provider: 'llm_alpha' });
    expect(report.metadata.global_tldr).toBe(review.digest_summary);
    expect(report.metadata.stages.paper_review).toMatchObject({ provider: 'llm_alpha', papers: 3, reviewed: 3 });
    expect(report.content).toContain(
      [
        `*Sami Haddad, Ji-woo Kim* · Nature biotechnology · ${day(0)} · DOI [10.1038/s41587-026-00001-1](https://doi.org/10.1038/s41587-026-00001-1)`,
        '',
        '**Must read** — Method of Prime editing with engineered CRISPR Cas9 variants in primary T cells.',
        '',
        '*Why it matters:* It matters (2 authors).',
        '',
        '**Note:** Note on Prime editing with engineered CRISPR Cas9 variants in primary T cells.',
        '- Contribution: First contribution',
        '- Method: Step one',
        '- Limitation: Small sample',
      ].join('\n'),
    );
    expect(report.content).toContain('**Worth reading** — Method of Scaling laws for protein language models.');
    expect(report.content.match(/\*\*Note:\*\*/g)).toHaveLength(1);
  });

  it('refuses an unknown stage name', async () => {
    const res = await api.post('/api/v1/monitors', {
      name: 'x',
      ai_routing: { stages: { paper_summary: { primary: 'llm_alpha' } } },
    });
    expect(res.status).toBe(422);
  });
});
