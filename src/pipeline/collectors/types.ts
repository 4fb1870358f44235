import type { ChatSettings } from '../chat-client.ts';

/** What every collector yields: plain-text articles keyed by absolute http(s) URL. */
export interface CollectedItem {
  title: string;
  url: string;
  summary: string;
  published_at: string | null;
  /** Structured facts of API collectors (authors, venue, doi, abstract, stars, ...); stored with the article. */
  metadata?: Record<string, unknown>;
}

export interface CollectResult {
  /**
   * Which format was recognised: rss | atom | json_feed | html for feeds and pages, else the API read
   * (openalex, europe_pmc, pubmed, github_trending, huggingface_daily_papers, huggingface_models, ...).
   */
  format: string;
  title: string;
  items: CollectedItem[];
  /** Items the upstream returned before the window check (academic collectors; see routes-sources.ts). */
  fetched?: number;
  /** What a browser agent saw and did, step by step (browser-agent.ts); kept in the task events. */
  trace?: Record<string, unknown>[];
}

/** What a run or a test asks of a collector, on top of the source's own config. */
export interface CollectOptions {
  maxItems?: number;
  keywords?: string[];
  /** Publication window (monitor runs: the run's window; tests: start_at / end_at). */
  window?: { start: Date | null; end: Date | null };
  /** The chat settings that drive a browser agent (`browser_use`, `codex_playwright`). */
  agentChat?: ChatSettings;
}
