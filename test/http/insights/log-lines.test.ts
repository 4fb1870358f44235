/**
 * Logs people can read: with every upstream unreachable (a closed loopback port), a fixed load of 300
 * reads across the seven systems (GetPackage, GetVersion, findings, an advisory, a project) prints one
 * line per upstream failure kind per minute at most, none with a stack trace, while every answer is a
 * 502/503 in the envelope (never a 500). Then ten minutes of load, made deterministic: a fixed number of
 * requests per minute over more routes (requirements, graphs, Query, purl, batches, projects), the
 * clock (Date.now, which the per-minute windows read) moved on by a minute between rounds: exactly one
 * line per kind per minute, each after the first counting the failures it stood for.
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

/** Answers by status; every request's body read. */
async function load(paths: readonly string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (const path of paths) {
    const res = path.startsWith('POST ')
      ? await api.post(path.split(' ')[1]!, JSON.parse(path.split(' ').slice(2).join(' ')))
      : await api.get(path);
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  return statuses;
}

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

/** One minute of load: 70 requests over every kind of read a client makes. */
function minuteOfLoad(minute: number): string[] {
  const paths: string[] = [];
  for (let i = 0; i < 70; i++) {
    const [system, base] = NAMES[i % NAMES.length]!;
    const name = encodeURIComponent(`${base}${(minute + i) % 3}`);
    const upper = system.toUpperCase();
    const purlType = ({ go: 'golang', rubygems: 'gem' } as Record<string, string>)[system] ?? system;
    paths.push(
      [
        `/v3/systems/${system}/packages/${name}`,
        `/v3/systems/${system}/packages/${name}/versions/1.0.0:requirements`,
        `/v3/systems/${system}/packages/${name}/versions/1.0.0:dependencies`,
        `/v3/query?versionKey.system=${upper}&versionKey.name=${name}&versionKey.version=1.0.0`,
        `/v3alpha/purl/${encodeURIComponent(`pkg:${purlType}/${decodeURIComponent(name).replace(':', '/')}@1.0.0`)}`,
        `/v3/advisories/GHSA-logl-ines-00${minute}${i % 3}`,
        `/v3/projects/github.com%2Flog%2Fminute${i % 3}`,
        `POST /v3alpha/versionbatch {"requests":[{"versionKey":{"system":"${upper}","name":"${decodeURIComponent(name)}","version":"1.0.0"}}]}`,
        `POST /v3alpha/projectbatch {"requests":[{"projectKey":{"id":"github.com/log/minute${i % 3}"}}]}`,
        `/v3alpha/systems/${system}/packages/${name}:findings`,
      ][i % 10]!,
    );
  }
  return paths;
}

describe('ten minutes of load with every upstream unreachable', () => {
  it('700 requests over ten minutes print exactly one line per failure kind per minute, no stack trace', async () => {
    lines.length = 0;
    resetWarnWindows();
    const start = Date.now();
    let minute = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => start + minute * 61_000);
    const statuses = new Map<number, number>();
    try {
      for (; minute < 10; minute++)
        for (const [status, n] of await load(minuteOfLoad(minute)))
          statuses.set(status, (statuses.get(status) ?? 0) + n);
    } finally {
      clock.mockRestore();
    }
    // batches answer what is stored (200, nothing here), every read through is a 502/503, never a 500
    expect([...statuses.keys()].sort()).toEqual([200, 502, 503]);
    expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
    expect(lines.every((l) => /^insights: upstream \S+ unreachable/.test(l))).toBe(true);
    const perKind = new Map<string, number>();
    for (const l of lines) {
      const kind = l
        .split(':')
        .slice(0, 2)
        .join(':')
        .replace(/ \(\d+ more in the minute before\)$/, '');
      perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
    }
    expect([...perKind.values()].every((n) => n === 10)).toBe(true); // one per minute, every minute
    expect(lines.length).toBe(perKind.size * 10);
    expect(lines.length).toBeLessThanOrEqual(200); // "a few hundred lines in ten minutes" at most
    // after the first minute each line counts the failures of the minute before
    expect(lines.filter((l) => / \(\d+ more in the minute before\):/.test(l)).length).toBeGreaterThan(0);
  });
});
