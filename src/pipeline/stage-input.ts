/**
 * What a model stage of a monitor run is given (StageInput) and which provider, with which settings,
 * it asks: read by the stages (stage-steps.ts), their call (stage-call.ts), collect and the report.
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import type { ChatSettings } from './chat-client.ts';
import type { MonitorRow } from './queries-monitors.ts';
import type { ProviderRow } from './queries-settings.ts';
import type { StepRow, TaskRow } from './queries-tasks.ts';
import { chatSettings } from './settings.ts';

export interface StageInput {
  env: Env;
  db: Db;
  task: TaskRow;
  monitor: MonitorRow;
  steps: StepRow[];
  /** The queue's last delivery of this step: a provider that is down means the fallback, not a retry. */
  last: boolean;
  /** The run is past its deadline (in-run-retry.ts): no model call, no retry, every stage falls back. */
  overdue: boolean;
}

type Routing = {
  stages?: Record<string, { primary?: string | null } | undefined>;
  providers?: Record<string, Record<string, unknown> | undefined>;
};

export function stageProviderId(monitor: MonitorRow, stage: string): string | null {
  return (monitor.ai_routing as Routing).stages?.[stage]?.primary ?? null;
}

/** The provider's settings with the monitor's per-provider overrides (`ai_routing.providers`), as the original merges them. */
export async function monitorChatSettings(env: Env, provider: ProviderRow, monitor: MonitorRow): Promise<ChatSettings> {
  const s = await chatSettings(env, provider);
  const o = (monitor.ai_routing as Routing).providers?.[provider.id] ?? {};
  if (typeof o.model === 'string' && o.model.trim()) s.model = o.model.trim();
  for (const k of ['timeout_sec', 'max_retry', 'temperature', 'max_output_tokens'] as const) {
    const v = o[k];
    if (
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= 0 &&
      (k === 'temperature' || Number.isInteger(v)) &&
      (k !== 'timeout_sec' || v >= 1)
    )
      s[k] = v;
  }
  return s;
}
