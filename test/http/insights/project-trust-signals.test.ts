/**
 * GetProject with OSS-Fuzz details and a full Scorecard (issue 34 items 3 and 4), through the insights
 * function on a fresh database with every upstream on loopback: the GitHub API, the Scorecard API (a
 * result with details, metadata and an inconclusive check), OSS-Fuzz's project files and its coverage
 * reports (latest_report_info and the llvm-cov summary it names). Every answer is parsed strictly into
 * deps.dev's v3 Project message (protoChecked); the expected bodies are written out in full.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { emptyInsights } from '../../../tools/universes/graphs.ts';
import { protoChecked, parsedAnswers } from '../../fixtures/insights/depsdev-proto.ts';

const db = testDb();
let server: Server;
let api: ReturnType<typeof workerClient>;
const hits = new Map<string, number>();

const CHECK = (name: string, score: number, reason: string, details: string[] | null) => ({
  name,
  score,
  reason,
  details,
  documentation: {
    short: `${name} check.`,
    url: `https://github.com/ossf/scorecard/blob/main/docs/checks.md#${name.toLowerCase()}`,
  },
});

const SCORECARD_API = {
  date: '2025-11-20T04:12:33Z',
  repo: { name: 'github.com/curl/curl', commit: '0123456789abcdef0123456789abcdef01234567' },
  scorecard: { version: 'v5.3.0', commit: 'c22063e786c11f9dd714d777a687ff7c4599b600' },
  score: 8.7,
  checks: [
    CHECK('Fuzzing', 10, 'project is fuzzed', ['Info: OSSFuzz integration found']),
    CHECK('Packaging', -1, 'packaging workflow not detected', null),
  ],
  metadata: ['scorecard-action'],
};

const ROUTES: Record<string, unknown> = {
  '/github/repos/curl/curl': {
    open_issues_count: 3,
    stargazers_count: 40,
    forks_count: 5,
    description: 'curl',
    homepage: 'https://curl.se',
    license: { spdx_id: 'curl' },
  },
  '/github/repos/someone/curl': { open_issues_count: 0, stargazers_count: 0, forks_count: 0, description: 'a fork' },
  '/scorecard/projects/github.com/curl/curl': SCORECARD_API,
  '/oss-fuzz-projects/curl/project.yaml':
    'homepage: "https://curl.se"\nlanguage: c++\nmain_repo: "https://github.com/curl/curl.git"\nprimary_contact: "x@example.org"\n',
  '/oss-fuzz-coverage/latest_report_info/curl.json': {
    fuzzer_stats_dir: 'gs://oss-fuzz-coverage/curl/fuzzer_stats/20251119',
    html_report_url: 'https://storage.googleapis.com/oss-fuzz-coverage/curl/reports/20251119/linux/index.html',
    report_date: '20251119',
    report_summary_path: 'gs://oss-fuzz-coverage/curl/reports/20251119/linux/summary.json',
  },
  '/oss-fuzz-coverage/curl/reports/20251119/linux/summary.json': {
    data: [
      { totals: { lines: { count: 81234, covered: 40321, percent: 49.6 }, functions: { count: 2000, covered: 1500 } } },
    ],
    type: 'llvm.coverage.json.export',
    version: '2.0.1',
  },
};

beforeAll(async () => {
  await emptyInsights(db);
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = ROUTES[path];
    if (body === undefined) return res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(200, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  api = protoChecked(
    workerClient(
      insights,
      testEnv({
        GITHUB_API_URL: `${url}/github`,
        SCORECARD_API_URL: `${url}/scorecard`,
        OSS_FUZZ_PROJECTS_URL: `${url}/oss-fuzz-projects`,
        OSS_FUZZ_COVERAGE_URL: `${url}/oss-fuzz-coverage`,
      }),
    ),
  );
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await emptyInsights(db);
});

async function project(id: string) {
  const before = parsedAnswers.get('v3.GetProject') ?? 0;
  const res = await api.get(`/v3/projects/${encodeURIComponent(id)}`);
  expect(res.status).toBe(200);
  expect(parsedAnswers.get('v3.GetProject')).toBe(before + 1); // parsed strictly into v3.Project
  return res.json();
}

const documentation = (name: string) => ({
  shortDescription: `${name} check.`,
  url: `https://github.com/ossf/scorecard/blob/main/docs/checks.md#${name.toLowerCase()}`,
});

describe('GetProject trust signals', () => {
  it('a project OSS-Fuzz tests: ossFuzz from its latest coverage report, the Scorecard as the message', async () => {
    expect(await project('github.com/curl/curl')).toEqual({
      projectKey: { id: 'github.com/curl/curl' },
      openIssuesCount: 3,
      starsCount: 40,
      forksCount: 5,
      license: 'curl',
      description: 'curl',
      homepage: 'https://curl.se',
      scorecard: {
        date: '2025-11-20T00:00:00Z',
        repository: { name: 'github.com/curl/curl', commit: '0123456789abcdef0123456789abcdef01234567' },
        scorecard: { version: 'v5.3.0', commit: 'c22063e786c11f9dd714d777a687ff7c4599b600' },
        checks: [
          {
            name: 'Fuzzing',
            documentation: documentation('Fuzzing'),
            score: 10,
            reason: 'project is fuzzed',
            details: ['Info: OSSFuzz integration found'],
          },
          {
            name: 'Packaging',
            documentation: documentation('Packaging'),
            score: -1,
            reason: 'packaging workflow not detected',
            details: [],
          },
        ],
        overallScore: 8.7,
        metadata: ['scorecard-action'],
      },
      ossFuzz: {
        lineCount: 81234,
        lineCoverCount: 40321,
        date: '2025-11-19T00:00:00Z',
        configUrl: 'https://github.com/google/oss-fuzz/tree/master/projects/curl',
      },
    });
  });

  it("a fork whose name is an OSS-Fuzz project's: main_repo names another repository, so no ossFuzz", async () => {
    const body = await project('github.com/someone/curl');
    expect([body.ossFuzz, body.scorecard, hits.get('/oss-fuzz-projects/curl/project.yaml')]).toEqual([
      undefined,
      undefined,
      2,
    ]);
    expect(hits.get('/oss-fuzz-projects/someone/project.yaml')).toBe(1); // the owner is the other candidate
  });
});
