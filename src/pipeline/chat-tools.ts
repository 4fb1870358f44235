/**
 * OpenAI-compatible chat completions with tool calls, for the browser agents: `POST
 * {base_url}/chat/completions` `{model, messages, tools, tool_choice: "auto", temperature, max_tokens}`
 * answers `choices[0].message` with `content` and/or `tool_calls: [{id, type: "function", function:
 * {name, arguments: "<JSON text>"}}]`, and `usage.total_tokens` (counted against the agent's budget).
 * 408/409/429/5xx and network errors are retried `max_retry` times like chat-client.ts; every call
 * goes through the outbound-URL guard.
 */
import type { Env } from '../platform/env.ts';
import { ChatError, type ChatSettings, completionsRequest } from './chat-client.ts';

export type ToolMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolAnswer {
  content: string | null;
  tool_calls: ToolCall[];
  tokens: number;
}

export async function chatWithTools(
  env: Env,
  s: ChatSettings,
  messages: ToolMessage[],
  tools: ToolSpec[],
): Promise<ToolAnswer> {
  const body = JSON.stringify({
    model: s.model,
    messages,
    tools: tools.map((t) => ({ type: 'function', function: t })),
    tool_choice: 'auto',
    temperature: s.temperature,
    max_tokens: s.max_output_tokens,
  });
  return completionsRequest(env, s, body, toolAnswer);
}

function toolAnswer(text: string, attempt: number): ToolAnswer {
  let doc: {
    choices?: { message?: { content?: unknown; tool_calls?: unknown } }[];
    usage?: { total_tokens?: unknown };
  };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ChatError('Provider returned invalid JSON', attempt, 'unusable');
  }
  const message = doc.choices?.[0]?.message;
  if (!message) throw new ChatError('Provider response has no choices[0].message', attempt, 'unusable');
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const tool_calls = calls.filter(
    (c): c is ToolCall =>
      !!c &&
      typeof c.id === 'string' &&
      typeof c.function?.name === 'string' &&
      typeof c.function?.arguments === 'string',
  );
  const tokens = typeof doc.usage?.total_tokens === 'number' ? doc.usage.total_tokens : 0;
  return { content: typeof message.content === 'string' ? message.content : null, tool_calls, tokens };
}
