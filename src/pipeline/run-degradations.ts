/**
 * What a monitor run did without: the sources that failed (after their in-run retries), the stages
 * that used their fallback, a report the model did not write although one was bound, and the
 * publishes that failed. A run that stored its report ends `partial_success` when this list is not
 * empty, and the report and the run's `error_message` say each. Pure: reads the steps' results.
 */
import type { StepRow } from './queries-tasks.ts';

const STAGE_STEPS = ['filter', 'keywords', 'global_summary', 'paper_review', 'paper_note'];

export interface FailedSource {
  source_id: string;
  name: string;
  error: string;
  attempts: number;
}

export function failedSources(steps: StepRow[]): FailedSource[] {
  const collect = steps.find((s) => s.step === 'collect' && s.status === 'success');
  return (collect?.result.failed_sources as FailedSource[] | undefined) ?? [];
}

/** A stage's or the writer's fallback, worded for people; undefined when it did not fall back. */
function stageNote(step: StepRow): string | undefined {
  const r = step.result;
  if (typeof r.fallback !== 'string' || !r.fallback) return undefined;
  // The extractive writer without a bound provider is the configured writer, not a fallback.
  if (step.step === 'report' && !r.provider && r.fallback === 'extractive') return undefined;
  const why = typeof r.provider_error === 'string' && r.provider_error ? `: ${r.provider_error}` : '';
  return `${step.step}: ${r.fallback}${why}`;
}

/** Every degradation of the run's steps so far, in run order. */
export function degradations(steps: StepRow[]): string[] {
  const notes = failedSources(steps).map((f) => `source ${f.name} failed after ${f.attempts} attempt(s): ${f.error}`);
  for (const name of [...STAGE_STEPS, 'report']) {
    const step = steps.find((s) => s.step === name && s.status === 'success');
    const note = step && stageNote(step);
    if (note) notes.push(note);
  }
  for (const s of steps
    .filter((x) => x.step.startsWith('publish:') && x.status === 'failed')
    .sort((a, b) => (a.step < b.step ? -1 : 1)))
    notes.push(`${s.step}: ${s.error ?? 'failed'}`);
  return notes;
}
