/**
 * The npm change feed through the insights function's scheduled handler (the minute cron, one pass per
 * call: INSIGHTS_FEED_RUN_SECONDS=0) against a loopback registry speaking CouchDB's replication feed:
 * the first run starts at `update_seq`; a publication of a stored package is visible in GetPackage after
 * the next run and its dependents' cached graphs resolve afresh; names never stored stay unstored;
 * duplicates are one refresh; the cursor is kept in the database across runs and function restarts; an
 * outage keeps the cursor and the next run reads everything missed; a `deleted` change removes the
 * package; paging and the per-run bound carry the backlog over; a registry leased by another run is left alone;
 * a graph resolved before a refresh is not cached. Status at `GET /healthz/feeds`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import type { Env } from '../../../../src/platform/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { startNpmFeedRegistry, type NpmFeedRegistry } from '../../../../tools/registries/feeds/npm-registry.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';

let reg: NpmFeedRegistry;
let env: Env;
let api: ReturnType<typeof workerClient>;
const db = testDb();

function envWith(extra: Record<string, string> = {}): Env {
  return testEnv({
    NPM_REGISTRY_URL: reg.url,
    NPM_REPLICATE_URL: reg.url,
    OSV_API_URL: reg.url,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_NPM_ATTESTATIONS: 'off',
    INSIGHTS_FEED_RUN_SECONDS: '0',
    INSIGHTS_FEEDS: 'npm',
    ...extra,
  });
}

/** Runs the scheduled handler as the runtime does (a fresh call each time: a restarted isolate keeps nothing). */
async function cron(e: Env = env): Promise<void> {
  const work: Promise<unknown>[] = [];
  await insights.scheduled({ cron: '* * * * *' }, e, { waitUntil: (p) => void work.push(p) });
  await Promise.all(work);
}

type Status = { registry: string; cursor: string | null; backlog: number; lastChangeAt: string | null } & Record<
  string,
  unknown
>;
async function npmStatus(): Promise<Status> {
  const res = await api.get('/healthz/feeds');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { feeds: Status[] };
  return body.feeds.find((f) => f.registry === 'npm')!;
}

async function versions(name: string): Promise<string[]> {
  const res = await api.get(`/v3/systems/npm/packages/${name}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { versions: { versionKey: { version: string } }[] }).versions.map(
    (v) => v.versionKey.version,
  );
}

async function graphNodes(name: string, version: string): Promise<string[]> {
  const res = await api.get(`/v3/systems/npm/packages/${name}/versions/${version}:dependencies`);
  expect(res.status).toBe(200);
  return graphSets((await res.json()) as Parameters<typeof graphSets>[0]).nodes;
}

const cachedGraphs = async (name: string) =>
  (await db.query('SELECT 1 FROM insights.dependency_graphs WHERE system = $1 AND name = $2', ['NPM', name])).length;

beforeAll(async () => {
  await emptyInsights(db);
  reg = await startNpmFeedRegistry();
  env = envWith();
  api = workerClient(insights, env);
  reg.publish('fd-lib', '1.0.0');
  reg.publish('fd-lib', '1.0.1');
  reg.publish('fd-app', '1.0.0', { dependencies: { 'fd-lib': '^1.0.0' } });
  reg.publish('fd-two', '2.0.0');
  expect(await graphNodes('fd-app', '1.0.0')).toEqual(['fd-app@1.0.0', 'fd-lib@1.0.1']);
  expect(await versions('fd-two')).toEqual(['2.0.0']);
});

afterAll(async () => {
  await reg?.close();
});

describe('npm change feed', () => {
  it('starts at update_seq: nothing before it is replayed', async () => {
    const before = reg.seq();
    await cron();
    const s = await npmStatus();
    expect(s.cursor).toBe(String(before));
    expect(s.backlog).toBe(0);
    expect(reg.sinces).toEqual([]); // the first run asks where the feed stands, not for its changes
    const post = await api.post('/healthz/feeds', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toMatch(/GET/);
  });

  it('a patch release of a dependency is visible after the next run, and the dependent graph picks it', async () => {
    expect(await cachedGraphs('fd-app')).toBe(1);
    reg.publish('fd-lib', '1.0.2');
    reg.touch('fd-lib'); // a duplicate change of the same package
    reg.publish('fd-stranger', '0.1.0'); // never stored here: not the service's business
    await cron();
    expect(await versions('fd-lib')).toEqual(['1.0.0', '1.0.1', '1.0.2']);
    expect(await cachedGraphs('fd-app')).toBe(0); // the cached graph that read fd-lib was dropped with the refresh
    expect(await graphNodes('fd-app', '1.0.0')).toEqual(['fd-app@1.0.0', 'fd-lib@1.0.2']);
    const stranger = await db.query('SELECT 1 FROM insights.packages WHERE name = $1', ['fd-stranger']);
    expect(stranger).toHaveLength(0);
    const s = await npmStatus();
    expect(s.cursor).toBe(String(reg.seq()));
    expect(s.refreshed).toBe(1); // the duplicate was one refresh
    expect(s.changesRead).toBe(3);
    expect(s.lastChangeAt).not.toBeNull();
    expect(s.lastError).toBeNull();
  });

  it('does not cache a graph whose resolution began before a feed refreshed one of its packages', async () => {
    // a refresh that committed while this resolution ran (its rows may be old): answered, not cached
    await db.query(
      `UPDATE insights.feed_refreshes SET refreshed_at = now() + interval '1 minute' WHERE system = 'NPM' AND name = 'fd-lib'`,
    );
    expect(await graphNodes('fd-app', '1.0.0')).toEqual(['fd-app@1.0.0', 'fd-lib@1.0.2']);
    expect(await cachedGraphs('fd-app')).toBe(0);
    await db.query(
      `UPDATE insights.feed_refreshes SET refreshed_at = now() - interval '1 minute' WHERE system = 'NPM' AND name = 'fd-lib'`,
    );
    expect(await graphNodes('fd-app', '1.0.0')).toEqual(['fd-app@1.0.0', 'fd-lib@1.0.2']);
    expect(await cachedGraphs('fd-app')).toBe(1);
  });

  it('keeps the cursor in the database: a restarted function reads on from it', async () => {
    const cursor = (await npmStatus()).cursor!;
    reg.publish('fd-two', '2.0.1');
    await cron(envWith()); // a new env object and database handle: nothing kept in memory
    expect(reg.sinces.at(-1)).toBe(cursor);
    expect((await npmStatus()).cursor).toBe(String(reg.seq()));
    expect(await versions('fd-two')).toEqual(['2.0.0', '2.0.1']);
  });

  it('an outage keeps the cursor, says so, and the next run reads everything it missed', async () => {
    const cursor = (await npmStatus()).cursor;
    reg.publish('fd-lib', '1.0.3');
    reg.publish('fd-two', '2.0.2');
    reg.fake.down = true;
    await cron();
    const during = await npmStatus();
    expect(during.cursor).toBe(cursor);
    expect(during.lastError).toMatch(/503/);
    reg.fake.down = false;
    await cron();
    expect(await versions('fd-lib')).toContain('1.0.3');
    expect(await versions('fd-two')).toContain('2.0.2');
    expect((await npmStatus()).lastError).toBeNull();
  });

  it('a package whose refresh fails stays in the backlog and is retried after its backoff', async () => {
    reg.publish('fd-two', '2.0.3');
    reg.failing.add('fd-two');
    await cron();
    const s = await npmStatus();
    expect(s.cursor).toBe(String(reg.seq())); // the change is read (and kept in the backlog) ...
    expect(s.backlog).toBe(1);
    expect(await versions('fd-two')).not.toContain('2.0.3'); // ... and not refreshed
    reg.failing.delete('fd-two');
    await cron();
    expect((await npmStatus()).backlog).toBe(1); // not due yet: the backoff is 10 s after a first failure
    await db.query("UPDATE insights.feed_backlog SET next_try_at = now() - interval '1 second' WHERE name = 'fd-two'");
    await cron();
    expect(await versions('fd-two')).toContain('2.0.3');
    expect((await npmStatus()).backlog).toBe(0);
  });

  it('a run leaves alone a registry another run holds, and follows it once the lease is over', async () => {
    reg.publish('fd-two', '2.0.9');
    await db.query(`UPDATE insights.feed_cursors SET lease_until = now() + interval '1 minute' WHERE registry = 'npm'`);
    const reads = reg.sinces.length;
    await cron();
    expect(reg.sinces.length).toBe(reads);
    expect(await versions('fd-two')).not.toContain('2.0.9');
    await db.query(`UPDATE insights.feed_cursors SET lease_until = now() - interval '1 second' WHERE registry = 'npm'`);
    await cron();
    expect(await versions('fd-two')).toContain('2.0.9');
  });

  it('pages through the feed and bounds the refreshes of one run, carrying the backlog over', async () => {
    const bounded = envWith({ INSIGHTS_FEED_PAGE: '2', INSIGHTS_FEED_NAMES_PER_RUN: '1' });
    reg.publish('fd-lib', '1.0.4');
    reg.publish('fd-stranger', '0.2.0');
    reg.publish('fd-stranger', '0.3.0');
    reg.publish('fd-two', '2.0.4');
    reg.publish('fd-stranger', '0.4.0');
    await cron(bounded);
    const after = await npmStatus();
    expect(after.cursor).toBe(String(reg.seq())); // every page read in one run
    expect(after.backlog).toBe(1); // one refreshed, one carried over
    await cron(bounded);
    expect((await npmStatus()).backlog).toBe(0);
    expect(await versions('fd-lib')).toContain('1.0.4');
    expect(await versions('fd-two')).toContain('2.0.4');
  });

  it('a deleted package is removed, and so is every cached graph that read it', async () => {
    expect(await graphNodes('fd-app', '1.0.0')).toEqual(['fd-app@1.0.0', 'fd-lib@1.0.4']);
    reg.unpublish('fd-lib');
    await cron();
    expect((await api.get('/v3/systems/npm/packages/fd-lib')).status).toBe(404);
    expect(await cachedGraphs('fd-app')).toBe(0);
    expect((await npmStatus()).deleted).toBe(1);
  });
});
