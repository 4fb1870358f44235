import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../support/fakes/chat-server.ts';
import { testDb } from '../../support/env.ts';
import { adminClient, resetPipeline } from './helpers.ts';

const api = adminClient();
let llm: ChatServer;

beforeAll(async () => {
  await resetPipeline();
  llm = await startChatServer();
});
afterAll(() => llm.close());

describe('providers', () => {
  it('lists the two presets, disabled, with no key', async () => {
    const list = (await (await api.get('/api/v1/providers')).json()) as any[];
    expect(
      list.map((p) => [p.id, p.name, p.type, p.enabled, p.config.model, p.config.api_key, p.config.max_retry]),
    ).toEqual([
      ['llm_alpha', 'LLM Alpha', 'llm', false, 'gpt-5-codex', null, 2],
      ['llm_beta', 'LLM Beta', 'llm', false, 'gpt-4o-mini', null, 2],
    ]);
  });

  it('stores the API key encrypted and shows it masked; a masked value sent back keeps it', async () => {
    const res = await api.patch('/api/v1/providers/llm_beta', {
      enabled: true,
      config: { base_url: `${llm.url}/v1/`, api_key: llm.key, model: 'local-model', temperature: 0.5 },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.config).toEqual({
      base_url: `${llm.url}/v1`,
      model: 'local-model',
      api_key: '****1234',
      timeout_sec: 60,
      max_retry: 2,
      temperature: 0.5,
      max_output_tokens: 2048,
    });
    const [row] = await testDb().query<{ api_key_enc: string }>(
      `SELECT api_key_enc FROM pipeline.providers WHERE id = 'llm_beta'`,
    );
    expect(row!.api_key_enc.startsWith('v1:')).toBe(true);
    expect(row!.api_key_enc).not.toContain(llm.key);
    await api.patch('/api/v1/providers/llm_beta', { config: { api_key: '****1234' } });
    const test = (await (await api.post('/api/v1/providers/llm_beta/test')).json()) as any;
    expect(test).toMatchObject({ success: true, message: 'Provider reachable (1 attempt)', model: 'local-model' });
    const probe = JSON.parse(llm.requests.at(-1)!.body);
    expect(probe).toEqual({
      model: 'local-model',
      messages: [{ role: 'user', content: 'Return JSON only: {"ok": true, "message": "pong"}' }],
      temperature: 0,
      max_tokens: 32,
    });
  });

  it('retries a flaky provider (two 503s, then an answer) and says how many attempts it took', async () => {
    llm.failNext(2, 503);
    const out = (await (await api.post('/api/v1/providers/llm_beta/test')).json()) as any;
    expect(out).toMatchObject({ success: true, message: 'Provider reachable (3 attempts)', model: 'local-model' });
    // Latency covers the whole exchange, including the client's backoff between the attempts (200 ms, then 400 ms).
    expect(Object.keys(out).sort()).toEqual(['latency_ms', 'message', 'model', 'success']);
    expect(Number.isInteger(out.latency_ms) && out.latency_ms >= 600).toBe(true);
  });

  it.each([
    ['a wrong key (not retried)', { api_key: 'sk-wrong' }, 'Provider returned HTTP 401', 1],
    ['a server that stays down', { max_retry: 1 }, 'Provider returned HTTP 503', 2],
    ['an unreachable host', { base_url: 'http://127.0.0.1:9/v1', max_retry: 0 }, 'Network error:', 0],
    ['a private address', { base_url: 'http://192.168.1.1/v1' }, 'Invalid provider URL: refused', 0],
  ])('reports %s as success=false without saving the overrides', async (name, config, message, hits) => {
    const before = llm.requests.length;
    if (name.includes('down')) llm.failNext(5, 503);
    const out = (await (await api.post('/api/v1/providers/llm_beta/test', { config })).json()) as any;
    llm.failNext(0);
    expect(out.success).toBe(false);
    expect(out.message.startsWith(message)).toBe(true);
    expect(llm.requests.length - before).toBe(hits);
    const saved = (await (await api.get('/api/v1/providers/llm_beta')).json()) as any;
    expect(saved.config.base_url).toBe(`${llm.url}/v1`);
    expect(saved.config.api_key).toBe('****1234');
  });

  it('clears the key with an empty string', async () => {
    await api.patch('/api/v1/providers/llm_alpha', { config: { api_key: 'sk-temp-9999' } });
    expect(((await (await api.get('/api/v1/providers/llm_alpha')).json()) as any).config.api_key).toBe('****9999');
    await api.patch('/api/v1/providers/llm_alpha', { config: { api_key: '' } });
    expect(((await (await api.get('/api/v1/providers/llm_alpha')).json()) as any).config.api_key).toBeNull();
  });

  it.each([
    ['PATCH', '/api/v1/providers/llm_gamma', { enabled: true }, 404],
    ['POST', '/api/v1/providers/llm_gamma/test', undefined, 404],
    ['PATCH', '/api/v1/providers/llm_alpha', { config: { timeout_sec: 0 } }, 422],
    ['PATCH', '/api/v1/providers/llm_alpha', { config: { base_url: 'ftp://x' } }, 422],
    ['PATCH', '/api/v1/providers/llm_alpha', { config: { unknown: 1 } }, 422],
    ['PATCH', '/api/v1/providers/llm_alpha', { enabled: 'yes' }, 422],
  ])('%s %s %j -> %i', async (method, path, body, status) => {
    const res = method === 'PATCH' ? await api.patch(path, body) : await api.post(path, body);
    expect(res.status).toBe(status);
    expect(JSON.stringify(await res.json())).not.toContain('sk-');
  });
});
