/**
 * The `report` step of a monitor run (see monitor-runner.ts for the queue mechanics and
 * report-writer.ts for the writers). The steps, in order:
 *  1. a report already stored for the run is the answer (a redelivered step stores nothing twice);
 *  2. read what the earlier stages left: the articles (the filter's kept ones, else all collected),
 *     the TL;DR (the global summary's, else the paper review's digest) and each paper card's extra
 *     lines (its review verdict and note);
 *  3. write: the report stage's bound, enabled provider writes when there are articles (the paper
 *     cards appended as a section); when it cannot (stage-call.ts: down on the last delivery,
 *     refusing, answering nothing usable, the run past its deadline) the extractive writer does. No
 *     provider, or a disabled one: the extractive writer. No articles: a one-line "nothing new"
 *     report. The trace says which; whatever the run did without (failed sources, fallbacks) is the
 *     report's last section, `## Run notes`, and `metadata.failed_sources` / `metadata.degraded`;
 *  4. topics: the keywords stage's, else the rule keywords of the report's articles (the original's
 *     `rule` provider);
 *  5. each earlier stage's trace, reduced to the keys a report shows;
 *  6. store in one transaction: the report row, its `database` publish and `report_published`.
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { emitEvent } from './events.ts';
import { pipelineConfig } from './config.ts';
import { paperCard, paperFacts } from './paper-cards.ts';
import { paperCardExtras, type PaperNote, type PaperReview } from './paper-stages.ts';
import type { MonitorRow } from './queries-monitors.ts';
import { getReportByRun, insertReport, recordPublish, type ReportRow } from './queries-reports.ts';
import { getProvider, type ProviderRow } from './queries-settings.ts';
import type { ArticleRow } from './queries-sources.ts';
import type { StepRow } from './queries-tasks.ts';
import {
  extractiveReport,
  mdText,
  modelReport,
  reportPrompt,
  reportTitle,
  type WrittenReport,
} from './report-writer.ts';
import { degradations, failedSources, type FailedSource } from './run-degradations.ts';
import { askModel } from './stage-call.ts';
import { stageArticles } from './stage-steps.ts';
import { stageProviderId, type StageInput } from './stage-input.ts';
import { ruleKeywords, topicsOf } from './stages.ts';
import { publishedReportView } from './views.ts';

export function reportPageUrl(env: Env, id: string): string {
  return `${pipelineConfig(env).PIPELINE_URL ?? ''}/reports/${id}`;
}

export async function reportStep(input: StageInput): Promise<Record<string, unknown>> {
  const { db, task, monitor, steps } = input;
  const existing = await getReportByRun(db, task.id);
  if (existing) return { report_id: existing.id };
  const articles = await stageArticles(db, steps);
  const date = new Date().toISOString().slice(0, 10);
  const earlier = earlierStages(steps);
  const draft: Draft = { monitor, date, articles, tldr: runTldr(earlier), extras: paperExtras(earlier) };
  const provider = await reportProvider(db, monitor);
  const { written, trace } = await writeReport(input, draft, earlier.filter, provider);
  const writerStep = { step: 'report', status: 'success', result: trace } as unknown as StepRow;
  const degraded = degradations([...steps.filter((s) => s.step !== 'report'), writerStep]);
  const report = await storeReport(input, articles, withRunNotes(written, degraded), {
    topics: reportTopics(earlier.keywords, articles),
    writer: trace,
    stages: stageTraces(earlier),
    failed_sources: failedSources(steps),
    degraded,
  });
  return { report_id: report.id, articles: articles.length, ...trace };
}

// Step 2: what the earlier stages left.

/** The stages whose results the report reads, in the order their traces are shown. */
const READ_STAGES = ['filter', 'keywords', 'global_summary', 'paper_review', 'paper_note'] as const;
type ReadStage = (typeof READ_STAGES)[number];
type StageResult = Record<string, unknown>;
type EarlierStages = Partial<Record<ReadStage, StageResult>>;

/** Each read stage's result, only when its step succeeded. */
function earlierStages(steps: StepRow[]): EarlierStages {
  const result = (name: string) => steps.find((s) => s.step === name && s.status === 'success')?.result;
  return Object.fromEntries(READ_STAGES.map((name) => [name, result(name)]));
}

/** The run's TL;DR: the global summary's, else the paper review's digest; undefined lets the writer make one. */
function runTldr(earlier: EarlierStages): string | undefined {
  const { global_summary: summary, paper_review: review } = earlier;
  const reviewTldr =
    typeof review?.digest_summary === 'string' && review.digest_summary ? review.digest_summary : undefined;
  return typeof summary?.global_tldr === 'string' && summary.global_tldr ? summary.global_tldr : reviewTldr;
}

/** The lines a paper card adds for an article: the paper review's verdict and the paper note. */
function paperExtras(earlier: EarlierStages): (a: { id: string }) => string[] {
  const reviews = (earlier.paper_review?.reviews ?? {}) as Record<string, PaperReview>;
  const notes = (earlier.paper_note?.notes ?? {}) as Record<string, PaperNote>;
  return (a) => paperCardExtras(reviews[a.id], notes[a.id]);
}

// Step 3: write.

/** What a writer needs: the report's monitor, date, articles, TL;DR and paper card extras. */
interface Draft {
  monitor: MonitorRow;
  date: string;
  articles: ArticleRow[];
  tldr: string | undefined;
  extras: (a: { id: string }) => string[];
}

interface Writing {
  written: WrittenReport;
  trace: Record<string, unknown>;
}

/** The provider bound to the report stage, if any (enabled or not). */
async function reportProvider(db: Db, monitor: MonitorRow): Promise<ProviderRow | undefined> {
  const providerId = stageProviderId(monitor, 'report');
  return providerId ? await getProvider(db, providerId) : undefined;
}

/** The model writes when it can (see header); otherwise the extractive writer, or "nothing new" without articles. */
async function writeReport(
  input: StageInput,
  draft: Draft,
  filter: StageResult | undefined,
  provider: ProviderRow | undefined,
): Promise<Writing> {
  if (provider?.enabled && draft.articles.length > 0) return modelWritten(input, draft, provider);
  const written = draft.articles.length ? extractiveWritten(draft) : nothingNew(draft, filter);
  return { written, trace: { provider: null, fallback: extractiveFallback(provider) } };
}

/** The provider's report with the paper cards appended; when the model cannot write it (stage-call.ts), the extractive writer. */
async function modelWritten(input: StageInput, draft: Draft, provider: ProviderRow): Promise<Writing> {
  const { date, articles, tldr, extras, monitor } = draft;
  const prompt = reportPrompt(monitor.name, date, articles, tldr);
  const asked = await askModel(
    input,
    'report',
    provider,
    [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    (text) => {
      if (!text.trim()) throw new Error('empty model answer');
      return text;
    },
  );
  if (asked.value === undefined)
    return {
      written: extractiveWritten(draft),
      trace: { ...asked.trace, fallback: `extractive (${asked.trace.fallback})` },
    };
  const written = withPaperReviews(modelReport(monitor.name, date, articles, asked.value, tldr), articles, extras);
  return { written, trace: asked.trace };
}

/** A model-written report keeps the paper stages' verdicts and notes as a section of paper cards. */
function withPaperReviews(
  written: WrittenReport,
  articles: ArticleRow[],
  extras: (a: ArticleRow) => string[],
): WrittenReport {
  const cards = articles
    .map((a) => ({ a, facts: paperFacts(a), lines: extras(a) }))
    .filter((x) => x.facts && x.lines.length);
  if (!cards.length) return written;
  const section = cards
    .flatMap((x) => [...paperCard(x.a, x.facts!, x.lines), ''])
    .join('\n')
    .trim();
  return { ...written, content: `${written.content}\n\n## Paper reviews\n\n${section}` };
}

function extractiveWritten(draft: Draft): WrittenReport {
  const { monitor, date, articles, tldr, extras } = draft;
  return extractiveReport(monitor.name, date, articles, tldr, monitor.report_type, extras);
}

/** The report of a window with no articles: one line saying whether the filter dropped them all. */
function nothingNew(draft: Draft, filter: StageResult | undefined): WrittenReport {
  const none =
    filter && Number(filter.input) > 0
      ? `The filter kept none of the ${filter.input} new items.`
      : 'No new items in this window.';
  return { title: reportTitle(draft.monitor.name, draft.date), content: `> ${none}`, tldr: none, categories: [] };
}

/** Why the extractive writer wrote: a bound provider that is disabled is named. */
function extractiveFallback(provider: ProviderRow | undefined): string {
  return provider && !provider.enabled ? `extractive (provider ${provider.id} disabled)` : 'extractive';
}

/** What the run did without (run-degradations.ts), as the report's last section; nothing when complete. */
function withRunNotes(written: WrittenReport, notes: string[]): WrittenReport {
  if (!notes.length) return written;
  const list = notes.map((n) => `- ${mdText(n)}`).join('\n');
  return { ...written, content: `${written.content}\n\n## Run notes\n\n${list}` };
}

// Steps 4 and 5: topics and stage traces.

function reportTopics(keywords: StageResult | undefined, articles: ArticleRow[]): unknown {
  return keywords ? keywords.topics : topicsOf(articles.map(ruleKeywords));
}

const TRACE_KEYS = ['provider', 'model', 'provider_attempts', 'fallback', 'provider_error'];

/** The keys of each stage's result a report's `metadata.stages` keeps. */
const STAGE_TRACE_KEYS: Record<ReadStage, string[]> = {
  filter: [...TRACE_KEYS, 'input', 'output'],
  keywords: [...TRACE_KEYS, 'rule_filled'],
  global_summary: TRACE_KEYS,
  paper_review: [...TRACE_KEYS, 'papers', 'reviewed'],
  paper_note: [...TRACE_KEYS, 'papers'],
};

/** Each stage that ran, its trace keys only; `keywords` always, as rule keywords when the stage did not run. */
function stageTraces(earlier: EarlierStages): Record<string, unknown> {
  const traces: Record<string, unknown> = {};
  for (const stage of READ_STAGES) {
    const result = earlier[stage];
    if (result) traces[stage] = pickStage(result, STAGE_TRACE_KEYS[stage]);
    else if (stage === 'keywords') traces[stage] = { provider: null, fallback: 'rule keywords' };
  }
  return traces;
}

function pickStage(result: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => result[k] !== undefined).map((k) => [k, result[k]]));
}

// Step 6: store.

/** The report row, its `database` publish and the `report_published` event, in one transaction. */
async function storeReport(
  input: StageInput,
  articles: ArticleRow[],
  written: WrittenReport,
  traces: {
    topics: unknown;
    writer: Record<string, unknown>;
    stages: Record<string, unknown>;
    failed_sources: FailedSource[];
    degraded: string[];
  },
): Promise<ReportRow> {
  const { env, db, task, monitor } = input;
  return db.transaction(async (tx) => {
    const r = await insertReport(tx, {
      run_id: task.id,
      monitor_id: monitor.id,
      time_period: monitor.time_period,
      report_type: monitor.report_type,
      title: written.title,
      content: written.content,
      article_ids: articles.map((a) => a.id),
      metadata: {
        global_tldr: written.tldr,
        tldr: [written.tldr],
        topics: traces.topics,
        categories: written.categories,
        monitor_id: monitor.id,
        monitor_name: monitor.name,
        writer: traces.writer,
        stages: traces.stages,
        failed_sources: traces.failed_sources,
        degraded: traces.degraded,
      },
    });
    await recordPublish(tx, r.id, {
      stage: 'publish',
      sink: 'database',
      status: 'success',
      trigger: task.trigger_type,
      url: reportPageUrl(env, r.id),
    });
    await emitEvent(tx, 'report_published', publishedReportView(r, 'database'));
    return r;
  });
}
