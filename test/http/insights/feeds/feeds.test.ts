/**
 * Every change feed through the insights function's scheduled handler (one pass per call:
 * INSIGHTS_FEED_RUN_SECONDS=0), each against a loopback registry speaking its feed's documented format
 * (tools/registries/feeds/): the first run starts where the feed stands; a publication of a stored package
 * is visible in GetPackage after the next run and a package never stored stays unstored; a duplicate
 * change is one refresh; the cursor lives in the database, so a new function instance reads on from it;
 * an outage keeps the cursor, says so in `/healthz/feeds`, and the next run reads what it missed; a
 * package the feed says is removed (npm `deleted`, PyPI `remove project`, NuGet `PackageDelete`, a gem
 * or crate yanked) ends as the registry has it. npm's own details (paging, the per-run bound, graphs)
 * are in npm-feed.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import type { Env } from '../../../../src/platform/env.ts';
import { emptyInsights } from '../../../../tools/universes/graphs.ts';
import type { FeedRegistry } from '../../../../tools/registries/feeds/types.ts';
import { startNpmFeed } from '../../../../tools/registries/feeds/npm.ts';
import { startPypiFeed } from '../../../../tools/registries/feeds/pypi.ts';
import { startGoFeed } from '../../../../tools/registries/feeds/go.ts';
import { startCargoFeed } from '../../../../tools/registries/feeds/cargo.ts';
import { startRubygemsFeed } from '../../../../tools/registries/feeds/rubygems.ts';
import { startNugetFeed } from '../../../../tools/registries/feeds/nuget.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';

const db = testDb();

interface Case {
  start: () => Promise<FeedRegistry>;
  names: [string, string, string]; // two stored packages and a stranger
  v: (patch: number) => string;
  /** What GetPackage of a removed package answers: 404, or the versions left listed. */
  removed: 'gone' | 'retracted' | 'yanked';
}

const CASES: Case[] = [
  { start: startNpmFeed, names: ['ff-a', 'ff-b', 'ff-x'], v: (p) => `1.0.${p}`, removed: 'gone' },
  { start: startPypiFeed, names: ['ff-a', 'ff-b', 'ff-x'], v: (p) => `1.0.${p}`, removed: 'gone' },
  {
    start: startGoFeed,
    names: ['example.com/ff/a', 'example.com/ff/b', 'example.com/ff/x'],
    v: (p) => `v1.0.${p}`,
    removed: 'retracted',
  },
  { start: startCargoFeed, names: ['ff-a', 'ff-b', 'ff-x'], v: (p) => `1.0.${p}`, removed: 'yanked' },
  { start: startRubygemsFeed, names: ['ff-a', 'ff-b', 'ff-x'], v: (p) => `1.0.${p}`, removed: 'gone' },
  { start: startNugetFeed, names: ['ff.a', 'ff.b', 'ff.x'], v: (p) => `1.0.${p}`, removed: 'gone' },
];

beforeAll(async () => {
  await emptyInsights(db);
});

describe.each(CASES)('change feed', (c) => {
  let reg: FeedRegistry;
  let env: Env;
  let api: ReturnType<typeof workerClient>;
  const [a, b, stranger] = c.names;
  const envFor = () =>
    testEnv({
      ...reg.env,
      INSIGHTS_NPM_TARBALLS: 'off',
      INSIGHTS_NPM_ATTESTATIONS: 'off',
      INSIGHTS_FEED_RUN_SECONDS: '0',
      INSIGHTS_FEEDS: reg.registry,
    });
  const cron = async (e: Env = env) => {
    const work: Promise<unknown>[] = [];
    await insights.scheduled({ cron: '* * * * *' }, e, { waitUntil: (p) => void work.push(p) });
    await Promise.all(work);
  };
  const path = (name: string) => `/v3/systems/${reg.system.toLowerCase()}/packages/${encodeURIComponent(name)}`;
  const versions = async (name: string) => {
    const res = await api.get(path(name));
    expect(res.status).toBe(200);
    return ((await res.json()) as { versions: { versionKey: { version: string } }[] }).versions.map(
      (v) => v.versionKey.version,
    );
  };
  const status = async () => {
    const body = (await (await api.get('/healthz/feeds')).json()) as { feeds: Record<string, unknown>[] };
    return body.feeds.find((f) => f.registry === reg.registry)!;
  };

  beforeAll(async () => {
    reg = await c.start();
    env = envFor();
    api = workerClient(insights, env);
    reg.publish(a, c.v(0));
    reg.publish(b, c.v(0));
    expect(await versions(a)).toEqual([c.v(0)]);
    expect(await versions(b)).toEqual([c.v(0)]);
  });
  afterAll(() => reg?.close());

  it('starts where the feed stands, then makes a publication of a stored package visible', async () => {
    await cron();
    const first = await status();
    expect(first.cursor).not.toBeNull();
    expect(first.enabled).toBe(true);
    reg.publish(a, c.v(1));
    reg.touch(a);
    reg.publish(stranger, c.v(0));
    await cron();
    expect(await versions(a)).toEqual([c.v(0), c.v(1)]);
    const rows = await db.query('SELECT 1 FROM insights.packages WHERE system = $1 AND name = $2', [
      reg.system,
      stranger,
    ]);
    expect(rows).toHaveLength(0);
    const s = await status();
    expect(s.cursor).not.toBe(first.cursor);
    expect(s.refreshed).toBe(1); // the duplicate change was one refresh
    expect(s.backlog).toBe(0);
    expect(s.lastChangeAt).not.toBeNull();
  });

  it('keeps the cursor in the database: a new instance reads on from it', async () => {
    const before = (await status()).cursor;
    reg.publish(b, c.v(1));
    await cron(envFor());
    expect(await versions(b)).toEqual([c.v(0), c.v(1)]);
    expect((await status()).cursor).not.toBe(before);
  });

  it('an outage keeps the cursor and the next run reads everything missed', async () => {
    const before = await status();
    reg.publish(a, c.v(2));
    reg.publish(b, c.v(2));
    reg.fake.down = true;
    await cron();
    const during = await status();
    expect(during.cursor).toBe(before.cursor);
    expect(during.lastError).toMatch(/503/);
    reg.fake.down = false;
    await cron();
    expect(await versions(a)).toContain(c.v(2));
    expect(await versions(b)).toContain(c.v(2));
    expect((await status()).lastError).toBeNull();
  });

  it('a removed package ends as the registry has it', async () => {
    reg.remove(b);
    await cron();
    if (c.removed === 'gone') {
      expect((await api.get(path(b))).status).toBe(404);
      expect((await status()).deleted).toBe(1);
    } else if (c.removed === 'yanked') {
      const res = await api.get(path(b));
      const body = (await res.json()) as { versions: { isDefault: boolean }[] };
      expect(body.versions).toHaveLength(3); // still listed, none the default any more
      expect(body.versions.filter((v) => v.isDefault)).toEqual([]);
    } else {
      expect(await versions(b)).toContain(c.v(3)); // the retracting version
    }
  });
});
