/**
 * The pipeline service's variables: the admin token, public URL, the task timeout, and the collectors'
 * upstreams and credentials (docs/pipeline.md). Read with `pipelineConfig(env)`.
 */
import { configReader, variable, type VariableGroup } from '../platform/config/define.ts';
import { devtoolsUrl, httpUrl, integer, onOff, nonNegative, positive, text } from '../platform/config/kinds.ts';
import { DATABASE, ENCRYPTION, OUTBOUND, QUEUE } from '../platform/config/shared.ts';
import { WEBHOOKS } from '../webhooks/config.ts';

function upstream(url: string, meaning: string) {
  return variable({ schema: httpUrl, default: url, meaning });
}

/** Base URLs of the API collectors, with their public defaults. */
export const COLLECTOR_UPSTREAMS = {
  PIPELINE_OPENALEX_URL: upstream('https://api.openalex.org', 'OpenAlex API base (`/works`)'),
  PIPELINE_EUROPE_PMC_URL: upstream(
    'https://www.ebi.ac.uk/europepmc/webservices/rest',
    'Europe PMC REST base (`/search`)',
  ),
  PIPELINE_PUBMED_URL: upstream('https://eutils.ncbi.nlm.nih.gov/entrez/eutils', 'NCBI E-utilities base'),
  PIPELINE_GITHUB_URL: upstream('https://github.com', 'GitHub web base (trending page)'),
  PIPELINE_HUGGINGFACE_URL: upstream('https://huggingface.co', 'Hugging Face base (daily papers, models)'),
} satisfies VariableGroup;

export const PIPELINE = {
  PIPELINE_ADMIN_TOKEN: variable({
    schema: text,
    optional: true,
    secret: true,
    meaning: 'bearer token of the admin API (unset: every admin call answers 401)',
  }),
  PIPELINE_URL: variable({
    schema: httpUrl,
    optional: true,
    meaning: 'public base URL of `pipeline`: feed links, report URLs, the default `feed_url`',
  }),
  PIPELINE_TASK_TIMEOUT_MINUTES: variable({
    schema: positive,
    default: '30',
    meaning: 'running tasks older than this are failed by the cron sweep',
  }),
  PIPELINE_RUN_DEADLINE_MINUTES: variable({
    schema: positive,
    default: '60',
    meaning:
      'a monitor run still running this long after it started ends with what it has (fallbacks, no more retries)',
  }),
  PIPELINE_INRUN_RETRIES: variable({
    schema: integer(0),
    default: '2',
    meaning: 'retries inside a monitor run of a failing source or a model answer that is not the JSON asked for',
  }),
  PIPELINE_INRUN_BACKOFF_SECONDS: variable({
    schema: nonNegative,
    default: '1',
    meaning: 'wait before the first in-run retry, doubled for each next one',
  }),
  PIPELINE_STEP_RETRY_DELAY: variable({
    schema: text,
    optional: true,
    meaning:
      "the queue's retry delay of monitor-run steps (an `Upstash-Retry-Delay` expression in ms of `retried`; unset: QStash's default backoff)",
  }),
  ...COLLECTOR_UPSTREAMS,
  PIPELINE_OPENALEX_MAILTO: variable({ schema: text, optional: true, meaning: 'OpenAlex polite-pool address' }),
  PIPELINE_OPENALEX_API_KEY: variable({ schema: text, optional: true, secret: true, meaning: 'OpenAlex API key' }),
  PIPELINE_NCBI_EMAIL: variable({ schema: text, optional: true, meaning: '`email` sent on E-utilities calls' }),
  PIPELINE_NCBI_API_KEY: variable({ schema: text, optional: true, secret: true, meaning: 'NCBI E-utilities key' }),
  PIPELINE_SNAPLYTICS_URL: variable({
    schema: httpUrl,
    optional: true,
    meaning: 'viewer backend of `twitter_snaplytics` (without URL and key the method is refused)',
  }),
  PIPELINE_SNAPLYTICS_KEY: variable({ schema: text, optional: true, secret: true, meaning: 'its API key' }),
  PIPELINE_BROWSER_RENDERING_URL: variable({
    schema: httpUrl,
    optional: true,
    meaning: 'browser `deepbrowse` uses (Cloudflare Browser Rendering, or `npm run browser-render`)',
  }),
  PIPELINE_BROWSER_RENDERING_TOKEN: variable({
    schema: text,
    optional: true,
    secret: true,
    meaning: 'its API token',
  }),
  PIPELINE_BROWSER_BINDING: variable({
    schema: onOff,
    default: 'on',
    meaning:
      "`off`: the `BROWSER` binding is not used (`npm start` sets it: `wrangler dev`'s local binding would download a browser)",
  }),
  PIPELINE_BROWSER_CDP_URL: variable({
    schema: devtoolsUrl,
    optional: true,
    meaning:
      "development: a local Chromium's DevTools endpoint (http(s) or the ws:// browser URL) for the browser agents, instead of the `BROWSER` binding (`npm start` sets it)",
  }),
} satisfies VariableGroup;

export type CollectorUpstream = keyof typeof COLLECTOR_UPSTREAMS;

export const pipelineConfig = configReader(PIPELINE);

/** What the `pipeline` function reads, its webhook resource included (functions/pipeline.ts checks it). */
export const pipelineFunctionConfig = configReader(DATABASE, QUEUE, ENCRYPTION, OUTBOUND, PIPELINE, WEBHOOKS);
