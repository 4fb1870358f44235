/**
 * OSV bulk import: a small all.zip built in the test (deflated and stored records, a non-JSON entry,
 * a broken record; ZIP64 form for PyPI), served at `{OSV_BULK_URL}/{ecosystem}/all.zip`, imported
 * in-process and through `node tools/import.ts osv <ecosystem>`; then read through the worker:
 * GetAdvisory, and advisoryKeys of a stored version recomputed from the imported ranges.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsvEcosystem } from '../../../src/insights/osv-bulk.ts';
import { stackInfo, testDb } from '../../support/env.ts';
import { json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { buildZip } from '../../../tools/insights-upstream/zip.ts';

const affects = (name: string, events: object[]) => [
  { package: { ecosystem: 'npm', name }, ranges: [{ type: 'ECOSYSTEM', events }] },
];
const ZIPS: Record<string, Uint8Array> = {
  '/bulk/npm/all.zip': buildZip([
    {
      name: 'OSV-BULK-TEST-0001.json',
      content: {
        id: 'OSV-BULK-TEST-0001',
        modified: '2026-01-01T00:00:00Z',
        summary: 'Bulk test record (fixed in 1.0.2)',
        aliases: ['CVE-0000-0001'],
        severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
        affected: affects('gundam-visor', [{ introduced: '0' }, { fixed: '1.0.2' }]),
      },
    },
    {
      name: 'OSV-BULK-TEST-0002.json',
      method: 0,
      content: {
        id: 'OSV-BULK-TEST-0002',
        modified: '2026-01-01T00:00:00Z',
        affected: affects('gundam-visor', [{ introduced: '2.0.0' }]),
      },
    },
    { name: 'README.txt', content: 'not a record' },
    { name: 'OSV-BULK-TEST-0003.json', content: '{"id": "OSV-BULK-TEST-0003", ' },
  ]),
  '/bulk/PyPI/all.zip': buildZip(
    [
      {
        name: 'OSV-BULK-TEST-0004.json',
        content: {
          id: 'OSV-BULK-TEST-0004',
          modified: '2026-01-01T00:00:00Z',
          summary: 'PyPI bulk record',
          affected: [{ package: { ecosystem: 'PyPI', name: 'Not_Stored' }, versions: ['1.0'] }],
        },
      },
    ],
    { zip64: true },
  ),
};

useFixtureUpstream();
let bulk: Server;
let bulkUrl = '';
beforeAll(async () => {
  bulk = createServer((req, res) => {
    const zip = ZIPS[req.url ?? ''];
    if (zip) res.writeHead(200, { 'content-type': 'application/zip' }).end(zip);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => bulk.listen(0, '127.0.0.1', resolve));
  bulkUrl = `http://127.0.0.1:${(bulk.address() as { port: number }).port}/bulk`;
});
afterAll(async () => {
  await new Promise((resolve) => bulk.close(resolve));
});

describe('OSV bulk import', () => {
  it('imports every record of npm/all.zip and recomputes affected versions of stored packages', async () => {
    await json('/v3/systems/npm/packages/gundam-visor');
    const progress: number[] = [];
    const r = await importOsvEcosystem({ OSV_BULK_URL: bulkUrl }, testDb(), 'NPM', (n) => progress.push(n));
    expect({ ...r, skipped: r.skipped.map((s) => s.name) }).toEqual({
      ecosystem: 'npm',
      stored: 2,
      skipped: ['README.txt', 'OSV-BULK-TEST-0003.json'],
    });
    expect(progress).toEqual([2]);
    expect(await json('/v3/advisories/OSV-BULK-TEST-0001')).toEqual({
      advisoryKey: { id: 'OSV-BULK-TEST-0001' },
      url: 'https://osv.dev/vulnerability/OSV-BULK-TEST-0001',
      title: 'Bulk test record (fixed in 1.0.2)',
      aliases: ['CVE-0000-0001'],
      cvss3Score: 9.8,
      cvss3Vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    });
    expect((await json('/v3/systems/npm/packages/gundam-visor/versions/1.0.1')).advisoryKeys).toEqual([
      { id: 'OSV-BULK-TEST-0001' },
    ]);
    expect((await json('/v3/advisories/OSV-BULK-TEST-0002')).title).toBe('');
  });

  it('`npm run import -- osv pypi` reads a ZIP64 all.zip', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['tools/import.ts', 'osv', 'pypi'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: stackInfo().databaseUrl, OSV_BULK_URL: bulkUrl },
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^\[1\/1\] OSV pypi \.\.\. 1 ok \(PyPI: 1 records, 0 skipped, \d+ ms\)\n$/);
    expect((await json('/v3/advisories/OSV-BULK-TEST-0004')).title).toBe('PyPI bulk record');
  });

  it('an ecosystem without all.zip fails with the upstream 404', async () => {
    await expect(importOsvEcosystem({ OSV_BULK_URL: bulkUrl }, testDb(), 'Go')).rejects.toThrow(
      `${bulkUrl}/Go/all.zip: 404`,
    );
  });
});
