/**
 * Upstream documents are parsed at the boundary (src/insights/ingest/upstream-doc.ts): a document of
 * each kind that does not fit its adapter's schema fails with an UpstreamError naming the document and
 * the field; real documents' extra fields and the nulls registries send pass (npm's odd old shapes:
 * npm-packument.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ApiCrate, IndexLine } from '../../../src/insights/ingest/cargo.ts';
import { verifyNpmDocument } from '../../../src/insights/attestations/verify-npm.ts';
import { Summary } from '../../../src/insights/feeds/cargo.ts';
import { IndexEntry } from '../../../src/insights/feeds/go.ts';
import { ChangesAnswer } from '../../../src/insights/feeds/npm.ts';
import { CatalogIndex, CatalogPage } from '../../../src/insights/feeds/nuget.ts';
import { verifyPypiProvenance } from '../../../src/insights/attestations/verify-pypi.ts';
import {
  NpmAttestationsDoc,
  npmAttestationsFromDocument,
  PypiProvenance,
  pypiAttestationsFromProvenance,
} from '../../../src/insights/ingest/attestations.ts';
import { GoInfo } from '../../../src/insights/ingest/go.ts';
import { NpmPackument } from '../../../src/insights/ingest/npm-manifest.ts';
import { PageDoc, Registration, ServiceIndex } from '../../../src/insights/ingest/nuget.ts';
import { OsvQueryAnswer, OsvRecord, osvRecordsFromZip } from '../../../src/insights/ingest/osv.ts';
import { buildZip } from '../../../tools/insights-upstream/zip.ts';
import { CoverageSummary, ReportInfo } from '../../../src/insights/ingest/oss-fuzz.ts';
import { BitbucketRepo, GithubRepo, GitlabProject, ScorecardDoc } from '../../../src/insights/ingest/projects.ts';
import { PypiDoc } from '../../../src/insights/ingest/pypi.ts';
import { GemSpec, GemVersion } from '../../../src/insights/ingest/rubygems.ts';
import { UpstreamError } from '../../../src/insights/ingest/types.ts';
import { parseUpstream } from '../../../src/insights/ingest/upstream-doc.ts';

const pypiFile = { filename: 'x-1.0.tar.gz', url: 'https://f/x', upload_time_iso_8601: '2024-01-01T00:00:00Z' };
const cargoLine = { name: 'serde', vers: '1.0.0', deps: [], cksum: 'ab', features: {}, yanked: false };
const gemSpec = { name: 'rack', dependencies: { runtime: [{ name: 'x', requirements: '>= 0' }], development: [] } };
const osv = { id: 'GHSA-x', modified: '2024-01-01T00:00:00Z' };
const osvPkg = { ecosystem: 'npm', name: 'x' };
const npmEntry = { name: 'x', version: '1.0.0', dist: { tarball: 'https://r/x.tgz' } };
const leaf = { catalogEntry: { version: '1.0.0', dependencyGroups: [{ targetFramework: 'net8.0' }] } };

const MALFORMED: [string, z.ZodType, unknown, string][] = [
  [
    'PyPI project: yanked is a string',
    PypiDoc,
    { info: {}, releases: { '1.0': [{ ...pypiFile, yanked: 'no' }] } },
    'releases.1.0[0].yanked',
  ],
  ['PyPI project: requires_dist is a string', PypiDoc, { info: { requires_dist: 'x>=1' } }, 'info.requires_dist'],
  ['PyPI release: urls is an object', PypiDoc, { info: {}, urls: { a: pypiFile } }, 'urls'],
  ['PyPI: not an object', PypiDoc, ['x'], '(the document)'],
  ['crate index line: no vers', IndexLine, { name: 'serde', deps: [] }, 'vers'],
  ['crate index line: a dependency without a name', IndexLine, { ...cargoLine, deps: [{ req: '^1' }] }, 'deps[0].name'],
  ['crate index line: features of a string', IndexLine, { ...cargoLine, features: { std: 'alloc' } }, 'features.std'],
  ['crates.io API: versions is an object', ApiCrate, { crate: {}, versions: {} }, 'versions'],
  ['gem versions: number is a number', GemVersion, { number: 3, platform: 'ruby' }, 'number'],
  [
    'gem spec: runtime dependencies an object',
    GemSpec,
    { ...gemSpec, dependencies: { runtime: {} } },
    'dependencies.runtime',
  ],
  ['gem spec: licenses a string', GemSpec, { ...gemSpec, licenses: 'MIT' }, 'licenses'],
  ['NuGet service index: no resources', ServiceIndex, { version: '3.0.0' }, 'resources'],
  ['NuGet registration: a page with neither its items nor an @id', Registration, { items: [{}] }, 'items[0].@id'],
  ['NuGet page: a leaf without catalogEntry', PageDoc, { items: [{}] }, 'items[0].catalogEntry'],
  [
    'NuGet page: a dependency id a number',
    PageDoc,
    { items: [{ catalogEntry: { version: '1.0.0', dependencyGroups: [{ dependencies: [{ id: 7 }] }] } }] },
    'items[0].catalogEntry.dependencyGroups[0].dependencies[0].id',
  ],
  ['Go .info: Time a number', GoInfo, { Version: 'v1.0.0', Time: 1700000000 }, 'Time'],
  ['OSV record: no id', OsvRecord, { summary: 'x' }, 'id'],
  ['OSV record: aliases a string', OsvRecord, { ...osv, aliases: 'CVE-1' }, 'aliases'],
  ['OSV record: a severity without score', OsvRecord, { ...osv, severity: [{ type: 'CVSS_V3' }] }, 'severity[0].score'],
  ['OSV record: affected an object', OsvRecord, { ...osv, affected: { package: osvPkg } }, 'affected'],
  [
    'OSV record: a range event a number',
    OsvRecord,
    { ...osv, affected: [{ package: osvPkg, ranges: [{ type: 'SEMVER', events: [{ introduced: 0 }] }] }] },
    'affected[0].ranges[0].events[0].introduced',
  ],
  ['OSV query: vulns an object', OsvQueryAnswer, { vulns: { x: osv } }, 'vulns'],
  ['OSV query: a record without id', OsvQueryAnswer, { vulns: [osv, {}] }, 'vulns[1].id'],
  ['npm attestations: attestations an object', NpmAttestationsDoc, { attestations: {} }, 'attestations'],
  [
    'npm attestations: a payload a number',
    NpmAttestationsDoc,
    { attestations: [{ predicateType: 'https://slsa.dev/provenance/v1', bundle: { dsseEnvelope: { payload: 1 } } }] },
    'attestations[0].bundle.dsseEnvelope.payload',
  ],
  [
    'PyPI provenance: a publisher a string',
    PypiProvenance,
    { attestation_bundles: [{ publisher: 'GitHub', attestations: [] }] },
    'attestation_bundles[0].publisher',
  ],
  [
    'PyPI provenance: a statement an object',
    PypiProvenance,
    { attestation_bundles: [{ attestations: [{ envelope: { statement: {} } }] }] },
    'attestation_bundles[0].attestations[0].envelope.statement',
  ],
  ['GitHub repository: stargazers_count a string', GithubRepo, { stargazers_count: '5' }, 'stargazers_count'],
  ['GitHub repository: license a string', GithubRepo, { license: 'MIT' }, 'license'],
  ['GitLab project: star_count a string', GitlabProject, { star_count: '5' }, 'star_count'],
  ['Bitbucket repository: website a list', BitbucketRepo, { website: ['x'] }, 'website'],
  ['Scorecard: checks an object', ScorecardDoc, { checks: {} }, 'checks'],
  ['Scorecard: a check score a string', ScorecardDoc, { checks: [{ name: 'x', score: '10' }] }, 'checks[0].score'],
  ['OSS-Fuzz report info: report_date a number', ReportInfo, { report_date: 20240101 }, 'report_date'],
  [
    'OSS-Fuzz coverage: a line count a string',
    CoverageSummary,
    { data: [{ totals: { lines: { count: '10', covered: 5 } } }] },
    'data[0].totals.lines.count',
  ],
  ['npm changes feed: no results', ChangesAnswer, { last_seq: '5-x' }, 'results'],
  ['npm changes feed: a result null', ChangesAnswer, { results: [null] }, 'results[0]'],
  [
    'NuGet catalog index: a page without @id',
    CatalogIndex,
    { commitTimeStamp: 't', items: [{ commitTimeStamp: 't' }] },
    'items[0].@id',
  ],
  [
    'NuGet catalog page: a leaf without nuget:id',
    CatalogPage,
    { items: [{ commitTimeStamp: 't' }] },
    'items[0].nuget:id',
  ],
  ['crates.io summary: no just_updated', Summary, { new_crates: [] }, 'just_updated'],
  ['Go index line: Timestamp a number', IndexEntry, { Path: 'example.com/m', Timestamp: 1 }, 'Timestamp'],
  ['npm packument: not an object', NpmPackument, 'left-pad', '(the document)'],
  ['npm packument: name a number', NpmPackument, { name: 7, versions: {} }, 'name'],
  ['npm packument: versions a list', NpmPackument, { name: 'x', versions: [npmEntry] }, 'versions'],
  [
    'npm packument: a version entry null',
    NpmPackument,
    { versions: { '1.0.0': npmEntry, '1.0.1': null } },
    'versions.1.0.1',
  ],
  ['npm packument: dist a string', NpmPackument, { versions: { '1.0.0': { dist: 'x.tgz' } } }, 'versions.1.0.0.dist'],
  ['npm packument: a dist-tag a number', NpmPackument, { 'dist-tags': { latest: 1 } }, 'dist-tags.latest'],
  ['npm packument: time a string', NpmPackument, { time: '2024-01-01T00:00:00Z' }, 'time'],
];

describe('a malformed upstream document fails at the boundary, naming document and field', () => {
  it.each(MALFORMED)('%s', (_what, schema, doc, field) => {
    let caught: unknown;
    try {
      parseUpstream(schema, doc, 'https://registry.test/doc.json');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UpstreamError);
    expect((caught as Error).message).toMatch(
      new RegExp(`^https://registry\\.test/doc\\.json: malformed document: ${field.replace(/[.[\]()@]/g, '\\$&')}: `),
    );
  });
});

describe('real documents pass: extra fields kept, nulls where registries send them', () => {
  it.each([
    [
      'PyPI',
      PypiDoc,
      {
        info: { requires_dist: null, project_urls: null, license: null, extra: 1 },
        releases: { '1.0': [{ ...pypiFile, yanked_reason: null, digests: { md5: 'a', blake2b_256: 'b' } }] },
        urls: [],
        vulnerabilities: [],
      },
    ],
    [
      'crate index line',
      IndexLine,
      { ...cargoLine, v: 2, features2: { x: ['dep:y'] }, rust_version: null, links: null },
    ],
    [
      'crates.io API',
      ApiCrate,
      { crate: { homepage: null, repository: 'https://r' }, versions: [{ num: '1.0.0', license: null }], keywords: [] },
    ],
    [
      'gem versions entry',
      GemVersion,
      { number: '3.0.0', platform: 'ruby', licenses: null, sha: 'ab', downloads_count: 5 },
    ],
    ['gem spec', GemSpec, { ...gemSpec, metadata: {}, homepage_uri: null }],
    ['NuGet registration', Registration, { count: 1, items: [{ '@id': 'https://n/page/1.json', lower: '1.0.0' }] }],
    [
      'NuGet page',
      PageDoc,
      { items: [leaf, { catalogEntry: { version: '2.0.0', listed: false, deprecation: { reasons: ['Legacy'] } } }] },
    ],
    ['Go .info', GoInfo, { Version: 'v1.0.0', Time: '2024-01-01T00:00:00Z', Origin: { VCS: 'git' } }],
    [
      'OSV record',
      OsvRecord,
      {
        ...osv,
        schema_version: '1.6.0',
        summary: null,
        severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N' }],
        affected: [
          { package: { ...osvPkg, purl: 'pkg:npm/x' }, versions: ['1.0.0'], database_specific: { source: 'x' } },
          { ranges: [{ type: 'GIT', repo: 'https://r', events: [{ introduced: '0' }, { fixed: 'abc' }] }] },
        ],
      },
    ],
    ['OSV query', OsvQueryAnswer, { vulns: [osv], next_page_token: 'p2' }],
    [
      'npm changes feed',
      ChangesAnswer,
      {
        results: [
          { seq: 5, id: 'x', changes: [{ rev: '1-a' }] },
          { seq: '6-y', id: 'y', deleted: true },
        ],
        last_seq: 6,
      },
    ],
    [
      'NuGet catalog page',
      CatalogPage,
      { items: [{ '@type': 'nuget:PackageDetails', 'nuget:id': 'X', commitTimeStamp: 't' }] },
    ],
    [
      'crates.io summary',
      Summary,
      { just_updated: [{ name: 'serde', updated_at: '2024-01-01T00:00:00Z', id: 'serde' }] },
    ],
    [
      'GitHub repository',
      GithubRepo,
      { id: 1, stargazers_count: 5, license: null, homepage: null, description: 'd', owner: { login: 'o' } },
    ],
    ['GitLab project', GitlabProject, { star_count: 1, forks_count: 0, license: { key: 'mit', nickname: null } }],
    [
      'Scorecard',
      ScorecardDoc,
      {
        date: '2024-01-01',
        repo: { name: 'github.com/o/r', commit: 'c' },
        checks: [{ name: 'Maintained', score: -1, details: null, documentation: { short: 's', url: 'u' } }],
        score: 5.5,
        metadata: null,
      },
    ],
    [
      'OSS-Fuzz report info',
      ReportInfo,
      { report_date: '20240101', report_summary_path: 'gs://x', fuzzer_stats_dir: 'y' },
    ],
    [
      'PyPI provenance',
      PypiProvenance,
      {
        version: 1,
        attestation_bundles: [
          {
            publisher: { kind: 'GitHub', repository: 'o/r', workflow: 'r.yml', environment: null },
            attestations: [{ version: 1, envelope: { statement: 'e30=', signature: 's' }, verification_material: {} }],
          },
        ],
      },
    ],
  ] as [string, z.ZodType, Record<string, unknown>][])('%s', (_what, schema, doc) => {
    expect(parseUpstream(schema, doc, 'https://registry.test/doc.json')).toEqual(doc);
  });
});

describe('attestation documents: read at the boundary, verified into a verdict naming the field', () => {
  const url = 'https://registry.test/-/npm/v1/attestations/x@1.0.0';
  it('reading a malformed npm document or PyPI provenance is an UpstreamError naming it', () => {
    expect(() => npmAttestationsFromDocument({ attestations: {} }, url)).toThrow(
      new UpstreamError(`${url}: malformed document: attestations: Invalid input: expected array, received object`),
    );
    expect(() => pypiAttestationsFromProvenance({ attestation_bundles: [null] }, url)).toThrow(
      new UpstreamError(
        `${url}: malformed document: attestation_bundles[0]: Invalid input: expected object, received null`,
      ),
    );
  });
  it('verifying one is a verdict, not an exception', async () => {
    const artifact = { name: 'x', version: '1.0.0', sha512Hex: 'ab'.repeat(64), declaredRepository: null };
    expect(await verifyNpmDocument({ attestations: [7] }, artifact, async () => false)).toEqual({
      verified: false,
      reason:
        'the attestations document: malformed document: attestations[0]: Invalid input: expected object, received number',
    });
    expect(verifyPypiProvenance('x', { filename: 'x.tar.gz', sha256Hex: 'ab'.repeat(32) })).toEqual({
      verified: false,
      reason:
        'the provenance object: malformed document: (the document): Invalid input: expected object, received string',
    });
  });
});

describe('an OSV bulk archive: a malformed record is skipped, naming its entry and field', () => {
  it('reads the others', async () => {
    const zip = buildZip([
      { name: 'GHSA-1.json', content: { ...osv, id: 'GHSA-1' } },
      { name: 'GHSA-2.json', content: { ...osv, id: 'GHSA-2', affected: [{ package: { ecosystem: 'npm' } }] } },
      { name: 'GHSA-3.json', content: { summary: 'no id' } },
    ]);
    const read = [];
    for await (const r of osvRecordsFromZip(zip)) read.push('record' in r ? r.record.id : `${r.skipped}: ${r.reason}`);
    expect(read).toEqual([
      'GHSA-1',
      'GHSA-2.json: the record: malformed document: affected[0].package.name: Invalid input: expected string, received undefined',
      'GHSA-3.json: no OSV id',
    ]);
  });
});
