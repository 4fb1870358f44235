/**
 * Findings (`:findings` on packages and versions, `POST /v3alpha/findingsbatch`), each type from stored
 * fixtures: an OSV `MAL-` record, a deprecated npm version, a yanked crate, a version inside the cooldown
 * window, a vulnerable version with its remediation, unknown packages and versions; recommendedVersions;
 * the configurable cooldown; batch validation and paging; LOW_USAGE from stored dependents (opt-in threshold).
 * Answers are deps.dev's `Findings` message: version-scoped findings in `requestedVersion.findings`,
 * package-scoped ones in `packageFindings` (and in every Version's findings), recommended versions as
 * `Findings.Version` messages (test/http/insights/proto-strict.test.ts parses them strictly).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { api, json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';

useFixtureUpstream();

const DAY = 86_400_000;
const recent = new Date(Date.now() - 2 * DAY);
recent.setUTCMilliseconds(0);

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE name LIKE 'fnd-%'`);
  await db.query(`DELETE FROM insights.advisories WHERE id IN ('GHSA-fnd1-fnd1-fnd1', 'MAL-2026-fnd1')`);
  const versions: [string, string, string, number, string | null, boolean, string, boolean, string][] = [
    // system, name, version, ordinal, published, default, deprecated reason, deprecated, meta
    ['NPM', 'fnd-pkg', '1.0.0', 0, '2020-01-01T00:00:00Z', false, '', false, '{}'],
    ['NPM', 'fnd-pkg', '1.1.0', 1, '2020-02-01T00:00:00Z', false, 'use 1.2', true, '{}'],
    ['NPM', 'fnd-pkg', '1.2.0', 2, '2020-03-01T00:00:00Z', false, '', false, '{}'],
    ['NPM', 'fnd-pkg', '1.3.0', 3, recent.toISOString(), false, '', false, '{}'],
    ['NPM', 'fnd-pkg', '2.0.0', 4, '2021-01-01T00:00:00Z', true, '', false, '{}'],
    ['NPM', 'fnd-mal', '1.0.0', 0, '2020-01-01T00:00:00Z', true, '', false, '{}'],
    ['CARGO', 'fnd-crate', '0.1.0', 0, '2020-01-01T00:00:00Z', false, '', false, '{"yanked": true}'],
    ['CARGO', 'fnd-crate', '0.1.1', 1, '2020-01-02T00:00:00Z', false, '', false, '{"yanked": false}'],
    ['CARGO', 'fnd-crate', '0.2.0', 2, '2020-02-01T00:00:00Z', true, '', false, '{"yanked": false}'],
  ];
  for (const [system, name] of [...new Set(versions.map((v) => `${v[0]} ${v[1]}`))].map((s) => s.split(' '))) {
    await db.query('INSERT INTO insights.packages (system, name) VALUES ($1, $2)', [system, name]);
  }
  for (const [system, name, version, ordinal, published, isDefault, reason, deprecated, meta] of versions) {
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal, published_at,
      is_default, deprecated_reason, is_deprecated, meta) VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [system, name, version, ordinal, published, isDefault, reason, deprecated, meta],
    );
  }
  await db.query(`INSERT INTO insights.advisories (id, url, title, cvss3_score, osv) VALUES
    ('GHSA-fnd1-fnd1-fnd1', 'https://osv.dev/vulnerability/GHSA-fnd1-fnd1-fnd1', 'vuln', 7.5, '{}'),
    ('MAL-2026-fnd1', 'https://osv.dev/vulnerability/MAL-2026-fnd1', 'Malicious code in fnd-mal (npm)', 0, '{}')`);
  await db.query(`INSERT INTO insights.advisory_versions (advisory_id, system, name, version) VALUES
    ('GHSA-fnd1-fnd1-fnd1', 'NPM', 'fnd-pkg', '1.0.0'), ('MAL-2026-fnd1', 'NPM', 'fnd-mal', '1.0.0')`);
});

const kinds = (findings: any[]) => findings.map((f: any) => `${f.type} ${f.risk}`);
/** The findings of the requested version (a version request) or of the default one (a package request). */
const types = (body: any) => kinds((body.requestedVersion ?? body.defaultVersion ?? { findings: [] }).findings);
const own = (body: any) => body.requestedVersion.findings;
const recommended = (body: any) => body.recommendedVersions.map((r: any) => r.versionKey.version);
const v = (system: string, name: string, version: string) =>
  json(`/v3alpha/systems/${system}/packages/${name}/versions/${version}:findings`);

describe('version findings', () => {
  it('VULNERABLE (risk from CVSS 7.5) with REMEDIATION to the nearest clean version of the same major', async () => {
    const body = await v('npm', 'fnd-pkg', '1.0.0');
    const key = (version: string) => ({ system: 'NPM', name: 'fnd-pkg', version });
    expect(body).toEqual({
      versionKey: key('1.0.0'),
      // 1.1.0 deprecated, 1.3.0 in cooldown, 2.0.0 another major; 1.2.0 remediates the vulnerability
      recommendedVersions: [
        { versionKey: key('1.2.0'), isDefault: false, findings: [{ type: 'REMEDIATION', risk: 'RISK_INFORMATIONAL' }] },
      ],
      requestedVersion: {
        versionKey: key('1.0.0'),
        isDefault: false,
        findings: [{ type: 'VULNERABLE', risk: 'RISK_HIGH' }],
      },
      defaultVersion: { versionKey: key('2.0.0'), isDefault: true, findings: [] },
      packageFindings: [],
    });
  });
  it('DEPRECATED: an npm deprecation with its reason', async () => {
    const body = await v('npm', 'fnd-pkg', '1.1.0');
    expect(own(body)).toEqual([{ type: 'DEPRECATED', risk: 'RISK_MEDIUM', deprecatedContext: { reason: 'use 1.2' } }]);
    expect(body.packageFindings).toEqual([]);
    expect(body.recommendedVersions).toEqual([
      { versionKey: { system: 'NPM', name: 'fnd-pkg', version: '1.2.0' }, isDefault: false, findings: [] },
    ]);
  });
  it('DEPRECATED: a yanked crate (0.x: the same 0.minor is the major range)', async () => {
    const body = await v('cargo', 'fnd-crate', '0.1.0');
    expect(own(body)).toEqual([{ type: 'DEPRECATED', risk: 'RISK_MEDIUM', deprecatedContext: { reason: 'yanked' } }]);
    expect(recommended(body)).toEqual(['0.1.1']);
  });
  it('COOLDOWN: published inside the window, which ends 7 days after publication; nothing cleaner above', async () => {
    const body = await v('npm', 'fnd-pkg', '1.3.0');
    const end = new Date(recent.getTime() + 7 * DAY).toISOString().replace('.000Z', 'Z');
    expect(body.requestedVersion).toEqual({
      versionKey: { system: 'NPM', name: 'fnd-pkg', version: '1.3.0' },
      isDefault: false,
      findings: [{ type: 'COOLDOWN', risk: 'RISK_LOW', cooldownContext: { end } }],
      cooldownEnd: end,
    });
    expect(recommended(body)).toEqual(['1.2.0']);
  });
  it('the cooldown is configurable (INSIGHTS_COOLDOWN_DAYS=1 leaves a 2-day-old version out of it)', async () => {
    const short = workerClient(insights, testEnv({ ...upstream.env, INSIGHTS_COOLDOWN_DAYS: '1' }));
    const body: any = await (await short.get('/v3alpha/systems/npm/packages/fnd-pkg/versions/1.3.0:findings')).json();
    expect(own(body)).toEqual([]);
    expect(body.requestedVersion.cooldownEnd).toBeUndefined();
    expect(body.recommendedVersions).toEqual([]);
  });
  it('MALICIOUS: an OSV MAL- record; no clean version, so no remediation', async () => {
    const body = await v('npm', 'fnd-mal', '1.0.0');
    expect(types(body)).toEqual(['MALICIOUS RISK_CRITICAL']);
    // its only version is malicious, so the package is: package-scoped too
    expect(kinds(body.packageFindings)).toEqual(['MALICIOUS RISK_CRITICAL']);
    expect(body.recommendedVersions).toEqual([]);
  });
  it('a clean version has no findings', async () => {
    const body = await v('npm', 'fnd-pkg', '1.2.0');
    expect(body).toMatchObject({ packageFindings: [], recommendedVersions: [] });
    expect(own(body)).toEqual([]);
  });
  it('NOT_FOUND: an unknown version of a known package (200, not 404)', async () => {
    const body = await v('npm', 'fnd-pkg', '1.9.9');
    expect(body.requestedVersion).toEqual({
      versionKey: { system: 'NPM', name: 'fnd-pkg', version: '1.9.9' },
      isDefault: false,
      findings: [{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }],
    });
    expect(body.packageFindings).toEqual([]); // the package is known: a version-scoped NOT_FOUND
    expect(recommended(body)).toEqual(['1.2.0']);
  });
});

describe('package findings', () => {
  it('are those of the default version', async () => {
    const body = await json('/v3alpha/systems/npm/packages/fnd-pkg:findings');
    expect(body).toEqual({
      packageKey: { system: 'NPM', name: 'fnd-pkg' },
      recommendedVersions: [],
      defaultVersion: {
        versionKey: { system: 'NPM', name: 'fnd-pkg', version: '2.0.0' },
        isDefault: true,
        findings: [],
      },
      packageFindings: [],
    });
    expect(types(await json('/v3alpha/systems/npm/packages/fnd-mal:findings'))).toEqual(['MALICIOUS RISK_CRITICAL']);
  });
  it('NOT_FOUND: a package unknown here and upstream (read through once), answered 200', async () => {
    const body = await json('/v3alpha/systems/npm/packages/fnd-never-published:findings');
    expect(body).toEqual({
      packageKey: { system: 'NPM', name: 'fnd-never-published' },
      recommendedVersions: [],
      packageFindings: [{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }],
    });
    const version = await v('npm', 'fnd-never-published', '1.0.0');
    expect(version.requestedVersion.findings).toEqual([{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }]);
    expect(version.packageFindings).toEqual([{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }]);
  });
  it.each([
    ['/v3/systems/npm/packages/fnd-pkg:findings', 404, /no such method ":findings" on a package/],
    ['/v3/systems/npm/packages/fnd-pkg/versions/1.0.0:findings', 404, /no such method ":findings" on a version/],
    ['/v3alpha/systems/npm/packages/fnd-pkg/versions/1.0.0:findingz', 404, /no such method ":findingz"/],
    ['/v3alpha/systems/cobol/packages/x:findings', 400, /invalid system/],
  ])('%s -> %i', async (path, status, message) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });
});

describe('findingsbatch', () => {
  const post = async (body: unknown, status = 200) => {
    const res = await api.post('/v3alpha/findingsbatch', body);
    expect(res.status).toBe(status);
    return (await res.json()) as any;
  };
  it('answers versions and packages in request order, unknown ones NOT_FOUND without a read-through', async () => {
    const requests = [
      { versionKey: { system: 'NPM', name: 'fnd-pkg', version: '1.0.0' } },
      { packageKey: { system: 'npm', name: 'fnd-mal' } },
      { version_key: { system: 'CARGO', name: 'fnd-crate', version: '0.1.0' } },
      { packageKey: { system: 'NPM', name: 'fnd-nope' } },
    ];
    const body = await post({ requests, pageToken: null });
    expect(body.nextPageToken).toBe('');
    expect(body.responses.map((r: any) => types(r.findings))).toEqual([
      ['VULNERABLE RISK_HIGH'],
      ['MALICIOUS RISK_CRITICAL'],
      ['DEPRECATED RISK_MEDIUM'],
      [],
    ]);
    expect(body.responses.map((r: any) => kinds(r.findings.packageFindings))).toEqual([
      [],
      ['MALICIOUS RISK_CRITICAL'],
      [],
      ['NOT_FOUND RISK_HIGH'],
    ]);
    expect(body.responses[1].request).toEqual({ packageKey: { system: 'NPM', name: 'fnd-mal' } });
    expect(body.responses[0].findings).toEqual(await v('npm', 'fnd-pkg', '1.0.0'));
    expect(upstream.hits.get('/npm/fnd-nope')).toBeUndefined();
  });
  it('pages 1000 at a time', async () => {
    const key = { system: 'NPM', name: 'fnd-pkg', version: '1.2.0' };
    const requests = Array.from({ length: 1500 }, () => ({ versionKey: key }));
    const first = await post({ requests });
    expect([first.responses.length, atob(first.nextPageToken)]).toEqual([1000, '1000']);
    const second = await post({ requests, pageToken: first.nextPageToken });
    expect([second.responses.length, second.nextPageToken]).toEqual([500, '']);
  });
  it.each([
    [{ requests: [] }, null],
    [{ requests: Array.from({ length: 5001 }, () => ({ packageKey: { system: 'NPM', name: 'fnd-pkg' } })) }, null],
    [{ requests: [{ packageKey: { system: 'NPM', name: 'fnd-pkg' } }], pageToken: btoa('1') }, 'invalid pageToken'],
    [{ requests: [{ packageKey: { system: 'NPM', name: 'fnd-pkg' } }], pageToken: '%%%' }, 'invalid pageToken'],
    [{ requests: [{ purl: 'pkg:npm/fnd-pkg' }] }, null],
    [
      { requests: [{ packageKey: { system: 'NPM', name: 'a' } }, { packageKey: { system: 'COBOL', name: 'x' } }] },
      'requests[1]: invalid system "COBOL"',
    ],
  ])('rejects %j with a 400', async (body, message) => {
    const got = await post(body, 400);
    expect(Object.keys(got)).toEqual(['error']);
    if (message) expect(got.error).toBe(message);
  });
});

describe('LOW_USAGE (INSIGHTS_LOW_USAGE_DEPENDENTS)', () => {
  const npmReq = (dep: string) =>
    JSON.stringify({ npm: { dependencies: { dependencies: [{ name: dep, requirement: '^1.0.0' }] } } });
  beforeAll(async () => {
    const db = testDb();
    await db.query(`DELETE FROM insights.packages WHERE name LIKE 'lu-%'`);
    // lu-express has two dependents, lu-exprss one, lu-expres (the typo) none
    const deps: [string, string | null][] = [
      ['lu-express', null],
      ['lu-exprss', null],
      ['lu-expres', null],
      ['lu-app1', 'lu-express'],
      ['lu-app2', 'lu-express'],
      ['lu-app3', 'lu-exprss'],
    ];
    for (const [name, dep] of deps) {
      await db.query(`INSERT INTO insights.packages (system, name, fetched_at) VALUES ('NPM', $1, now())`, [name]);
      await db.query(
        `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal, published_at,
        is_default) VALUES ('NPM', $1, '1.0.0', '1.0.0', 0, '2020-01-01T00:00:00Z', true)`,
        [name],
      );
      if (dep) {
        await db.query(
          `INSERT INTO insights.requirements (system, name, version, requirements)
          VALUES ('NPM', $1, '1.0.0', $2::json)`,
          [name, npmReq(dep)],
        );
      }
    }
  });
  const client = (threshold: string) =>
    workerClient(insights, testEnv({ ...upstream.env, INSIGHTS_LOW_USAGE_DEPENDENTS: threshold }));
  const get = async (c: ReturnType<typeof client>, path: string) => {
    const res = await c.get(path);
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  it('flags a package fewer stored packages depend on, with used look-alikes as alternatives', async () => {
    const body = await get(client('2'), '/v3alpha/systems/npm/packages/lu-expres/versions/1.0.0:findings');
    const lowUsage = { type: 'LOW_USAGE', risk: 'RISK_LOW', lowUsageContext: { alternativePackages: ['lu-express'] } };
    expect(body.packageFindings).toEqual([lowUsage]);
    expect(own(body)).toEqual([lowUsage]); // a Version's findings include the package-scoped ones
    expect(body.recommendedVersions).toEqual([]);
  });
  it('a package used by as many as the threshold is not flagged; the threshold decides', async () => {
    expect((await get(client('2'), '/v3alpha/systems/npm/packages/lu-express:findings')).packageFindings).toEqual([]);
    const strict = await get(client('3'), '/v3alpha/systems/npm/packages/lu-expres:findings');
    expect(strict.packageFindings).toEqual([
      { type: 'LOW_USAGE', risk: 'RISK_LOW', lowUsageContext: { alternativePackages: [] } },
    ]);
    const loose = await get(client('1'), '/v3alpha/systems/npm/packages/lu-expres:findings');
    expect(loose.packageFindings[0].lowUsageContext.alternativePackages).toEqual(['lu-express', 'lu-exprss']);
  });
  it('is off by default, and in findingsbatch (NOT_FOUND packages are never LOW_USAGE)', async () => {
    const off = await v('npm', 'lu-expres', '1.0.0');
    expect([off.packageFindings, own(off)]).toEqual([[], []]);
    const res = await client('2').post('/v3alpha/findingsbatch', {
      requests: [
        { packageKey: { system: 'NPM', name: 'lu-expres' } },
        { packageKey: { system: 'NPM', name: 'lu-app1' } },
        { packageKey: { system: 'NPM', name: 'lu-nowhere' } },
      ],
    });
    const body = (await res.json()) as any;
    expect(body.responses.map((r: any) => kinds(r.findings.packageFindings))).toEqual([
      ['LOW_USAGE RISK_LOW'],
      ['LOW_USAGE RISK_LOW'],
      ['NOT_FOUND RISK_HIGH'],
    ]);
  });
});
