/**
 * OpenAI-compatible chat completions client (`POST {base_url}/chat/completions`, Bearer key,
 * `{model, messages, temperature, max_tokens}` -> `choices[0].message.content`), as the original's
 * provider test and report stages use it. Retries up to `max_retry` times on 408/409/429/5xx and
 * network errors (like the original), with a short backoff; every attempt is counted so a run can
 * record honestly how many calls it took. All calls go through the outbound-URL guard.
 */
import type { Env } from '../platform/env.ts';
import { guardedFetch, OutboundError } from '../platform/url-guard.ts';

export interface ChatSettings {
  base_url: string;
  model: string;
  api_key: string | null;
  timeout_sec: number;
  max_retry: number;
  temperature: number;
  max_output_tokens: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatAnswer {
  content: string;
  model: string;
  attempts: number;
  latency_ms: number;
}

/**
 * Why a chat call failed: `transient` (408/409/429/5xx, network: worth the queue's later retry),
 * `unusable` (a 2xx answer without `choices[0].message.content`: worth asking again at once), `refused`
 * (any other status, a URL the guard refuses: retrying does not help).
 */
export type ChatFailure = 'transient' | 'unusable' | 'refused';

export class ChatError extends Error {
  readonly attempts: number;
  readonly kind: ChatFailure;
  constructor(message: string, attempts: number, kind: ChatFailure = 'transient') {
    super(message);
    this.name = 'ChatError';
    this.attempts = attempts;
    this.kind = kind;
  }
}

const RETRYABLE = new Set([408, 409, 429]);

export async function chat(
  env: Env,
  s: ChatSettings,
  messages: ChatMessage[],
  overrides: { temperature?: number; max_output_tokens?: number; backoffMs?: number } = {},
): Promise<ChatAnswer> {
  const started = Date.now();
  const body = JSON.stringify({
    model: s.model,
    messages,
    temperature: overrides.temperature ?? s.temperature,
    max_tokens: overrides.max_output_tokens ?? s.max_output_tokens,
  });
  return completionsRequest(
    env,
    s,
    body,
    (text, attempt) => {
      let doc: { model?: string; choices?: { message?: { content?: unknown } }[] };
      try {
        doc = JSON.parse(text);
      } catch {
        throw new ChatError('Provider returned invalid JSON', attempt, 'unusable');
      }
      const content = doc.choices?.[0]?.message?.content;
      if (typeof content !== 'string')
        throw new ChatError('Provider response has no choices[0].message.content', attempt, 'unusable');
      return {
        content,
        model: typeof doc.model === 'string' ? doc.model : s.model,
        attempts: attempt,
        latency_ms: Date.now() - started,
      };
    },
    overrides.backoffMs,
  );
}

/**
 * One `POST {base_url}/chat/completions` with `body`, through the outbound guard, retried `max_retry`
 * times on 408/409/429/5xx and network errors (`backoffMs` times the attempt between tries); a 2xx is
 * read by `read` (which throws a ChatError for an answer it cannot use). Shared by plain chat and the
 * tool-calling chat (chat-tools.ts).
 */
export async function completionsRequest<T>(
  env: Env,
  s: ChatSettings,
  body: string,
  read: (text: string, attempt: number) => T,
  backoffMs = 200,
): Promise<T> {
  const url = `${s.base_url.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (s.api_key) headers.authorization = `Bearer ${s.api_key}`;
  let last = 'no attempt made';
  const tries = Math.max(0, s.max_retry) + 1;
  for (let attempt = 1; attempt <= tries; attempt++) {
    let retryable = false;
    try {
      const res = await guardedFetch(
        env,
        url,
        { method: 'POST', headers, body },
        { timeoutMs: s.timeout_sec * 1000, maxBytes: 2 * 1024 * 1024, maxRedirects: 0 },
      );
      if (res.status >= 200 && res.status < 300) return read(res.text(), attempt);
      last = `Provider returned HTTP ${res.status}`;
      retryable = RETRYABLE.has(res.status) || res.status >= 500;
    } catch (err) {
      if (err instanceof ChatError) throw err;
      if (!(err instanceof OutboundError)) throw err;
      last = err.message.startsWith('refused')
        ? `Invalid provider URL: ${err.message}`
        : `Network error: ${err.message}`;
      retryable = !err.message.startsWith('refused');
    }
    if (!retryable || attempt === tries) throw new ChatError(last, attempt, retryable ? 'transient' : 'refused');
    await new Promise((r) => setTimeout(r, backoffMs * attempt));
  }
  throw new ChatError(last, tries);
}
