/**
 * The insights service's variables: the upstream registries it reads (public defaults, so a mirror or
 * a local fake can stand in), read-through switches and limits, findings, and the platform every
 * dependency graph is resolved for. Read with `insightsConfig(env)`.
 */
import { configReader, variable, type VariableGroup } from '../platform/config/define.ts';
import { httpUrl, integer, lowerList, matching, nonNegative, onOff, positive } from '../platform/config/kinds.ts';
import { DATABASE, QUEUE } from '../platform/config/shared.ts';
import { DEFAULT_NPM_ENV } from '../resolve/npm-pick.ts';
import { DEFAULT_NUGET_FRAMEWORK } from '../resolve/nuget.ts';
import { PYTHON_ENV } from '../resolve/pypi-markers.ts';
import { DEFAULT_RUBY_VERSION } from '../resolve/rubygems.ts';

function upstream(url: string, meaning: string) {
  return variable({ schema: httpUrl, default: url, meaning });
}

/** Upstream base URLs (no trailing slash once parsed). */
export const UPSTREAMS = {
  NPM_REGISTRY_URL: upstream('https://registry.npmjs.org', 'npm registry (full packuments, tarballs, attestations)'),
  PYPI_URL: upstream('https://pypi.org', 'PyPI JSON API (`/pypi/{name}/json`) and integrity API'),
  CRATES_INDEX_URL: upstream('https://index.crates.io', 'crates.io sparse index'),
  CRATES_API_URL: upstream('https://crates.io', 'crates.io API (publish times, licenses, repository)'),
  MAVEN_REPO_URL: upstream('https://repo.maven.apache.org/maven2', 'Maven repository layout'),
  NUGET_INDEX_URL: upstream('https://api.nuget.org/v3/index.json', 'NuGet v3 service index'),
  RUBYGEMS_URL: upstream('https://rubygems.org', 'RubyGems API v1/v2'),
  GO_PROXY_URL: upstream('https://proxy.golang.org', 'Go module proxy'),
  OSV_API_URL: upstream('https://api.osv.dev', 'OSV API (`/v1/vulns/{id}`, `/v1/query`)'),
  OSV_BULK_URL: upstream('https://osv-vulnerabilities.storage.googleapis.com', 'OSV bulk exports (`npm run import`)'),
  GITHUB_API_URL: upstream('https://api.github.com', 'GitHub API (projects)'),
  GITLAB_API_URL: upstream('https://gitlab.com', 'GitLab API (projects)'),
  BITBUCKET_API_URL: upstream('https://api.bitbucket.org', 'Bitbucket API (projects)'),
  SCORECARD_API_URL: upstream('https://api.securityscorecards.dev', 'OpenSSF Scorecard API'),
  OSS_FUZZ_PROJECTS_URL: upstream(
    'https://raw.githubusercontent.com/google/oss-fuzz/master/projects',
    'OSS-Fuzz project files (`/{project}/project.yaml`: `main_repo`)',
  ),
  SIGSTORE_TUF_URL: upstream(
    'https://tuf-repo-cdn.sigstore.dev',
    "Sigstore's TUF repository: the trusted root and npm registry keys attestations are verified against, refreshed by the delivery cron",
  ),
  OSS_FUZZ_COVERAGE_URL: upstream(
    'https://storage.googleapis.com/oss-fuzz-coverage',
    'OSS-Fuzz coverage reports (`/latest_report_info/{project}.json` and its summary)',
  ),
} satisfies VariableGroup;

export type UpstreamName = keyof typeof UPSTREAMS;

/** The registries' change feeds followed by the insights cron (src/insights/feeds/, docs/insights.md "Change feeds"). */
export const FEEDS = {
  NPM_REPLICATE_URL: upstream('https://replicate.npmjs.com', 'npm replication feed (`/registry/_changes`)'),
  GO_INDEX_URL: upstream('https://index.golang.org', 'Go module index (`/index?since=`)'),
  NUGET_CATALOG_URL: upstream('https://api.nuget.org/v3/catalog0/index.json', 'NuGet catalog index (pages of changes)'),
  INSIGHTS_FEEDS: variable({
    schema: lowerList,
    default: 'npm,pypi,cargo,rubygems,go,nuget,maven',
    meaning:
      'change feeds the insights cron follows (comma-separated: npm, pypi, cargo, rubygems, go, nuget, maven; empty: none)',
  }),
  INSIGHTS_FEED_RUN_SECONDS: variable({
    schema: integer(0),
    default: '55',
    meaning: 'how long one cron run keeps following the feeds (0: one pass)',
  }),
  INSIGHTS_FEED_POLL_SECONDS: variable({
    schema: positive,
    default: '5',
    meaning: 'wait between two reads of the feeds inside one cron run',
  }),
  INSIGHTS_FEED_PAGE: variable({
    schema: integer(1),
    default: '1000',
    meaning: 'changes asked for in one feed read (npm `limit`)',
  }),
  INSIGHTS_FEED_NAMES_PER_RUN: variable({
    schema: integer(1),
    default: '300',
    meaning: 'stored packages one cron run refreshes at most; the rest stays in the backlog for the next run',
  }),
  INSIGHTS_FEED_FETCH_LIMIT: variable({
    schema: integer(1),
    default: '900',
    meaning: 'upstream requests one cron run makes at most (feed reads and refreshes)',
  }),
} satisfies VariableGroup;

const FULL_VERSION = /^\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export const INSIGHTS = {
  ...UPSTREAMS,
  ...FEEDS,
  INSIGHTS_URL: variable({ schema: httpUrl, optional: true, meaning: 'public base URL of `insights` (seed tool)' }),
  INSIGHTS_READ_THROUGH: variable({
    schema: onOff,
    default: 'on',
    meaning: '`off`: unknown packages are 404 instead of fetched in the request',
  }),
  INSIGHTS_REFRESH_AFTER_SECONDS: variable({
    schema: nonNegative,
    default: '86400',
    meaning: 'stored packages older than this are refreshed through the queue',
  }),
  INSIGHTS_NPM_TARBALLS: variable({ schema: onOff, default: 'on', meaning: '`off`: npm tarballs are not read' }),
  INSIGHTS_NPM_ATTESTATIONS: variable({
    schema: onOff,
    default: 'on',
    meaning: '`off`: npm attestation documents are not read',
  }),
  INSIGHTS_PYPI_ATTESTATIONS: variable({
    schema: onOff,
    default: 'on',
    meaning: '`off`: the PyPI integrity API is not asked',
  }),
  INSIGHTS_FETCH_LIMIT: variable({
    schema: integer(1),
    // Workers' per-invocation subrequest limit (1,000 on the paid plan in its older documentation,
    // 10,000 now) with room left for database round trips.
    default: '900',
    meaning: 'upstream fetches one request or background round may make (Free plan: 40)',
  }),
  INSIGHTS_FETCH_CONCURRENCY: variable({
    schema: integer(1),
    default: '6',
    meaning: 'upstream fetches in flight per request',
  }),
  INSIGHTS_GO_MEMORY_BYTES: variable({
    schema: integer(0),
    default: '8388608',
    meaning: 'Go: bytes of go.mod files an isolate keeps in memory to resolve graphs without a round trip (0: off)',
  }),
  INSIGHTS_SOURCE_RETRY_SECONDS: variable({
    schema: nonNegative,
    default: '30',
    meaning:
      'a failed read of advisories (OSV), attestations, a project or its Scorecard is tried again after this long; answers waiting on it say Retry-After',
  }),
  INSIGHTS_TRUST_REFRESH_SECONDS: variable({
    schema: nonNegative,
    default: '86400',
    meaning:
      'how often the delivery cron reads SIGSTORE_TUF_URL for a newer trusted root and npm keys (0: every run; a failed read is tried again after this long too)',
  }),
  INSIGHTS_OSV_TIMEOUT_MS: variable({
    schema: integer(1),
    default: '15000',
    meaning: 'an OSV request that has not answered in this long has failed',
  }),
  INSIGHTS_COOLDOWN_DAYS: variable({
    schema: nonNegative,
    default: '7',
    meaning: 'findings: a version younger than this many days has a COOLDOWN finding (0: off)',
  }),
  INSIGHTS_LOW_USAGE_DEPENDENTS: variable({
    schema: integer(0),
    default: '0',
    meaning: 'findings: a package fewer stored packages depend on has a LOW_USAGE finding (0: off)',
  }),
  RESOLVE_NODE_VERSION: variable({
    schema: matching(/^v?\d{1,3}\.\d{1,3}\.\d{1,3}$/, 'a full Node version such as 22.12.0').transform((s) =>
      s.replace(/^v/, ''),
    ),
    default: DEFAULT_NPM_ENV.nodeVersion,
    meaning: 'Node version npm graphs are resolved for (`engines`)',
  }),
  RESOLVE_PYTHON_VERSION: variable({
    schema: matching(FULL_VERSION, 'a full Python version such as 3.11.7'),
    default: PYTHON_ENV.python_full_version!,
    meaning: 'CPython version PyPI graphs are resolved for (markers, `Requires-Python`)',
  }),
  RESOLVE_JAVA_VERSION: variable({
    schema: matching(/^\d{1,3}(\.\d{1,3}){0,3}([._+-][0-9A-Za-z.]{1,20})?$/, 'a Java version such as 17.0.15'),
    default: '17.0.15',
    meaning: '`java.version` Maven graphs are resolved for (profile activation)',
  }),
  RESOLVE_RUBY_VERSION: variable({
    schema: matching(FULL_VERSION, 'a full Ruby version such as 3.1.2'),
    default: DEFAULT_RUBY_VERSION,
    meaning: 'Ruby RubyGems graphs are locked on (`required_ruby_version`)',
  }),
  RESOLVE_NUGET_FRAMEWORK: variable({
    schema: matching(/^net(coreapp|standard)?\d+(\.\d+){0,3}$/i, 'a target framework such as net8.0').transform((s) =>
      s.toLowerCase(),
    ),
    default: DEFAULT_NUGET_FRAMEWORK,
    meaning: 'target framework NuGet graphs are restored for',
  }),
} satisfies VariableGroup;

export const insightsConfig = configReader(INSIGHTS);

/** What the `insights` function reads (functions/insights.ts checks it before any route runs). */
export const insightsFunctionConfig = configReader(DATABASE, QUEUE, INSIGHTS);
