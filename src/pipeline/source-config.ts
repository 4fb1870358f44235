/**
 * Config checks of the API collect methods on source create/update (422 with the first problem):
 * the keys each collector reads must have the right type; other keys are kept as given (the original
 * stores config as free JSON). Academic sources need something to search for, except OpenAlex with
 * a `filter` (OpenAlex lists works by filter alone).
 */
import * as z from 'zod';
import { HttpError } from '../platform/errors.ts';
import { SINCE } from './collectors/github-trending.ts';
import { HF_FEEDS } from './collectors/huggingface.ts';
import { usernames } from './collectors/snaplytics.ts';

const limit = z.number().int().min(1).max(200);
const when = z.iso.datetime({ offset: true }).or(z.iso.date());
const academic = z.object({
  search_query: z.string().max(1000).optional(),
  keywords: z.array(z.string().max(100)).max(20).optional(),
  max_results: limit.optional(),
  start_at: when.optional(),
  end_at: when.optional(),
});
const SCHEMAS: Record<string, z.ZodType> = {
  openalex: academic.extend({
    filter: z
      .string()
      .max(1000)
      .regex(/^[\w.|:<>!,\-/ ]*$/, 'not an OpenAlex filter list')
      .optional(),
    mailto: z.email().optional(),
  }),
  europe_pmc: academic,
  pubmed: academic,
  github_trending: z.object({
    language: z
      .string()
      .max(64)
      .regex(/^[\w#+.\- ]+$/)
      .optional(),
    since: z.enum(SINCE).optional(),
    spoken_language_code: z.string().max(8).optional(),
    limit: limit.optional(),
    max_results: limit.optional(),
  }),
  huggingface: z.object({
    feed: z.enum(HF_FEEDS).optional(),
    limit: limit.optional(),
    max_results: limit.optional(),
    date: z.iso.date().optional(),
    pipeline_tag: z.string().max(64).optional(),
    search: z.string().max(200).optional(),
  }),
  twitter_snaplytics: z.object({
    per_username_max_items: limit.optional(),
    max_items: limit.optional(),
    include_retweets: z.boolean().optional(),
    include_pinned: z.boolean().optional(),
  }),
};

export function checkApiConfig(method: string, config: Record<string, unknown>): void {
  const schema = SCHEMAS[method];
  if (!schema) return;
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HttpError(422, `config.${issue.path.join('.')}: ${issue.message}`);
  }
  const hasSearch =
    (typeof config.search_query === 'string' && config.search_query.trim() !== '') ||
    (Array.isArray(config.keywords) && config.keywords.some((k) => typeof k === 'string' && k.trim()));
  if ((method === 'europe_pmc' || method === 'pubmed' || (method === 'openalex' && !config.filter)) && !hasSearch) {
    throw new HttpError(422, `config.search_query or config.keywords is required for ${method} sources`);
  }
  if (method === 'twitter_snaplytics' && !usernames(config).length)
    throw new HttpError(422, 'config.username or config.usernames is required for twitter_snaplytics sources');
}
