/**
 * GetCapabilities for Go (`/v3alpha/systems/go/packages/{module}/versions/{v}:capabilities`): the module
 * read through from the fixture Go proxy, its source zip fetched from there and analysed (network, files,
 * environment, exec, reflect, unsafe; its test file, testdata and nested module left out), computed once
 * (a second request does not fetch the zip again); other systems, unknown versions, /v3 and a missing zip.
 */
import { describe, expect, it } from 'vitest';
import { api, json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

const PATH = '/v3alpha/systems/go/packages/example.com%2Fcapdemo/versions/v1.0.0:capabilities';
const CAPDEMO = '/v3alpha/systems/go/packages/example.com%2Fcapdemo/versions';
const ZIP = '/go/example.com/capdemo/@v/v1.0.0.zip';

describe('GetCapabilities (Go)', () => {
  it('answers Capslock capability names from the module source, in enum order', async () => {
    await testDb().query(`DELETE FROM insights.packages WHERE system = 'GO' AND name = 'example.com/capdemo'`);
    await testDb().query(`DELETE FROM insights.go_capabilities WHERE name = 'example.com/capdemo'`);
    const body = await json(PATH);
    expect(body).toEqual({
      capabilities: [
        { capability: 'CAPABILITY_FILES', directCount: 1, indirectCount: 0 },
        { capability: 'CAPABILITY_NETWORK', directCount: 1, indirectCount: 0 },
        { capability: 'CAPABILITY_READ_SYSTEM_STATE', directCount: 1, indirectCount: 0 },
        { capability: 'CAPABILITY_UNSAFE_POINTER', directCount: 1, indirectCount: 0 },
        { capability: 'CAPABILITY_REFLECT', directCount: 1, indirectCount: 0 },
        { capability: 'CAPABILITY_EXEC', directCount: 1, indirectCount: 0 },
      ],
    });
    expect(upstream.hits.get(ZIP)).toBe(1);
  });

  it('is computed once per version', async () => {
    const before = upstream.hits.get(ZIP) ?? 0;
    expect((await json(PATH)).capabilities).toHaveLength(6);
    expect(upstream.hits.get(ZIP) ?? 0).toBe(before);
  });

  it('a module version whose zip the proxy lacks is a 404 saying so', async () => {
    await json('/v3/systems/go/packages/github.com%2FBurntSushi%2Ftoml');
    const toml = '/v3alpha/systems/go/packages/github.com%2FBurntSushi%2Ftoml/versions/v1.2.1';
    const res = await api.get(`${toml}:capabilities`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(
      /source of GO github.com\/BurntSushi\/toml@v1.2.1 not found on the Go proxy/,
    );
  });

  it.each([
    ['/v3alpha/systems/npm/packages/lodash/versions/4.17.21:capabilities', 404, /Go modules only/],
    [`${CAPDEMO}/v9.9.9:capabilities`, 404, /version .* not found/],
    [
      '/v3/systems/go/packages/example.com%2Fcapdemo/versions/v1.0.0:capabilities',
      404,
      /no such method ":capabilities"/,
    ],
  ])('%s -> %i', async (path, status, message) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
  });
});
