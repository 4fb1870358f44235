/**
 * Bindings shared by every function, typed once. Values come from wrangler.toml [vars], secrets
 * (`wrangler secret put`) or, locally, `--var` flags set by `npm start` and `.dev.vars`. There is no
 * process.env on Workers: everything arrives here.
 */
import type { BrowserWorker } from '@cloudflare/puppeteer';
import type { Db } from './db.ts';

/**
 * The raw bindings: every variable a function may receive, as the string the runtime passes. Code does
 * not read these directly: `config.<function>(env)` (functions/config.ts) and the group readers parse
 * them into typed values, and the variables' types, defaults and meanings are declared there. A
 * compile-time check in functions/config.ts keeps this list equal to the declared one. A type alias,
 * not an interface, so it stays assignable to `Record<string, unknown>` without an index signature.
 */
export type Env = {
  // shared (src/platform/config/shared.ts)
  readonly DATABASE_URL?: string;
  readonly NEON_LOCAL_PROXY?: string;
  readonly QSTASH_URL?: string;
  readonly QSTASH_TOKEN?: string;
  readonly DELIVERY_URL?: string;
  readonly QSTASH_CURRENT_SIGNING_KEY?: string;
  readonly QSTASH_NEXT_SIGNING_KEY?: string;
  readonly MAIL_API_URL?: string;
  readonly MAIL_API_KEY?: string;
  readonly MAIL_FROM?: string;
  readonly JWT_SECRET?: string;
  readonly JWT_ISSUER?: string;
  readonly ENCRYPTION_KEY?: string;
  readonly OUTBOUND_ALLOWLIST?: string;
  readonly OUTBOUND_LOOPBACK_HTTP?: string;
  // insights (src/insights/config.ts)
  readonly NPM_REGISTRY_URL?: string;
  readonly PYPI_URL?: string;
  readonly CRATES_INDEX_URL?: string;
  readonly CRATES_API_URL?: string;
  readonly MAVEN_REPO_URL?: string;
  readonly NUGET_INDEX_URL?: string;
  readonly RUBYGEMS_URL?: string;
  readonly GO_PROXY_URL?: string;
  readonly OSV_API_URL?: string;
  readonly OSV_BULK_URL?: string;
  readonly GITHUB_API_URL?: string;
  readonly GITLAB_API_URL?: string;
  readonly BITBUCKET_API_URL?: string;
  readonly SCORECARD_API_URL?: string;
  readonly NPM_REPLICATE_URL?: string;
  readonly GO_INDEX_URL?: string;
  readonly NUGET_CATALOG_URL?: string;
  readonly INSIGHTS_FEEDS?: string;
  readonly INSIGHTS_FEED_RUN_SECONDS?: string;
  readonly INSIGHTS_FEED_POLL_SECONDS?: string;
  readonly INSIGHTS_FEED_PAGE?: string;
  readonly INSIGHTS_FEED_NAMES_PER_RUN?: string;
  readonly INSIGHTS_FEED_FETCH_LIMIT?: string;
  readonly OSS_FUZZ_PROJECTS_URL?: string;
  readonly OSS_FUZZ_COVERAGE_URL?: string;
  readonly SIGSTORE_TUF_URL?: string;
  readonly INSIGHTS_URL?: string;
  readonly INSIGHTS_READ_THROUGH?: string;
  readonly INSIGHTS_TRUST_REFRESH_SECONDS?: string;
  readonly INSIGHTS_REFRESH_AFTER_SECONDS?: string;
  readonly INSIGHTS_NPM_TARBALLS?: string;
  readonly INSIGHTS_NPM_ATTESTATIONS?: string;
  readonly INSIGHTS_PYPI_ATTESTATIONS?: string;
  readonly INSIGHTS_FETCH_LIMIT?: string;
  readonly INSIGHTS_FETCH_CONCURRENCY?: string;
  readonly INSIGHTS_SOURCE_RETRY_SECONDS?: string;
  readonly INSIGHTS_OSV_TIMEOUT_MS?: string;
  readonly INSIGHTS_COOLDOWN_DAYS?: string;
  readonly INSIGHTS_GO_MEMORY_BYTES?: string;
  readonly INSIGHTS_LOW_USAGE_DEPENDENTS?: string;
  readonly RESOLVE_NODE_VERSION?: string;
  readonly RESOLVE_PYTHON_VERSION?: string;
  readonly RESOLVE_JAVA_VERSION?: string;
  readonly RESOLVE_RUBY_VERSION?: string;
  readonly RESOLVE_NUGET_FRAMEWORK?: string;
  // marketplace (src/marketplace/config.ts)
  readonly MARKETPLACE_URL?: string;
  readonly OWNER_EMAILS?: string;
  readonly MARKETPLACE_UNLIST_DAYS?: string;
  // pipeline (src/pipeline/config.ts)
  readonly PIPELINE_OPENALEX_URL?: string;
  readonly PIPELINE_EUROPE_PMC_URL?: string;
  readonly PIPELINE_PUBMED_URL?: string;
  readonly PIPELINE_GITHUB_URL?: string;
  readonly PIPELINE_HUGGINGFACE_URL?: string;
  readonly PIPELINE_ADMIN_TOKEN?: string;
  readonly PIPELINE_URL?: string;
  readonly PIPELINE_TASK_TIMEOUT_MINUTES?: string;
  readonly PIPELINE_RUN_DEADLINE_MINUTES?: string;
  readonly PIPELINE_INRUN_RETRIES?: string;
  readonly PIPELINE_INRUN_BACKOFF_SECONDS?: string;
  readonly PIPELINE_STEP_RETRY_DELAY?: string;
  readonly PIPELINE_OPENALEX_MAILTO?: string;
  readonly PIPELINE_OPENALEX_API_KEY?: string;
  readonly PIPELINE_NCBI_EMAIL?: string;
  readonly PIPELINE_NCBI_API_KEY?: string;
  readonly PIPELINE_SNAPLYTICS_URL?: string;
  readonly PIPELINE_SNAPLYTICS_KEY?: string;
  readonly PIPELINE_BROWSER_RENDERING_URL?: string;
  readonly PIPELINE_BROWSER_RENDERING_TOKEN?: string;
  readonly PIPELINE_BROWSER_BINDING?: string;
  readonly PIPELINE_BROWSER_CDP_URL?: string;
  // webhooks (src/webhooks/config.ts)
  readonly WEBHOOK_RETRY_BASE_SECONDS?: string;
  readonly WEBHOOK_RETRY_MAX_SECONDS?: string;
  readonly WEBHOOK_DISABLE_AFTER_FAILURES?: string;
  readonly WEBHOOK_LEASE_SECONDS?: string;
  readonly AWS_REGION?: string;
  readonly WEBHOOK_REPLAY_DAYS?: string;
  readonly WEBHOOK_RETENTION_DAYS?: string;
} & ObjectBindings;

/**
 * Bindings that are objects rather than variables, declared in wrangler.toml's own tables (not
 * configuration: functions/config.ts checks the variables only).
 */
export type ObjectBindings = {
  /** Cloudflare Browser Rendering (`[env.<function>.browser]`), for the pipeline's browser collectors. */
  readonly BROWSER?: BrowserWorker;
};

/** The subset of the Workers ExecutionContext the code relies on. */
export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException?(): void;
}

export interface AppVariables {
  db: Db;
  /** Raw request body, set by middleware that must read it before parsing (signature checks). */
  rawBody: string;
  /** Authenticated principal, set by each service's auth middleware. */
  principal: unknown;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
