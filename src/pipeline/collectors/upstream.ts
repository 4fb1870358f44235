/**
 * Shared plumbing of the API collectors: the base-URL settings (an env var each, declared in
 * src/pipeline/config.ts with the public default, so a mirror or a local fake can stand in), one
 * guarded GET (timeout 20 s, 10 MB, at most 5 redirects, every hop through the outbound-URL guard),
 * and the config reads every collector shares
 * (search text, result limit, date window). A non-2xx answer throws with the status in the message;
 * the monitor's collect step is retried by the queue with backoff when every source failed.
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import type { CollectOptions } from './types.ts';
import { type PIPELINE, pipelineConfig, type CollectorUpstream } from '../config.ts';

export const USER_AGENT = 'insight-pipeline/1.0';

/** The collectors' optional settings (credentials, alternative backends), trimmed; undefined when unset. */
export type CollectorSetting = {
  [K in keyof typeof PIPELINE]: ReturnType<typeof pipelineConfig>[K] extends string | undefined ? K : never;
}[keyof typeof PIPELINE];

export function setting(env: Env, key: CollectorSetting): string | undefined {
  return pipelineConfig(env)[key];
}

/** A collector's upstream base URL (its public default unless configured), without trailing slash. */
export function baseUrl(env: Env, key: CollectorUpstream): string {
  return pipelineConfig(env)[key];
}

export async function getText(
  env: Env,
  url: string,
  accept: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await guardedFetch(
    env,
    url,
    { headers: { accept, 'user-agent': USER_AGENT, ...headers } },
    { timeoutMs: 20_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`${new URL(url).pathname} returned HTTP ${res.status}`);
  return res.text();
}

export async function getJson(env: Env, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const text = await getText(env, url, 'application/json', headers);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${new URL(url).pathname} did not answer JSON`);
  }
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

export function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function cut(s: string, max = 1000): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function keywordList(v: unknown): string[] {
  return arr(v)
    .map(str)
    .filter((k): k is string => !!k);
}

/**
 * The search text: the run's keywords (a test's or a monitor override's) when given, else
 * `config.search_query`, else `config.keywords` joined by spaces (as the original builds it).
 */
export function searchText(config: Record<string, unknown>, opts: CollectOptions): string {
  const asked = (opts.keywords ?? []).map((k) => k.trim()).filter(Boolean);
  if (asked.length) return asked.join(' ');
  return str(config.search_query) ?? keywordList(config.keywords).join(' ');
}

/** Result limit: the run's, else config max_results | max_items | limit, 1..200, default `fallback`. */
export function limitOf(config: Record<string, unknown>, opts: CollectOptions, fallback: number): number {
  for (const v of [opts.maxItems, config.max_results, config.max_items, config.limit]) {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 200) return n;
  }
  return fallback;
}

function dateOf(v: unknown): Date | null {
  const s = str(v);
  if (!s) return null;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  return Number.isNaN(t) ? null : new Date(t);
}

/** The publication window: the run's, else config start_at / end_at; null ends are open. */
export function windowOf(
  config: Record<string, unknown>,
  opts: CollectOptions,
): { start: Date | null; end: Date | null } {
  if (opts.window && (opts.window.start || opts.window.end)) return opts.window;
  return { start: dateOf(config.start_at), end: dateOf(config.end_at) };
}

/** YYYY-MM-DD (UTC) of a date. */
export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** An ISO timestamp from a YYYY[-MM[-DD]] or full date string; null when it does not parse. */
export function isoDay(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(s);
  const t = m ? Date.UTC(Number(m[1]), Number(m[2] ?? 1) - 1, Number(m[3] ?? 1)) : Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Keeps the items that mention a keyword (title or summary, case-insensitive); all when none given. */
export function byKeywords<T extends { title: string; summary: string }>(
  items: T[],
  keywords: string[] | undefined,
): T[] {
  const ks = (keywords ?? []).map((k) => k.trim().toLowerCase()).filter(Boolean);
  return ks.length ? items.filter((i) => ks.some((k) => `${i.title} ${i.summary}`.toLowerCase().includes(k))) : items;
}
