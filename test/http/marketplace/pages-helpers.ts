/**
 * A browser without a browser for the page suites: a cookie jar over the marketplace worker's fetch,
 * GETs that ask for HTML, and form posts that carry the `_csrf` field of the last page read (as a
 * browser submitting a form from that page would). Redirects are followed (303 -> GET).
 */
import { expect } from 'vitest';
import marketplace from '../../../functions/marketplace.ts';
import type { Env } from '../../../src/platform/env.ts';
import { callWorker } from '../../support/env.ts';

export interface PageResponse {
  status: number;
  html: string;
  headers: Headers;
  url: string;
}

export class PageSession {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];
  csrf = '';
  readonly env: Env;
  constructor(env: Env) {
    this.env = env;
  }

  private async fetch(method: string, path: string, body?: URLSearchParams, accept = 'text/html'): Promise<Response> {
    const headers: Record<string, string> = { accept };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await callWorker(
      marketplace,
      new Request(`http://localhost${path}`, { method, headers, body }),
      this.env,
    );
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair, ...attrs] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return res;
  }

  private async read(res: Response, path: string): Promise<PageResponse> {
    if (res.status === 303 || res.status === 302) return this.get(res.headers.get('location')!);
    const html = await res.text();
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (m) this.csrf = m[1]!;
    return { status: res.status, html, headers: res.headers, url: path };
  }

  async get(path: string): Promise<PageResponse> {
    return this.read(await this.fetch('GET', path), path);
  }

  /** Posts a form as the last page would (its `_csrf` unless one is given). */
  async submit(path: string, fields: Record<string, string>, csrf: string | null = this.csrf): Promise<PageResponse> {
    const body = new URLSearchParams(fields);
    if (csrf !== null) body.set('_csrf', csrf);
    return this.read(await this.fetch('POST', path, body), path);
  }

  /** Logs in through the login form. */
  async login(email: string, password: string): Promise<PageResponse> {
    await this.get('/login');
    const page = await this.submit('/login', { emailAddress: email, password, next: '/' });
    expect(page.status, page.html.slice(0, 400)).toBe(200);
    return page;
  }
}

/** The text of the page's notices (role=status or role=alert), tags removed. */
export function notices(html: string): string[] {
  return [...html.matchAll(/<p class="notice [a-z]+" role="(?:status|alert)">([^<]*)<\/p>/g)].map((m) => m[1]!);
}
