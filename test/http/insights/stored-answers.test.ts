/**
 * Stored answers (migrations/0175_stored_answers.sql, src/insights/stored-answers.ts): GetPackage and
 * GetVersion, v3 and v3alpha, are served from the text written when the package was stored, and that
 * text is byte for byte what the service builds on read when nothing is stored. A refresh through the
 * queue that brings a new version (a new default) and an advisory rewrites them: the next reads show both.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import insights from '../../../functions/insights.ts';
import { refreshPackageAnswers } from '../../../src/insights/stored-answers.ts';
import { executionContext, testDb, testEnv, workerClient } from '../../support/env.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';

const NAME = 'stored-answer-demo';
const release = (version: string, day: number) => ({
  version: {
    name: NAME,
    version,
    license: 'MIT',
    dist: { tarball: `https://x.example/${NAME}-${version}.tgz` },
    repository: { type: 'git', url: 'git+https://github.com/stored/answer-demo.git' },
  },
  time: `2024-01-0${day}T00:00:00.000Z`,
});
const packument = (versions: string[]) => {
  const rs = Object.fromEntries(versions.map((v, i) => [v, release(v, i + 1)]));
  return {
    name: NAME,
    'dist-tags': { latest: versions.at(-1) },
    time: Object.fromEntries(Object.entries(rs).map(([v, r]) => [v, r.time])),
    versions: Object.fromEntries(Object.entries(rs).map(([v, r]) => [v, r.version])),
  };
};
const ADVISORY = {
  id: 'GHSA-stor-ed00-answ',
  modified: '2026-01-01T00:00:00Z',
  summary: 'stored answers test',
  affected: [
    {
      package: { ecosystem: 'npm', name: NAME },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.1.0' }] }],
    },
  ],
};

let upstream = { packument: packument(['1.0.0', '1.1.0']), vulns: [] as object[] };
let registry: RegistryServer;
let served: Served;
let api: ReturnType<typeof workerClient>;
let stale: ReturnType<typeof workerClient>;
const db = testDb();

const PATHS = [
  `/v3/systems/npm/packages/${NAME}`,
  `/v3alpha/systems/npm/packages/${NAME}`,
  `/v3/systems/npm/packages/${NAME}/versions/1.0.0`,
  `/v3alpha/systems/npm/packages/${NAME}/versions/1.0.0`,
];

async function texts(): Promise<string[]> {
  return Promise.all(
    PATHS.map(async (path) => {
      const res = await api.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return res.text();
    }),
  );
}

/** The same answers with nothing stored: built on read. */
async function builtOnRead(): Promise<string[]> {
  await db.query('UPDATE insights.packages SET answer_v3 = NULL, answer_alpha = NULL WHERE system = $1 AND name = $2', [
    'NPM',
    NAME,
  ]);
  await db.query('DELETE FROM insights.version_answers WHERE system = $1 AND name = $2', ['NPM', NAME]);
  return texts();
}

async function storedCount(): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `SELECT
      (SELECT count(*) FROM insights.version_answers WHERE system = 'NPM' AND name = $1)
      + (SELECT count(*) FROM insights.packages WHERE system = 'NPM' AND name = $1 AND answer_v3 IS NOT NULL
        AND answer_alpha IS NOT NULL) AS n`,
    [NAME],
  );
  return Number(rows[0]!.n);
}

/** How many rows each table holds of the package. */
async function packageRows(): Promise<{ t: string; n: number }[]> {
  const rows = await db.query<{ t: string; n: string }>(
    `SELECT t, n FROM (
      SELECT 'versions' AS t, count(*) AS n FROM insights.versions WHERE system = 'NPM' AND name = $1
      UNION ALL SELECT 'requirements', count(*) FROM insights.requirements WHERE system = 'NPM' AND name = $1
      UNION ALL SELECT 'artifacts', count(*) FROM insights.artifacts WHERE system = 'NPM' AND name = $1
      UNION ALL SELECT 'project_versions', count(*) FROM insights.project_versions WHERE system = 'NPM' AND name = $1
      UNION ALL SELECT 'version_details', count(*) FROM insights.version_details WHERE system = 'NPM' AND name = $1
      UNION ALL SELECT 'version_answers', count(*) FROM insights.version_answers WHERE system = 'NPM' AND name = $1) x
`,
    [NAME],
  );
  return rows.map((r) => ({ t: r.t, n: Number(r.n) }));
}

beforeAll(async () => {
  await db.query('DELETE FROM insights.packages WHERE system = $1 AND name = $2', ['NPM', NAME]);
  await db.query('DELETE FROM insights.advisories WHERE id = $1', [ADVISORY.id]);
  registry = await startRegistry((p) =>
    p === '/v1/query' ? { vulns: upstream.vulns } : p === `/${NAME}` ? upstream.packument : undefined,
  );
  const vars = {
    NPM_REGISTRY_URL: registry.url,
    OSV_API_URL: registry.url,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_NPM_ATTESTATIONS: 'off',
  };
  served = await serveWorker(delivery, (url) => testEnv({ ...vars, DELIVERY_URL: url }));
  api = workerClient(insights, testEnv({ ...vars, DELIVERY_URL: served.url }));
  stale = workerClient(insights, testEnv({ ...vars, DELIVERY_URL: served.url, INSIGHTS_REFRESH_AFTER_SECONDS: '0' }));
});
afterAll(async () => {
  await served?.close();
  await registry?.close();
});

describe('stored GetPackage and GetVersion answers', () => {
  it('are written when the package is stored and equal, byte for byte, the answers built on read', async () => {
    const stored = await texts();
    expect(await storedCount()).toBe(3); // two versions and the package
    expect(JSON.parse(stored[0]!).versions.map((v: any) => [v.versionKey.version, v.isDefault])).toEqual([
      ['1.0.0', false],
      ['1.1.0', true],
    ]);
    expect(JSON.parse(stored[2]!).advisoryKeys).toEqual([]);
    expect(await builtOnRead()).toEqual(stored);
  });

  it('a refresh that brings a new default version and an advisory rewrites them', async () => {
    upstream = { packument: packument(['1.0.0', '1.1.0', '1.2.0']), vulns: [ADVISORY] };
    expect((await stale.get(`/v3/systems/npm/packages/${NAME}`)).status).toBe(200); // stale: queues /insights/refresh
    const pkg = await waitFor(
      'the refreshed answers',
      async () => {
        const [p, , v] = (await texts()).map((t) => JSON.parse(t));
        // advisories and then the stored answers: transactions after the package's rows
        return p.versions.length === 3 && v.advisoryKeys.length > 0 && (await storedCount()) === 4 ? p : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(pkg.versions.map((v: any) => [v.versionKey.version, v.isDefault])).toEqual([
      ['1.0.0', false],
      ['1.1.0', false],
      ['1.2.0', true],
    ]);
    const stored = await texts();
    expect(JSON.parse(stored[2]!).advisoryKeys).toEqual([{ id: ADVISORY.id }]);
    expect(JSON.parse(stored[3]!).advisoryKeys).toEqual([{ id: ADVISORY.id }]);
    const fixed = await api.get(`/v3/systems/npm/packages/${NAME}/versions/1.1.0`).then((r) => r.json());
    expect(fixed.advisoryKeys).toEqual([]);
    expect(await storedCount()).toBe(4);
    expect(await builtOnRead()).toEqual(stored);
  });

  it('a first read answers the text that is stored after it, and a package deleted takes every row of it along', async () => {
    await db.query('DELETE FROM insights.packages WHERE system = $1 AND name = $2', ['NPM', NAME]);
    const { ctx, pending, settle } = executionContext();
    const first = await insights.fetch(new Request(`http://localhost${PATHS[0]}`), api.env as never, ctx as never);
    const text = await first.text();
    expect(first.status).toBe(200);
    expect(pending.length).toBeGreaterThan(0); // the package is stored after the answer
    expect(await storedCount()).toBe(0);
    await settle();
    expect(await storedCount()).toBe(4);
    expect((await texts())[0]).toBe(text);

    const before = await packageRows();
    expect(
      before.filter((r) => ['versions', 'requirements', 'version_details', 'version_answers'].includes(r.t) && r.n > 0),
    ).toHaveLength(4);
    await db.query('DELETE FROM insights.packages WHERE system = $1 AND name = $2', ['NPM', NAME]);
    expect((await packageRows()).filter((r) => r.n > 0)).toEqual([]);
    await texts(); // read through again: the suite below reads the stored package
  });
});

/** Every stored answer text of the package, as the database holds it (served without a parse). */
async function storedTexts(): Promise<string[]> {
  const rows = await db.query<{ t: string }>(
    `SELECT t FROM (SELECT answer_v3::text AS a, answer_alpha::text AS b FROM insights.packages
        WHERE system = 'NPM' AND name = $1) p, LATERAL (VALUES (p.a), (p.b)) x(t)
     UNION ALL SELECT t FROM insights.version_answers a, LATERAL (VALUES (a.v3::text), (a.alpha::text)) x(t)
        WHERE a.system = 'NPM' AND a.name = $1`,
    [NAME],
  );
  return rows.map((r) => r.t).sort();
}

describe('stored answers in one JSON spelling (migrations/0193_compact_answers.sql)', () => {
  it('are stored compact, as JSON.stringify prints them', async () => {
    await refreshPackageAnswers(db, 'NPM', NAME); // the suite above ends with nothing stored
    const stored = await storedTexts();
    expect(stored).toHaveLength(8); // v3 and v3alpha of the package and of its three versions
    for (const t of stored) expect(t).toBe(JSON.stringify(JSON.parse(t)));
  });

  it("the migration's rewrite makes answers stored in the earlier spelling compact, same documents", async () => {
    const before = await storedTexts();
    // The spelling of 0175's builders: json_build_object/json_agg/json_object_agg text, spaces around `:`.
    await db.query(
      `UPDATE insights.packages SET answer_v3 = replace(replace(answer_v3::text, '":', '" : '), ',"', ', "')::json,
        answer_alpha = replace(answer_alpha::text, '{"', '{ "')::json WHERE system = 'NPM' AND name = $1`,
      [NAME],
    );
    await db.query(
      `UPDATE insights.version_answers SET alpha = replace(alpha::text, '":', '" : ')::json
        WHERE system = 'NPM' AND name = $1`,
      [NAME],
    );
    const spaced = await storedTexts();
    expect(spaced.filter((t) => t !== JSON.stringify(JSON.parse(t)))).toHaveLength(5);
    const sql = readFileSync(new URL('../../../migrations/0193_compact_answers.sql', import.meta.url), 'utf8');
    const rewrites = sql.split(';').filter((s) => /^\s*(--.*\n\s*)*UPDATE /.test(s));
    expect(rewrites).toHaveLength(2);
    for (const statement of rewrites) await db.query(statement);
    expect(await storedTexts()).toEqual(before);
  });
});
