/**
 * An OpenAI-compatible chat completions server: `POST /v1/chat/completions` with `Authorization:
 * Bearer <key>` answers `{id, object: 'chat.completion', created, model, choices: [{index, message:
 * {role: 'assistant', content}, finish_reason: 'stop'}], usage}`; a wrong key gets 401 with OpenAI's
 * error shape.
 *
 * It tells the pipeline's stages apart by what their prompts ask for (`stageOf`) and answers each
 * the way a model would, reading the items JSON fenced in the prompt:
 * - probe (`"pong"`): `{"ok": true, "message": "pong"}`;
 * - filter (`keep_indices`): keeps every item whose title or snippet does not mention "sponsored";
 * - keywords: per item `[source_category, first two title words of 4+ letters]`;
 * - global_summary (`global_tldr`): `Model summary of N items, led by <first title>.`;
 * - report: a Markdown digest listing the article URLs found in the prompt;
 * - paper_review (`digest_summary`): must_read + note candidate for the first paper, worth_reading for
 *   the others, core method quoting each title; paper_note (`core_contributions`): a note per paper.
 * `reply` overrides every answer, `replies[stage]` one stage's; `failStage(stage, n, status)` makes the
 * next n calls of that stage fail; `calls` records the stage of every authorised call in order.
 */
import { json, startFake, type Fake } from './http-fake.ts';

export type ChatStage = 'probe' | 'filter' | 'keywords' | 'global_summary' | 'paper_review' | 'paper_note' | 'report';

export interface ChatServer extends Fake {
  key: string;
  reply: ((prompt: string) => string) | null;
  replies: Partial<Record<ChatStage, (prompt: string) => string>>;
  calls: ChatStage[];
  failStage(stage: ChatStage, n: number, status?: number): void;
}

export function stageOf(prompt: string): ChatStage {
  if (prompt.includes('"pong"')) return 'probe';
  if (prompt.includes('keep_indices')) return 'filter';
  if (prompt.includes('"digest_summary"')) return 'paper_review';
  if (prompt.includes('"core_contributions"')) return 'paper_note';
  if (prompt.includes('global_tldr')) return 'global_summary';
  if (prompt.includes('"keywords": [')) return 'keywords';
  return 'report';
}

export interface PromptItem {
  index: number;
  title: string;
  source_name: string;
  source_category: string;
  snippet?: string;
}

/** The papers JSON the paper stage prompts fence between `<<<PAPERS` and `PAPERS>>>`. */
export function promptPapers(prompt: string): { index: number; title: string; authors: string[]; doi: string }[] {
  const m = /<<<PAPERS\n([\s\S]*?)\nPAPERS>>>/.exec(prompt);
  return m ? JSON.parse(m[1]!) : [];
}

/** The items JSON the stage prompts fence between `<<<ITEMS` and `ITEMS>>>`. */
export function promptItems(prompt: string): PromptItem[] {
  const m = /<<<ITEMS\n([\s\S]*?)\nITEMS>>>/.exec(prompt);
  return m ? (JSON.parse(m[1]!) as PromptItem[]) : [];
}

function defaultAnswer(stage: ChatStage, prompt: string): string {
  const items = promptItems(prompt);
  switch (stage) {
    case 'probe':
      return '{"ok": true, "message": "pong"}';
    case 'filter':
      return JSON.stringify({
        keep_indices: items.filter((i) => !/sponsored/i.test(`${i.title} ${i.snippet ?? ''}`)).map((i) => i.index),
      });
    case 'keywords':
      return JSON.stringify({
        items: items.map((i) => ({
          index: i.index,
          keywords: [i.source_category, ...(i.title.match(/[A-Za-z][A-Za-z0-9]{3,}/g) ?? []).slice(0, 2)],
        })),
      });
    case 'global_summary':
      return JSON.stringify({
        global_tldr: `Model summary of ${items.length} items, led by ${items[0]?.title ?? 'nothing'}.`,
      });
    case 'paper_review': {
      const papers = promptPapers(prompt).map((p) => ({ ...p, title: p.title.replace(/\.$/, '') }));
      return JSON.stringify({
        digest_summary: `Review of ${papers.length} papers, led by ${papers[0]?.title ?? 'nothing'}.`,
        papers: papers.map((p) => ({
          index: p.index,
          recommendation: p.index === 0 ? 'must_read' : 'worth_reading',
          core_method: `Method of ${p.title}.`,
          why_it_matters: `It matters (${p.authors.length} authors).`,
          note_candidate: p.index === 0,
        })),
      });
    }
    case 'paper_note':
      return JSON.stringify({
        notes: promptPapers(prompt).map((p) => ({
          index: p.index,
          summary: `Note on ${p.title.replace(/\.$/, '')}.`,
          core_contributions: ['First contribution'],
          method: ['Step one'],
          limitations: ['Small sample'],
        })),
      });
    case 'report':
      return `TL;DR: model digest of ${[...prompt.matchAll(/URL: (\S+)/g)].length} articles.\n\n## Highlights\n\n${[...prompt.matchAll(/\d+\. (.*)\n\s+URL: (\S+)/g)].map((m) => `- [${m[1]}](${m[2]})`).join('\n')}`;
  }
}

export async function startChatServer(key = 'sk-test-key-1234'): Promise<ChatServer> {
  const state: { server?: ChatServer } = {};
  const failing = new Map<ChatStage, { n: number; status: number }>();
  const fake = await startFake((r) => {
    if (r.method !== 'POST' || r.path !== '/v1/chat/completions')
      return json(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (r.headers.authorization !== `Bearer ${key}`)
      return json(401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    let body: { model?: string; messages?: { role: string; content: string }[] };
    try {
      body = JSON.parse(r.body);
    } catch {
      return json(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    const prompt = (body.messages ?? []).map((m) => m.content).join('\n');
    const stage = stageOf(prompt);
    const server = state.server!;
    server.calls.push(stage);
    const fail = failing.get(stage);
    if (fail && fail.n > 0) {
      fail.n--;
      return json(fail.status, {
        error: { message: 'The server had an error while processing your request.', type: 'server_error' },
      });
    }
    const content = (server.reply ?? server.replies[stage] ?? ((p: string) => defaultAnswer(stage, p)))(prompt);
    return json(200, {
      id: 'chatcmpl-local',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'unknown',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  state.server = Object.assign(fake, {
    key,
    reply: null as ChatServer['reply'],
    replies: {},
    calls: [] as ChatStage[],
    failStage(stage: ChatStage, n: number, status = 503) {
      failing.set(stage, { n, status });
    },
  });
  return state.server;
}
