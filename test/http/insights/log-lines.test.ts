/**
 * Logs people can read: with every upstream unreachable (a closed loopback port), a fixed load of 300
 * reads across the seven systems (GetPackage, GetVersion, findings, an advisory, a project) prints one
 * line per upstream failure kind per minute at most, none with a stack trace, while every answer is a
 * 502/503 in the envelope (never a 500).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import insights from '../../../functions/insights.ts';
import { resetWarnWindows } from '../../../src/platform/log-limit.ts';
import { testEnv, workerClient } from '../../support/env.ts';

let api: ReturnType<typeof workerClient>;
const lines: string[] = [];

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  const dead = `http://127.0.0.1:${await closedPort()}`;
  const urls = [
    'NPM_REGISTRY_URL',
    'PYPI_URL',
    'CRATES_INDEX_URL',
    'CRATES_API_URL',
    'MAVEN_REPO_URL',
    'RUBYGEMS_URL',
    'GO_PROXY_URL',
    'OSV_API_URL',
    'GITHUB_API_URL',
    'GITLAB_API_URL',
    'BITBUCKET_API_URL',
    'SCORECARD_API_URL',
    'OSS_FUZZ_PROJECTS_URL',
    'OSS_FUZZ_COVERAGE_URL',
  ];
  api = workerClient(
    insights,
    testEnv({ ...Object.fromEntries(urls.map((u) => [u, dead])), NUGET_INDEX_URL: `${dead}/index.json` }),
  );
  resetWarnWindows();
  const capture = (...args: unknown[]) => {
    lines.push(
      ...args
        .map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a)))
        .join(' ')
        .split('\n'),
    );
  };
  for (const level of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(capture);
});
afterAll(() => vi.restoreAllMocks());

const NAMES: [string, string][] = [
  ['npm', 'log-lines-pkg'],
  ['pypi', 'log-lines-pkg'],
  ['cargo', 'log-lines-pkg'],
  ['maven', 'org.example:log-lines'],
  ['nuget', 'Log.Lines'],
  ['rubygems', 'log-lines'],
  ['go', 'example.com/log/lines'],
];

describe('every upstream unreachable', () => {
  it('300 reads print one line per failure kind, no stack trace, and answer 502/503', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const [system, base] = NAMES[i % NAMES.length]!;
      const name = encodeURIComponent(`${base}${i % 5}`);
      const path = [
        `/v3/systems/${system}/packages/${name}`,
        `/v3/systems/${system}/packages/${name}/versions/1.0.0`,
        `/v3alpha/systems/${system}/packages/${name}:findings`,
        `/v3/advisories/GHSA-logl-ines-000${i % 5}`,
        `/v3/projects/github.com%2Flog%2Flines${i % 5}`,
      ][i % 5]!;
      const res = await api.get(path);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    expect([...statuses.keys()].every((s) => s === 502 || s === 503)).toBe(true);
    expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]); // no stack trace
    // one line per kind: each registry, OSV and the project host, all "unreachable"
    const kinds = new Set(lines.map((l) => l.split(':').slice(0, 2).join(':')));
    expect(lines.length).toBe(kinds.size);
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.every((l) => /^insights: upstream \S+ unreachable/.test(l))).toBe(true);
  });
});
