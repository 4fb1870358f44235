/**
 * `twitter_snaplytics`: public X posts through a Snaplytics-style viewer backend, as the original
 * reads it: `GET {PIPELINE_SNAPLYTICS_URL}/challenge/` -> `{challenge_id, timestamp, random_value}`,
 * solution = first 8 hex of sha256(timestamp + random_value), then `GET /viewer/?data=<username>&
 * type=profile` with `X-Challenge-ID` / `X-Challenge-Solution` -> `{profile, tweets[], cursor}`. Every
 * call sends PIPELINE_SNAPLYTICS_KEY as `X-API-Key`. Without both settings the method is refused (422
 * on create, a failed test or run otherwise). Config: `username` | `handle` | `usernames[]` (or a
 * monitor override's `usernames`), `per_username_max_items` (5), `max_items` (30), `include_retweets`,
 * `include_pinned` (both default true). One page per username.
 */
import type { Env } from '../../platform/env.ts';
import type { CollectedItem, CollectOptions, CollectResult } from './types.ts';
import { arr, byKeywords, cut, getJson, limitOf, obj, setting, str } from './upstream.ts';

export function snaplyticsConfigured(env: Env): boolean {
  return !!setting(env, 'PIPELINE_SNAPLYTICS_URL') && !!setting(env, 'PIPELINE_SNAPLYTICS_KEY');
}

export function usernames(config: Record<string, unknown>): string[] {
  const raw = [
    config.username,
    config.handle,
    ...(typeof config.usernames === 'string' ? config.usernames.split(/[,\n]/) : arr(config.usernames)),
  ];
  const out: string[] = [];
  for (const r of raw) {
    let s = str(r)?.replace(/^@/, '');
    if (!s) continue;
    if (/^https?:\/\//.test(s)) s = new URL(s).pathname.split('/').filter(Boolean)[0] ?? '';
    if (/^\w{1,15}$/.test(s) && !out.some((u) => u.toLowerCase() === s!.toLowerCase())) out.push(s);
  }
  return out;
}

async function sha8(s: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)));
  return [...d]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 8);
}

export async function collectSnaplytics(
  env: Env,
  config: Record<string, unknown>,
  opts: CollectOptions,
): Promise<CollectResult> {
  const base = setting(env, 'PIPELINE_SNAPLYTICS_URL')!.replace(/\/+$/, '');
  const key = { 'x-api-key': setting(env, 'PIPELINE_SNAPLYTICS_KEY')! };
  const names = usernames(config);
  if (!names.length) throw new Error('twitter_snaplytics sources need config.username or config.usernames');
  const perUser = limitOf({ limit: config.per_username_max_items }, {}, 5);
  const retweets = config.include_retweets !== false;
  const pinned = config.include_pinned !== false;
  const items: CollectedItem[] = [];
  for (const name of names) {
    const ch = obj(await getJson(env, `${base}/challenge/`, key));
    if (!str(ch.challenge_id) || ch.timestamp === undefined || ch.random_value === undefined)
      throw new Error('snaplytics challenge answer is missing fields');
    const solution = await sha8(`${String(ch.timestamp)}${String(ch.random_value)}`);
    const page = obj(
      await getJson(env, `${base}/viewer/?${new URLSearchParams({ data: name, type: 'profile' })}`, {
        ...key,
        'x-challenge-id': str(ch.challenge_id)!,
        'x-challenge-solution': solution,
      }),
    );
    const profile = str(obj(page.profile).username) ?? name;
    let taken = 0;
    for (const raw of arr(page.tweets)) {
      const t = obj(raw);
      const id = str(t.id);
      const at = Date.parse(str(t.created_at) ?? '');
      if (!id || !/^\d+$/.test(id) || Number.isNaN(at) || (t.is_retweet && !retweets) || (t.is_pinned && !pinned))
        continue;
      const author = obj(t.author);
      const handle = str(author.username) ?? profile;
      const text = str(t.text) ?? '';
      const line = text.split('\n')[0]?.trim() || `Post ${id}`;
      items.push({
        title: line.length > 120 ? `${line.slice(0, 117)}...` : line,
        url: `https://x.com/${handle}/status/${id}`,
        summary: cut(text),
        published_at: new Date(at).toISOString(),
        metadata: {
          collector: 'twitter_snaplytics',
          author_username: handle,
          author_name: str(author.name) ?? null,
          is_retweet: !!t.is_retweet,
          is_pinned: !!t.is_pinned,
          stats: obj(t.stats),
        },
      });
      if (++taken >= perUser) break;
    }
  }
  items.sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? ''));
  return {
    format: 'twitter_snaplytics',
    title: 'X posts',
    items: byKeywords(items, opts.keywords).slice(
      0,
      Math.max(limitOf(config, opts, 30), opts.maxItems ? 0 : perUser * names.length),
    ),
    fetched: items.length,
  };
}
