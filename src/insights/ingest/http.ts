/**
 * Plain fetch for the configured registries (trusted URLs from env, so no SSRF guard): a timeout
 * (15 s, or the caller's own `signal`), 404/410 -> UpstreamNotFound, other failures -> UpstreamError,
 * each carrying the upstream's status. Base URLs come from env with the
 * public upstreams as defaults (declared in src/insights/config.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { UpstreamError, UpstreamNotFound } from './types.ts';
import { insightsConfig, UPSTREAMS, type UpstreamName } from '../config.ts';

export type { UpstreamName };

/**
 * The registry a version was read from, as `registries` names it: the public registry's deps.dev spelling
 * when the upstream setting is left at its default, else the configured base in the same form.
 */
const REGISTRY_FORMS: Partial<Record<string, [UpstreamName, string, (base: string) => string]>> = {
  NPM: ['NPM_REGISTRY_URL', 'https://registry.npmjs.org/', (b) => `${b}/`],
  PYPI: ['PYPI_URL', 'https://pypi.org/simple', (b) => `${b}/simple`],
  MAVEN: ['MAVEN_REPO_URL', 'https://repo.maven.apache.org/maven2/', (b) => `${b}/`],
  CARGO: ['CRATES_INDEX_URL', 'https://crates.io/', (b) => `${b}/`],
  NUGET: ['NUGET_INDEX_URL', 'https://api.nuget.org/v3/index.json', (b) => b],
  RUBYGEMS: ['RUBYGEMS_URL', 'https://rubygems.org/', (b) => `${b}/`],
};

export function registryOf(env: UpstreamEnv, system: string): string {
  const form = REGISTRY_FORMS[system];
  if (!form) return '';
  const [key, pub, spell] = form;
  const base = upstreamUrl(env, key);
  return base === UPSTREAMS[key].default!.replace(/\/+$/, '') ? pub : spell(base);
}
export type UpstreamEnv = Record<string, unknown>;

export function upstreamUrl(env: UpstreamEnv, key: UpstreamName): string {
  return insightsConfig(env)[key];
}

const TIMEOUT_MS = 15_000;

/** The per-request upstream fetch limit was reached: the data asked for was not fetched. */
export class FetchLimitReached extends Error {
  constructor(limit: number) {
    super(`upstream fetch limit of ${limit} reached`);
    this.name = 'FetchLimitReached';
  }
}

/**
 * A bound on the upstream fetches of one unit of work (a request, a queue callback): at most `limit`
 * fetches in all (Workers count every fetch against a per-invocation subrequest limit) and at most
 * `concurrency` in flight (Workers allow 6 simultaneous outgoing connections per request). Installed
 * with `withFetchBudget`; every `fetchUpstream` inside it takes a slot or throws FetchLimitReached.
 */
export class FetchBudget {
  used = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly limit: number;
  readonly concurrency: number;
  constructor(limit: number, concurrency: number) {
    this.limit = limit;
    this.concurrency = Math.max(1, concurrency);
  }

  async acquire(): Promise<void> {
    if (this.used >= this.limit) throw new FetchLimitReached(this.limit);
    this.used++;
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const budgets = new AsyncLocalStorage<FetchBudget>();

/** Runs `fn` with every upstream fetch it makes (directly or in callbacks it schedules) counted by `budget`. */
export function withFetchBudget<T>(budget: FetchBudget, fn: () => Promise<T>): Promise<T> {
  return budgets.run(budget, fn);
}

export async function fetchUpstream(url: string, init: RequestInit = {}): Promise<Response> {
  const budget = budgets.getStore();
  if (budget) await budget.acquire();
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new UpstreamError(`${url}: ${(err as Error).message}`);
  } finally {
    budget?.release();
  }
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    throw new UpstreamNotFound(`${url}: ${res.status}`, res.status);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamError(`${url}: HTTP ${res.status}`, res.status);
  }
  return res;
}

export async function fetchJson<T = unknown>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetchUpstream(url, { ...init, headers: { accept: 'application/json', ...(init.headers ?? {}) } });
  try {
    return (await res.json()) as T;
  } catch {
    throw new UpstreamError(`${url}: not JSON`);
  }
}

export async function fetchText(url: string): Promise<string> {
  return (await fetchUpstream(url)).text();
}

/** Runs `fn` over items with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function hexToBase64(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytesToBase64(bytes);
}

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** RFC 3339 text or null for anything Date cannot read. */
export function isoTime(t: unknown): string | null {
  if (typeof t !== 'string' && typeof t !== 'number') return null;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
