/**
 * The `filter`, `keywords` and `global_summary` steps of a monitor run (see monitor-runner.ts for
 * the queue mechanics and stages.ts for prompts and parsing). A step exists in a run only when the
 * monitor binds a provider to its stage (`ai_routing.stages.<stage>.primary`).
 *
 * Each step asks its stage's provider through stage-call.ts: an answer that is not the JSON asked
 * for is asked again within the run's in-run retries, then the stage falls back at once; a provider
 * that is down (the chat client itself retries 408/409/429/5xx `max_retry` times) throws so the queue
 * retries the step, except on the last delivery. A fallback is recorded (`fallback`,
 * `provider_error`, a `stage_fallback` warning event): `filter` keeps every article, `keywords` uses
 * the rule keywords, `global_summary` the extractive TL;DR. A bound but disabled provider is not
 * called; the fallback is recorded with the reason.
 */
import type { Db } from '../platform/db.ts';
import { getProvider } from './queries-settings.ts';
import { articlesByIds, type ArticleRow } from './queries-sources.ts';
import type { StepRow } from './queries-tasks.ts';
import { askModel, type Asked } from './stage-call.ts';
import { stageProviderId, type StageInput } from './stage-input.ts';
import { extractiveTldr } from './report-writer.ts';
import { paperFacts } from './paper-cards.ts';
import {
  MAX_REVIEWED,
  notePicks,
  paperNotePrompt,
  paperReviewPrompt,
  parsePaperNotes,
  parsePaperReview,
  type PaperReview,
} from './paper-stages.ts';
import {
  parseGlobalTldr,
  parseKeepIndices,
  parseKeywords,
  ruleKeywords,
  stagePrompt,
  topicsOf,
  type ItemStage,
  type ModelStage,
} from './stages.ts';

/** The articles the stages after `filter` work on: the filter's kept ones, else everything collected. */
export async function stageArticles(db: Db, steps: StepRow[]): Promise<ArticleRow[]> {
  const filter = steps.find((s) => s.step === 'filter' && s.status === 'success');
  const ids = (filter?.result.kept_ids ?? steps.find((s) => s.step === 'collect')?.result.article_ids) as
    | string[]
    | undefined;
  const rows = await articlesByIds(db, ids ?? []);
  if (!filter) return rows;
  const order = new Map(ids!.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** One call of a stage's provider (stage-call.ts); undefined value = use the fallback (recorded in the trace). */
async function callStage<T>(
  input: StageInput,
  stage: ModelStage,
  articles: ArticleRow[],
  parse: (text: string) => T,
  custom?: { system: string; user: string },
): Promise<Asked<T>> {
  const id = stageProviderId(input.monitor, stage);
  const provider = id ? await getProvider(input.db, id) : undefined;
  // The routing is read when the step runs: a stage unbound since the run started has no provider.
  if (!provider?.enabled)
    return {
      value: undefined,
      trace: { provider: id, fallback: id ? `provider ${id} disabled` : 'no provider bound' },
    };
  const prompt = custom ?? stagePrompt(stage as ItemStage, input.monitor.name, articles);
  return askModel(
    input,
    stage,
    provider,
    [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    parse,
  );
}

export async function filterStep(input: StageInput): Promise<Record<string, unknown>> {
  const ids = (input.steps.find((s) => s.step === 'collect')?.result.article_ids as string[] | undefined) ?? [];
  const articles = await articlesByIds(input.db, ids);
  if (!articles.length)
    return {
      input: 0,
      output: 0,
      kept_ids: [],
      provider: stageProviderId(input.monitor, 'filter'),
      fallback: null,
      skipped: 'no articles',
    };
  const r = await callStage(input, 'filter', articles, (text) => parseKeepIndices(text, articles.length));
  const kept = r.value ? r.value.map((i) => articles[i]!) : articles;
  const trace = r.value ? r.trace : { ...r.trace, fallback: `kept all (${r.trace.fallback})` };
  return {
    input: articles.length,
    output: kept.length,
    kept_ids: kept.map((a) => a.id),
    dropped_ids: articles.filter((a) => !kept.includes(a)).map((a) => a.id),
    ...trace,
  };
}

export async function keywordsStep(input: StageInput): Promise<Record<string, unknown>> {
  const articles = await stageArticles(input.db, input.steps);
  if (!articles.length)
    return {
      articles: 0,
      topics: [],
      article_keywords: {},
      provider: stageProviderId(input.monitor, 'keywords'),
      fallback: null,
      skipped: 'no articles',
    };
  const r = await callStage(input, 'keywords', articles, (text) => parseKeywords(text, articles.length));
  const lists = articles.map((a, i) => r.value?.get(i) ?? ruleKeywords(a));
  const trace = r.value ? r.trace : { ...r.trace, fallback: `rule keywords (${r.trace.fallback})` };
  return {
    articles: articles.length,
    topics: topicsOf(lists),
    article_keywords: Object.fromEntries(articles.map((a, i) => [a.id, lists[i]])),
    ...(r.value ? { rule_filled: articles.length - r.value.size } : {}),
    ...trace,
  };
}

export async function globalSummaryStep(input: StageInput): Promise<Record<string, unknown>> {
  const articles = await stageArticles(input.db, input.steps);
  if (!articles.length)
    return {
      articles: 0,
      global_tldr: null,
      provider: stageProviderId(input.monitor, 'global_summary'),
      fallback: null,
      skipped: 'no articles',
    };
  const r = await callStage(input, 'global_summary', articles, parseGlobalTldr);
  if (r.value) return { articles: articles.length, global_tldr: r.value, ...r.trace };
  return {
    articles: articles.length,
    global_tldr: extractiveTldr(articles),
    ...r.trace,
    fallback: `extractive (${r.trace.fallback})`,
  };
}

/** The run's papers (articles with paper facts), in stage order, at most MAX_REVIEWED. */
async function runPapers(input: StageInput): Promise<ArticleRow[]> {
  return (await stageArticles(input.db, input.steps)).filter((a) => paperFacts(a)).slice(0, MAX_REVIEWED);
}

export async function paperReviewStep(input: StageInput): Promise<Record<string, unknown>> {
  const papers = await runPapers(input);
  if (!papers.length)
    return {
      papers: 0,
      reviews: {},
      digest_summary: null,
      provider: stageProviderId(input.monitor, 'paper_review'),
      fallback: null,
      skipped: 'no papers',
    };
  const r = await callStage(
    input,
    'paper_review',
    papers,
    (text) => parsePaperReview(text, papers.length),
    paperReviewPrompt(input.monitor.name, papers),
  );
  if (!r.value)
    return {
      papers: papers.length,
      reviews: {},
      digest_summary: null,
      ...r.trace,
      fallback: `no review (${r.trace.fallback})`,
    };
  const reviews = Object.fromEntries([...r.value.reviews].map(([i, v]) => [papers[i]!.id, v]));
  return {
    papers: papers.length,
    reviewed: r.value.reviews.size,
    digest_summary: r.value.digest_summary || null,
    reviews,
    ...r.trace,
  };
}

export async function paperNoteStep(input: StageInput): Promise<Record<string, unknown>> {
  const papers = await runPapers(input);
  const review = input.steps.find((s) => s.step === 'paper_review' && s.status === 'success')?.result.reviews as
    | Record<string, PaperReview>
    | undefined;
  const picked = notePicks(
    papers.map((a) => a.id),
    review,
  ).map((id) => papers.find((a) => a.id === id)!);
  if (!picked.length)
    return {
      papers: 0,
      notes: {},
      provider: stageProviderId(input.monitor, 'paper_note'),
      fallback: null,
      skipped: 'no papers',
    };
  const r = await callStage(
    input,
    'paper_note',
    picked,
    (text) => parsePaperNotes(text, picked.length),
    paperNotePrompt(input.monitor.name, picked),
  );
  if (!r.value) return { papers: picked.length, notes: {}, ...r.trace, fallback: `no notes (${r.trace.fallback})` };
  return {
    papers: picked.length,
    notes: Object.fromEntries([...r.value].map(([i, v]) => [picked[i]!.id, v])),
    ...r.trace,
  };
}
