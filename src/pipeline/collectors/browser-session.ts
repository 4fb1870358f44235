/**
 * A browser session of the agent collectors: the `/sessions` contract of the browser service at
 * `PIPELINE_BROWSER_RENDERING_URL` (locally tools/browser-render.ts driving headless Chromium; see
 * tools/browser-sessions.ts for the contract), with its token. Calls go through the outbound guard.
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import { obj, setting, str, USER_AGENT } from './upstream.ts';

export interface PageState {
  url: string;
  title: string;
  text: string;
  elements: { index: number; kind: 'link' | 'button' | 'input'; text: string; href?: string }[];
}

export type BrowserAction =
  | { action: 'open'; url: string }
  | { action: 'click'; element: number }
  | { action: 'fill'; element: number; value: string }
  | { action: 'scroll' }
  | { action: 'read' }
  | { action: 'reset' };

async function call(env: Env, method: string, path: string, body?: unknown): Promise<unknown> {
  const base = setting(env, 'PIPELINE_BROWSER_RENDERING_URL')!.replace(/\/+$/, '');
  const res = await guardedFetch(
    env,
    `${base}${path}`,
    {
      method,
      headers: {
        authorization: `Bearer ${setting(env, 'PIPELINE_BROWSER_RENDERING_TOKEN')}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    { timeoutMs: 45_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 0 },
  );
  let doc: Record<string, unknown> = {};
  try {
    doc = obj(JSON.parse(res.text()));
  } catch {
    // reported below
  }
  if (res.status < 200 || res.status >= 300 || doc.success !== true) {
    const why = str(obj(Array.isArray(doc.errors) ? doc.errors[0] : undefined).message);
    throw new Error(`browser ${path.split('/')[1]} failed (HTTP ${res.status}${why ? `: ${why}` : ''})`);
  }
  return doc.result;
}

export async function openSession(env: Env): Promise<string> {
  const r = obj(await call(env, 'POST', '/sessions', { userAgent: USER_AGENT }));
  const id = str(r.session_id);
  if (!id) throw new Error('browser session has no id');
  return id;
}

export async function act(env: Env, session: string, a: BrowserAction): Promise<PageState> {
  return (await call(env, 'POST', `/sessions/${encodeURIComponent(session)}/actions`, a)) as PageState;
}

export async function closeSession(env: Env, session: string): Promise<void> {
  await call(env, 'DELETE', `/sessions/${encodeURIComponent(session)}`).catch(() => undefined);
}
