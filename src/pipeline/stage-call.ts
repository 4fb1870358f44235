/**
 * One model stage's call to its provider inside a monitor-run step (the stages in stage-steps.ts and
 * the report writer in report-step.ts), deciding what each failure costs:
 * - an answer that is not what the stage asked for (the parser throws, or a 2xx without a message)
 *   is asked again at once, within the in-run retries (in-run-retry.ts), each retry an `answer_retry`
 *   warning event; still unusable: the fallback, now;
 * - a provider that refuses (4xx other than 408/409/429, a URL the guard refuses): the fallback, now;
 * - a provider that is down (5xx, 408/409/429, network; the chat client already retried
 *   `max_retry` times): thrown, so the queue retries the step, except on the last delivery, where
 *   it is the fallback;
 * - a run past its deadline: no call, the fallback.
 * Every fallback is a `stage_fallback` warning event and a trace with `fallback` (the reason) and
 * `provider_error`; the caller words its own fallback (`kept all (...)`, `rule keywords (...)`).
 */
import { chat, ChatError, type ChatMessage } from './chat-client.ts';
import { inRunPolicy, inRunWait } from './in-run-retry.ts';
import type { ProviderRow } from './queries-settings.ts';
import { recordEvent } from './queries-tasks.ts';
import { monitorChatSettings, type StageInput } from './stage-input.ts';

export type Asked<T> =
  | { value: T; trace: Record<string, unknown> }
  | { value: undefined; trace: Record<string, unknown> & { fallback: string } };

async function fallback(
  input: StageInput,
  stage: string,
  provider: string,
  attempts: number,
  reason: string,
  error: string,
): Promise<Asked<never>> {
  await recordEvent(input.db, input.task, {
    stage,
    event_type: 'stage_fallback',
    level: 'warning',
    message: `provider ${provider}: ${reason}, fallback used: ${error}`,
    payload: { provider, provider_attempts: attempts, reason },
  });
  return {
    value: undefined,
    trace: { provider, provider_attempts: attempts, fallback: reason, provider_error: error },
  };
}

export async function askModel<T>(
  input: StageInput,
  stage: string,
  provider: ProviderRow,
  messages: ChatMessage[],
  parse: (text: string) => T,
): Promise<Asked<T>> {
  const { env, db, task, monitor, last } = input;
  if (input.overdue)
    return fallback(
      input,
      stage,
      provider.id,
      0,
      'run deadline passed',
      'the run passed its deadline before this stage',
    );
  const settings = await monitorChatSettings(env, provider, monitor);
  const policy = inRunPolicy(env);
  let attempts = 0;
  for (let call = 1; ; call++) {
    let problem: string;
    try {
      const answer = await chat(env, settings, messages);
      attempts += answer.attempts;
      try {
        const value = parse(answer.content);
        const trace = {
          provider: provider.id,
          model: answer.model,
          provider_attempts: attempts,
          latency_ms: answer.latency_ms,
          fallback: null,
          ...(call > 1 ? { answer_retries: call - 1 } : {}),
        };
        return { value, trace };
      } catch (err) {
        problem = (err as Error).message;
      }
    } catch (err) {
      const kind = err instanceof ChatError ? err.kind : 'transient';
      attempts += err instanceof ChatError ? err.attempts : 1;
      const message = (err as Error).message;
      if (kind === 'transient' && !last)
        throw new Error(`provider ${provider.id} failed after ${attempts} attempt(s): ${message}`);
      if (kind !== 'unusable')
        return fallback(
          input,
          stage,
          provider.id,
          attempts,
          kind === 'refused' ? 'provider refused' : 'provider failed',
          message,
        );
      problem = message;
    }
    if (call > policy.retries) return fallback(input, stage, provider.id, attempts, 'answer not usable', problem);
    await recordEvent(db, task, {
      stage,
      event_type: 'answer_retry',
      level: 'warning',
      message: `provider ${provider.id}: ${problem}; asking again`,
      payload: { provider: provider.id, call },
    });
    await inRunWait(policy, call);
  }
}
