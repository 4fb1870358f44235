/**
 * An OpenAI-compatible chat completions server: `POST /v1/chat/completions` with `Authorization:
 * Bearer <key>` answers `{id, object: 'chat.completion', created, model, choices: [{index, message:
 * {role: 'assistant', content}, finish_reason: 'stop'}], usage}`; a wrong key gets 401 with OpenAI's
 * error shape. `reply` sets the content (default: a Markdown digest listing the article URLs found in
 * the prompt, or the pong JSON for the probe prompt).
 */
import { json, startFake, type Fake } from './http-fake.ts';

export interface ChatServer extends Fake {
  key: string;
  reply: ((prompt: string) => string) | null;
}

export async function startChatServer(key = 'sk-test-key-1234'): Promise<ChatServer> {
  const state: { server?: ChatServer } = {};
  const fake = await startFake((r) => {
    if (r.method !== 'POST' || r.path !== '/v1/chat/completions') return json(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (r.headers.authorization !== `Bearer ${key}`) return json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    let body: { model?: string; messages?: { role: string; content: string }[] };
    try {
      body = JSON.parse(r.body);
    } catch {
      return json(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    const prompt = (body.messages ?? []).map((m) => m.content).join('\n');
    const reply = state.server?.reply;
    const content = reply
      ? reply(prompt)
      : prompt.includes('"pong"')
        ? '{"ok": true, "message": "pong"}'
        : `TL;DR: model digest of ${[...prompt.matchAll(/URL: (\S+)/g)].length} articles.\n\n## Highlights\n\n${[...prompt.matchAll(/\d+\. (.*)\n\s+URL: (\S+)/g)].map((m) => `- [${m[1]}](${m[2]})`).join('\n')}`;
    return json(200, { id: 'chatcmpl-local', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model ?? 'unknown', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } });
  });
  state.server = Object.assign(fake, { key, reply: null as ChatServer['reply'] });
  return state.server;
}
