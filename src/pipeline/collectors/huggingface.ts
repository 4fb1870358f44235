/**
 * `huggingface`: `config.feed` picks the read under PIPELINE_HUGGINGFACE_URL:
 * - `daily_papers` (default): `GET /api/daily_papers?limit=` (+ `date`, `week`, `month`, `submitter`,
 *   `sort` from config when set); one item per paper, https://huggingface.co/papers/<arXiv id>, with its
 *   abstract, authors, upvotes and arXiv date (`published_at`).
 * - `trending_models`: `GET /api/models?sort=trendingScore&direction=-1&limit=` (+ `pipeline_tag`,
 *   `search` from config); one item per model, https://huggingface.co/<model id>, with likes, downloads,
 *   task and library; no date (trending is a snapshot, the collection time counts).
 * `limit` / `max_results` default 30; keywords filter titles and summaries.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { arr, baseUrl, byKeywords, cut, getJson, isoDay, limitOf, obj, str } from './upstream.ts';

export const HF_FEEDS = ['daily_papers', 'trending_models'] as const;

function paper(raw: unknown): CollectedItem | null {
  const entry = obj(raw);
  const p = obj(entry.paper);
  const id = str(p.id) ?? str(entry.id);
  if (!id || !/^[\w.-]+$/.test(id)) return null;
  const abstract = str(p.summary) ?? str(entry.summary) ?? '';
  return {
    title: str(p.title) ?? str(entry.title) ?? id,
    url: `https://huggingface.co/papers/${id}`,
    summary: cut(abstract),
    published_at: isoDay(entry.publishedAt ?? p.publishedAt),
    metadata: {
      collector: 'huggingface_daily_papers',
      paper_id: id,
      arxiv_url: `https://arxiv.org/abs/${id}`,
      authors: arr(p.authors)
        .map((a) => str(obj(a).name))
        .filter(Boolean),
      upvotes: typeof p.upvotes === 'number' ? p.upvotes : null,
      num_comments: typeof entry.numComments === 'number' ? entry.numComments : null,
      abstract: cut(abstract, 10_000),
    },
  };
}

function model(raw: unknown): CollectedItem | null {
  const m = obj(raw);
  const id = str(m.id) ?? str(m.modelId);
  if (!id || !/^[\w.-]+(\/[\w.-]+)?$/.test(id)) return null;
  const task = str(m.pipeline_tag);
  const facts = [
    task,
    str(m.library_name),
    typeof m.likes === 'number' ? `${m.likes} likes` : undefined,
    typeof m.downloads === 'number' ? `${m.downloads} downloads` : undefined,
  ];
  return {
    title: id,
    url: `https://huggingface.co/${id}`,
    summary: facts.filter(Boolean).join(' · '),
    published_at: null,
    metadata: {
      collector: 'huggingface_models',
      model_id: id,
      pipeline_tag: task ?? null,
      library: str(m.library_name) ?? null,
      likes: m.likes ?? null,
      downloads: m.downloads ?? null,
      trending_score: m.trendingScore ?? null,
      tags: arr(m.tags).slice(0, 20),
      created_at: str(m.createdAt) ?? null,
    },
  };
}

export async function collectHuggingface(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const base = baseUrl(env, 'PIPELINE_HUGGINGFACE_URL');
  const limit = limitOf(config, opts, 30);
  const feed = str(config.feed) ?? 'daily_papers';
  const q = new URLSearchParams({ limit: String(Math.min(100, opts.keywords?.length ? 100 : limit)) });
  let items: CollectedItem[];
  if (feed === 'trending_models') {
    q.set('sort', 'trendingScore');
    q.set('direction', '-1');
    for (const k of ['pipeline_tag', 'search']) if (str(config[k])) q.set(k, str(config[k])!);
    const body = await getJson(env, `${base}/api/models?${q}`);
    if (!Array.isArray(body)) throw new Error('/api/models did not answer a list');
    items = body.map(model).filter((i): i is CollectedItem => i !== null);
  } else {
    for (const k of ['date', 'week', 'month', 'submitter', 'sort']) if (str(config[k])) q.set(k, str(config[k])!);
    const body = await getJson(env, `${base}/api/daily_papers?${q}`);
    const list = Array.isArray(body) ? body : arr(obj(body).papers);
    if (!Array.isArray(body) && !Array.isArray(obj(body).papers))
      throw new Error('/api/daily_papers did not answer a list');
    items = list.map(paper).filter((i): i is CollectedItem => i !== null);
  }
  const format = feed === 'trending_models' ? 'huggingface_models' : 'huggingface_daily_papers';
  return {
    format,
    title: feed === 'trending_models' ? 'Hugging Face trending models' : 'Hugging Face daily papers',
    items: byKeywords(items, opts.keywords).slice(0, limit),
    fetched: items.length,
  };
}
