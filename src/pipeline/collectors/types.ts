/** What every collector yields: plain-text articles keyed by absolute http(s) URL. */
export interface CollectedItem {
  title: string;
  url: string;
  summary: string;
  published_at: string | null;
}

export interface CollectResult {
  /** Which format was recognised: rss | atom | json_feed | html. */
  format: 'rss' | 'atom' | 'json_feed' | 'html';
  title: string;
  items: CollectedItem[];
}
