/**
 * Two third-party deps.dev clients against the insights worker served over real HTTP (fixture upstreams
 * on loopback), with only the base URL changed: pydepsdev 0.2.2 (everything under /v3alpha) and depsdev
 * 0.0.5 (DepsDevClientV3 and DepsDevClientV3Alpha, whose VersionBatch sends `"pageToken": null` on the
 * first page), every method whose deps.dev method the service serves (test/clients/
 * depsdev_clients.py lists them). Skipped, saying why, only where python3 with venv is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testEnv } from '../../support/env.ts';
import { pythonClients, pythonMissing, runDriver, type PythonClients } from '../../support/python-clients.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { startFixtureServer, type FixtureServer } from '../../../tools/insights-upstream/server.ts';

const missing = pythonMissing();
if (missing) console.warn(`deps.dev client suite skipped: ${missing}`);
const DRIVER = new URL('../../clients/depsdev_clients.py', import.meta.url).pathname;

let served: Served;
let upstream: FixtureServer;
let py: PythonClients;

describe.skipIf(missing !== null)('deps.dev clients (pydepsdev, depsdev) against the insights worker', () => {
  beforeAll(async () => {
    py = await pythonClients([
      { file: 'pydepsdev-0.2.2.tar.gz', module: 'pydepsdev' },
      {
        file: 'depsdev-0.0.5.tar.gz',
        module: 'depsdev',
        args: ['--no-deps'],
        env: { SETUPTOOLS_SCM_PRETEND_VERSION: '0.0.5' },
      },
      { file: 'httpx', module: 'httpx' },
    ]);
    upstream = await startFixtureServer();
    served = await serveWorker(insights, () => testEnv(upstream.env));
    console.log(`deps.dev client suite: pydepsdev-0.2.2, depsdev-0.0.5 against ${served.url}`);
  }, 600_000);
  afterAll(async () => {
    await served?.close();
    await upstream?.close();
  });

  it('every served method of both clients succeeds', async () => {
    const r = await runDriver(py.python, DRIVER, [served.url]);
    expect(r.records.length, r.stderr.slice(-800)).toBe(41);
    for (const rec of r.records)
      expect({ op: rec.op, failure: rec.ok ? '' : rec.detail }).toEqual({ op: rec.op, failure: '' });
    const detail = Object.fromEntries(r.records.map((x) => [x.op, x.detail]));
    expect(detail['pydepsdev.get_version']).toEqual({
      versionKey: { system: 'NPM', name: 'lodash', version: '4.17.21' },
    });
    expect(detail['DepsDevClientV3.get_advisory']).toEqual({ advisoryKey: { id: 'GHSA-29mw-wpgm-hmr9' } });
    expect(r.code).toBe(0);
  }, 300_000);
});
