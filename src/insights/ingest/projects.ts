/**
 * Project adapter: the host API for `<host>/<owner>/<repo>` (GitHub `GET /repos/{o}/{r}`, GitLab
 * `GET /api/v4/projects/{o%2Fr}?license=true`, Bitbucket `GET /2.0/repositories/{o}/{r}`; counts
 * only from GitHub- and GitLab-style hosts, per the spec) plus the OpenSSF Scorecard API
 * (`GET {SCORECARD_API_URL}/projects/{host}/{o}/{r}`, optional: no scorecard when it has none (404); a
 * failing Scorecard API is `scorecardError`, unknown rather than none).
 * Scorecard dates become midnight-UTC RFC 3339 timestamps. OSS-Fuzz details: oss-fuzz.ts (a failure to
 * read them is logged and leaves them out).
 */
import { fetchJson, upstreamUrl, type UpstreamEnv } from './http.ts';
import { fetchOssFuzz, type OssFuzzDetails } from './oss-fuzz.ts';
import { UpstreamNotFound } from './types.ts';
import { failureOf, isUpstreamFailure, warnUpstream } from './upstream-log.ts';

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
    const r = await fetchJson(
      `${upstreamUrl(env, 'GITHUB_API_URL')}/repos/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
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
    const r = await fetchJson(
      `${upstreamUrl(env, 'GITLAB_API_URL')}/api/v4/projects/${encodeURIComponent(`${p.owner}/${p.repo}`)}?license=true`,
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
    const r = await fetchJson(
      `${upstreamUrl(env, 'BITBUCKET_API_URL')}/2.0/repositories/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
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
      await fetchJson(
        `${upstreamUrl(env, 'SCORECARD_API_URL')}/projects/${p.host}/${encodeURIComponent(p.owner)}/${encodeURIComponent(p.repo)}`,
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

export function scorecardFromApi(s: any): Record<string, unknown> {
  const date = typeof s.date === 'string' ? `${s.date.slice(0, 10)}T00:00:00Z` : undefined;
  return {
    ...(date ? { date } : {}),
    repository: { name: str(s.repo?.name), commit: str(s.repo?.commit) },
    scorecard: { version: str(s.scorecard?.version), commit: str(s.scorecard?.commit) },
    checks: (s.checks ?? []).map((c: any) => ({
      name: str(c.name),
      documentation: {
        shortDescription: str(c.documentation?.short ?? c.documentation?.shortDescription),
        url: str(c.documentation?.url),
      },
      score: num(c.score),
      reason: str(c.reason),
      details: Array.isArray(c.details) ? c.details.map(String) : [],
    })),
    overallScore: typeof s.score === 'number' ? s.score : 0,
    metadata: Array.isArray(s.metadata) ? s.metadata.map(String) : [],
  };
}
