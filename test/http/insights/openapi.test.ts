/**
 * `GET /openapi.json` against the routers: every route the insights routers register is documented and
 * every documented operation names a registered route; each documented operation, called with its
 * documented examples, is served (200, never a routing 404 or a 400); each path pattern the document
 * states is enforced by the route (a value outside it is a 400); every `:method` the router serves is
 * documented; the request-body examples pass the body schemas; every 200 answer passes the response schema the
 * document generates for it (response-schemas.ts, deps.dev's messages: openapi-proto.test.ts holds them
 * against the protos), and answers of another shape fail it.
 */
import { describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { OPERATIONS } from '../../../src/insights/openapi.ts';
import { insightsRoutes } from '../../../src/insights/routes.ts';
import { PACKAGE_METHODS, VERSION_METHODS } from '../../../src/insights/routes-packages.ts';
import { urlOf, type Doc } from '../../fixtures/insights/openapi-urls.ts';
import { schemaErrors } from '../../fixtures/insights/json-schema.ts';

useFixtureUpstream();

async function call(method: string, url: string, op: any): Promise<Response> {
  const example = op.requestBody?.content['application/json'].example;
  return method === 'post' ? api.post(url, example) : api.get(url);
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document whose operations are exactly the registered routes', async () => {
    const doc: Doc = await json('/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    const handlers = insightsRoutes.routes.filter((r) => r.method !== 'ALL');
    const registered = new Set(handlers.map((r) => `${r.method} ${r.path}`));
    const documented = new Set(OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.route}`));
    expect([...registered].sort()).toEqual([...documented].sort());
    const served = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(served.sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort());
  });

  it('documents every :method the packages router serves, under the API that serves it', async () => {
    const doc: Doc = await json('/openapi.json');
    for (const [apiName, methods] of Object.entries(VERSION_METHODS)) {
      const version = `/${apiName}/systems/{system}/packages/{name}/versions/{version}`;
      for (const m of methods) expect(doc.paths[`${version}:${m}`]).toBeDefined();
    }
    for (const m of PACKAGE_METHODS) expect(doc.paths[`/v3alpha/systems/{system}/packages/{name}:${m}`]).toBeDefined();
  });

  it('every documented operation, called with its examples, is served', async () => {
    const doc: Doc = await json('/openapi.json');
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const url = urlOf(path, op);
        const res = await call(method, url, op);
        const text = await res.text();
        expect({ method, url, status: res.status }, text.slice(0, 300)).toEqual({ method, url, status: 200 });
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const schema = op.responses[200].content['application/json'].schema;
        expect({ url, errors: schemaErrors(JSON.parse(text), schema, (doc as any).components.schemas) }).toEqual({
          url,
          errors: [],
        });
      }
    }
  });

  it('a path value outside its documented pattern is refused with 400', async () => {
    const doc: Doc = await json('/openapi.json');
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          if (p.in !== 'path' || !p.schema.pattern) continue;
          const bad = 'x y';
          expect(new RegExp(p.schema.pattern).test(bad)).toBe(false);
          const url = urlOf(path, op, [p.name, bad]);
          const res = await call(method, url, op);
          expect({ url, status: res.status }).toEqual({ url, status: 400 });
          expect((await res.json()).error).toEqual(expect.any(String));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20); // 12 {system}, 4 {projectId}, 2 {advisoryId}, {purl}, {chainId}
  });

  it('request-body examples pass the schemas the batch routes validate with', async () => {
    const bodies = OPERATIONS.filter((o) => o.body);
    expect(bodies.map((o) => o.path).sort()).toEqual([
      '/v3alpha/findingsbatch',
      '/v3alpha/projectbatch',
      '/v3alpha/purlbatch',
      '/v3alpha/versionbatch',
    ]);
    for (const o of bodies) expect(o.body!.safeParse(o.bodyExample).success).toBe(true);
    const doc: Doc = await json('/openapi.json');
    const schema = doc.paths['/v3alpha/versionbatch']!.post.requestBody.content['application/json'].schema;
    expect(schema.properties.requests).toMatchObject({ type: 'array', minItems: 1, maxItems: 5000 });
  });

  it('answers of another shape fail the generated response schemas', async () => {
    const doc: any = await json('/openapi.json');
    const components = doc.components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const v3 = await json('/v3/systems/npm/packages/lodash/versions/4.17.21');
    const alpha = await json('/v3alpha/systems/npm/packages/lodash/versions/4.17.21');
    expect(schemaErrors(v3, ref('v3.Version'), components)).toEqual([]);
    expect(schemaErrors(alpha, ref('v3alpha.Version'), components)).toEqual([]);
    expect(schemaErrors(alpha, ref('v3.Version'), components)).toEqual(
      expect.arrayContaining(['$: unexpected member purl', '$: unexpected member licenseDetails']),
    );
    expect(schemaErrors({ ...v3, isDefault: 'yes' }, ref('v3.Version'), components)).toEqual([
      '$.isDefault: string, want boolean',
    ]);
    const findings = await json('/v3alpha/systems/npm/packages/lodash/versions/4.17.20:findings');
    expect(schemaErrors(findings, ref('v3alpha.Findings'), components)).toEqual([]);
    const bad = { ...findings, packageFindings: [{ type: 'SUSPICIOUS', risk: 'RISK_LOW' }] };
    expect(schemaErrors(bad, ref('v3alpha.Findings'), components)).toEqual([
      expect.stringContaining('$.packageFindings[0].type'),
    ]);
    const earlier = { ...findings, requestedVersion: '4.17.20' }; // the shape served before the proto decided
    expect(schemaErrors(earlier, ref('v3alpha.Findings'), components)).toEqual([
      expect.stringContaining('$.requestedVersion'),
    ]);
  });
});
