/**
 * Project adapter: the host API for `<host>/<owner>/<repo>` (GitHub `GET /repos/{o}/{r}`, GitLab
 * `GET /api/v4/projects/{o%2Fr}?license=true`, Bitbucket `GET /2.0/repositories/{o}/{r}`; counts
 * only from GitHub- and GitLab-style hosts, per the spec) plus the OpenSSF Scorecard API
 * (`GET {SCORECARD_API_URL}/projects/{host}/{o}/{r}`, optional: no scorecard when it has none (404); a
 * failing Scorecard API is `scorecardError`, unknown rather than none).
 * Scorecard dates become midnight-UTC RFC 3339 timestamps. OSS-Fuzz details: oss-fuzz.ts (a failure to
 * read them is logged and leaves them out).
 */
import * as z from 'zod';
import { upstreamUrl, type UpstreamEnv } from './http.ts';
import { fetchOssFuzz, type OssFuzzDetails } from './oss-fuzz.ts';
import { UpstreamNotFound } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';
import { failureOf, isUpstreamFailure, warnUpstream } from './upstream-log.ts';

/** The host APIs' and Scorecard's parts read here; null where the APIs send it (no license, no homepage). */
const text = z.string().nullish();
const count = z.number().nullish();
export const GithubRepo = z.looseObject({
  open_issues_count: count,
  stargazers_count: count,
  forks_count: count,
  license: z.looseObject({ spdx_id: text }).nullish(),
  description: text,
  homepage: text,
});
export const GitlabProject = z.looseObject({
  open_issues_count: count,
  star_count: count,
  forks_count: count,
  license: z.looseObject({ nickname: text, key: text }).nullish(),
  description: text,
});
export const BitbucketRepo = z.looseObject({ description: text, website: text });
/** `details` and `metadata` are lists of strings; other entries are kept as their String(), as before. */
export const ScorecardDoc = z.looseObject({
  date: text,
  repo: z.looseObject({ name: text, commit: text }).nullish(),
  scorecard: z.looseObject({ version: text, commit: text }).nullish(),
  checks: z
    .array(
      z.looseObject({
        name: text,
        documentation: z.looseObject({ short: text, shortDescription: text, url: text }).nullish(),
        score: count,
        reason: text,
        details: z.array(z.unknown()).nullish(),
      }),
    )
    .nullish(),
  score: count,
  metadata: z.array(z.unknown()).nullish(),
});
type ScorecardDoc = z.output<typeof ScorecardDoc>;

export interface IngestedProject {
  id: string;
  openIssuesCount: number;
  starsCount: number;
  forksCount: number;
  license: string;
  description: string;
  homepage: string;
  scorecard: Record<string, unknown> | null;
  /** The Scorecard read failed (what failed): the scorecard is unknown, not absent. */
  scorecardError?: string;
  ossFuzz: OssFuzzDetails | null;
}

export function parseProjectId(id: string): { host: string; owner: string; repo: string } | null {
  const m = /^(github\.com|gitlab\.com|bitbucket\.org)\/([^/\s]+)\/([^/\s]+)$/i.exec(id);
  return m ? { host: m[1]!.toLowerCase(), owner: m[2]!, repo: m[3]! } : null;
}

export async function fetchProject(env: UpstreamEnv, id: string): Promise<IngestedProject> {
  const p = parseProjectId(id);
  if (!p) throw new UpstreamNotFound(`not a project id: ${id}`);
  const key = `${p.host}/${p.owner}/${p.repo}`.toLowerCase();
  let base: Omit<IngestedProject, 'scorecard' | 'ossFuzz' | 'id'>;
  if (p.host === 'github.com') {
    const r = await fetchDoc(
      `${upstreamUrl(env, 'GITHUB_API_URL')}/repos/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
      GithubRepo,
      { headers: { 'user-agent': 'insights-service' } },
    );
    base = {
      openIssuesCount: num(r.open_issues_count),
      starsCount: num(r.stargazers_count),
      forksCount: num(r.forks_count),
      license: str(r.license?.spdx_id),
      description: str(r.description),
      homepage: str(r.homepage),
    };
  } else if (p.host === 'gitlab.com') {
    const r = await fetchDoc(
      `${upstreamUrl(env, 'GITLAB_API_URL')}/api/v4/projects/${encodeURIComponent(`${p.owner}/${p.repo}`)}?license=true`,
      GitlabProject,
    );
    base = {
      openIssuesCount: num(r.open_issues_count),
      starsCount: num(r.star_count),
      forksCount: num(r.forks_count),
      license: str(r.license?.nickname ?? r.license?.key),
      description: str(r.description),
      homepage: '',
    };
  } else {
    const r = await fetchDoc(
      `${upstreamUrl(env, 'BITBUCKET_API_URL')}/2.0/repositories/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
      BitbucketRepo,
    );
    base = {
      openIssuesCount: 0,
      starsCount: 0,
      forksCount: 0,
      license: '',
      description: str(r.description),
      homepage: str(r.website),
    };
  }
  let scorecard: Record<string, unknown> | null = null;
  let scorecardError: string | undefined;
  try {
    scorecard = scorecardFromApi(
      await fetchDoc(
        `${upstreamUrl(env, 'SCORECARD_API_URL')}/projects/${p.host}/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
        ScorecardDoc,
      ),
    );
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    if (!(err instanceof UpstreamNotFound)) {
      // not every project is scored (404); any other failure leaves the scorecard unknown
      warnUpstream('Scorecard', err, key);
      scorecardError = failureOf(err);
    }
  }
  let ossFuzz: OssFuzzDetails | null = null;
  try {
    ossFuzz = await fetchOssFuzz(env, key);
  } catch (err) {
    warnUpstream('OSS-Fuzz', err as Error, key);
  }
  return { id: key, ...base, scorecard, ossFuzz, ...(scorecardError ? { scorecardError } : {}) };
}

function num(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) ? Math.trunc(x) : 0;
}

function str(x: unknown): string {
  return typeof x === 'string' && x !== 'NOASSERTION' ? x : '';
}

export function scorecardFromApi(s: ScorecardDoc): Record<string, unknown> {
  const date = typeof s.date === 'string' ? `${s.date.slice(0, 10)}T00:00:00Z` : undefined;
  return {
    ...(date ? { date } : {}),
    repository: { name: str(s.repo?.name), commit: str(s.repo?.commit) },
    scorecard: { version: str(s.scorecard?.version), commit: str(s.scorecard?.commit) },
    checks: (s.checks ?? []).map((c) => ({
      name: str(c.name),
      documentation: {
        shortDescription: str(c.documentation?.short ?? c.documentation?.shortDescription),
        url: str(c.documentation?.url),
      },
      score: num(c.score),
      reason: str(c.reason),
      details: (c.details ?? []).map(String),
    })),
    overallScore: typeof s.score === 'number' ? s.score : 0,
    metadata: (s.metadata ?? []).map(String),
  };
}
