/**
 * Maven Central has no feed: the feeds cron re-reads stored Maven packages on a schedule proportional to how
 * recently they changed (src/insights/feeds/maven.ts), against a loopback repository. Time passing is
 * simulated by moving `fetched_at` and `published_at` into the past. A due package whose metadata lists
 * the stored versions costs one request and is marked read; one with a new version is ingested again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import type { Env } from '../../../../src/platform/env.ts';
import { emptyInsights } from '../../../../tools/universes/graphs.ts';
import { startMavenRepository } from '../../../../tools/registries/feeds/maven.ts';
import type { FeedRegistry } from '../../../../tools/registries/feeds/types.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';

const db = testDb();
let repo: FeedRegistry;
let env: Env;
let api: ReturnType<typeof workerClient>;

async function cron(): Promise<void> {
  const work: Promise<unknown>[] = [];
  await insights.scheduled({ cron: '* * * * *' }, env, { waitUntil: (p) => void work.push(p) });
  await Promise.all(work);
}

const metadataReads = (dir: string) => repo.fake.requests.filter((r) => r.path === `${dir}/maven-metadata.xml`).length;
const pomReads = (dir: string) =>
  repo.fake.requests.filter((r) => r.path.startsWith(dir) && r.path.endsWith('.pom')).length;

async function versions(name: string): Promise<string[]> {
  const res = await api.get(`/v3/systems/maven/packages/${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { versions: { versionKey: { version: string } }[] }).versions.map(
    (v) => v.versionKey.version,
  );
}

/** Moves a package's read time and its versions' publication times `readAgo` / `publishedAgo` into the past. */
async function age(name: string, readAgo: string, publishedAgo: string): Promise<void> {
  await db.query(
    `UPDATE insights.packages SET fetched_at = now() - $2::interval WHERE system = 'MAVEN' AND name = $1`,
    [name, readAgo],
  );
  await db.query(
    `UPDATE insights.versions SET published_at = now() - $2::interval WHERE system = 'MAVEN' AND name = $1`,
    [name, publishedAgo],
  );
}

beforeAll(async () => {
  await emptyInsights(db);
  repo = await startMavenRepository();
  env = testEnv({ ...repo.env, INSIGHTS_FEEDS: 'maven', INSIGHTS_FEED_RUN_SECONDS: '0' });
  api = workerClient(insights, env);
  repo.publish('org.ff:fresh', '1.2.3');
  repo.publish('org.ff:old', '1.2.3');
  expect(await versions('org.ff:fresh')).toEqual(['1.2.3']);
  expect(await versions('org.ff:old')).toEqual(['1.2.3']);
  await cron(); // the first run starts the schedule
});
afterAll(() => repo?.close());

describe('Maven re-read schedule', () => {
  it('re-reads a recently changed package sooner than an old one', async () => {
    await age('org.ff:fresh', '10 minutes', '1 hour'); // due every 5 minutes
    await age('org.ff:old', '10 minutes', '100 days'); // due daily
    const fresh = metadataReads('/org/ff/fresh');
    const old = metadataReads('/org/ff/old');
    await cron();
    expect(metadataReads('/org/ff/fresh')).toBe(fresh + 1);
    expect(metadataReads('/org/ff/old')).toBe(old);
  });

  it('an unchanged package costs its metadata only and is marked read', async () => {
    await age('org.ff:old', '2 days', '100 days');
    const poms = pomReads('/org/ff/old');
    await cron();
    expect(pomReads('/org/ff/old')).toBe(poms);
    const rows = await db.query<{ recent: boolean }>(
      `SELECT fetched_at > now() - interval '1 minute' AS recent FROM insights.packages WHERE system = 'MAVEN' AND name = 'org.ff:old'`,
    );
    expect(rows[0]!.recent).toBe(true);
  });

  it('a new version of a due package is ingested', async () => {
    repo.publish('org.ff:old', '1.2.4');
    await cron();
    expect(await versions('org.ff:old')).toEqual(['1.2.3']); // not due yet: read a moment ago
    await age('org.ff:old', '2 days', '100 days');
    await cron();
    expect(await versions('org.ff:old')).toEqual(['1.2.3', '1.2.4']);
    const status = (await (await api.get('/healthz/feeds')).json()) as {
      feeds: { registry: string; backlog: number }[];
    };
    expect(status.feeds.find((f) => f.registry === 'maven')!.backlog).toBe(0);
  });
});
